// @spec SPEC-CACHE-001

import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Files of derived data (caches), best effort both ways: a read that fails is a miss, a
 * write that fails is skipped (a read-only .git, a CI sandbox), since a cache only ever
 * saves time. Writes go to a temporary file renamed over the target, so a concurrent
 * reader sees the old bytes or the new, never half; no fsync, as a cache lost to a crash
 * costs only time. (Files the user owns go through writeFileAtomic in ./atomic.ts.)
 */
export function writeCacheFile(file: string | undefined, data: string | Uint8Array): boolean {
  if (!file) return false;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, data);
    renameSync(tmp, file);
    return true;
  } catch {
    return false;
  }
}

/** A JSON cache file's content; undefined when absent, unreadable or not JSON. */
export function readCacheJson(file: string | undefined): unknown {
  if (!file) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The value stored under `key` by writeKeyedCache; undefined for any other key. */
export function readKeyedCache(file: string | undefined, key: string): unknown {
  const c = readCacheJson(file) as { key?: unknown; value?: unknown } | undefined;
  return c && typeof c === 'object' && c.key === key ? c.value : undefined;
}

/** One remembered value with the key it answers (a commit, a content hash). */
export function writeKeyedCache(file: string | undefined, key: string, value: unknown): boolean {
  return writeCacheFile(file, JSON.stringify({ key, value }));
}
