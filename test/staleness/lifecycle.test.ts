import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { assembleBundle } from '../../src/assemble/index.js';
import { loadConfig } from '../../src/config.js';
import { analyzePullRequest } from '../../src/pr/analyze.js';
import { renderPrComment } from '../../src/pr/render.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { successorOf } from '../../src/staleness/lifecycle.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { decision } from './helpers.js';

// Issue 14: after `supersede`, the successor is visible wherever the old record shows up.

const CODE = `// @decision DEC-OLD-001
export function rate(): number {
  return 1;
}
`;
const cli = (repo: TestRepo, ...args: string[]) => runCli(args, { cwd: repo.dir });

function repoWithOldDecision(): TestRepo {
  const repo = makeRepo();
  repo.commit('code', {
    'src/rates.ts': CODE,
    '.contextia/system/rationale/DEC-OLD-001.md': decision('DEC-OLD-001', 'paths: [src/rates.ts]\n'),
    '.contextia/system/rationale/DEC-NEW-001.md': decision('DEC-NEW-001'),
    '.contextia/system/rationale/DEC-NEWER-001.md': decision('DEC-NEWER-001'),
    '.contextia/tasks/TASK-001.md': '---\nid: TASK-001\ntype: task\ntitle: Rates\nstatus: active\nlinks:\n  decisions: [DEC-OLD-001]\n---\n# Rates\n',
  });
  return repo;
}

async function loadSet(dir: string) {
  const snapshot = await openSnapshot({ cwd: dir });
  const config = await loadConfig(snapshot);
  return { snapshot, set: await loadArtifactSet(snapshot, config) };
}

describe('lifecycle visible everywhere', () => {
  it('successorOf follows the superseded-by chain to the record in force', async () => {
    const repo = repoWithOldDecision();
    expect(cli(repo, 'supersede', 'DEC-OLD-001', '--by', 'DEC-NEW-001').code).toBe(0);
    expect(cli(repo, 'supersede', 'DEC-NEW-001', '--by', 'DEC-NEWER-001').code).toBe(0);
    const { snapshot, set } = await loadSet(repo.dir);
    try {
      expect(successorOf(set, 'DEC-OLD-001')).toMatchObject({ id: 'DEC-NEWER-001', direct: ['DEC-NEW-001'], via: ['DEC-NEW-001'], status: 'accepted' });
      expect(successorOf(set, 'DEC-NEW-001')).toMatchObject({ id: 'DEC-NEWER-001', direct: ['DEC-NEWER-001'], via: [] });
      expect(successorOf(set, 'DEC-NEWER-001')).toBeUndefined();
    } finally {
      snapshot.close();
    }
  });

  it('after supersede, trace shows the successor next to the superseded record', () => {
    const repo = repoWithOldDecision();
    expect(cli(repo, 'trace', 'src/rates.ts').stdout).not.toContain('superseded by');
    expect(cli(repo, 'supersede', 'DEC-OLD-001', '--by', 'DEC-NEW-001').code).toBe(0);
    const human = cli(repo, 'trace', 'src/rates.ts');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/DEC-OLD-001 {2}decision superseded[^\n]*\n(?:[^\n]*(?:via|also)[^\n]*\n)+\s+superseded by DEC-NEW-001 {2}DEC-NEW-001 title \(accepted\)\n/);
    const json = JSON.parse(cli(repo, 'trace', 'src/rates.ts', '--json').stdout) as { entries: { id: string; successor?: { id: string } }[] };
    expect(json.entries.find((e) => e.id === 'DEC-OLD-001')!.successor).toMatchObject({ id: 'DEC-NEW-001' });
  });

  it('bundles carry the successor of a superseded record', async () => {
    const repo = repoWithOldDecision();
    expect(cli(repo, 'supersede', 'DEC-OLD-001', '--by', 'DEC-NEW-001').code).toBe(0);
    const bundle = await assembleBundle({ cwd: repo.dir, id: 'TASK-001' });
    const old = bundle.entries.find((e) => e.id === 'DEC-OLD-001');
    expect(old?.successor).toMatchObject({ id: 'DEC-NEW-001', title: 'DEC-NEW-001 title' });
    const out = cli(repo, 'TASK-001');
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('lifecycle: superseded by DEC-NEW-001; read DEC-NEW-001 for what is in force');
  });

  it('the PR comment shows the successor of a superseded record governing the changed code', async () => {
    const repo = repoWithOldDecision();
    repo.git('checkout', '-q', '-b', 'feature');
    expect(cli(repo, 'supersede', 'DEC-OLD-001', '--by', 'DEC-NEW-001').code).toBe(0);
    repo.commit('supersede, and change the rate', { 'src/rates.ts': CODE.replace('return 1;', 'return 2;') });
    const r = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'feature', cache: false });
    const old = r.artifacts.find((a) => a.id === 'DEC-OLD-001')!;
    expect(old).toMatchObject({ inclusion: 'direct', inactive: true, successor: { id: 'DEC-NEW-001', via: [] } });
    const md = renderPrComment(r);
    expect(md).toContain('➡️ superseded by `DEC-NEW-001`');
    expect(md).toContain('- `DEC-OLD-001` governs this code but is superseded by `DEC-NEW-001` (DEC\\-NEW\\-001 title): follow `DEC-NEW-001`.');
  });

  it('a record superseded by another while its own status is still accepted is a check finding', () => {
    const repo = makeRepo();
    repo.commit('decisions', {
      '.contextia/system/rationale/DEC-OLD-001.md': decision('DEC-OLD-001'),
      '.contextia/system/rationale/DEC-NEW-001.md': decision('DEC-NEW-001', 'relations:\n  supersedes: [DEC-OLD-001]\n'),
    });
    const r = cli(repo, 'check', '--format', 'json');
    const findings = (JSON.parse(r.stdout) as { findings: { rule: string; id: string; line: number; message: string }[] }).findings.filter((f) => f.rule === 'superseded-still-active');
    expect(findings).toEqual([
      expect.objectContaining({
        id: 'DEC-OLD-001',
        line: 5,
        message: 'DEC-OLD-001 is superseded by DEC-NEW-001 but its status is still accepted; set its status to superseded (git ctx supersede DEC-OLD-001 --by DEC-NEW-001 writes both sides)',
      }),
    ]);
    expect(cli(repo, 'supersede', 'DEC-OLD-001', '--by', 'DEC-NEW-001').code).toBe(0);
    const after = JSON.parse(cli(repo, 'check', '--format', 'json').stdout) as { findings: { rule: string }[] };
    expect(after.findings.filter((f) => f.rule === 'superseded-still-active')).toEqual([]);
  });
});
