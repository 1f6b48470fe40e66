import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';
import { dropFolderPages } from '../../src/artifacts/sources/folder-pages.js';
import type { Artifact } from '../../src/artifacts/types.js';

const rec = (n: number, title: string) => `# ${n}. ${title}\n\nDate: 2024-0${n}-02\n\n## Status\n\nAccepted\n\n## Context\n\nWhy ${title}.\n\n## Decision\n\nWe ${title}.\n`;

/**
 * trials26, gardenlinux/gardenlinux: `install.md` (how to install the records tool) sits beside
 * numbered records and was listed as "ADR-install". A page named no number among numbered
 * records, with no status and no part of a record, is none; an unnumbered record with a
 * Decision is kept.
 */
describe('a page beside numbered records', () => {
  it('is not read as a record; an unnumbered record with a decision is', () => {
    const repo = makeRepo({
      'docs/adr/0001-record-decisions.md': rec(1, 'record decisions'),
      'docs/adr/0002-pin-ci-actions.md': rec(2, 'pin CI actions'),
      'docs/adr/0003-use-timers.md': rec(3, 'use timers'),
      'docs/adr/install.md': '## Installation\n\n### On a Mac\n\n```\nbrew install some-adr-tool\n```\n\n### On Linux\n\nDownload a release and put its folder on your PATH.\n',
      'docs/adr/choose-a-logger.md': '# Choose a logger\n\n## Decision\n\nOne logger for every service.\n',
    });
    repo.commit('records');
    const init = runCli(['init'], { cwd: repo.dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('docs/adr/  4 records');
    const list = JSON.parse(runCli(['list', '--json'], { cwd: repo.dir }).stdout) as { artifacts: { id: string; file: string }[] };
    const files = list.artifacts.map((a) => a.file).filter((f) => !f.startsWith('.contextia/'));
    expect(files.sort()).toEqual(['docs/adr/0001-record-decisions.md', 'docs/adr/0002-pin-ci-actions.md', 'docs/adr/0003-use-timers.md', 'docs/adr/choose-a-logger.md']);
    expect(runCli(['check'], { cwd: repo.dir }).code).toBe(0);
  });

  it('leaves a folder of mostly unnumbered records as it is', () => {
    const page = (file: string) => ({ id: file, type: 'decision', title: file, file, format: 'adr', body: '# Notes\n\nText.\n' }) as unknown as Artifact;
    const set = [page('decisions/use-postgres.md'), page('decisions/queue-per-tenant.md'), page('decisions/0001-first.md'), page('decisions/0002-second.md'), page('decisions/notes.md')];
    dropFolderPages(set);
    expect(set.map((a) => a.file)).toEqual(['decisions/use-postgres.md', 'decisions/queue-per-tenant.md', 'decisions/0001-first.md', 'decisions/0002-second.md', 'decisions/notes.md']);
  });
});
