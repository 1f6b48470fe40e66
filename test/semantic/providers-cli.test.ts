import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { readVectorFile } from '../../src/cache/vectors.js';
import { DIMS, fakeServer, openaiAnswer, runCliAsync, sendJson } from './fake-embed-server.js';
import { CACHE_REL } from '../helpers/cache.js';

const KEY = 'sk-test-SECRET-77e1b0';
const rec = (id: string, title: string, body: string) => `---\nid: ${id}\ntype: decision\ntitle: "${title}"\nstatus: accepted\n---\n\n# ${title}\n\n${body}\n`;
const RECORDS: Record<string, string> = {
  'DEC-CENTS': rec('DEC-CENTS', 'Amounts stored as integer cents', 'Floating point rounding lost pennies on invoices; amounts are integer cents.'),
  'DEC-QUEUE': rec('DEC-QUEUE', 'Emails go through a background queue', 'Outgoing mail is queued and sent by a worker.'),
  'DEC-CACHE': rec('DEC-CACHE', 'Cache product pages at the edge', 'The CDN keeps rendered pages for 300 seconds.'),
  'DEC-AUTH': rec('DEC-AUTH', 'Sessions use signed cookies', 'Login state lives in a signed cookie.'),
  'DEC-TZ': rec('DEC-TZ', 'Timestamps in UTC', 'Times are stored in UTC and shown in the viewer zone.'),
};

function repo(config = ''): TestRepo {
  const files: Record<string, string> = {};
  for (const [id, text] of Object.entries(RECORDS)) files[`.contextia/system/rationale/${id}.md`] = text;
  if (config) files['.contextia/config.yaml'] = config;
  const r = makeRepo(files);
  r.commit('records');
  return r;
}

/** No provider variables from the machine running the tests. */
const CLEAN: NodeJS.ProcessEnv = { GIT_CTX_EMBED_PROVIDER: '', GIT_CTX_EMBED_URL: '', GIT_CTX_EMBED_MODEL: '', GIT_CTX_EMBED_API_KEY: '', OPENAI_API_KEY: '', GEMINI_API_KEY: '', GOOGLE_API_KEY: '' };
const openai = (url: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ ...CLEAN, GIT_CTX_EMBED_PROVIDER: 'openai', GIT_CTX_EMBED_URL: url, GIT_CTX_EMBED_MODEL: 'fake-embed', GIT_CTX_EMBED_API_KEY: KEY, ...extra });

