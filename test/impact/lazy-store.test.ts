import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { appendMarkers } from '../../src/staleness/markers.js';
import { openStore } from '../../src/store/store.js';
import { IMPACT_FILES } from './fixture.js';
import { CACHE_REL } from '../helpers/cache.js';

/** A preload that logs every load of the SQLite driver: proof that a warm impact never loads it. */
function watch(): { loaded: () => boolean; env: NodeJS.ProcessEnv } {
  const dir = tempDir('git-ctx-preload-');
  const log = path.join(dir, 'loaded.log');
  const hook = path.join(dir, 'watch.cjs');
  writeFileSync(
    hook,
    `const Module = require('node:module'); const fs = require('node:fs');
const orig = Module._load;
Module._load = function (request, ...rest) {
  if (/^(libsql|@libsql\\/)/.test(request)) fs.appendFileSync(${JSON.stringify(log)}, request + '\\n');
  return orig.call(this, request, ...rest);
};`,
  );
  return {
    loaded: () => {
      const was = existsSync(log);
      rmSync(log, { force: true });
      return was;
    },
    env: { NODE_OPTIONS: `--require ${hook}` },
  };
}

type Out = { artifacts: { node: { id: string }; stale?: unknown }[]; code: { node: { id: string } }[]; edges: { backend: string; recomputed: number } };

describe('impact opens the evidence store only when it has something to write (DEC-032)', () => {
  it('a warm run reads the markers projection and the edge file, with the same answers as a run that opens the store', () => {
    const r = makeRepo(IMPACT_FILES);
    r.commit('fixture');
    const w = watch();
    const impact = (target = 'DEC-MONEY') => {
      const out = runCli(['impact', target, '--depth', '2', '--json'], { cwd: r.dir, env: w.env });
      expect(out.stderr).toBe('');
      return JSON.parse(out.stdout) as Out;
    };
    const evidence = path.join(r.dir, '.git/ctx/evidence');
    // cold: edges computed and written to the store, the projection and the sync stamp made
    const cold = impact();
    expect(w.loaded()).toBe(true);
    expect(existsSync(path.join(evidence, 'markers-latest.json'))).toBe(true);
    expect(existsSync(path.join(evidence, 'impact-sync.json'))).toBe(true);
    // warm: SQLite is not loaded, the answer is the same
    const warm = impact();
    expect(w.loaded()).toBe(false);
    expect(warm).toEqual({ ...cold, edges: { ...cold.edges, recomputed: 0 } });
    expect(warm.edges.backend).toBe('sqlite');

    // a staleness verdict in the journal: the store takes it in (and rewrites the projection); later warm runs show it
    appendMarkers(r.dir, [{ artifact: 'DEC-ROUND', anchor: '', verdict: 'stale', dirty: false, at: '2026-11-21T10:00:00.000Z', run: 'check' }]);
    const marked = impact();
    expect(w.loaded()).toBe(true);
    const staleOf = (o: Out) => o.artifacts.find((a) => a.node.id === 'DEC-ROUND')!.stale;
    expect(staleOf(marked)).toEqual({ verdict: 'stale', at: '2026-11-21T10:00:00.000Z' });
    const warmMarked = impact();
    expect(w.loaded()).toBe(false);
    expect(staleOf(warmMarked)).toEqual(staleOf(marked));
    // a later fresh verdict clears it in both
    appendMarkers(r.dir, [{ artifact: 'DEC-ROUND', anchor: '', verdict: 'fresh', dirty: false, at: '2026-11-22T10:00:00.000Z', run: 'check' }]);
    expect(staleOf(impact())).toBeUndefined();
    expect(staleOf(impact())).toBeUndefined();
    expect(w.loaded()).toBe(true);
    expect(w.loaded()).toBe(false);

    // without the projection (a store from before it): the store is opened and answers the same
    rmSync(path.join(evidence, 'markers-latest.json'));
    expect(impact()).toEqual(warm);
    expect(w.loaded()).toBe(true);

    // an edited record: its origin is recomputed and written to the store, opened for it
    r.write({ '.contextia/system/rationale/DEC-CONFLICT.md': readFileSync(path.join(r.dir, '.contextia/system/rationale/DEC-CONFLICT.md'), 'utf8').replace('conflicts_with: [DEC-MONEY]', 'relates_to: [DEC-MONEY]') });
    const edited = impact();
    expect(w.loaded()).toBe(true);
    expect(edited.edges.recomputed).toBe(1);
    const store = openStore(r.dir);
    try {
      const fromConflict = store.edgesFrom('artifact', 'DEC-CONFLICT').map((e) => e.kind);
      expect(fromConflict).toContain('relates_to');
      expect(fromConflict).not.toContain('conflicts_with');
    } finally {
      store.close();
    }
    impact();
    expect(w.loaded()).toBe(false);

    // the database deleted: the stamp no longer names it, so the next run opens a new store and refills its edges
    for (const f of ['evidence.db', 'evidence.db-wal', 'evidence.db-shm']) rmSync(path.join(evidence, f), { force: true });
    expect(impact().edges.recomputed).toBe(0);
    expect(w.loaded()).toBe(true);
    const refilled = openStore(r.dir);
    try {
      expect(refilled.edgeOrigins()).toHaveLength(8);
    } finally {
      refilled.close();
    }
  });
});

describe("impact's importers projection (DEC-032, DEC-036)", () => {
  it('answers as the code graph does, with and without the cache, and follows an import added or removed', () => {
    const r = makeRepo(IMPACT_FILES);
    r.commit('fixture');
    const run = (env: NodeJS.ProcessEnv = {}) => {
      const out = runCli(['impact', 'src/util/money.ts', '--depth', '3', '--json'], { cwd: r.dir, env: { GIT_CTX_TIMINGS: '1', ...env } });
      expect(out.code).toBe(0);
      const j = JSON.parse(out.stdout) as Out;
      return { ids: [...j.artifacts.map((a) => a.node.id), ...j.code.map((c) => c.node.id)], fromProjection: out.stderr.includes('importers and callers from the projection'), body: { ...j, edges: undefined } };
    };
    const projection = path.join(r.dir, `${CACHE_REL}/impact-graph.json`);
    const first = run();
    expect(first.fromProjection).toBe(false);
    expect(existsSync(projection)).toBe(true);
    expect(first.ids).toEqual(expect.arrayContaining(['DEC-MONEY', 'DEC-ROUND', 'SPEC-API', 'src/billing/invoice.ts', 'src/api/handler.ts']));
    const second = run();
    expect(second.fromProjection).toBe(true);
    expect(second.body).toEqual(first.body);
    expect(run({ GIT_CTX_NO_CACHE: '1' }).body).toEqual(first.body);

    // a new (untracked) importer: another key, the graph asked again
    r.write({ 'src/report/summary.ts': "import { round } from '../util/money';\n\nexport const s = round(1.5);\n" });
    const added = run();
    expect(added.fromProjection).toBe(false);
    expect(added.ids).toContain('src/report/summary.ts');
    expect(run().body).toEqual(added.body);
    expect(run({ GIT_CTX_NO_CACHE: '1' }).body).toEqual(added.body);

    // an import removed: the handler is no longer reached through the invoice
    r.write({ 'src/api/handler.ts': 'export function handle() {\n  return 3;\n}\n' });
    const removed = run();
    expect(removed.ids).not.toContain('src/api/handler.ts');
    expect(run().body).toEqual(removed.body);
    expect(run({ GIT_CTX_NO_CACHE: '1' }).body).toEqual(removed.body);
  });
});
