import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { analyzeImpact, openEdgeCache, refreshEdges, type ImpactResult } from '../../src/impact/index.js';
import { buildCodeIndex } from '../../src/code/code-index.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { appendMarkers, latestMarkers } from '../../src/staleness/markers.js';
import { makeRepo } from '../helpers/git-repo.js';

import { IMPACT_FILES, rec } from './fixture.js';
import { CACHE_REL } from '../helpers/cache.js';

async function open(dir: string) {
  const snapshot = await openSnapshot({ cwd: dir, kind: 'worktree' });
  const config = await loadConfig(snapshot);
  const set = await loadArtifactSet(snapshot, config);
  return { snapshot, set, close: () => snapshot.close() };
}

const ids = (r: ImpactResult) => r.artifacts.map((h) => h.node.id);
const hit = (r: ImpactResult, id: string) => [...r.artifacts, ...r.code].find((h) => h.node.id === id);

describe('impact', () => {
  it('forward from a record: its code, the records relying on it, conflicts both ways, each with its path', async () => {
    const repo = makeRepo(IMPACT_FILES);
    repo.commit('fixture');
    const { snapshot, set, close } = await open(repo.dir);
    try {
      const r = await analyzeImpact({ snapshot, set, target: 'DEC-MONEY', depth: 1 });
      expect(r.query).toEqual({ kind: 'artifact', id: 'DEC-MONEY', direction: 'forward', depth: 1 });
      expect(ids(r).sort()).toEqual(['DEC-CONFLICT', 'DEC-ROUND']);
      expect(hit(r, 'DEC-ROUND')!.path).toEqual([{ from: 'DEC-MONEY', kind: 'requires', to: 'DEC-ROUND', reverse: true, where: '.contextia/system/rationale/DEC-ROUND.md:6' }]);
      expect(hit(r, 'DEC-CONFLICT')!.path[0]).toMatchObject({ from: 'DEC-MONEY', kind: 'conflicts_with', to: 'DEC-CONFLICT', reverse: true });
      expect(r.code.map((h) => h.node)).toEqual([{ kind: 'symbol', id: 'src/util/money.ts#round' }]);
      // one more hop: who calls the anchored code, and what governs the callers
      const deep = await analyzeImpact({ snapshot, set, target: 'DEC-MONEY', depth: 3 });
      expect(hit(deep, 'src/billing/invoice.ts#total')!.path.map((s) => s.kind)).toEqual(['anchor', 'called_by']);
      expect(hit(deep, 'src/api/handler.ts#handle')!.distance).toBe(3);
      // ADR-0001 mentions the money helper: reached, but only as weaker evidence
      expect(hit(deep, 'ADR-0001')).toMatchObject({ weak: true });
      expect(hit(deep, 'DEC-ROUND')!.weak).toBeUndefined();
    } finally {
      close();
    }
  });

  it('a superseded record carries no impact to its successor, and its successor none back', async () => {
    const repo = makeRepo(IMPACT_FILES);
    repo.commit('fixture');
    const { snapshot, set, close } = await open(repo.dir);
    try {
      expect(ids(await analyzeImpact({ snapshot, set, target: 'DEC-OLD' }))).toEqual([]);
      expect(ids(await analyzeImpact({ snapshot, set, target: 'DEC-NEW' }))).toEqual([]);
    } finally {
      close();
    }
  });

  it('reverse from code: declared records first, then through callers and importers, then records relying on those', async () => {
    const repo = makeRepo(IMPACT_FILES);
    repo.commit('fixture');
    const { snapshot, set, close } = await open(repo.dir);
    try {
      const r = await analyzeImpact({ snapshot, set, target: 'src/util/money.ts#round', depth: 3 });
      expect(r.query).toMatchObject({ kind: 'symbol', id: 'src/util/money.ts#round', direction: 'reverse' });
      expect(hit(r, 'DEC-MONEY')).toMatchObject({ distance: 1, path: [{ from: 'src/util/money.ts#round', kind: 'anchor', to: 'DEC-MONEY', reverse: true }] });
      // the caller's annotation
      expect(hit(r, 'DEC-ROUND')!.distance).toBe(2);
      // the API handler calls total(), which calls round(): SPEC-API governs it by paths
      const api = hit(r, 'SPEC-API')!;
      expect(api.distance).toBe(3);
      expect(api.path.map((s) => s.kind)).toEqual(['called_by', 'called_by', 'paths']);
      // a file: its importers' records too
      const f = await analyzeImpact({ snapshot, set, target: 'src/billing/invoice.ts', depth: 2 });
      expect(ids(f)).toContain('DEC-ROUND');
      expect(hit(f, 'SPEC-API')!.path.map((s) => s.kind)).toEqual(['imported_by', 'paths']);
      expect(hit(f, 'SPEC-API')!.path[1]).toMatchObject({ via: 'src/api/**' });
      // exclusions in paths hold: the generated client is not governed by SPEC-API
      expect(ids(await analyzeImpact({ snapshot, set, target: 'src/api/generated/client.ts' }))).toEqual([]);
      // path:line is the symbol there
      const line = await analyzeImpact({ snapshot, set, target: 'src/billing/invoice.ts:5', depth: 1 });
      expect(line.query).toMatchObject({ kind: 'symbol', id: 'src/billing/invoice.ts#total' });
      expect(ids(line)).toEqual(['DEC-ROUND']);
      // a directory: every file in it
      const dir = await analyzeImpact({ snapshot, set, target: 'src/api', depth: 1 });
      expect(dir.query.kind).toBe('directory');
      expect(ids(dir)).toEqual(['SPEC-API']);
    } finally {
      close();
    }
  });

  it('reverse from a record: what it relies on', async () => {
    const repo = makeRepo(IMPACT_FILES);
    repo.commit('fixture');
    const { snapshot, set, close } = await open(repo.dir);
    try {
      const r = await analyzeImpact({ snapshot, set, target: 'DEC-ROUND', reverse: true, depth: 2 });
      expect(r.query.direction).toBe('reverse');
      expect(hit(r, 'DEC-MONEY')!.path).toEqual([{ from: 'DEC-ROUND', kind: 'requires', to: 'DEC-MONEY', where: '.contextia/system/rationale/DEC-ROUND.md:6' }]);
      expect(hit(r, 'src/billing/invoice.ts#total')!.path[0]).toMatchObject({ kind: 'annotation', where: 'src/billing/invoice.ts' });
      // what total() calls is something a change could reach it from
      expect(hit(r, 'src/util/money.ts#round')!.distance).toBeLessThanOrEqual(2);
    } finally {
      close();
    }
  });

  it('bounds depth and results; unknown targets are usage errors with a suggestion', async () => {
    const repo = makeRepo(IMPACT_FILES);
    repo.commit('fixture');
    const { snapshot, set, close } = await open(repo.dir);
    try {
      const r = await analyzeImpact({ snapshot, set, target: 'src/util/money.ts#round', depth: 3, limit: 1 });
      expect(r.artifacts).toHaveLength(1);
      expect(r.truncated).toBeGreaterThan(0);
      await expect(analyzeImpact({ snapshot, set, target: 'DEC-MONY' })).rejects.toMatchObject({ code: 'UNKNOWN_ID', hint: 'did you mean DEC-MONEY?' });
      await expect(analyzeImpact({ snapshot, set, target: 'src/util/mony.ts' })).rejects.toMatchObject({ code: 'USAGE', hint: 'did you mean src/util/money.ts?' });
      await expect(analyzeImpact({ snapshot, set, target: 'src/util/money.ts#rnd' })).rejects.toMatchObject({ code: 'USAGE', message: 'no symbol rnd in src/util/money.ts' });
      await expect(analyzeImpact({ snapshot, set, target: 'DEC-MONEY', depth: 0 })).rejects.toMatchObject({ code: 'USAGE' });
    } finally {
      close();
    }
  });

  it('refreshes edges per origin by content hash: unchanged origins are not recomputed, vanished ones forgotten', async () => {
    const repo = makeRepo(IMPACT_FILES);
    repo.commit('fixture');
    let s = await open(repo.dir);
    try {
      const first = await analyzeImpact({ snapshot: s.snapshot, set: s.set, target: 'DEC-MONEY' });
      // 6 .contextia records, 1 ADR, 1 annotated code file
      expect(first.edges).toMatchObject({ origins: 8, recomputed: 8, removed: 0 });
      const again = await analyzeImpact({ snapshot: s.snapshot, set: s.set, target: 'DEC-MONEY' });
      expect(again.edges).toMatchObject({ origins: 8, recomputed: 0, removed: 0 });
    } finally {
      s.close();
    }
    // one record changes, one annotated file loses its annotation
    writeFileSync(path.join(repo.dir, '.contextia/system/rationale/DEC-CONFLICT.md'), rec('DEC-CONFLICT', 'decision', 'status: proposed\n', 'No longer in conflict.'));
    writeFileSync(path.join(repo.dir, 'src/billing/invoice.ts'), IMPACT_FILES['src/billing/invoice.ts']!.replace('// @decision DEC-ROUND\n', ''));
    s = await open(repo.dir);
    try {
      const r = await analyzeImpact({ snapshot: s.snapshot, set: s.set, target: 'DEC-MONEY', depth: 1 });
      expect(r.edges).toMatchObject({ origins: 7, recomputed: 1, removed: 1 });
      expect(ids(r)).toEqual(['DEC-ROUND']);
      // the store is the file under .git/ctx/cache, in the store's shape
      const file = path.join(repo.dir, `${CACHE_REL}/impact-edges.json`);
      expect(existsSync(file)).toBe(true);
      const saved = JSON.parse(readFileSync(file, 'utf8'));
      expect(saved.o).toContain('.contextia/system/rationale/DEC-MONEY.md');
      expect(saved.o).not.toContain('src/billing/invoice.ts');
      // a store refreshed again from the same snapshot has nothing to do
      const store = openEdgeCache(repo.dir);
      expect(await refreshEdges(store, s.set, await buildCodeIndex(s.snapshot, s.set.config))).toEqual({ origins: 7, recomputed: 0, removed: 0 });
    } finally {
      s.close();
    }
  });

  it('marks listed records with the latest staleness marker that is not fresh', async () => {
    const repo = makeRepo(IMPACT_FILES);
    repo.commit('fixture');
    appendMarkers(repo.dir, [
      { artifact: 'DEC-ROUND', anchor: '', verdict: 'fresh', commit: 'a'.repeat(40), dirty: false, at: '2026-11-20T10:00:00.000Z', run: 'stale' },
      { artifact: 'DEC-ROUND', anchor: '', verdict: 'stale', commit: 'b'.repeat(40), dirty: false, at: '2026-11-21T10:00:00.000Z', run: 'check' },
      { artifact: 'DEC-CONFLICT', anchor: '', verdict: 'stale', dirty: true, at: '2026-11-20T10:00:00.000Z', run: 'stale' },
      { artifact: 'DEC-CONFLICT', anchor: '', verdict: 'fresh', dirty: true, at: '2026-11-21T10:00:00.000Z', run: 'stale' },
    ]);
    // a torn line from a killed writer is skipped
    writeFileSync(path.join(repo.dir, '.git/ctx/markers.jsonl'), readFileSync(path.join(repo.dir, '.git/ctx/markers.jsonl'), 'utf8') + '{"artifact":"DEC-');
    expect(latestMarkers(repo.dir, ['DEC-ROUND']).get('DEC-ROUND')).toMatchObject({ verdict: 'stale', run: 'check' });
    const { snapshot, set, close } = await open(repo.dir);
    try {
      const r = await analyzeImpact({ snapshot, set, target: 'DEC-MONEY', depth: 1 });
      expect(hit(r, 'DEC-ROUND')!.stale).toEqual({ verdict: 'stale', commit: 'b'.repeat(40), at: '2026-11-21T10:00:00.000Z' });
      expect(hit(r, 'DEC-CONFLICT')!.stale).toBeUndefined();
    } finally {
      close();
    }
  });
});
