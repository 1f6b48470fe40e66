import { describe, expect, it } from 'vitest';
import { loadRecordFrontmatter } from '../../src/artifacts/sources/lenient-frontmatter.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// trials29, SFDO-Tooling/CumulusCI: the first record's frontmatter wrote `author: @handle`
// unquoted (the later records quote it). `@` cannot start a YAML plain value, so the whole
// frontmatter was dropped: zero-config check failed with "bad indentation of a mapping entry",
// and the record lost its status and date.
type Finding = { rule: string; file: string; line?: number; severity: string; message: string };

describe("a record's frontmatter value that starts with a character YAML reserves", () => {
  it('is read as text: status and date kept, check warns (naming the cause) and passes', () => {
    const body = (n: number, title: string) => `\n# ${n}. ${title}\n\n## Context and Problem Statement\n\nBuilds pull tools from three places.\n\n## Decision\n\nWe ${title.toLowerCase()}.\n`;
    const repo = makeRepo({
      '.adr-dir': 'docs/decisions\n',
      'docs/decisions/0001-keep-decision-records.md': `---\ndate: 2023-04-11\nstatus: Accepted\nauthor: @mira-k\n---\n${body(1, 'Keep decision records')}`,
      'docs/decisions/0002-vendor-the-lint-rules.md': `---\ndate: 2023-06-02\nstatus: Accepted\nauthor: "@mira-k"\n---\n${body(2, 'Vendor the lint rules')}`,
      'docs/decisions/0003-pin-the-build-image.md': `---\ndate: 2023-07-19\nstatus: Proposed\nreviewers: \`ops\` # the on-call team\n---\n${body(3, 'Pin the build image')}`,
    });
    repo.commit('records');
    for (const run of ['cold', 'warm']) {
      const r = runCli(['check', '--format', 'json'], { cwd: repo.dir });
      expect(r.code, run).toBe(0);
      const found = (JSON.parse(r.stdout) as { findings: Finding[] }).findings.filter((f) => f.rule.startsWith('frontmatter'));
      expect(found.map((f) => [f.rule, f.severity, f.file, f.line]), run).toEqual([
        ['frontmatter-unquoted-value', 'warning', 'docs/decisions/0001-keep-decision-records.md', 4],
        ['frontmatter-unquoted-value', 'warning', 'docs/decisions/0003-pin-the-build-image.md', 4],
      ]);
      expect(found[0]!.message).toContain('a YAML value cannot start with @');
      expect(found[0]!.message).toContain('"@mira-k"');
    }
    const list = JSON.parse(runCli(['list', '--json'], { cwd: repo.dir }).stdout) as { artifacts: { id: string; status?: string }[] };
    expect(list.artifacts.map((a) => [a.id, a.status])).toEqual([
      ['ADR-0001', 'accepted'],
      ['ADR-0002', 'accepted'],
      ['ADR-0003', 'proposed'],
    ]);
    const show = runCli(['show', 'ADR-0001'], { cwd: repo.dir });
    expect(show.stdout).toContain('date: 2023-04-11');
    expect(show.stdout).toContain('author: "@mira-k"');
  });

  it('any other YAML error still drops the frontmatter as malformed', () => {
    const repo = makeRepo({ 'docs/adr/0001-use-queues.md': '---\nstatus: [accepted\nauthor: @ana\n---\n\n# 1. Use queues\n\n## Decision\n\nQueues.\n' });
    repo.commit('records');
    const r = runCli(['check', '--format', 'json'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    const rules = (JSON.parse(r.stdout) as { findings: Finding[] }).findings.map((f) => f.rule);
    expect(rules).toContain('frontmatter-malformed');
    expect(rules).not.toContain('frontmatter-unquoted-value');
  });

  it('quotes only whole top-level values; a # inside a value is no comment', () => {
    expect(loadRecordFrontmatter('status: ok\nauthor: @ana#dev\n')).toMatchObject({ load: { ok: true, data: { status: 'ok', author: '@ana#dev' } }, quoted: [{ key: 'author', line: 2, value: '@ana#dev' }] });
    expect(loadRecordFrontmatter('author: "@ana"\n')).toMatchObject({ load: { ok: true, data: { author: '@ana' } }, quoted: [] });
  });
});