/** Every file under a directory, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const f = path.join(dir, n);
    return statSync(f).isDirectory() ? filesUnder(f) : [f];
  });
}

const HAS_SCRIPT = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

interface SearchJson {
  results: { id: string; why: { kind: string; text: string; embedder?: string }[] }[];
  slots: Record<string, { status: string; message?: string; embedder?: string }>;
}

describe('git ctx search with a model provider (a local OpenAI-compatible server)', () => {
  it('ranks by the server’s vectors, records the embedder, caches per provider and never writes the key', async () => {
    const s = await fakeServer((req, res) => sendJson(res, 200, openaiAnswer(req.body)));
    servers.push(s);
    const r = repo();
    const q = ['search', 'why', 'no', 'decimals', 'for', 'money', '--json'];

    // the default embedder first: its own vectors, its own file
    const d = await runCliAsync(q, { cwd: r.dir, env: { ...CLEAN, GIT_CTX_EMBED_PROVIDER: 'default' } });
    expect(d.code).toBe(0);
    expect((JSON.parse(d.stdout) as SearchJson).slots.semantic!.embedder).toBe('default:glove-6b-100d-sif-1');

    const off = await runCliAsync(q, { cwd: r.dir, env: { ...CLEAN, GIT_CTX_EMBED_PROVIDER: 'off' } });
    expect((JSON.parse(off.stdout) as SearchJson).results.map((x) => x.id)).not.toContain('DEC-CENTS');

    const o = await runCliAsync(q, { cwd: r.dir, env: openai(s.url) });
    expect(o.stderr).toBe('');
    expect(o.code).toBe(0);
    const j = JSON.parse(o.stdout) as SearchJson;
    expect(j.slots.semantic).toMatchObject({ status: 'ok', embedder: 'openai:fake-embed' });
    expect(j.results[0]!.id).toBe('DEC-CENTS');
    const why = j.results[0]!.why.find((w) => w.kind === 'semantic')!;
    expect(why.embedder).toBe('openai:fake-embed');
    expect(why.text).toMatch(/^similar in meaning \(0\.\d+, openai:fake-embed\)$/);
    // the query, then the records in one batch; every request with the key as a bearer token
    expect(s.seen.map((x) => (x.body as { input: string[] }).input.length)).toEqual([1, 5]);
    expect(s.seen.every((x) => x.headers.authorization === `Bearer ${KEY}` && x.path === '/v1/embeddings')).toBe(true);

    // cached by (provider, model, content): a second search sends the query only. A record's
    // stat is touched (its content unchanged) so that the first search's answer, kept when the
    // records were older than RACY_MS (a loaded machine), is not served without any embedding
    const touched = path.join(r.dir, '.contextia/system/rationale/DEC-CENTS.md');
    utimesSync(touched, new Date(), new Date());
    const again = await runCliAsync(q, { cwd: r.dir, env: openai(s.url) });
    expect(again.code).toBe(0);
    expect(s.seen).toHaveLength(3);

    // one file per provider and model, never mixed
    const dir = path.join(r.dir, `${CACHE_REL}/vectors`);
    expect(readdirSync(dir).sort()).toEqual(['default--glove-6b-100d-sif-1.bin', 'openai--fake-embed.bin']);
    const of = readVectorFile(path.join(dir, 'openai--fake-embed.bin'))!;
    expect([of.provider, of.model, of.dims, of.entries.size]).toEqual(['openai', 'fake-embed', DIMS, 5]);
    expect(readVectorFile(path.join(dir, 'default--glove-6b-100d-sif-1.bin'))!.dims).toBe(100);

    // status per provider
    const st = await runCliAsync(['vectors', 'status', '--format', 'json'], { cwd: r.dir, env: openai(s.url) });
    expect(st.code).toBe(0);
    const status = JSON.parse(st.stdout) as { provider: string; model: string; embedded: number; missing: number; orphaned: number; embedder: string; url: string; providers: { provider: string; embedded: number }[] };
    expect(status).toMatchObject({ provider: 'openai', model: 'fake-embed', embedded: 5, missing: 0, orphaned: 0, embedder: 'openai:fake-embed', url: s.url + '/' });
    expect(status.providers.map((p) => [p.provider, p.embedded])).toEqual([
      ['openai', 5],
      ['default', 5],
    ]);

    // the key is in no output and no file git-ctx wrote
    for (const out of [d, o, again, st]) expect(out.stdout + out.stderr).not.toContain(KEY);
    for (const f of filesUnder(path.join(r.dir, '.git/ctx'))) expect(readFileSync(f).includes(KEY), f).toBe(false);
  });

  it('a model that changes length under the same name: every record is embedded again, never mixed', async () => {
    let dims = DIMS;
    const s = await fakeServer((req, res) => {
      const a = openaiAnswer(req.body) as { data: { embedding: number[] }[] };
      for (const d of a.data) d.embedding = d.embedding.slice(0, dims);
      sendJson(res, 200, a);
    });
    servers.push(s);
    const r = repo();
    const q = ['search', 'why', 'no', 'decimals', 'for', 'money', '--json'];
    expect((await runCliAsync(q, { cwd: r.dir, env: openai(s.url) })).code).toBe(0);
    dims = 4;
    const o = await runCliAsync(q, { cwd: r.dir, env: openai(s.url) });
    expect(o.code).toBe(0);
    const j = JSON.parse(o.stdout) as SearchJson;
    expect(j.slots.semantic!.status).toBe('ok');
    expect(j.results[0]!.id).toBe('DEC-CENTS');
    // query and records, then the new query and every record again
    expect(s.seen.map((x) => (x.body as { input: string[] }).input.length)).toEqual([1, 5, 1, 5]);
    expect(readVectorFile(path.join(r.dir, `${CACHE_REL}/vectors/openai--fake-embed.bin`))!.dims).toBe(4);
  });

  it('a failing provider: search still answers and says why (provider, URL, what to check); vectors embed exits 2; no key shown', async () => {
    const s = await fakeServer((_req, res) => sendJson(res, 401, { error: { message: `Incorrect API key provided: ${KEY}` } }));
    servers.push(s);
    const r = repo();
    const o = await runCliAsync(['search', 'signed', 'cookies', '--json'], { cwd: r.dir, env: openai(s.url) });
    expect(o.code).toBe(0);
    const j = JSON.parse(o.stdout) as SearchJson;
    expect(j.results[0]!.id).toBe('DEC-AUTH');
    expect(j.slots.semantic!.status).toBe('failed');
    expect(j.slots.semantic!.message).toContain(`openai embeddings at ${s.url}/v1/embeddings: 401`);
    expect(j.slots.semantic!.message).toContain('check the API key (GIT_CTX_EMBED_API_KEY or OPENAI_API_KEY)');
    const e = await runCliAsync(['vectors', 'embed'], { cwd: r.dir, env: openai(s.url) });
    expect(e.code).toBe(2);
    expect(e.stderr).toContain(`openai embeddings at ${s.url}/v1/embeddings: 401`);
    for (const out of [o, e]) expect(out.stdout + out.stderr).not.toContain(KEY);
  });

  it('vectors embed: batches of semantic.batch_size, a progress bar on a TTY only (stderr)', async () => {
    const s = await fakeServer((req, res) => sendJson(res, 200, openaiAnswer(req.body)));
    servers.push(s);
    const r = repo('semantic:\n  batch_size: 2\n');
    const plain = await runCliAsync(['vectors', 'embed'], { cwd: r.dir, env: openai(s.url) });
    expect(plain.code).toBe(0);
    expect(plain.stderr).toBe('');
    expect(plain.stdout).toBe('openai/fake-embed: embedded 5 records in ' + /in (\d+) ms/.exec(plain.stdout)![1] + ' ms (5 records)\n');
    expect(s.seen.map((x) => (x.body as { input: string[] }).input.length)).toEqual([2, 2, 1]);
  });

  // a pseudo-terminal through util-linux `script`; the bar redraws per batch
  it.skipIf(!HAS_SCRIPT)('vectors embed on a terminal: the progress bar', async () => {
    const s = await fakeServer((req, res) => sendJson(res, 200, openaiAnswer(req.body)));
    servers.push(s);
    const r2 = repo('semantic:\n  batch_size: 2\n');
    const tty = await new Promise<string>((resolve, reject) => {
      const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} vectors embed`;
      execFile('script', ['-qec', cmd, '/dev/null'], { cwd: r2.dir, env: { ...process.env, ...openai(s.url), NO_COLOR: '1' } }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
    });
    expect(tty).toContain('embedding [############');
    expect(tty).toContain('] 2/5');
    expect(tty).toContain('] 5/5');
    expect(tty).toContain('embedded 5 records');
  });
});
