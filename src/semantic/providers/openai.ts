// @spec SPEC-SEMANTIC-001

import { CtxError } from '../../errors.js';
import { plainSpace, type Embedder, type VectorSpace } from '../embedder.js';
import { displayUrl, postJson, toVector, type HttpOptions } from './http.js';

/** What every HTTP model provider is configured with (config `semantic:` and environment). */
export interface RemoteEmbedderOptions {
  url?: string;
  model?: string;
  /** from the environment only (GIT_CTX_EMBED_API_KEY or the provider's usual variable) */
  apiKey?: string;
  batchSize?: number;
  timeoutMs?: number;
  retries?: number;
  /** first back-off delay, ms (default 500) */
  retryBaseMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 3;
/** Longer texts are cut before sending: records can be long, and servers' context windows are not. */
export const MAX_INPUT_CHARS = 8_000;

/** Cut a text to what is sent, never empty (some servers refuse an empty input). */
export const clip = (t: string) => (t.length > MAX_INPUT_CHARS ? t.slice(0, MAX_INPUT_CHARS) : t) || ' ';

/** Base class of the HTTP providers: batching, dimension learning, plain cosine. */
export abstract class RemoteEmbedder implements Embedder {
  abstract readonly provider: string;
  readonly model: string;
  /** the endpoint's base, without query or fragment */
  readonly url: string;
  /** a query the user's URL carried (`?key=...`, `?api-version=...`), kept on every endpoint */
  protected readonly query: string;
  readonly batchSize: number;
  protected readonly http: Omit<HttpOptions, 'provider'>;
  private learned = 0;

  constructor(opts: RemoteEmbedderOptions, defaults: { url: string; model: string; batchSize: number; maxBatch?: number; keyVars: string }) {
    this.model = (opts.model || defaults.model).trim();
    const raw = (opts.url || defaults.url).trim();
    const cut = raw.search(/[?#]/);
    this.url = (cut < 0 ? raw : raw.slice(0, cut)).replace(/\/+$/, '');
    this.query = cut < 0 ? '' : raw.slice(cut).replace(/#.*$/, '').replace(/^\?$/, '');
    this.batchSize = Math.max(1, Math.min(defaults.maxBatch ?? Infinity, Math.floor(opts.batchSize ?? defaults.batchSize)));
    this.http = { timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, retries: Math.max(0, opts.retries ?? DEFAULT_RETRIES), retryBaseMs: opts.retryBaseMs ?? 500, keyVars: defaults.keyVars, model: this.model, ...(opts.apiKey ? { secret: opts.apiKey } : {}) };
  }

  /** 0 until the first answer says how long the model's vectors are. */
  get dims(): number {
    return this.learned;
  }

  protected options(): HttpOptions {
    return { provider: this.provider, ...this.http };
  }

  /** A malformed answer: what was wrong, and that the endpoint may not be this provider's protocol. */
  protected malformed(url: string, what: string): never {
    throw new CtxError('IO', `${this.provider} embeddings at ${displayUrl(url)}: malformed answer: ${what}; check that the URL speaks the ${this.provider} embeddings protocol and the model ${JSON.stringify(this.model)} is an embedding model`);
  }

  /** Vectors of one batch, in input order (already checked for count). */
  protected abstract embedBatch(texts: string[]): Promise<unknown[]>;
  protected abstract endpoint(n: number): string;

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      const batch = texts.slice(i, i + this.batchSize).map(clip);
      const raw = await this.embedBatch(batch);
      for (const x of raw) {
        const v = toVector(x, this.learned || undefined);
        if (typeof v === 'string') this.malformed(this.endpoint(batch.length), v);
        this.learned ||= v.length;
        out.push(v);
      }
    }
    return out;
  }

  space(): VectorSpace {
    return plainSpace();
  }
}

/**
 * An OpenAI-compatible `POST {url}/v1/embeddings` endpoint: OpenAI and the servers that speak
 * its protocol (Ollama, vLLM, llama.cpp server, LM Studio, hosted gateways).
 */
export class OpenAIEmbedder extends RemoteEmbedder {
  readonly provider = 'openai';

  constructor(opts: RemoteEmbedderOptions = {}) {
    super(opts, { url: 'https://api.openai.com', model: 'text-embedding-3-small', batchSize: 64, maxBatch: 2048, keyVars: 'GIT_CTX_EMBED_API_KEY or OPENAI_API_KEY' });
  }

  /** `{url}/v1/embeddings`; a URL already ending in /v1 or /embeddings is used as it is. */
  protected endpoint(): string {
    if (/\/embeddings$/.test(this.url)) return `${this.url}${this.query}`;
    if (/\/v\d+$/.test(this.url)) return `${this.url}/embeddings${this.query}`;
    return `${this.url}/v1/embeddings${this.query}`;
  }

  protected async embedBatch(texts: string[]): Promise<unknown[]> {
    const url = this.endpoint();
    const key = this.http.secret;
    const answer = (await postJson(url, { model: this.model, input: texts }, key ? { authorization: `Bearer ${key}` } : {}, this.options())) as { data?: unknown };
    if (!answer || typeof answer !== 'object' || !Array.isArray(answer.data)) this.malformed(url, 'no data array');
    const data = answer.data as { index?: unknown; embedding?: unknown }[];
    if (data.length !== texts.length) this.malformed(url, `${data.length} vectors for ${texts.length} inputs`);
    const byIndex: unknown[] = new Array<unknown>(texts.length);
    data.forEach((d, i) => {
      const at = d && typeof d === 'object' && d.index !== undefined ? d.index : i;
      if (typeof at !== 'number' || !Number.isInteger(at) || at < 0 || at >= texts.length || byIndex[at] !== undefined) this.malformed(url, `bad or repeated index ${JSON.stringify(at)}`);
      byIndex[at] = d?.embedding;
    });
    return byIndex;
  }
}
