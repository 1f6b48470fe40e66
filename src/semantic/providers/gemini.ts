// @spec SPEC-SEMANTIC-001

import { CtxError } from '../../errors.js';
import { postJson } from './http.js';
import { RemoteEmbedder, type RemoteEmbedderOptions } from './openai.js';

/**
 * Gemini's embeddings API: `models/{model}:embedContent` for one text and
 * `:batchEmbedContents` for several (at most 100 a request), the key in `x-goog-api-key`.
 */
export class GeminiEmbedder extends RemoteEmbedder {
  readonly provider = 'gemini';

  constructor(opts: RemoteEmbedderOptions = {}) {
    super({ ...opts, model: (opts.model ?? '').replace(/^models\//, '') }, { url: 'https://generativelanguage.googleapis.com', model: 'gemini-embedding-001', batchSize: 100, maxBatch: 100, keyVars: 'GIT_CTX_EMBED_API_KEY, GEMINI_API_KEY or GOOGLE_API_KEY' });
  }

  /** `{url}/v1beta/models/{model}:...`; a URL already ending in a version (/v1, /v1beta) keeps it. */
  protected endpoint(n: number): string {
    const base = /\/v\d+(beta\d*|alpha\d*)?$/.test(this.url) ? this.url : `${this.url}/v1beta`;
    return `${base}/models/${encodeURIComponent(this.model)}:${n === 1 ? 'embedContent' : 'batchEmbedContents'}${this.query}`;
  }

  protected async embedBatch(texts: string[]): Promise<unknown[]> {
    const key = this.http.secret;
    if (!key) throw new CtxError('CONFIG', 'the gemini provider needs an API key: set GIT_CTX_EMBED_API_KEY, GEMINI_API_KEY or GOOGLE_API_KEY in the environment (never in config.yaml)');
    const url = this.endpoint(texts.length);
    const content = (text: string) => ({ parts: [{ text }] });
    const headers = { 'x-goog-api-key': key };
    if (texts.length === 1) {
      const a = (await postJson(url, { model: `models/${this.model}`, content: content(texts[0]!) }, headers, this.options())) as { embedding?: { values?: unknown } };
      if (!a || typeof a !== 'object' || !a.embedding || typeof a.embedding !== 'object') this.malformed(url, 'no embedding');
      return [a.embedding.values];
    }
    const a = (await postJson(url, { requests: texts.map((t) => ({ model: `models/${this.model}`, content: content(t) })) }, headers, this.options())) as { embeddings?: unknown };
    if (!a || typeof a !== 'object' || !Array.isArray(a.embeddings)) this.malformed(url, 'no embeddings array');
    const list = a.embeddings as { values?: unknown }[];
    if (list.length !== texts.length) this.malformed(url, `${list.length} vectors for ${texts.length} inputs`);
    return list.map((e) => (e && typeof e === 'object' ? e.values : e));
  }
}
