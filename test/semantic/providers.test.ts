import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/git-repo.js';
import { embedderFor } from '../../src/semantic/lane.js';
import { GeminiEmbedder } from '../../src/semantic/providers/gemini.js';
import { ONNX_INSTALL, OnnxEmbedder } from '../../src/semantic/providers/onnx.js';
import { OpenAIEmbedder } from '../../src/semantic/providers/openai.js';
import { DIMS, fakeServer, fakeVector, openaiAnswer, sendJson } from './fake-embed-server.js';

const KEY = 'sk-test-SECRET-4f2a9c';
const servers: { close(): Promise<void> }[] = [];
const serve = async (...a: Parameters<typeof fakeServer>) => {
  const s = await fakeServer(...a);
  servers.push(s);
  return s;
};
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** The error an async call fails with (the test fails when it does not). */
async function failure(p: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await p;
  } catch (e) {
    return e as Error & { code?: string };
  }
  throw new Error('expected a failure');
}

describe('openai provider (OpenAI-compatible /v1/embeddings)', () => {
  it('posts {model, input}, sends the key as a bearer token, orders vectors by index and batches', async () => {
    const s = await serve((req, res) => sendJson(res, 200, openaiAnswer(req.body)));
    const e = new OpenAIEmbedder({ url: s.url, model: 'fake-embed', apiKey: KEY, batchSize: 2 });
    const texts = ['money in cents', 'letters to customers', 'quick storefront', 'signed cookie', 'utc clock'];
    const vs = await e.embed(texts);
    expect(vs.map((v) => Array.from(v))).toEqual(texts.map(fakeVector));
    expect(e.dims).toBe(DIMS);
    expect(s.seen.map((r) => (r.body as { input: string[] }).input.length)).toEqual([2, 2, 1]);
    for (const r of s.seen) {
      expect(r.method).toBe('POST');
      expect(r.path).toBe('/v1/embeddings');
      expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
      expect((r.body as { model: string }).model).toBe('fake-embed');
    }
  });

  it('accepts a URL that already ends in /v1 and sends no key when there is none (Ollama, llama.cpp)', async () => {
    const s = await serve((req, res) => sendJson(res, 200, openaiAnswer(req.body)));
    const e = new OpenAIEmbedder({ url: `${s.url}/v1/`, model: 'nomic-embed-text' });
    await e.embed(['one']);
    expect(s.seen[0]!.path).toBe('/v1/embeddings');
    expect(s.seen[0]!.headers.authorization).toBeUndefined();
  });

  it('a query in the URL (?api-version=…, ?key=…) stays on the endpoint and is never shown in errors', async () => {
    const s = await serve((req, res) => (req.path.includes('bad') ? sendJson(res, 404, { error: 'no' }) : sendJson(res, 200, openaiAnswer(req.body))));
    await new OpenAIEmbedder({ url: `${s.url}/openai/?api-version=2024-02-01&key=${KEY}#frag`, model: 'm' }).embed(['one']);
    expect(s.seen[0]!.path).toBe(`/openai/v1/embeddings?api-version=2024-02-01&key=${KEY}`);
    const err = await failure(new OpenAIEmbedder({ url: `${s.url}/v1?bad=1&key=${KEY}`, model: 'm' }).embed(['x']));
    expect(s.seen[1]!.path).toBe(`/v1/embeddings?bad=1&key=${KEY}`);
    expect(err.message).toContain(`openai embeddings at ${s.url}/v1/embeddings: 404`);
    expect(err.message).not.toContain(KEY);
    const g = await serve((req, res) => sendJson(res, 200, { embedding: { values: fakeVector('one') } }));
    await new GeminiEmbedder({ url: `${g.url}?alt=json`, model: 'gemini-embedding-001', apiKey: KEY }).embed(['one']);
    expect(g.seen[0]!.path).toBe('/v1beta/models/gemini-embedding-001:embedContent?alt=json');
  });

  it('401: names the provider, the URL and the key variables, and never shows the key', async () => {
    const s = await serve((_req, res) => sendJson(res, 401, { error: { message: `Incorrect API key provided: ${KEY}`, type: 'invalid_request_error' } }));
    const err = await failure(new OpenAIEmbedder({ url: s.url, model: 'm', apiKey: KEY }).embed(['x']));
    expect(err.message).toContain(`openai embeddings at ${s.url}/v1/embeddings: 401`);
    expect(err.message).toContain('check the API key (GIT_CTX_EMBED_API_KEY or OPENAI_API_KEY)');
    expect(err.message).not.toContain(KEY);
    expect(String((err as { cause?: unknown }).cause ?? '')).not.toContain(KEY);
    expect(s.seen).toHaveLength(1); // no retry on 401
  });

  it('404: says to check the model and the URL', async () => {
    const s = await serve((_req, res) => sendJson(res, 404, { error: 'model "nope" not found, try pulling it first' }));
    const err = await failure(new OpenAIEmbedder({ url: s.url, model: 'nope' }).embed(['x']));
    expect(err.message).toContain('404');
    expect(err.message).toContain('model "nope" not found');
    expect(err.message).toContain('check the model "nope" (semantic.model or GIT_CTX_EMBED_MODEL) and the URL');
  });

  it('429 with Retry-After: waits what the server asks (not the back-off) and succeeds', async () => {
    const s = await serve((req, res, n) => (n === 1 ? sendJson(res, 429, { error: { message: 'slow down' } }, { 'retry-after': '1' }) : sendJson(res, 200, openaiAnswer(req.body))));
    // a back-off of a minute would time the test out: only Retry-After can make it pass
    const e = new OpenAIEmbedder({ url: s.url, model: 'm', retryBaseMs: 60_000 });
    const t0 = performance.now();
    const [v] = await e.embed(['money']);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(900);
    expect(Array.from(v!)).toEqual(fakeVector('money'));
    expect(s.seen).toHaveLength(2);
  });

  it('5xx and dropped connections are retried with back-off; giving up says how many attempts', async () => {
    const s = await serve((req, res, n) => {
      if (n === 1) sendJson(res, 503, 'overloaded');
      else if (n === 2) res.socket?.destroy();
      else sendJson(res, 200, openaiAnswer(req.body));
    });
    await new OpenAIEmbedder({ url: s.url, model: 'm', retryBaseMs: 5 }).embed(['a']);
    expect(s.seen).toHaveLength(3);
    const busy = await serve((_req, res) => sendJson(res, 429, { error: { message: 'rate limited' } }, { 'retry-after': '0' }));
    const err = await failure(new OpenAIEmbedder({ url: busy.url, model: 'm', retries: 2, retryBaseMs: 5 }).embed(['a']));
    expect(err.message).toContain('429');
    expect(err.message).toContain('after 3 attempts');
    expect(err.message).toContain('rate limiting');
    expect(busy.seen).toHaveLength(3);
  });

  it('timeout: a server that never answers fails within the limit, naming URL and network', async () => {
    const s = await serve(() => {
      // never answers
    });
    const err = await failure(new OpenAIEmbedder({ url: s.url, model: 'm', timeoutMs: 300, retryBaseMs: 5 }).embed(['a']));
    expect(err.message).toContain(`openai embeddings at ${s.url}/v1/embeddings: no answer within 300 ms`);
    expect(err.message).toContain('check the URL (semantic.url or GIT_CTX_EMBED_URL) and the network');
    expect(s.seen).toHaveLength(1); // a timeout is not retried: the bound stays the bound
  });

  it('nothing listening: could not connect, after the retries', async () => {
    const s = await serve(() => undefined);
    const url = s.url;
    await s.close();
    const err = await failure(new OpenAIEmbedder({ url, model: 'm', retries: 1, retryBaseMs: 5 }).embed(['a']));
    expect(err.message).toContain('could not connect');
    expect(err.message).toContain('after 2 attempts');
    expect(err.message).toContain('check that the server is running');
  });

  it('malformed answers: wrong count, non-numeric, wrong dimension, bad index, not JSON', async () => {
    const cases: [string, (input: string[]) => unknown, string][] = [
      ['count', (input) => ({ data: input.slice(1).map((_, index) => ({ index, embedding: [1, 2] })) }), '1 vectors for 2 inputs'],
      ['non-numeric', (input) => ({ data: input.map((_, index) => ({ index, embedding: [1, 'two'] })) }), 'non-numeric value at position 1'],
      ['dimension', (input) => ({ data: input.map((_, index) => ({ index, embedding: index ? [1, 2, 3] : [1, 2] })) }), 'a vector of 3 dimensions where the others have 2'],
      ['index', (input) => ({ data: input.map(() => ({ index: 0, embedding: [1, 2] })) }), 'bad or repeated index 0'],
      ['no data', () => ({ result: [] }), 'no data array'],
      ['not JSON', () => '<html>proxy login</html>', 'the answer is not JSON'],
    ];
    for (const [name, answer, says] of cases) {
      const s = await serve((req, res) => sendJson(res, 200, answer((req.body as { input: string[] }).input)));
      const err = await failure(new OpenAIEmbedder({ url: s.url, model: 'm' }).embed(['a', 'b']));
      expect(err.message, name).toContain(says);
      expect(err.message, name).toContain(`openai embeddings at ${s.url}/v1/embeddings`);
    }
    // a later batch of another dimension than the first is malformed too
    const s = await serve((req, res, n) => sendJson(res, 200, { data: (req.body as { input: string[] }).input.map((_, index) => ({ index, embedding: n === 1 ? [1, 2] : [1, 2, 3] })) }));
    const err = await failure(new OpenAIEmbedder({ url: s.url, model: 'm', batchSize: 1 }).embed(['a', 'b']));
    expect(err.message).toContain('3 dimensions where the others have 2');
  });
});

