import { readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadArtifactSet, type ArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { readVectorFile, readVectorPlan } from '../../src/cache/vectors.js';
import { DefaultEmbedder } from '../../src/semantic/embedder.js';
import { EmbeddingLane } from '../../src/semantic/lane.js';
import { recordVectors } from '../../src/semantic/vectors.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { CACHE_REL } from '../helpers/cache.js';

// The vector file's plan of a set's records (DEC-037): a warm query scores every record from
// the plan's rows and divisors; the scores must be those computed from the records' vectors.

const rec = (id: string, title: string, body: string) => `---\nid: ${id}\ntype: decision\ntitle: "${title}"\nstatus: accepted\n---\n\n# ${title}\n\n${body}\n`;
const TOPICS = ['webhook deliveries retry with backoff', 'invoice totals are rounded in cents', 'sessions live in signed cookies', 'mail is queued for a worker', 'product pages cached at the edge', 'logs are JSON lines with trace ids', 'orders in PostgreSQL with row locks', 'feature flags from YAML at start-up', 'uploads resized to three widths', 'timestamps stored in UTC', 'contract tests between services', 'rate limits per sender token bucket'];
const RECORDS: Record<string, string> = {};
TOPICS.forEach((t, i) => (RECORDS[`.contextia/system/rationale/DEC-${100 + i}.md`] = rec(`DEC-${100 + i}`, t, `${t}. More words about ${t}.`)));

const QUESTIONS = ['how are letters to customers delivered', 'why no decimals for money', 'what keeps the storefront quick', 'zzzz'];
const FILE = (r: TestRepo) => path.join(r.dir, `${CACHE_REL}/vectors/default--glove-6b-100d-sif-1.bin`);

async function load(dir: string): Promise<{ set: ArtifactSet; close: () => void }> {
  const snapshot = await openSnapshot({ cwd: dir, kind: 'worktree' });
  const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
  return { set, close: () => snapshot.close() };
}

/** Every record's score for each question (threshold −1: none left out), through a lane. */
async function scores(dir: string, set: ArtifactSet, ids = set.artifacts.map((a) => a.id)): Promise<{ id: string; score: number }[][]> {
  const lane = new EmbeddingLane(dir, set, new DefaultEmbedder(), -1);
  const out = [];
  for (const q of QUESTIONS) out.push(await lane.similar(q, ids, 1000));
  return out;
}

/** The same scores with every cache off: the vectors embedded now, no plan. */
async function uncached(dir: string): Promise<{ id: string; score: number }[][]> {
  const old = process.env.GIT_CTX_NO_CACHE;
  process.env.GIT_CTX_NO_CACHE = '1';
  try {
    const { set, close } = await load(dir);
    try {
      // no vector directory: every record embedded now, no plan read or written
      return await scores(dir, set);
    } finally {
      close();
    }
  } finally {
    if (old === undefined) delete process.env.GIT_CTX_NO_CACHE;
    else process.env.GIT_CTX_NO_CACHE = old;
  }
}

/** Scores from a warm set (second query: the plan is read), checked against the uncached ones. */
async function warmScores(r: TestRepo): Promise<{ set: ArtifactSet; got: { id: string; score: number }[][] }> {
  const { set, close } = await load(r.dir);
  try {
    expect(set.key).toMatch(/^[0-9a-f]{64}$/);
    const first = await scores(r.dir, set);
    expect(readVectorFile(FILE(r))?.plan).toBe(set.key);
    expect(readVectorPlan(FILE(r), set.key!)).toBeDefined();
    const second = await scores(r.dir, set);
    expect(second).toEqual(first);
    expect(second).toEqual(await uncached(r.dir));
    return { set, got: second };
  } finally {
    close();
  }
}

describe('the vector plan of a set (warm semantic scores)', () => {
  it('scores every record exactly as the vectors do, and is what a warm query reads', async () => {
    const r = makeRepo(RECORDS);
    r.commit('records');
    const { set, got } = await warmScores(r);
    expect(got[0]).toHaveLength(TOPICS.length);
    // the plan is read: its divisors doubled, every nonzero score halves
    const buf = readFileSync(FILE(r));
    const plan = readVectorPlan(FILE(r), set.key!)!;
    const normsAt = buf.length - plan.plan.norms.length * 8;
    const doubled = Buffer.from(buf);
    for (let i = 0; i < plan.plan.norms.length; i++) doubled.writeDoubleLE(buf.readDoubleLE(normsAt + i * 8) * 2, normsAt + i * 8);
    writeFileSync(FILE(r), doubled);
    const { set: again, close } = await load(r.dir);
    try {
      const halved = await scores(r.dir, again);
      const byId = (xs: { id: string; score: number }[]) => new Map(xs.map((x) => [x.id, x.score]));
      const want = byId(got[0]!);
      for (const [id, s] of byId(halved[0]!)) expect(s).toBeCloseTo(want.get(id)! / 2, 12);
      // the best few: those a sort of every score gives first (only they are kept)
      const lane = new EmbeddingLane(r.dir, again, new DefaultEmbedder(), -1);
      const all = again.artifacts.map((a) => a.id);
      for (const q of QUESTIONS) for (const k of [1, 2, 3]) expect(await lane.similar(q, all, k)).toEqual((await lane.similar(q, all, 1000)).slice(0, k));
      // ids other than the set's, in its order: scored from the vectors (no plan), as before
      writeFileSync(FILE(r), buf);
      const ids = again.artifacts.map((a) => a.id).reverse();
      expect(await scores(r.dir, again, ids)).toEqual(await scores(r.dir, again));
    } finally {
      close();
    }
  });

  it('follows records edited, added and removed, and the config (the set key)', async () => {
    const r = makeRepo(RECORDS);
    r.commit('records');
    const keys = [(await warmScores(r)).set.key];
    // edited in the work tree only, then committed
    r.write({ '.contextia/system/rationale/DEC-100.md': rec('DEC-100', 'letters to customers are posted', 'Posted letters, stamps and envelopes.') });
    keys.push((await warmScores(r)).set.key);
    r.commit('edit');
    keys.push((await warmScores(r)).set.key);
    // added, untracked
    r.write({ '.contextia/system/rationale/DEC-200.md': rec('DEC-200', 'money is kept in integer cents', 'No floating point for amounts.') });
    const added = await warmScores(r);
    expect(added.got[1]!.map((x) => x.id)).toContain('DEC-200');
    keys.push(added.set.key);
    // removed
    rmSync(path.join(r.dir, '.contextia/system/rationale/DEC-200.md'));
    const removed = await warmScores(r);
    expect(removed.got[1]!.map((x) => x.id)).not.toContain('DEC-200');
    keys.push(removed.set.key);
    // the config
    r.write({ '.contextia/config.yaml': 'semantic:\n  threshold: 0.1\n' });
    keys.push((await warmScores(r)).set.key);
    expect(new Set(keys).size).toBe(keys.length - 2); // edit committed = edit in the tree; removed = before added
  });

  it('another embedder (model or dimension) never reads the plan; a damaged plan is a miss', async () => {
    const r = makeRepo(RECORDS);
    r.commit('records');
    const { set, close } = await load(r.dir);
    try {
      await scores(r.dir, set);
      expect(readVectorPlan(FILE(r), set.key!)).toBeDefined();
      expect(readVectorPlan(FILE(r), 'f'.repeat(64))).toBeUndefined();
      // another model: its own file, no plan until it has scored once
      const otherModel = Object.assign(new DefaultEmbedder(), { model: 'other-model' }) as unknown as DefaultEmbedder;
      const other = new EmbeddingLane(r.dir, set, otherModel, -1);
      const ids = set.artifacts.map((a) => a.id);
      const a = await other.similar(QUESTIONS[0]!, ids, 1000);
      expect(await other.similar(QUESTIONS[0]!, ids, 1000)).toEqual(a);
      expect(readVectorFile(path.join(path.dirname(FILE(r)), 'default--other-model.bin'))?.plan).toBe(set.key);
      // a query of another length than the file's vectors: the vectors are embedded again, no plan read
      class Shorter extends DefaultEmbedder {
        override embed(texts: readonly string[]): Promise<Float32Array[]> {
          return super.embed(texts).then((vs) => vs.map((v) => v.slice(0, 50)));
        }
      }
      const short = await new EmbeddingLane(r.dir, set, new Shorter(), -1).similar(QUESTIONS[0]!, ids, 1000);
      expect(short).toHaveLength(ids.length);
      expect(readVectorFile(FILE(r))?.dims).toBe(50);
      await scores(r.dir, set);
      expect(readVectorFile(FILE(r))?.dims).toBe(100);
      // a row past the vectors, a file cut short: misses, and the next query writes a good plan
      const good = readFileSync(FILE(r));
      const p = readVectorPlan(FILE(r), set.key!)!;
      const bad = Buffer.from(good);
      const rowsAt = good.length - p.plan.norms.length * 8 - ((p.plan.rows.length * 4 + 7) & ~7);
      bad.writeUInt32LE(1e6, rowsAt);
      writeFileSync(FILE(r), bad);
      expect(readVectorPlan(FILE(r), set.key!)).toBeUndefined();
      expect(await scores(r.dir, set)).toEqual(await uncached(r.dir));
      truncateSync(FILE(r), good.length - 3);
      expect(readVectorPlan(FILE(r), set.key!)).toBeUndefined();
      expect(readVectorFile(FILE(r))).toBeUndefined();
      expect(await scores(r.dir, set)).toEqual(await uncached(r.dir));
      expect(readVectorPlan(FILE(r), set.key!)).toBeDefined();
    } finally {
      close();
    }
  });

  it('recordVectors writes the plan once and keeps it while the set stays', async () => {
    const r = makeRepo(RECORDS);
    r.commit('records');
    const { set, close } = await load(r.dir);
    try {
      await recordVectors(r.dir, set, new DefaultEmbedder());
      const first = readFileSync(FILE(r));
      expect(readVectorFile(FILE(r))?.plan).toBe(set.key);
      await recordVectors(r.dir, set, new DefaultEmbedder());
      expect(readFileSync(FILE(r))).toEqual(first);
    } finally {
      close();
    }
  });

  it('git ctx search answers the same with the plan as with every cache off', async () => {
    const r = makeRepo(RECORDS);
    r.commit('records');
    const strip = (s: string) => s.replace(/"ms": [\d.]+/g, '"ms": 0');
    for (const q of QUESTIONS.slice(0, 3)) {
      const cold = await runCli(['search', q, '--json'], { cwd: r.dir, env: { GIT_CTX_NO_CACHE: '1' } });
      await runCli(['search', q, '--json'], { cwd: r.dir });
      const warm = await runCli(['search', q, '--json'], { cwd: r.dir });
      expect(warm.code).toBe(0);
      expect(strip(warm.stdout)).toEqual(strip(cold.stdout));
    }
  });
});
