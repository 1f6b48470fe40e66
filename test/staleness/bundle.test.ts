import { describe, expect, it } from 'vitest';
import { assembleBundle, renderBundle } from '../../src/assemble/index.js';
import { staleMarks } from '../../src/staleness/marks.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { decision, INVOICE_TS, stamp } from './helpers.js';

const TASK = '---\nid: TASK-001\ntype: task\ntitle: Round invoices\nstatus: todo\nlinks:\n  decisions: [DEC-ROUND-001, DEC-OTHER-001]\n---\n# Round invoices\n\nDo it.\n';

/** A task linking two stamped decisions; then the code of one of them drifts. */
async function driftedRepo(): Promise<TestRepo> {
  const repo = makeRepo();
  repo.commit('code', {
    'src/invoice.ts': INVOICE_TS,
    'src/other.ts': '// @decision DEC-OTHER-001\nexport function other(): number {\n  return 1;\n}\n',
    '.contextia/work/tasks/TASK-001.md': TASK,
    '.contextia/system/rationale/DEC-ROUND-001.md': decision('DEC-ROUND-001'),
    '.contextia/system/rationale/DEC-OTHER-001.md': decision('DEC-OTHER-001'),
  });
  await stamp(repo.dir, 'all');
  repo.commit('stamp');
  repo.commit('use banker rounding', { 'src/invoice.ts': INVOICE_TS.replace('Math.round(amount * 100)', 'bankersRound(amount * 100)') });
  return repo;
}

describe('stale marks in bundles', () => {
  it('assembleBundle with staleMarks marks the drifted decision, and only it, in every format', async () => {
    const repo = await driftedRepo();
    const bundle = await assembleBundle({ id: 'TASK-001', cwd: repo.dir, tokenCache: false, staleness: (arts, set) => staleMarks(arts, set) });
    const byId = new Map(bundle.entries.map((e) => [e.id, e]));
    expect(byId.get('DEC-ROUND-001')!.stale).toMatchObject({ state: 'stale', summary: 'src/invoice.ts#roundTotal changed (1 commit since the stamp)' });
    expect(byId.get('DEC-OTHER-001')!.stale).toBeUndefined();
    expect(byId.get('TASK-001')!.stale).toBeUndefined();

    const ctx = renderBundle(bundle, 'context');
    expect(ctx).toContain('=== DECISION: DEC-ROUND-001 ===');
    expect(ctx).toContain('stale: stale (src/invoice.ts#roundTotal changed (1 commit since the stamp))');
    expect(ctx.match(/^stale: /gm)).toHaveLength(1);
    expect(renderBundle(bundle, 'markdown')).toContain('- **stale:** stale — src/invoice.ts#roundTotal changed (1 commit since the stamp)');
    const json = JSON.parse(renderBundle(bundle, 'json'));
    const entry = json.entries.find((e: { id: string }) => e.id === 'DEC-ROUND-001');
    expect(entry.stale.state).toBe('stale');
    expect(entry.stale.detail.anchors).toEqual([{ anchor: 'src/invoice.ts#roundTotal', state: 'changed', commits: [repo.git('rev-parse', 'HEAD')] }]);

    // the mark is part of what the model reads, so it is part of the digest
    const unmarked = await assembleBundle({ id: 'TASK-001', cwd: repo.dir, tokenCache: false });
    expect(unmarked.entries.every((e) => e.stale === undefined)).toBe(true);
    expect(unmarked.header.digest).not.toBe(bundle.header.digest);
  });

  it('git ctx context shows the mark; after ack it is gone', async () => {
    const repo = await driftedRepo();
    const r = runCli(['context', 'TASK-001'], { cwd: repo.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/=== DECISION: DEC-ROUND-001 ===\n(?:.*\n)*?stale: stale \(src\/invoice\.ts#roundTotal changed \(1 commit since the stamp\)\)\n/);
    const md = runCli(['context', 'TASK-001', '--format', 'markdown'], { cwd: repo.dir });
    expect(md.stdout).toContain('- **stale:** stale');
    // --at a commit before the drift: nothing is stale there
    const before = runCli(['context', 'TASK-001', '--at', 'HEAD~1'], { cwd: repo.dir });
    expect(before.code).toBe(0);
    expect(before.stdout).not.toMatch(/^stale: /m);

    expect(runCli(['ack', 'DEC-ROUND-001'], { cwd: repo.dir }).code).toBe(0);
    const after = runCli(['context', 'TASK-001'], { cwd: repo.dir });
    expect(after.stdout).not.toMatch(/^stale: /m);
  });

  it('a superseded decision is marked even though its code did not drift', async () => {
    const repo = await driftedRepo();
    repo.commit('newer', { '.contextia/system/rationale/DEC-OTHER-002.md': decision('DEC-OTHER-002') });
    expect(runCli(['supersede', 'DEC-OTHER-001', '--by', 'DEC-OTHER-002'], { cwd: repo.dir }).code).toBe(0);
    const json = JSON.parse(runCli(['context', 'TASK-001', '--json'], { cwd: repo.dir }).stdout);
    const entry = json.entries.find((e: { id: string }) => e.id === 'DEC-OTHER-001');
    expect(entry?.stale).toMatchObject({ state: 'fresh', summary: 'superseded by DEC-OTHER-002' });
  });
});
