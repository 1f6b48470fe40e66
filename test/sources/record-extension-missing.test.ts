import { describe, expect, it } from 'vitest';
import { isRecordWithoutExtension } from '../../src/artifacts/sources/files.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// A records folder whose sixth record was committed without its `.md`
// (DFE-Digital/get-an-identity): five records were read, and nothing said a sixth was there.
describe('a file named as a record with no extension', () => {
  it('is reported by check (a warning naming the rename), not read, on a cold and a warm run', () => {
    const rec = (n: number, title: string) => `# ${n}. ${title}\n\nDate: 2022-09-04\n\n## Status\n\nAccepted\n\n## Context\n\nServices need our changes.\n\n## Decision\n\nWe ${title.toLowerCase()}.\n`;
    const repo = makeRepo({
      'docs/architecture/decisions/0001-record-decisions.md': rec(1, 'Record decisions'),
      'docs/architecture/decisions/0002-notify-through-a-bus': rec(2, 'Notify through a bus'),
      'docs/architecture/decisions/diagrams/0003-context': 'not a record: a sub-folder of drawings\n',
    });
    repo.commit('records');
    for (const run of ['cold', 'warm']) {
      const r = runCli(['check', '--format', 'json'], { cwd: repo.dir });
      const found = (JSON.parse(r.stdout) as { findings: { rule: string; file: string; severity: string; message: string }[] }).findings.filter((f) => f.rule === 'record-extension-missing');
      expect(found, run).toEqual([{ rule: 'record-extension-missing', severity: 'warning', file: 'docs/architecture/decisions/0002-notify-through-a-bus', message: 'named as a record but with no extension, so it is not read: rename it 0002-notify-through-a-bus.md' }]);
    }
    const list = JSON.parse(runCli(['list', '--json'], { cwd: repo.dir }).stdout) as { artifacts: { id: string }[] };
    expect(list.artifacts.map((a) => a.id)).toEqual(['ADR-0001']);
  });

  it('is a number- or date-led name without any dot', () => {
    expect(['d/0006-use-a-bus', 'd/2022-09-04-use-a-bus', 'd/adr-007-queues'].map(isRecordWithoutExtension)).toEqual([true, true, true]);
    expect(['d/0006-use-a-bus.md', 'd/Makefile', 'd/NOTES', 'd/0006', 'd/0006-use-a-bus.txt'].map(isRecordWithoutExtension)).toEqual([false, false, false, false, false]);
  });
});
