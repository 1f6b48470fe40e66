// @spec SPEC-SEMANTIC-001

import { CtxError } from '../../errors.js';

/** How a model provider talks to its endpoint: bounded in time, retried on passing failures. */
export interface HttpOptions {
  /** provider name, for messages (`openai`, `gemini`) */
  provider: string;
  /** per-request time limit, ms */
  timeoutMs: number;
  /** extra attempts after a 429, a 5xx or a network error (not after a timeout) */
  retries: number;
  /** first back-off delay, ms (doubled per attempt, capped at 8 s); Retry-After wins when sent */
  retryBaseMs: number;
  /** the secret to keep out of every message (it is sent in a header only) */
  secret?: string;
  /** where the key comes from and where the URL and model are set, for "what to check" hints */
  keyVars: string;
  model: string;
}

const MAX_BACKOFF_MS = 8_000;
/** A Retry-After longer than this is not waited for: the request fails and says so. */
const MAX_RETRY_AFTER_MS = 60_000;

/** The URL as it may be shown: no user, password, query or fragment (where keys hide). */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return url.replace(/[?#].*$/, '').replace(/\/\/[^/@]*@/, '//');
  }
}

/** Remove every occurrence of the secret (and of anything after `key=`) from text shown to people. */
export function redact(text: string, secret: string | undefined): string {
  let out = text;
  if (secret && secret.length >= 4) out = out.split(secret).join('***');
  return out.replace(/([?&]key=)[^&\s"']+/gi, '$1***');
}

/** Seconds or an HTTP date, in ms; undefined when absent or unreadable. */
function retryAfterMs(h: string | null): number | undefined {
  if (!h) return undefined;
  const s = Number(h);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const t = Date.parse(h);
  return Number.isFinite(t) ? Math.max(0, t - Date.now()) : undefined;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The server's own error message, when its answer carries one (OpenAI and Gemini: `error.message`). */
function serverMessage(body: string): string {
  try {
    const j = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof j.error === 'string' ? j.error : typeof j.error?.message === 'string' ? j.error.message : typeof j.message === 'string' ? j.message : undefined;
    if (m) return m.slice(0, 300);
  } catch {
    // not JSON: the first line of the text
  }
  return body.split('\n')[0]!.slice(0, 200);
}

/**
 * POST a JSON body and return the parsed JSON answer. Fails with a CtxError naming the
 * provider, the URL (without credentials) and what to check; never with the key in it.
 */
export async function postJson(url: string, body: unknown, headers: Record<string, string>, o: HttpOptions): Promise<unknown> {
  const shown = displayUrl(url);
  const fail = (what: string, check: string, cause?: unknown): never => {
    throw new CtxError('IO', redact(`${o.provider} embeddings at ${shown}: ${what}; ${check}`, o.secret), cause === undefined ? {} : { cause: redact(String(cause), o.secret) });
  };
  const payload = JSON.stringify(body);
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, body: payload, signal: AbortSignal.timeout(o.timeoutMs) });
    } catch (e) {
      const err = e as Error & { cause?: { code?: string } };
      if (err.name === 'TimeoutError' || err.name === 'AbortError') fail(`no answer within ${o.timeoutMs} ms`, 'check the URL (semantic.url or GIT_CTX_EMBED_URL) and the network, or raise semantic.timeout_ms');
      const code = err.cause?.code ?? err.message;
      if (attempt < o.retries) {
        await sleep(Math.min(MAX_BACKOFF_MS, o.retryBaseMs * 2 ** attempt));
        continue;
      }
      fail(`could not connect (${code}) after ${attempt + 1} attempt${attempt ? 's' : ''}`, 'check that the server is running and the URL (semantic.url or GIT_CTX_EMBED_URL)');
    }
    const text = await res!.text().catch(() => '');
    if (res!.ok) {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        fail(`the answer is not JSON (${JSON.stringify(text.slice(0, 80))})`, 'check that the URL is an embeddings endpoint of this provider');
      }
    }
    const status = res!.status;
    const said = serverMessage(text);
    const head = `${status} ${res!.statusText || ''}`.trim() + (said ? `: ${said}` : '');
    if ((status === 429 || status >= 500) && attempt < o.retries) {
      const after = retryAfterMs(res!.headers.get('retry-after'));
      if (after !== undefined && after > MAX_RETRY_AFTER_MS) fail(`${head} (the server asks to wait ${Math.round(after / 1000)} s)`, 'try again later, or lower semantic.batch_size');
      await sleep(after ?? Math.min(MAX_BACKOFF_MS, o.retryBaseMs * 2 ** attempt));
      continue;
    }
    if (status === 401 || status === 403) fail(head, `check the API key (${o.keyVars}) and that it may use model ${JSON.stringify(o.model)}`);
    if (status === 404) fail(head, `check the model ${JSON.stringify(o.model)} (semantic.model or GIT_CTX_EMBED_MODEL) and the URL (semantic.url or GIT_CTX_EMBED_URL)`);
    if (status === 429) fail(`${head} after ${attempt + 1} attempts`, 'the provider is rate limiting: try again later, lower semantic.batch_size or raise semantic.retries');
    if (status >= 500) fail(`${head} after ${attempt + 1} attempts`, 'the server failed: check its logs, or try again later');
    fail(head, 'check the model (semantic.model or GIT_CTX_EMBED_MODEL) and the URL (semantic.url or GIT_CTX_EMBED_URL)');
  }
}

/** A list of numbers as a vector of the expected length, or a message saying what is wrong. */
export function toVector(x: unknown, dims: number | undefined): Float32Array | string {
  if (!Array.isArray(x)) return `expected an array of numbers, got ${x === null ? 'null' : typeof x}`;
  if (x.length === 0) return 'an empty vector';
  if (dims && x.length !== dims) return `a vector of ${x.length} dimensions where the others have ${dims}`;
  const v = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const n = x[i] as unknown;
    if (typeof n !== 'number' || !Number.isFinite(n)) return `a non-numeric value at position ${i} (${JSON.stringify(n)?.slice(0, 20)})`;
    v[i] = n;
  }
  return v;
}
