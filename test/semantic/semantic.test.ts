import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { DefaultEmbedder } from '../../src/semantic/embedder.js';
import { readVectorFile } from '../../src/cache/vectors.js';
import { CACHE_REL } from '../helpers/cache.js';

const rec = (id: string, title: string, summary: string, body: string) =>
  `---\nid: ${id}\ntype: decision\ntitle: "${title}"\nstatus: accepted\nsummary: "${summary}"\n---\n\n# ${title}\n\n${body}\n`;

/** Invented records, each described without the words the questions below use. */
const RECORDS: Record<string, string> = {
  'DEC-CACHE': rec('DEC-CACHE', 'Cache product pages at the edge for five minutes', 'Product pages are cached by the CDN for 300 seconds.', 'The CDN keeps rendered product pages for 300 seconds; a purge hook runs on price updates.'),
  'DEC-AUTH': rec('DEC-AUTH', 'Sessions use signed cookies', 'Login state lives in an HMAC-signed cookie, not in the database.', 'The session cookie is signed with a rotating secret and expires after 12 hours.'),
  'DEC-QUEUE': rec('DEC-QUEUE', 'Emails go through a background queue', 'Outgoing mail is queued and sent by a worker.', 'Mail is queued; the worker sends it with three attempts and parks failures for review.'),
  'DEC-LOGS': rec('DEC-LOGS', 'Structured JSON logs', 'Services log one JSON object per line.', 'Every service writes JSON lines with a trace id; the collector indexes them.'),
  'DEC-MONEY': rec('DEC-MONEY', 'Amounts stored as integer cents', 'Prices and totals are integers in minor units.', 'Floating point rounding lost pennies on invoices; amounts are now integer cents.'),
  'DEC-DB': rec('DEC-DB', 'PostgreSQL for orders', 'Orders live in PostgreSQL with row-level locks.', 'The order table is in PostgreSQL; concurrent updates take row locks.'),
  'DEC-FLAGS': rec('DEC-FLAGS', 'Feature flags in configuration files', 'Flags are read from YAML at start-up.', 'Feature toggles are declared in YAML and read once when the service starts.'),
  'DEC-IMG': rec('DEC-IMG', 'Images resized on upload', 'Uploads are resized to three widths.', 'Uploaded pictures are scaled to three widths and stored in object storage.'),
  'DEC-TEST': rec('DEC-TEST', 'Contract tests between services', 'Each consumer publishes the requests it makes.', 'Consumers publish the requests they make; providers verify them in CI.'),
  'DEC-TZ': rec('DEC-TZ', 'Timestamps in UTC', 'All times are stored in UTC.', 'Times are stored in UTC and shown in the viewer zone.'),
};

/**
 * Questions in other words. Keywords alone find the first and third (a body word matches) but
 * miss the second; the slot brings it to the top without losing the others.
 */
const PARAPHRASES: [string, string][] = [
  ['how do we keep the storefront quick for shoppers', 'DEC-CACHE'],
  ['how are letters to customers delivered', 'DEC-QUEUE'],
  ['why no decimals for money', 'DEC-MONEY'],
];

function repo(extra: Record<string, string> = {}): TestRepo {
  const files: Record<string, string> = {};
  for (const [id, text] of Object.entries(RECORDS)) files[`.contextia/system/rationale/${id}.md`] = text;
  const r = makeRepo({ ...files, ...extra });
  r.commit('records');
  return r;
}

const vectorsDir = (r: TestRepo) => path.join(r.dir, `${CACHE_REL}/vectors`);
const json = (out: { stdout: string; stderr: string; code: number }) => {
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  return JSON.parse(out.stdout) as Record<string, unknown>;
};

describe('the default embedder', () => {
  it('is deterministic: the same vectors across instances and runs', async () => {
    const a = new DefaultEmbedder();
    const b = new DefaultEmbedder();
    const texts = ['Idempotency keys stop duplicate charges', 'rateLimitWebhook_delivery retries with backoff'];
    const [x, y] = [await a.embed(texts), await b.embed(texts)];
    expect(x[0]!.length).toBe(100);
    expect(Array.from(x[0]!)).toEqual(Array.from(y[0]!));
    expect(Array.from(x[1]!)).toEqual(Array.from(y[1]!));
    expect(x[0]!.some((v) => v !== 0)).toBe(true);
    // identifiers are split: the camelCase form means what the words mean
    const [split, words] = await a.embed(['rateLimitWebhook', 'rate limit webhook']);
    expect(Array.from(split!)).toEqual(Array.from(words!));
    // and two processes agree byte for byte on what they cache
    const r1 = repo();
    const r2 = repo();
    json(runCli(['vectors', 'embed', '--json'], { cwd: r1.dir }));
    json(runCli(['vectors', 'embed', '--json'], { cwd: r2.dir }));
    const f = readdirSync(vectorsDir(r1));
    expect(f).toEqual(['default--glove-6b-100d-sif-1.bin']);
    expect(readFileSync(path.join(vectorsDir(r1), f[0]!)).equals(readFileSync(path.join(vectorsDir(r2), f[0]!)))).toBe(true);
  });
});

