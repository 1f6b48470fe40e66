import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import type { CodeNeighbours } from '../../src/code/neighbours.js';
import { laneBudgetMs, retrieveForPlace, retrieveForText } from '../../src/retrieve/engine.js';
import { answeredWhole } from '../../src/retrieve/episode.js';
import { traceWithFallback } from '../../src/retrieve/trace.js';
import { unansweredLanes, type RetrievalLane, type RetrieveOptions, type SemanticLane } from '../../src/retrieve/types.js';
import { placeCodeIndex } from '../../src/place/index.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { makeRepo } from '../helpers/git-repo.js';

const rec = (id: string, fm: string, body: string) => `---\nid: ${id}\ntype: decision\ntitle: ${id} title\nstatus: accepted\n${fm}---\n\n# ${id}\n\n${body}\n`;

function fixture() {
  const repo = makeRepo({
    'src/limits/bucket.py': 'from .clock import now\n\n# @decision DEC-BUCKET\ndef throttle(sender):\n    """Token bucket per webhook sender."""\n    return now()\n',
    'src/limits/clock.py': '# @decision DEC-CLOCK\ndef now():\n    return 0\n',
    '.contextia/system/rationale/DEC-BUCKET.md': rec('DEC-BUCKET', 'keywords: [token bucket, throttle]\n', 'Webhook senders are throttled with a token bucket.'),
    '.contextia/system/rationale/DEC-CLOCK.md': rec('DEC-CLOCK', '', 'One clock for the whole service.'),
    '.contextia/system/rationale/DEC-RETRY.md': rec('DEC-RETRY', 'keywords: [retry, webhook]\n', 'Webhook deliveries are retried with backoff.'),
  });
  repo.commit('fixture');
  return repo;
}

async function open(dir: string): Promise<{ opts: Pick<RetrieveOptions, 'snapshot' | 'set'>; close: () => void }> {
  const snapshot = await openSnapshot({ cwd: dir, kind: 'worktree' });
  const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
  return { opts: { snapshot, set }, close: () => snapshot.close() };
}

/** A code graph whose grammar cannot load: every question about the graph fails. */
const brokenGraph: CodeNeighbours = {
  languages: ['python'],
  imports: () => Promise.reject(new Error('tree-sitter grammar for python failed to load')),
  importers: () => Promise.reject(new Error('tree-sitter grammar for python failed to load')),
  callers: () => Promise.reject(new Error('tree-sitter grammar for python failed to load')),
  callees: () => Promise.reject(new Error('tree-sitter grammar for python failed to load')),
  symbolAt: () => Promise.reject(new Error('tree-sitter grammar for python failed to load')),
  declarations: () => Promise.reject(new Error('tree-sitter grammar for python failed to load')),
};

/** The lanes' reports with every lane answering. */
const ok = <T extends Record<string, { status: string }>>(slots: T): T => Object.fromEntries(Object.entries(slots).map(([n, r]) => [n, { ...r, status: 'ok' }])) as T;

