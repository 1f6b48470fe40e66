import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadArtifactSet, type ArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { endSearchAhead, keywordsAhead, searchAhead, semanticAhead } from '../../src/retrieve/ahead.js';
import { keywordKeyOf, queryOf, searchRecords } from '../../src/retrieve/bm25.js';
import { DefaultEmbedder } from '../../src/semantic/embedder.js';
import { EmbeddingLane } from '../../src/semantic/lane.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';

// A search's keyword and semantic work done while git lists the records (DEC-040): taken
// only when read under the key the lanes would read, so the answer is always the one the
// lanes give without it.

const rec = (id: string, title: string, body: string) => `---\nid: ${id}\ntype: decision\ntitle: "${title}"\nstatus: accepted\n---\n\n# ${title}\n\n${body}\n`;
const TOPICS = ['webhook deliveries retry with backoff', 'invoice totals are rounded in cents', 'sessions live in signed cookies', 'mail is queued for a worker', 'product pages cached at the edge', 'logs are JSON lines with trace ids', 'orders in PostgreSQL with row locks', 'feature flags from YAML at start-up', 'uploads resized to three widths', 'timestamps stored in UTC'];
const RECORDS: Record<string, string> = {};
TOPICS.forEach((t, i) => (RECORDS[`.contextia/system/rationale/DEC-${100 + i}.md`] = rec(`DEC-${100 + i}`, t, `${t}. More words about ${t}.`)));
const Q = 'webhook retry invoice';
const strip = (s: string) => s.replace(/"ms": [\d.]+/g, '"ms": 0');

async function load(dir: string): Promise<{ set: ArtifactSet; close: () => void }> {
  const snapshot = await openSnapshot({ cwd: dir, kind: 'worktree' });
  const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
  return { set, close: () => snapshot.close() };
}

/** Run the steps searchAhead scheduled (each one a setImmediate). */
const drain = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

function warmRepo(): TestRepo {
  const r = makeRepo(RECORDS);
  r.commit('records');
  // cold, then warm: the keyword index and the vector plan stored for this set
  for (let i = 0; i < 2; i++) expect(runCli(['search', Q, '--json'], { cwd: r.dir }).code).toBe(0);
  return r;
}

