// @spec SPEC-CACHE-001

import { closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { mark, now } from '../util/timing.js';
import { pruneCachesSometimes } from './prune.js';

/**
 * No cache file is read past this size: a file that large is damaged or foreign, and is
 * treated as a miss (and replaced at the next write) rather than parsed for seconds.
 */
export const MAX_CACHE_READ_BYTES = 256 * 1024 * 1024;

/**
 * A cache file's bytes, read with one open, fstat and read; undefined when absent, unreadable
 * or larger than `maxBytes`. Each read is a step of GIT_CTX_TIMINGS (name, size, time).
 */
export function readCacheBytes(file: string | undefined, maxBytes = MAX_CACHE_READ_BYTES): Buffer | undefined {
  if (!file) return undefined;
  const t0 = now();
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    if (size > maxBytes) return undefined;
    const buf = Buffer.allocUnsafe(size);
    let at = 0;
    while (at < size) {
      const n = readSync(fd, buf, at, size - at, at);
      if (n <= 0) break;
      at += n;
    }
    mark(`cache read ${path.basename(file)}: ${(at / 1024).toFixed(0)} KB in ${(now() - t0).toFixed(1)} ms`);
    return at === size ? buf : buf.subarray(0, at);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

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
    // a run that writes a cache keeps the directory under its size limit (at most hourly)
    const at = file.lastIndexOf(`${path.sep}ctx${path.sep}cache${path.sep}`);
    if (at >= 0) pruneCachesSometimes(file.slice(0, at + 10));
    return true;
  } catch {
    return false;
  }
}

/** A JSON cache file's content; undefined when absent, unreadable or not JSON. */
export function readCacheJson(file: string | undefined): unknown {
  const buf = readCacheBytes(file);
  if (!buf) return undefined;
  try {
    return JSON.parse(buf.toString('utf8')) as unknown;
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