describe('the semantic slot in git ctx search', () => {
  it('ranks the paraphrased answers higher than keywords alone', () => {
    const r = repo();
    const rr = (env: NodeJS.ProcessEnv) => {
      let sum = 0;
      const ranks: number[] = [];
      for (const [q, id] of PARAPHRASES) {
        const j = json(runCli(['search', ...q.split(' '), '--json', '--cap', 'fused=10'], { cwd: r.dir, env })) as { results: { id: string; relevance: number }[]; slots: Record<string, { status: string }> };
        // relevance is printed to three places, a record found by meaning alone included
        for (const x of j.results) expect(Math.round(x.relevance * 1000) / 1000).toBe(x.relevance);
        const rank = j.results.findIndex((x) => x.id === id);
        ranks.push(rank);
        if (rank >= 0) sum += 1 / (rank + 1);
        expect(j.slots.semantic!.status).toBe(env.GIT_CTX_EMBED_PROVIDER === 'off' ? 'not-configured' : 'ok');
      }
      return { mrr: sum / PARAPHRASES.length, ranks };
    };
    const off = rr({ GIT_CTX_EMBED_PROVIDER: 'off' });
    const on = rr({});
    expect(on.mrr, `ranks with the slot ${JSON.stringify(on.ranks)}, without ${JSON.stringify(off.ranks)}`).toBeGreaterThan(off.mrr);
    expect(on.mrr).toBeGreaterThanOrEqual(0.5);
  });

  it('reports an unknown provider as a failed slot and still answers; config can turn it off', () => {
    const r = repo({ '.contextia/config.yaml': 'semantic:\n  provider: nonsense\n' });
    const j = json(runCli(['search', 'integer', 'cents', '--json'], { cwd: r.dir })) as { results: { id: string }[]; slots: Record<string, { status: string; message?: string }> };
    expect(j.results[0]!.id).toBe('DEC-MONEY');
    expect(j.slots.semantic).toMatchObject({ status: 'failed' });
    expect(j.slots.semantic!.message).toMatch(/unknown semantic provider "nonsense"/);
    const bad = runCli(['vectors', 'status'], { cwd: r.dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/\.contextia\/config\.yaml: unknown semantic provider "nonsense" \(semantic\.provider\): expected default, openai, gemini, onnx, off/);
    const env = runCli(['vectors', 'status'], { cwd: r.dir, env: { GIT_CTX_EMBED_PROVIDER: 'bogus' } });
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/unknown semantic provider "bogus" \(GIT_CTX_EMBED_PROVIDER\)/);
    expect(env.stderr).not.toMatch(/config\.yaml/);
    r.commit('off', { '.contextia/config.yaml': 'semantic:\n  provider: off\n' });
    const off = json(runCli(['search', 'integer', 'cents', '--json'], { cwd: r.dir })) as { slots: Record<string, { status: string }> };
    expect(off.slots.semantic!.status).toBe('not-configured');
    expect(runCli(['vectors', 'embed'], { cwd: r.dir }).code).toBe(2);
  });
});

