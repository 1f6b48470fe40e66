import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { LogStreamParser, renameLimitFrom, walkHistory } from '../../src/staleness/history.js';
import { gitEnv, makeRepo } from '../helpers/git-repo.js';
import { decision, INVOICE_TS, judge, judgeOne, stamp } from './helpers.js';

const fn = (i: number, body = `return ${i} * 2;`) => `// @decision DEC-FLAT-001\nexport function f${i}(x: number): number {\n  const y = x + ${i};\n  ${body}\n}\n`;

describe('history walker', () => {
  it('parses a -z stream fed in arbitrary chunks, with odd file names', async () => {
    const repo = makeRepo();
    repo.commit('one', { 'a b.txt': 'a\n', 'dir/ünï.txt': 'u\n' });
    repo.git('mv', 'a b.txt', 'c d.txt');
    repo.commit('two: with \x1f separator in subject');
    repo.commit('empty');
    const out = execFileSync('git', ['log', '-z', '--name-status', '-M', '--reverse', `--format=\x1e%H\x1f%P\x1f%an\x1f%ae\x1f%aI\x1f%s`], { cwd: repo.dir, encoding: 'utf8', env: gitEnv() });
    for (const size of [1, 7, 4096]) {
      const p = new LogStreamParser();
      for (let i = 0; i < out.length; i += size) p.push(out.slice(i, i + size));
      const commits = p.end();
      expect(commits.map((c) => c.subject)).toEqual(['one', 'two: with \x1f separator in subject', 'empty']);
      expect(commits[0]!.changes).toEqual([{ status: 'A', path: 'a b.txt' }, { status: 'A', path: 'dir/ünï.txt' }]);
      expect(commits[1]!.changes).toEqual([{ status: 'R', score: 100, from: 'a b.txt', path: 'c d.txt' }]);
      expect(commits[2]!.changes).toEqual([]);
    }
    const walk = await walkHistory({ cwd: repo.dir, include: ['HEAD'] });
    expect(walk.commits).toHaveLength(3);
    expect(walk.renameLimitHit).toBe(false);
  });

  it('reads the rename-limit warning', () => {
    expect(renameLimitFrom('warning: inexact rename detection was skipped due to too many files.\nwarning: you may want to set your diff.renameLimit variable to at least 31 and retry the command.\n')).toEqual({ renameLimitHit: true, renameLimitNeeded: 31 });
    expect(renameLimitFrom('warning: exhaustive rename detection was skipped due to too many files.\n').renameLimitHit).toBe(true);
    expect(renameLimitFrom('')).toEqual({ renameLimitHit: false });
  });
});