describe('lane fusion: a failing lane degrades the answer, never loses it', () => {
  it('a code graph that fails to load: the declared lane is partial, what is declared at the place still answers', async () => {
    const repo = fixture();
    const { opts, close } = await open(repo.dir);
    try {
      const ok = await retrieveForPlace({ ...opts, target: { path: 'src/limits/bucket.py' } });
      // the working graph reaches the imported clock's record
      expect(ok.results.filter((r) => r.slot === 'declared').map((r) => r.id)).toEqual(['DEC-BUCKET', 'DEC-CLOCK']);
      const r = await retrieveForPlace({ ...opts, target: { path: 'src/limits/bucket.py' }, neighbours: brokenGraph });
      expect(r.slots.declared).toMatchObject({ status: 'partial', message: 'code graph: tree-sitter grammar for python failed to load' });
      expect(r.results.filter((x) => x.slot === 'declared').map((x) => x.id)).toEqual(['DEC-BUCKET']);
      expect(r.slots.keywords.status).toBe('ok');
    } finally {
      close();
    }
  });

  it('a lane that never answers times out; a lane that throws fails; the others are still fused and ranked', async () => {
    const repo = fixture();
    const { opts, close } = await open(repo.dir);
    try {
      const never: RetrievalLane = { name: 'keywords', run: () => new Promise(() => undefined) };
      const t = await retrieveForPlace({ ...opts, target: { path: 'src/limits/bucket.py' }, lanes: { keywords: never }, laneTimeoutMs: 100 });
      expect(t.slots.keywords).toMatchObject({ status: 'timeout', message: 'no answer within 100 ms', count: 0 });
      // the built-in lanes computing in this process are not cut off by the budget: their work
      // would go on all the same, and only their answer would be lost (a cold, busy first run)
      for (const lane of ['declared', 'keywords', 'mentions', 'nearness'] as const) expect(laneBudgetMs({ laneTimeoutMs: 100 }, lane), lane).toBe(120_000);
      expect(laneBudgetMs({ laneTimeoutMs: 100 }, 'semantic')).toBe(100);
      expect(laneBudgetMs({}, 'semantic')).toBe(5000);
      expect(laneBudgetMs({ laneTimeoutMs: 100, lanes: { keywords: never } }, 'keywords')).toBe(100);
      expect(t.results[0]).toMatchObject({ id: 'DEC-BUCKET', slot: 'declared' });
      const throwing: RetrievalLane = {
        name: 'declared',
        run: () => {
          throw new Error('annotation index unreadable');
        },
      };
      const f = await retrieveForText({ ...opts, text: 'src/limits/bucket.py webhook throttle token bucket', lanes: { declared: throwing } });
      expect(f.slots.declared).toMatchObject({ status: 'failed', message: 'annotation index unreadable' });
      // keywords still find the record, now in the fused band
      expect(f.results[0]).toMatchObject({ id: 'DEC-BUCKET', slot: 'fused' });
      const down: SemanticLane = { name: 'down', similar: () => Promise.reject(new Error('embedding endpoint down')) };
      const s = await retrieveForText({ ...opts, text: 'webhook retries', semantic: down });
      expect(s.slots.semantic).toMatchObject({ status: 'failed', message: 'embedding endpoint down' });
      expect(s.results[0]!.id).toBe('DEC-RETRY');
      // what an answer lacks, as `trace`'s fallback passes it on and `for`, `search` and the hook judge it (not kept, DEC-062)
      expect(Object.keys(unansweredLanes(t.slots))).toEqual(['keywords']);
      expect(Object.keys(unansweredLanes(f.slots))).toEqual(['declared']);
      expect(unansweredLanes(s.slots)).toEqual({ semantic: s.slots.semantic });
      for (const x of [t, f, s]) expect(answeredWhole(x)).toBe(false);
      expect(unansweredLanes(ok(t.slots))).toEqual({});
    } finally {
      close();
    }
  });

  it('fuses by typed reference: one result per record, each lane contributing', async () => {
    const repo = fixture();
    const { opts, close } = await open(repo.dir);
    try {
      const kw: RetrievalLane = { name: 'keywords', run: async () => [{ ref: { kind: 'artifact', id: 'DEC-RETRY' }, score: 4, why: [{ kind: 'keywords', text: 'matches retry' }] }, { ref: { kind: 'artifact', id: 'DEC-CLOCK' }, score: 2, why: [{ kind: 'keywords', text: 'matches clock' }] }] };
      const sem: RetrievalLane = { name: 'semantic', run: async () => [{ ref: { kind: 'artifact', id: 'DEC-CLOCK' }, score: 0.9, why: [{ kind: 'semantic', text: 'similar in meaning (0.9)' }] }] };
      const r = await retrieveForText({ ...opts, text: 'anything', lanes: { keywords: kw, semantic: sem } });
      expect(r.results.map((x) => x.id)).toEqual(['DEC-CLOCK', 'DEC-RETRY']);
      expect(r.results[0]!.why.map((w) => [w.kind, w.contribution])).toEqual([
        ['keywords', 0.5],
        ['semantic', 0.72],
      ]);
      expect(r.slots.keywords.count).toBe(2);
      expect(r.slots.semantic.count).toBe(1);
    } finally {
      close();
    }
  });

  it("trace's fallback carries no lane report when its lanes answered, and none when something is declared", async () => {
    const repo = fixture();
    repo.commit('an undeclared place', { 'src/hooks/deliver.py': '# webhook deliveries are retried with backoff\ndef deliver():\n    return 1\n' });
    const { opts, close } = await open(repo.dir);
    try {
      const index = await placeCodeIndex(opts.snapshot, opts.set);
      const fallback = await traceWithFallback({ ...opts, index, target: { path: 'src/hooks/deliver.py' } });
      expect(fallback.fallback?.map((x) => x.id)).toContain('DEC-RETRY');
      expect(fallback).not.toHaveProperty('slots');
      const declared = await traceWithFallback({ ...opts, index, target: { path: 'src/limits/bucket.py' } });
      expect(declared.entries.some((e) => e.known)).toBe(true);
      expect(declared).not.toHaveProperty('slots');
    } finally {
      close();
    }
  });
});
