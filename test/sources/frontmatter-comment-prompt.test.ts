import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

/**
 * trials29, SFDO-Tooling/CumulusCI: the folder's template writes its frontmatter prompts inside
 * HTML comments (`author: <!--@githubusername-->`). A record made by `new decision` keeps the
 * template's text (right), and `show` listed the prompt as the record's author. A value that
 * is only a comment is not written; a real value beside a comment still reads.
 */
describe('a frontmatter value that is only an HTML comment', () => {
  it('is no metadata of the record; a written value is', () => {
    const repo = makeRepo({
      '.adr-dir': 'docs/decisions\n',
      'docs/decisions/templates/template.md': '---\ndate: DATE\nstatus: STATUS\nowner: <!--@your-handle-->\n---\n\n# NUMBER. TITLE\n\n## Context and Problem Statement\n\nWhat moves us to decide.\n\n## Decision\n\nWhat we chose.\n',
      'docs/decisions/0001-keep-decision-records.md': '---\ndate: 2024-02-01\nstatus: Accepted\nowner: Ren Ito <!-- team lead -->\n---\n\n# 1. Keep decision records\n\n## Context and Problem Statement\n\nReasons get lost in chat.\n\n## Decision\n\nWe write them down here.\n',
    });
    repo.commit('records');
    const made = runCli(['new', 'decision', '--title', 'Ship nightly builds'], { cwd: repo.dir });
    expect(made.code, made.stderr).toBe(0);
    const show = runCli(['show', 'ADR-0002'], { cwd: repo.dir });
    const head = show.stdout.split('\n\n')[0]!;
    expect(head).toContain('ADR-0002');
    expect(head).not.toContain('your-handle');
    expect(head).not.toContain('owner');
    const first = runCli(['show', 'ADR-0001'], { cwd: repo.dir }).stdout.split('\n\n')[0]!;
    expect(first).toContain("owner: Ren Ito");
  });
});
