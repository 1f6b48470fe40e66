import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitEnv, makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { decision, INVOICE_TS, judgeOne, stamp } from './helpers.js';

const DEC = '.contextia/system/rationale/DEC-ROUND-001.md';

/** A repo with one annotated function, stamped and committed. */
async function stampedRepo(): Promise<TestRepo> {
  const repo = makeRepo();
  repo.commit('code', { 'src/invoice.ts': INVOICE_TS, [DEC]: decision('DEC-ROUND-001') });
  await stamp(repo.dir, ['DEC-ROUND-001']);
  repo.commit('stamp DEC-ROUND-001');
  return repo;
}

describe('staleness against real histories', () => {
  it('stamps surgically: commit and symbol fingerprint, body kept', async () => {
    const repo = await stampedRepo();
    const text = readFileSync(path.join(repo.dir, DEC), 'utf8');
    expect(text).toMatch(/stamp:\n {2}commit: [0-9a-f]{40}\n {2}fingerprints:\n {4}"?src\/invoice\.ts#roundTotal"?: [0-9a-f]{64}\n---\n# DEC-ROUND-001\n\nWhy we do it\.\n$/);
    const j = await judgeOne(repo.dir, 'DEC-ROUND-001');
    expect(j.status).toBe('fresh');
    expect(j.method).toBe('fingerprints');
  });

  it('an edit inside the anchored function is stale, with the commit as evidence', async () => {
    const repo = await stampedRepo();
    repo.commit('use banker rounding', { 'src/invoice.ts': INVOICE_TS.replace('Math.round(amount * 100)', 'bankersRound(amount * 100)') });
    const j = await judgeOne(repo.dir, 'DEC-ROUND-001');
    expect(j.status).toBe('stale');
    const v = j.anchors.find((x) => x.anchor === 'src/invoice.ts#roundTotal')!;
    expect(v.state).toBe('changed');
    expect(v.changedSymbols).toEqual(['roundTotal']);
    expect(v.commits?.map((c) => c.subject)).toEqual(['use banker rounding']);
    expect(v.commits?.[0]).toMatchObject({ author: 'Test Author', change: 'modified' });
    expect(j.explanation).toBe('stamp-range');
  });

  it('an edit elsewhere in the same file is fresh', async () => {
    const repo = await stampedRepo();
    repo.commit('format with grouping', { 'src/invoice.ts': INVOICE_TS.replace('amount.toFixed(2)', 'amount.toLocaleString("en")') });
    expect((await judgeOne(repo.dir, 'DEC-ROUND-001')).status).toBe('fresh');
  });

  it('reformatting only is fresh', async () => {
    const repo = await stampedRepo();
    const reformatted = INVOICE_TS.replace('export function roundTotal(amount: number): number {\n  const cents = Math.round(amount * 100);', 'export function roundTotal(\n    amount: number\n): number {\n    const cents = Math.round( amount*100 );');
    repo.commit('prettier', { 'src/invoice.ts': reformatted });
    expect((await judgeOne(repo.dir, 'DEC-ROUND-001')).status).toBe('fresh');
  });

  it('a comment-only edit is fresh', async () => {
    const repo = await stampedRepo();
    repo.commit('explain', { 'src/invoice.ts': INVOICE_TS.replace('  return cents / 100;', '  // cents back to units\n  return cents / 100; /* exact */') });
    expect((await judgeOne(repo.dir, 'DEC-ROUND-001')).status).toBe('fresh');
  });

  it('a renamed file is moved, and stamp --fix re-stamps it', async () => {
    const repo = await stampedRepo();
    repo.git('mv', 'src/invoice.ts', 'src/billing-invoice.ts');
    repo.commit('rename');
    const j = await judgeOne(repo.dir, 'DEC-ROUND-001');
    expect(j.status).toBe('moved');
    const v = j.anchors.find((x) => x.state === 'moved')!;
    expect(v).toMatchObject({ anchor: 'src/invoice.ts#roundTotal', movedTo: 'src/billing-invoice.ts#roundTotal' });
    const fixed = await stamp(repo.dir, ['DEC-ROUND-001'], { fix: true });
    expect(fixed[0]).toMatchObject({ action: 'fixed', moves: [{ from: 'src/invoice.ts#roundTotal', to: 'src/billing-invoice.ts#roundTotal' }] });
    expect((await judgeOne(repo.dir, 'DEC-ROUND-001')).status).toBe('fresh');
  });

  it('a symbol moved to another file is moved (frontmatter anchor, no annotation)', async () => {
    const repo = makeRepo();
    const plain = INVOICE_TS.replace('// @decision DEC-ROUND-001\n', '');
    repo.commit('code', { 'src/invoice.ts': plain, [DEC]: decision('DEC-ROUND-001', 'anchors: ["src/invoice.ts#roundTotal"]\n') });
    await stamp(repo.dir, ['DEC-ROUND-001']);
    repo.commit('stamp');
    const [head, tail] = plain.split('\nexport function formatTotal');
    repo.commit('split rounding out', { 'src/invoice.ts': `export function formatTotal${tail}`, 'src/rounding.ts': `${head}\n` });
    const j = await judgeOne(repo.dir, 'DEC-ROUND-001');
    expect(j.status).toBe('moved');
    expect(j.anchors[0]).toMatchObject({ state: 'moved', movedTo: 'src/rounding.ts#roundTotal' });
    await stamp(repo.dir, ['DEC-ROUND-001'], { fix: true });
    expect(readFileSync(path.join(repo.dir, DEC), 'utf8')).toMatch(/^anchors: \["?src\/rounding\.ts#roundTotal"?\]$/m);
    expect((await judgeOne(repo.dir, 'DEC-ROUND-001')).status).toBe('fresh');
  });

  it('a deleted anchored symbol is stale with a dead anchor', async () => {
    const repo = makeRepo();
    repo.commit('code', { 'src/invoice.ts': INVOICE_TS, [DEC]: decision('DEC-ROUND-001', 'anchors: ["src/invoice.ts#formatTotal"]\n') });
    await stamp(repo.dir, ['DEC-ROUND-001']);
    repo.commit('stamp');
    repo.commit('drop formatTotal', { 'src/invoice.ts': INVOICE_TS.split('\nexport function formatTotal')[0] + '\n' });
    const j = await judgeOne(repo.dir, 'DEC-ROUND-001');
    expect(j.status).toBe('stale');
    const v = j.anchors.find((x) => x.anchor === 'src/invoice.ts#formatTotal')!;
    expect(v.state).toBe('removed');
    expect(v.note).toMatch(/dead anchor/);
    expect(v.commits?.map((c) => c.subject)).toEqual(['drop formatTotal']);
  });

  it('squash merge: stamp commit unreachable, fingerprints decide, explanation from the artifact history', async () => {
    const repo = makeRepo();
    repo.commit('base', { 'src/invoice.ts': INVOICE_TS, [DEC]: decision('DEC-ROUND-001') });
    repo.git('checkout', '-q', '-b', 'feature');
    repo.commit('feature work', { 'src/extra.ts': 'export const x = 1;\n' });
    await stamp(repo.dir, ['DEC-ROUND-001']);
    repo.commit('stamp on the branch');
    repo.git('checkout', '-q', 'main');
    repo.git('merge', '-q', '--squash', 'feature');
    repo.commit('feature (squashed)');
    repo.git('branch', '-q', '-D', 'feature');
    expect((await judgeOne(repo.dir, 'DEC-ROUND-001')).status).toBe('fresh');
    repo.commit('edit rounding', { 'src/invoice.ts': INVOICE_TS.replace('cents / 100', 'cents / 100.0') });
    const j = await judgeOne(repo.dir, 'DEC-ROUND-001');
    expect(j.status).toBe('stale');
    expect(j.method).toBe('fingerprints');
    expect(j.stamp).toMatchObject({ reachable: false });
    expect(j.explanation).toBe('artifact-history');
    expect(j.base?.source).toBe('artifact-history');
    expect(j.notes.join('\n')).toMatch(/falls back to the artifact's own history/);
    expect(j.anchors[0]!.commits?.map((c) => c.subject)).toEqual(['edit rounding']);
  });

  it('rebase: the stamp commit is rewritten away; still judged, explained from artifact history', async () => {
    const repo = makeRepo();
    repo.commit('base', { 'src/invoice.ts': INVOICE_TS, [DEC]: decision('DEC-ROUND-001') });
    repo.git('checkout', '-q', '-b', 'topic');
    repo.commit('topic work', { 'src/topic.ts': 'export const t = 1;\n' });
    await stamp(repo.dir, ['DEC-ROUND-001']);
    repo.commit('stamp');
    repo.git('checkout', '-q', 'main');
    repo.commit('main moves on', { 'README.md': 'hello\n' });
    execFileSync('git', ['rebase', '-q', 'main', 'topic'], { cwd: repo.dir, env: gitEnv() });
    repo.commit('change after rebase', { 'src/invoice.ts': INVOICE_TS.replace('Math.round', 'Math.floor') });
    const j = await judgeOne(repo.dir, 'DEC-ROUND-001');
    expect(j.status).toBe('stale');
    expect(j.stamp).toMatchObject({ exists: true, reachable: false });
    expect(j.explanation).toBe('artifact-history');
    expect(j.anchors[0]!.commits?.map((c) => c.subject)).toEqual(['change after rebase']);
  });

  it('depth-1 shallow clone: judged by fingerprints, report says shallow', async () => {
    const repo = await stampedRepo();
    repo.commit('later', { 'src/invoice.ts': INVOICE_TS.replace('Math.round', 'Math.ceil') });
    const clone = makeRepo();
    execFileSync('rm', ['-rf', path.join(clone.dir, '.git')]);
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${repo.dir}`, clone.dir + '/c'], { env: gitEnv() });
    const dir = clone.dir + '/c';
    const { judge } = await import('./helpers.js');
    const r = await judge(dir);
    expect(r.shallow).toBe(true);
    expect(r.warnings.join('\n')).toMatch(/shallow/);
    const j = r.artifacts.find((x) => x.id === 'DEC-ROUND-001')!;
    expect(j.status).toBe('stale');
    expect(j.method).toBe('fingerprints');
    expect(j.stamp).toMatchObject({ exists: false });
    expect(j.notes.join('\n')).toMatch(/shallow/);
  });
});