describe('search ahead (keyword and semantic work while git lists the records)', () => {
  it('gives the keyword lane exactly the hits of its own search, only under the same key, query and limit, once', async () => {
    const r = warmRepo();
    const { set, close } = await load(r.dir);
    try {
      const key = keywordKeyOf(set.artifacts, set.key);
      const want = searchRecords(r.dir, set.artifacts, queryOf(Q), 50, set.key);
      expect(want.length).toBeGreaterThan(0);
      searchAhead(r.dir, Q, 50);
      await drain();
      expect(keywordsAhead(r.dir, 'another key', queryOf(Q), 50)).toBeUndefined();
      searchAhead(r.dir, Q, 50);
      await drain();
      expect(keywordsAhead(r.dir, key, queryOf('webhook retry'), 50)).toBeUndefined();
      searchAhead(r.dir, Q, 50);
      await drain();
      expect(keywordsAhead(r.dir, key, queryOf(Q), 10)).toBeUndefined();
      searchAhead(r.dir, Q, 50);
      await drain();
      expect(keywordsAhead(r.dir, key, queryOf(Q), 50)).toEqual(want);
      expect(keywordsAhead(r.dir, key, queryOf(Q), 50)).toBeUndefined(); // once
      // ended (the command is done): nothing is left to take
      searchAhead(r.dir, Q, 50);
      await drain();
      endSearchAhead();
      expect(keywordsAhead(r.dir, key, queryOf(Q), 50)).toBeUndefined();
    } finally {
      endSearchAhead();
      close();
    }
  });

  it('gives the semantic lane the same scores as scoring from the plan, and nothing to another embedder', async () => {
    const r = warmRepo();
    const { set, close } = await load(r.dir);
    try {
      const ids = set.artifacts.map((a) => a.id);
      const plain = await new EmbeddingLane(r.dir, set, new DefaultEmbedder(), -1).similar(Q, ids, 50);
      // what is done ahead: the question embedded as the lane embeds it, every record scored under this set's plan
      searchAhead(r.dir, Q, 50);
      await drain();
      const s = semanticAhead(r.dir, Q, 'default', new DefaultEmbedder().model)!;
      expect(s.qv).toEqual((await new DefaultEmbedder().embed([Q]))[0]);
      expect(s.plan?.key).toBe(set.key);
      expect(s.plan?.scores).toHaveLength(ids.length);
      searchAhead(r.dir, Q, 50);
      await drain();
      const withAhead = await new EmbeddingLane(r.dir, set, new DefaultEmbedder(), -1).similar(Q, ids, 50);
      expect(withAhead).toEqual(plain);
      // taken: a second lane finds nothing ahead
      expect(semanticAhead(r.dir, Q, 'default', new DefaultEmbedder().model)).toBeUndefined();
      // another text or another model: never taken
      searchAhead(r.dir, Q, 50);
      await drain();
      expect(semanticAhead(r.dir, 'other words', 'default', new DefaultEmbedder().model)).toBeUndefined();
      searchAhead(r.dir, Q, 50);
      await drain();
      expect(semanticAhead(r.dir, Q, 'default', 'another-model')).toBeUndefined();
      // an embedder with other settings embeds the question itself (same answer as without ahead)
      searchAhead(r.dir, Q, 50);
      await drain();
      const custom = new DefaultEmbedder({ a: 1e-3 });
      expect(custom.standard).toBe(false);
      const got = await new EmbeddingLane(r.dir, set, custom, -1).similar(Q, ids, 50);
      endSearchAhead();
      expect(got).toEqual(await new EmbeddingLane(r.dir, set, new DefaultEmbedder({ a: 1e-3 }), -1).similar(Q, ids, 50));
    } finally {
      endSearchAhead();
      close();
    }
  });

  it('after an edit the stored index and plan are the old set\'s: read ahead, never taken; answers equal those with caches off', async () => {
    const r = warmRepo();
    const file = path.join(r.dir, '.contextia/system/rationale/DEC-101.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace('invoice totals', 'webhook invoice totals'));
    r.commit('edit');
    const { set, close } = await load(r.dir);
    try {
      const ids = set.artifacts.map((a) => a.id);
      searchAhead(r.dir, Q, 50);
      await drain();
      // what was read ahead is the old set's (its key), so neither lane takes it
      expect(keywordsAhead(r.dir, keywordKeyOf(set.artifacts, set.key), queryOf(Q), 50)).toBeUndefined();
      const got = await new EmbeddingLane(r.dir, set, new DefaultEmbedder(), -1).similar(Q, ids, 50);
      endSearchAhead();
      const old = process.env.GIT_CTX_NO_CACHE;
      process.env.GIT_CTX_NO_CACHE = '1';
      try {
        expect(got).toEqual(await new EmbeddingLane(r.dir, set, new DefaultEmbedder(), -1).similar(Q, ids, 50));
      } finally {
        if (old === undefined) delete process.env.GIT_CTX_NO_CACHE;
        else process.env.GIT_CTX_NO_CACHE = old;
      }
    } finally {
      endSearchAhead();
      close();
    }
  });

  it('git ctx search answers warm, after an edit and warm again exactly as with every cache off', () => {
    const r = warmRepo();
    const run = (env: NodeJS.ProcessEnv = {}) => strip(runCli(['search', Q, '--json'], { cwd: r.dir, env }).stdout);
    expect(run()).toEqual(run({ GIT_CTX_NO_CACHE: '1' }));
    const file = path.join(r.dir, '.contextia/system/rationale/DEC-101.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace('invoice totals', 'webhook invoice totals'));
    r.commit('edit');
    expect(run()).toEqual(run({ GIT_CTX_NO_CACHE: '1' }));
    expect(run()).toEqual(run({ GIT_CTX_NO_CACHE: '1' }));
  });
});
