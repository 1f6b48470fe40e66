// @spec SPEC-RULES-001

import { cachedCounter, tiktokenCounter, type TokenCounter } from '../assemble/tokens.js';
import type { Config } from '../config.js';
import { cacheFile } from '../git/git-dir.js';

/** The token counter rule files are budgeted with: the assembly's encoding, sharing its count cache. */
export function rulesCounter(root: string, config: Config): TokenCounter {
  const enc = config.assemble.encoding;
  return cachedCounter(tiktokenCounter(enc), cacheFile(root, `tokens-${enc}.json`));
}
