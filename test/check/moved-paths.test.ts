import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';
import { movedPaths } from '../../src/check/moved-paths.js';
import { openSnapshot } from '../../src/snapshot/index.js';

const CHARGE = 'export function charge(amount: number) {\n  return Math.round(amount);\n}\n';

// guardian/dotcom-rendering's record 028 links `dotcom-rendering/docs/architecture/016-react-context-api.md`,
// moved to historic-adrs/ since, and record 024 names components moved out of src/web/: check said
// "does not exist" (or nothing), with no word of where they went, which git history knows.
describe('a path a record names that git history shows renamed', () => {
  it('check says where a linked record and a mentioned file moved; a file deleted without a rename did not move', () => {
    const repo = makeRepo({
      '.contextia/config.yaml': 'sources:\n  - dir: doc/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
      'src/old/path.ts': CHARGE,
      'doc/adr/0001-keep-records.md': '# 1. Keep records\n\n## Status\n\nAccepted\n\n## Decision\n\nWe keep records of decisions.\n',
      'doc/adr/0002-charge-once.md': '# 2. Charge once\n\n## Status\n\nAccepted\n\n## Decision\n\nCharging lives in `src/old/path.ts`; it follows [record 1](0001-keep-records.md).\n',
    });
    repo.commit('records and code');
    mkdirSync(path.join(repo.dir, 'src/payments'));
    repo.git('mv', 'src/old/path.ts', 'src/payments/charge.ts');
    repo.commit('move the charge code');
    mkdirSync(path.join(repo.dir, 'doc/adr/historic'));
    repo.git('mv', 'doc/adr/0001-keep-records.md', 'doc/adr/historic/0001-keep-records.md');
    repo.commit('move the old record');
    const sha = (n: number) => repo.git('rev-parse', '--short=7', `HEAD~${n}`);

    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.stdout).toContain(`doc/adr/0002-charge-once.md:9  info  mentions src/old/path.ts, which moved to src/payments/charge.ts in ${sha(1)}: write the new path  mention-moved`);
    expect(check.stdout).toMatch(
      new RegExp(`doc/adr/0002-charge-once\\.md:9  error  relations\\.relates_to names doc/adr/0001-keep-records\\.md, which does not exist \\(moved: doc/adr/0001-keep-records\\.md was renamed to doc/adr/historic/0001-keep-records\\.md in ${sha(0)}, record ADR-0001; link it as historic/0001-keep-records\\.md\\)`),
    );
    // the moved record is said once, as a link
    expect(check.stdout.match(/0001-keep-records/g)?.length).toBe(4);

    // a record that says where the file went keeps the old path as history: nothing to say
    repo.commit('the record names the new path too', {
      'doc/adr/0002-charge-once.md': '# 2. Charge once\n\n## Status\n\nAccepted\n\n## Decision\n\nCharging lives in `src/old/path.ts` (now `src/payments/charge.ts`).\n',
    });
    const both = runCli(['check'], { cwd: repo.dir });
    expect(both.stdout).toContain('0 errors');
    expect(both.stdout).not.toContain('mention-moved');

    // a file deleted without a rename is not said to have moved
    repo.rm('src/payments/charge.ts');
    repo.commit('drop the charge code');
    const after = runCli(['check'], { cwd: repo.dir });
    expect(after.stdout).not.toContain('mention-moved');
  });

  it('a cold check walks the history once for broken-link and mention-moved together, each path answered as a lookup of its own would be', async () => {
    const repo = makeRepo({
      '.contextia/config.yaml': 'sources:\n  - dir: doc/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
      'src/a.ts': CHARGE,
      'doc/adr/0001-keep-records.md': '# 1. Keep records\n\n## Status\n\nAccepted\n\n## Decision\n\nWe keep records of decisions.\n',
      'doc/adr/0002-charge-once.md': '# 2. Charge once\n\n## Status\n\nAccepted\n\n## Decision\n\nCharging lives in `src/a.ts` and `src/b.ts`; it follows [record 1](0001-keep-records.md).\n',
    });
    repo.commit('records and code');
    repo.git('mv', 'src/a.ts', 'src/b.ts');
    repo.commit('a to b');
    mkdirSync(path.join(repo.dir, 'src/c'));
    repo.git('mv', 'src/b.ts', 'src/c/c.ts');
    repo.git('mv', 'doc/adr/0001-keep-records.md', 'doc/adr/0001-records.md');
    repo.commit('b to c, record 1 renamed');

    const walksOf = () => {
      const trace = path.join(tmpdir(), `moved-trace-${process.pid}-${Date.now()}.txt`);
      const check = runCli(['check'], { cwd: repo.dir, env: { GIT_TRACE: trace } });
      const walks = readFileSync(trace, 'utf8').split('\n').filter((l) => l.includes('--diff-filter=D'));
      rmSync(trace, { force: true });
      return { check, walks };
    };
    const { check, walks } = walksOf();
    expect(check.stdout).toContain('mentions src/a.ts, which moved to src/c/c.ts');
    expect(check.stdout).toContain('mentions src/b.ts, which moved to src/c/c.ts');
    expect(check.stdout).toContain('was renamed to doc/adr/0001-records.md');
    // one walk for both rules' paths, not one per rule (b.ts, asked too, needs no second round)
    expect(walks).toHaveLength(1);
    expect(walks[0]).toContain(':(literal)doc/adr/0001-keep-records.md');
    expect(walks[0]).toContain(':(literal)src/a.ts');
    // and none on the same HEAD again
    const again = walksOf();
    expect(again.walks).toHaveLength(0);
    expect(again.check.stdout).toBe(check.stdout);

    // together or alone, the same answers: a.ts is followed through b.ts, which the other lookup asks for
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      // (each asked alone or together under its own key of the moved-paths cache)
      const alone = new Map([...(await movedPaths(snapshot, [['src/a.ts']])), ...(await movedPaths(snapshot, [['src/b.ts', 'doc/adr/0001-keep-records.md']]))]);
      const together = await movedPaths(snapshot, [['src/a.ts'], ['src/b.ts', 'doc/adr/0001-keep-records.md']]);
      expect(Object.fromEntries(together)).toEqual(Object.fromEntries(alone));
      expect([...together.keys()].sort()).toEqual(['doc/adr/0001-keep-records.md', 'src/a.ts', 'src/b.ts']);
      expect(together.get('src/a.ts')).toMatchObject({ to: 'src/c/c.ts' });
    } finally {
      snapshot.close();
    }
  });
});