describe('gemini provider (embedContent / batchEmbedContents)', () => {
  const answer = (req: { path: string; body: unknown }) =>
    req.path.endsWith(':embedContent')
      ? { embedding: { values: fakeVector((req.body as { content: { parts: { text: string }[] } }).content.parts[0]!.text) } }
      : { embeddings: (req.body as { requests: { content: { parts: { text: string }[] } }[] }).requests.map((r) => ({ values: fakeVector(r.content.parts[0]!.text) })) };

  it('one text: embedContent; several: batchEmbedContents in batches; the key in x-goog-api-key, never in the URL', async () => {
    const s = await serve((req, res) => sendJson(res, 200, answer(req)));
    const e = new GeminiEmbedder({ url: s.url, model: 'models/fake-embed', apiKey: KEY, batchSize: 2 });
    const [q] = await e.embed(['quick storefront']);
    expect(Array.from(q!)).toEqual(fakeVector('quick storefront'));
    const texts = ['money', 'mail', 'cache'];
    const vs = await e.embed(texts);
    expect(vs.map((v) => Array.from(v))).toEqual(texts.map(fakeVector));
    expect(s.seen.map((r) => r.path)).toEqual(['/v1beta/models/fake-embed:embedContent', '/v1beta/models/fake-embed:batchEmbedContents', '/v1beta/models/fake-embed:embedContent']);
    expect((s.seen[1]!.body as { requests: { model: string }[] }).requests.map((r) => r.model)).toEqual(['models/fake-embed', 'models/fake-embed']);
    for (const r of s.seen) {
      expect(r.headers['x-goog-api-key']).toBe(KEY);
      expect(r.path).not.toContain(KEY);
    }
  });

  it('without a key: a configuration error naming the variables, nothing sent', async () => {
    const s = await serve((req, res) => sendJson(res, 200, answer(req)));
    const err = await failure(new GeminiEmbedder({ url: s.url }).embed(['a']));
    expect(err.code).toBe('CONFIG');
    expect(err.message).toContain('GEMINI_API_KEY or GOOGLE_API_KEY');
    expect(s.seen).toHaveLength(0);
    // the key comes from the provider's usual variables
    expect(embedderFor('gemini', 'env', 'c', { env: { GOOGLE_API_KEY: KEY } })).toBeInstanceOf(GeminiEmbedder);
  });

  it('401, 429 with retry, timeout and malformed answers', async () => {
    const denied = await serve((_req, res) => sendJson(res, 403, { error: { code: 403, message: `API key not valid: ${KEY}`, status: 'PERMISSION_DENIED' } }));
    let err = await failure(new GeminiEmbedder({ url: denied.url, apiKey: KEY }).embed(['a']));
    expect(err.message).toContain(`gemini embeddings at ${denied.url}/v1beta/models/gemini-embedding-001:embedContent: 403`);
    expect(err.message).toContain('check the API key (GIT_CTX_EMBED_API_KEY, GEMINI_API_KEY or GOOGLE_API_KEY)');
    expect(err.message).not.toContain(KEY);

    const busy = await serve((req, res, n) => (n === 1 ? sendJson(res, 429, { error: { message: 'quota' } }, { 'retry-after': '0' }) : sendJson(res, 200, answer(req))));
    await new GeminiEmbedder({ url: busy.url, apiKey: KEY, retryBaseMs: 60_000 }).embed(['a', 'b']);
    expect(busy.seen).toHaveLength(2);

    const silent = await serve(() => undefined);
    err = await failure(new GeminiEmbedder({ url: silent.url, apiKey: KEY, timeoutMs: 300 }).embed(['a']));
    expect(err.message).toContain('no answer within 300 ms');

    const short = await serve((_req, res) => sendJson(res, 200, { embeddings: [{ values: [1, 2] }] }));
    err = await failure(new GeminiEmbedder({ url: short.url, apiKey: KEY }).embed(['a', 'b']));
    expect(err.message).toContain('malformed answer: 1 vectors for 2 inputs');
    const nan = await serve((_req, res) => sendJson(res, 200, { embedding: { values: [1, null] } }));
    err = await failure(new GeminiEmbedder({ url: nan.url, apiKey: KEY }).embed(['a']));
    expect(err.message).toContain('non-numeric value at position 1');
    const ragged = await serve((_req, res) => sendJson(res, 200, { embeddings: [{ values: [1, 2] }, { values: [1] }] }));
    err = await failure(new GeminiEmbedder({ url: ragged.url, apiKey: KEY }).embed(['a', 'b']));
    expect(err.message).toContain('1 dimensions where the others have 2');
  });
});

