// @spec SPEC-RULES-001

import { cachedCounter, checkEncoding, type TokenCounter } from '../assemble/tokens.js';
import type { Config } from '../config.js';
import { cacheFile } from '../git/git-dir.js';

type Encoder = { encode_ordinary(t: string): Uint32Array | number[]; free(): void };

/**
 * The token counter rule files are budgeted with: the assembly's encoding, sharing its
 * count cache. Unlike the assembly's counter, the encoder stays loaded between calls
 * (building the o200k table costs ~0.6 s, and a plan counts in several batches) until
 * `free()`.
 */
export function rulesCounter(root: string, config: Config): TokenCounter & { free(): void } {
  const encoding = config.assemble.encoding;
  checkEncoding(encoding);
  let enc: Encoder | undefined;
  const inner: TokenCounter = {
    encoding,
    async count(texts) {
      if (!texts.length) return [];
      if (!enc) {
        const { get_encoding } = await import('@dqbd/tiktoken');
        enc = get_encoding(encoding as Parameters<typeof get_encoding>[0]) as unknown as Encoder;
      }
      const e = enc;
      return texts.map((t) => e.encode_ordinary(t).length);
    },
  };
  const cached = cachedCounter(inner, cacheFile(root, `tokens-${encoding}.json`));
  return {
    encoding,
    count: (texts) => cached.count(texts),
    free() {
      enc?.free();
      enc = undefined;
    },
  };
}
