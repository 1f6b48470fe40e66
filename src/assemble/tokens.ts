import { createHash } from 'node:crypto';
import { CtxError } from '../errors.js';
import type { TokenCountStore } from '../cache/token-counts.js';

/** Counts tokens of many texts at once (so the encoder is loaded at most once per call). */
export interface TokenCounter {
  readonly encoding: string;
  count(texts: string[]): Promise<number[]>;
}

/** Encodings @dqbd/tiktoken ships (checked before the module is loaded). */
export const ENCODINGS = ['gpt2', 'r50k_base', 'p50k_base', 'p50k_edit', 'cl100k_base', 'o200k_base'] as const;

/** Refuse an unknown encoding before anything is loaded. */
export function checkEncoding(encoding: string): void {
  if (!(ENCODINGS as readonly string[]).includes(encoding)) {
    throw new CtxError('USAGE', `unknown token encoding ${JSON.stringify(encoding)}`, { hint: `use one of ${ENCODINGS.join(', ')}` });
  }
}

/**
 * Exact counts with @dqbd/tiktoken. The module and its rank table are loaded only when a
 * text is not in the cache: building the o200k table costs ~0.6 s, which is more than the
 * whole rest of an assembly. The encoder is freed after each batch (it holds WASM memory).
 */
export function tiktokenCounter(encoding: string): TokenCounter {
  checkEncoding(encoding);
  return {
    encoding,
    async count(texts) {
      if (!texts.length) return [];
      const { get_encoding } = await import('@dqbd/tiktoken');
      const enc = get_encoding(encoding as Parameters<typeof get_encoding>[0]);
      try {
        // encode_ordinary: artifact text may contain "<|endoftext|>" and must be counted as text
        return texts.map((t) => enc.encode_ordinary(t).length);
      } finally {
        enc.free();
      }
    },
  };
}

const CACHE_LIMIT = 200_000;

/**
 * Token counts cached by (encoding, sha1 of the text) in the `tokens` cache.
 * A count is a pure function of its key, so the cache can never change a bundle's bytes;
 * it only spares later runs the encoder load. A missing or corrupt cache is rebuilt.
 */
export function cachedCounter(inner: TokenCounter, store: TokenCountStore | undefined): TokenCounter {
  if (!store) return inner;
  return {
    encoding: inner.encoding,
    async count(texts) {
      const keys = texts.map((t) => createHash('sha1').update(inner.encoding).update('\0').update(t).digest('hex').slice(0, 24));
      let cache = store.read();
      const missIdx: number[] = [];
      const seen = new Set<string>();
      keys.forEach((k, i) => {
        if (typeof cache[k] !== 'number' && !seen.has(k)) {
          seen.add(k);
          missIdx.push(i);
        }
      });
      if (missIdx.length) {
        const counted = await inner.count(missIdx.map((i) => texts[i]!));
        if (Object.keys(cache).length + counted.length > CACHE_LIMIT) cache = {};
        missIdx.forEach((i, j) => (cache[keys[i]!] = counted[j]!));
        store.write(cache);
      }
      return keys.map((k) => cache[k]!);
    },
  };
}
