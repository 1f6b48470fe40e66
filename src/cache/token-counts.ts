// @spec SPEC-CACHE-001

import { cacheStore, storeAt, type CacheStore } from './memo.js';

/** Token counts of one encoding by text key (the `tokens` kind): one map, rewritten whole. */
export interface TokenCountStore {
  read(): Record<string, number>;
  write(counts: Record<string, number>): void;
  /** whether any counts are remembered (so a run may not need the encoder at all) */
  exists(): boolean;
}

/** The token counts of a repository for one encoding; undefined outside one or with caches off. */
export function tokenCounts(root: string, encoding: string): TokenCountStore | undefined {
  const store = cacheStore<unknown>(root, 'tokens', encoding);
  return store.on ? countsIn(store) : undefined;
}

/** The same over a file the caller chose (assembleBundle's `tokenCache`). */
export function tokenCountFile(file: string): TokenCountStore {
  return countsIn(storeAt<unknown>(file));
}

function countsIn(store: CacheStore<unknown>): TokenCountStore {
  return {
    read() {
      // absent or unreadable: start empty
      const raw = store.read();
      return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, number>) : {};
    },
    // a read-only .git is fine: the counts are still right, just not remembered
    write: (counts) => void store.write(counts),
    exists: () => store.stamp() !== undefined,
  };
}