describe('onnx provider (a local model directory through transformers.js)', () => {
  it('needs a model directory', () => {
    expect(() => embedderFor('onnx', 'config', 'c', { settings: {}, root: '/' })).toThrow(/needs a model directory: set semantic.model/);
  });

  it('a missing directory, then an incomplete one, say what is wrong', async () => {
    const root = tempDir();
    let err = await failure(new OnnxEmbedder({ model: 'models/minilm', root }).embed(['a']));
    expect(err.message).toContain(`onnx model directory ${path.join(root, 'models/minilm')} does not exist`);
    expect(err.message).toContain('never downloaded');
    mkdirSync(path.join(root, 'models/minilm'), { recursive: true });
    writeFileSync(path.join(root, 'models/minilm/config.json'), '{}');
    err = await failure(new OnnxEmbedder({ model: 'models/minilm', root }).embed(['a']));
    expect(err.message).toContain('is incomplete: missing tokenizer.json, onnx/model.onnx (or onnx/model_quantized.onnx)');
  });

  it.skipIf(existsSync(path.join(ROOT, 'node_modules/@huggingface/transformers')))('without @huggingface/transformers installed: how to install it (CPU only)', async () => {
    const root = tempDir();
    const dir = path.join(root, 'minilm');
    mkdirSync(path.join(dir, 'onnx'), { recursive: true });
    writeFileSync(path.join(dir, 'config.json'), '{}');
    writeFileSync(path.join(dir, 'tokenizer.json'), '{}');
    writeFileSync(path.join(dir, 'onnx/model_quantized.onnx'), 'not a model');
    const err = await failure(new OnnxEmbedder({ model: dir, root }).embed(['a']));
    expect(err.code).toBe('CONFIG');
    expect(err.message).toContain('needs the optional package @huggingface/transformers');
    expect(err.message).toContain(ONNX_INSTALL);
    expect(ONNX_INSTALL).toBe('ONNXRUNTIME_NODE_INSTALL=skip npm install @huggingface/transformers');
  });
});

describe('provider choice', () => {
  it('config and environment: URL, model, batch size; unknown names and bad numbers are configuration errors', () => {
    const e = embedderFor('openai', 'env', 'c', { settings: { url: 'http://127.0.0.1:1/', model: 'm', batchSize: 7 }, env: { OPENAI_API_KEY: KEY } }) as OpenAIEmbedder;
    expect([e.provider, e.model, e.url, e.batchSize]).toEqual(['openai', 'm', 'http://127.0.0.1:1', 7]);
    expect(() => embedderFor('cohere', 'env')).toThrow(/unknown semantic provider "cohere" \(GIT_CTX_EMBED_PROVIDER\): expected default, openai, gemini, onnx, off/);
    expect(() => embedderFor('openai', 'config', '.contextia/config.yaml', { settings: { batchSize: 0 } })).toThrow(/semantic.batch_size must be a positive number/);
  });
});