describe('history traps', () => {
  it('a large directory move (flatten) reads as moved, and a file moved then edited later as stale', async () => {
    const repo = makeRepo();
    const files: Record<string, string> = {};
    for (let i = 0; i < 60; i++) files[`frontend/src/mod${i}.ts`] = fn(i);
    files['.contextia/system/rationale/DEC-FLAT-001.md'] = decision('DEC-FLAT-001');
    files['.contextia/system/rationale/DEC-FLAT-002.md'] = decision('DEC-FLAT-002', 'anchors: ["frontend/src/mod3.ts#f3", "frontend/src/mod4.ts"]\n');
    repo.commit('frontend', files);
    await stamp(repo.dir, 'all');
    repo.commit('stamp');
    repo.git('mv', 'frontend/src', 'src');
    repo.commit('flatten frontend/ to the root');
    const moved = await judge(repo.dir);
    expect(moved.artifacts.map((j) => [j.id, j.status])).toEqual([['DEC-FLAT-001', 'moved'], ['DEC-FLAT-002', 'moved']]);
    repo.commit('rework f5', { 'src/mod5.ts': fn(5, 'if (y > 10) throw new Error("too big");\n  return Math.max(0, y - 1) * 3;') });
    const j = await judgeOne(repo.dir, 'DEC-FLAT-001');
    expect(j.status).toBe('stale');
    const bad = j.anchors.filter((v) => v.state !== 'moved');
    expect(bad).toHaveLength(1);
    expect(bad[0]).toMatchObject({ anchor: 'frontend/src/mod5.ts#f5', state: 'changed', movedTo: 'src/mod5.ts#f5', changedSymbols: ['f5'] });
    // the rename moved the text without changing it: only the edit is blamed (issue 14); the
    // rename is in the note
    expect(bad[0]!.commits!.map((c) => c.subject)).toEqual(['rework f5']);
    expect(bad[0]!.note).toBe('renamed to src/mod5.ts and changed');
    expect(j.anchors.filter((v) => v.state === 'moved')).toHaveLength(59);
    // --fix re-stamps the 59 moves and leaves the edited one stale
    await stamp(repo.dir, ['DEC-FLAT-001', 'DEC-FLAT-002'], { fix: true });
    const after = await judge(repo.dir);
    expect(after.artifacts.map((x) => [x.id, x.status])).toEqual([['DEC-FLAT-001', 'stale'], ['DEC-FLAT-002', 'fresh']]);
    expect(after.artifacts[0]!.anchors.filter((v) => v.state !== 'ok').map((v) => v.anchor)).toEqual(['frontend/src/mod5.ts#f5']);
  });

  it("says when git's rename limit was hit", async () => {
    const repo = makeRepo();
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`old/m${i}.txt`] = Array.from({ length: 20 }, (_, k) => `line ${k} of ${i}`).join('\n') + '\n';
    files['.contextia/system/rationale/DEC-LIM-001.md'] = decision('DEC-LIM-001', 'anchors: ["old/m1.txt"]\n');
    repo.commit('base', files);
    await stamp(repo.dir, ['DEC-LIM-001']);
    repo.commit('stamp');
    for (let i = 0; i < 30; i++) {
      repo.git('mv', `old/m${i}.txt`, `new/m${i}.txt`.replace('new/', 'new-'));
    }
    const edited: Record<string, string> = {};
    for (let i = 0; i < 30; i++) edited[`new-m${i}.txt`] = files[`old/m${i}.txt`] + 'one more line\n';
    repo.commit('move and edit', edited);
    const limited = await judge(repo.dir, { renameLimit: 5 });
    expect(limited.renameLimit).toMatchObject({ hit: true });
    expect(limited.warnings.join('\n')).toMatch(/rename limit/);
    expect(limited.artifacts[0]!.status).toBe('stale');
    // a second run is served by the results cache and must still warn
    expect(await judge(repo.dir, { renameLimit: 5 })).toEqual(limited);
    const full = await judge(repo.dir, { renameLimit: 1000 });
    expect(full.renameLimit).toBeUndefined();
    expect(full.artifacts[0]!.anchors[0]).toMatchObject({ state: 'changed', movedTo: 'new-m1.txt' });
  });

  it('a path re-used by an unrelated file is deleted-then-new, not "changed"', async () => {
    const repo = makeRepo();
    repo.commit('legacy', { 'src/legacy.ts': 'export const legacy = 1;\n', '.contextia/system/rationale/DEC-OLD-001.md': decision('DEC-OLD-001', 'anchors: ["src/legacy.ts"]\n') });
    await stamp(repo.dir, ['DEC-OLD-001']);
    repo.commit('stamp');
    repo.git('rm', '-q', 'src/legacy.ts');
    repo.commit('remove legacy module');
    repo.commit('unrelated new module at the old path', { 'src/legacy.ts': 'export function parseCsv(s: string) { return s.split(","); }\n' });
    const j = await judgeOne(repo.dir, 'DEC-OLD-001');
    expect(j.status).toBe('stale');
    expect(j.anchors[0]).toMatchObject({ state: 'replaced' });
    expect(j.anchors[0]!.note).toMatch(/^deleted in [0-9a-f]{12}; the path now holds an unrelated file added in [0-9a-f]{12}$/);
    expect(j.anchors[0]!.commits!.map((c) => c.subject)).toEqual(['remove legacy module', 'unrelated new module at the old path']);
  });

  it('without a stamp: judged by history since the commit that last changed the artifact, following its renames', async () => {
    const repo = makeRepo();
    repo.commit('code and decision', { 'src/invoice.ts': INVOICE_TS.replace('DEC-ROUND-001', 'DEC-H-001'), '.contextia/DEC-H-001': decision('DEC-H-001') });
    // the decision file gets an extension and a folder: a pure rename is not a change
    repo.git('mv', '.contextia/DEC-H-001', '.contextia/decisions-DEC-H-001.md');
    repo.commit('move decision');
    repo.commit('edit elsewhere', { 'src/invoice.ts': INVOICE_TS.replace('DEC-ROUND-001', 'DEC-H-001').replace('toFixed(2)', 'toFixed(3)') });
    let j = await judgeOne(repo.dir, 'DEC-H-001');
    expect(j).toMatchObject({ status: 'fresh', method: 'history', base: { source: 'artifact-history' } });
    expect(j.notes.join('\n')).toMatch(/judged by history: no stamp/);
    const first = repo.git('rev-list', '--max-parents=0', 'HEAD');
    expect(j.base!.commit).toBe(first);
    repo.commit('edit inside', { 'src/invoice.ts': INVOICE_TS.replace('DEC-ROUND-001', 'DEC-H-001').replace('Math.round', 'Math.trunc') });
    j = await judgeOne(repo.dir, 'DEC-H-001');
    expect(j).toMatchObject({ status: 'stale', method: 'history' });
    expect(j.anchors[0]).toMatchObject({ anchor: 'src/invoice.ts#roundTotal', state: 'changed' });
    // "edit elsewhere" touched the file, not the anchored symbol: not blamed (issue 14)
    expect(j.anchors[0]!.commits!.map((c) => c.subject)).toEqual(['edit inside']);
  });

  it('a hand-written stamp (commit, no fingerprints) is judged by history from that commit', async () => {
    const repo = makeRepo();
    const c0 = repo.commit('code', { 'src/invoice.ts': INVOICE_TS });
    repo.commit('decision', { '.contextia/DEC-ROUND-001.md': decision('DEC-ROUND-001', `stamp:\n  commit: ${c0.slice(0, 10)}\n`) });
    expect((await judgeOne(repo.dir, 'DEC-ROUND-001')).status).toBe('fresh');
    repo.commit('drift', { 'src/invoice.ts': INVOICE_TS.replace('cents / 100', '(cents + 1) / 100') });
    const j = await judgeOne(repo.dir, 'DEC-ROUND-001');
    expect(j).toMatchObject({ status: 'stale', method: 'history', base: { commit: c0, source: 'stamp' } });
  });

  it('--since judges against another base', async () => {
    const repo = makeRepo();
    repo.commit('code', { 'src/invoice.ts': INVOICE_TS, '.contextia/DEC-ROUND-001.md': decision('DEC-ROUND-001') });
    await stamp(repo.dir, ['DEC-ROUND-001']);
    const mid = repo.commit('stamp');
    repo.commit('drift', { 'src/invoice.ts': INVOICE_TS.replace('cents / 100', 'cents / 10') });
    expect((await judgeOne(repo.dir, 'DEC-ROUND-001', { since: 'HEAD' })).status).toBe('fresh');
    const j = await judgeOne(repo.dir, 'DEC-ROUND-001', { since: mid });
    expect(j).toMatchObject({ status: 'stale', method: 'history', explanation: 'since' });
  });

  it('supersession is reported alongside drift, not hidden by freshness', async () => {
    const repo = makeRepo();
    repo.commit('code', {
      'src/invoice.ts': INVOICE_TS,
      '.contextia/DEC-ROUND-001.md': decision('DEC-ROUND-001').replace('status: accepted', 'status: superseded'),
      '.contextia/DEC-ROUND-002.md': decision('DEC-ROUND-002', 'relations: { supersedes: [DEC-ROUND-001] }\n'),
    });
    await stamp(repo.dir, ['DEC-ROUND-001']);
    repo.commit('stamp');
    const j = await judgeOne(repo.dir, 'DEC-ROUND-001');
    expect(j.status).toBe('fresh');
    expect(j.lifecycle).toEqual({ status: 'superseded', inactive: true, supersededBy: ['DEC-ROUND-002'] });
    expect(j.notes[0]).toMatch(/superseded by DEC-ROUND-002/);
  });
});