describe('git ctx vectors', () => {
  it('status, embed and clean: counts, caching, invalidation on edit, per-provider files', () => {
    const r = repo();
    const st0 = json(runCli(['vectors', 'status', '--json'], { cwd: r.dir }));
    expect(st0).toMatchObject({ provider: 'default', model: 'glove-6b-100d-sif-1', embedded: 0, missing: 10, orphaned: 0, records: 10 });

    const e1 = json(runCli(['vectors', 'embed', '--json'], { cwd: r.dir }));
    expect(e1).toMatchObject({ embedded: 10, records: 10 });
    const e2 = json(runCli(['vectors', 'embed', '--json'], { cwd: r.dir }));
    expect(e2).toMatchObject({ embedded: 0, records: 10 });
    expect(json(runCli(['vectors', 'status', '--json'], { cwd: r.dir }))).toMatchObject({ embedded: 10, missing: 0, orphaned: 0 });
    const file = path.join(vectorsDir(r), 'default--glove-6b-100d-sif-1.bin');
    const before = readVectorFile(file)!;
    expect(before.entries.size).toBe(10);

    // edit one record (working tree): its old vector is orphaned, the new text is missing
    r.write({ '.contextia/system/rationale/DEC-TZ.md': RECORDS['DEC-TZ']!.replace('viewer zone', "reader's local zone") });
    expect(json(runCli(['vectors', 'status', '--json'], { cwd: r.dir }))).toMatchObject({ embedded: 9, missing: 1, orphaned: 1 });
    const human = runCli(['vectors', 'status'], { cwd: r.dir });
    expect(human.stdout).toMatch(/default\/glove-6b-100d-sif-1 \(current\): 9 embedded, 1 missing, 1 orphaned/);
    expect(human.stdout).toMatch(/git ctx vectors embed/);
    // a search embeds what is missing on demand and caches it
    json(runCli(['search', 'time', 'zone', '--json'], { cwd: r.dir }));
    expect(json(runCli(['vectors', 'status', '--json'], { cwd: r.dir }))).toMatchObject({ embedded: 10, missing: 0, orphaned: 1 });
    expect(readVectorFile(file)!.entries.size).toBe(11);

    const cleaned = json(runCli(['vectors', 'clean', '--json'], { cwd: r.dir }));
    expect(cleaned).toMatchObject({ removedEntries: 1, removedFiles: [] });
    expect(json(runCli(['vectors', 'status', '--json'], { cwd: r.dir }))).toMatchObject({ embedded: 10, missing: 0, orphaned: 0 });
    const after = readVectorFile(file)!;
    // unchanged records kept exactly the vectors they had
    let same = 0;
    for (const [k, v] of after.entries) {
      if (!before.entries.has(k)) continue;
      expect(Array.from(v)).toEqual(Array.from(before.entries.get(k)!));
      same++;
    }
    expect(same).toBe(9);

    // another provider's vectors live in their own file and are never read as ours
    const other = new Map<string, Float32Array>([['00'.repeat(16), new Float32Array(3).fill(1)]]);
    return import('../../src/cache/vectors.js').then(({ writeVectorFile }) => {
      writeVectorFile(path.join(vectorsDir(r), 'openai--text-embedding-3-small.bin'), { provider: 'openai', model: 'text-embedding-3-small', dims: 3, entries: other });
      const st = json(runCli(['vectors', 'status', '--json'], { cwd: r.dir })) as { embedded: number; providers: { provider: string; current: boolean; embedded: number; missing: number; orphaned: number }[] };
      expect(st.embedded).toBe(10);
      expect(st.providers).toEqual([
        expect.objectContaining({ provider: 'default', current: true, embedded: 10, missing: 0, orphaned: 0 }),
        expect.objectContaining({ provider: 'openai', current: false, embedded: 0, missing: 10, orphaned: 1 }),
      ]);
      expect(json(runCli(['search', 'time', 'zone', '--json'], { cwd: r.dir }))).toBeTruthy();
      expect(readVectorFile(path.join(vectorsDir(r), 'openai--text-embedding-3-small.bin'))!.entries.size).toBe(1);
      // clean drops the other provider's orphan (its file is then empty, so deleted); --all deletes the rest
      const c = json(runCli(['vectors', 'clean', '--json'], { cwd: r.dir })) as { removedFiles: string[] };
      expect(c.removedFiles.map((f) => path.basename(f))).toEqual(['openai--text-embedding-3-small.bin']);
      const all = runCli(['vectors', 'clean', '--all'], { cwd: r.dir });
      expect(all.code).toBe(0);
      expect(all.stdout).toMatch(/1 file deleted/);
      expect(readdirSync(vectorsDir(r))).toEqual([]);
    });
  });

  it('has help with examples and rejects unknown subcommands', () => {
    const r = repo();
    const h = runCli(['vectors', '--help'], { cwd: r.dir });
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/git ctx vectors status --json/);
    expect(runCli(['vectors', 'status', '--help'], { cwd: r.dir }).stdout).toMatch(/Exit codes/);
    expect(runCli(['vectors', 'bogus'], { cwd: r.dir }).code).toBe(2);
  });
});
