// @spec SPEC-CACHE-001

import { readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Default bound on everything under `<git-dir>/ctx/cache/`; GIT_CTX_CACHE_LIMIT_MB overrides it. */
export const DEFAULT_CACHE_LIMIT_BYTES = 512 * 1024 * 1024;
/** Agent-session memories (what the read hook already showed) older than this are dropped. */
export const SESSION_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
/** How often a writing run looks at the total size (a marker file's mtime says when it last did). */
const PRUNE_EVERY_MS = 3600 * 1000;
export const MARKER = '.pruned';

/** The size limit in bytes: GIT_CTX_CACHE_LIMIT_MB when it is a positive number, else the default. */
export function cacheLimitBytes(env: NodeJS.ProcessEnv = process.env): number {
  const mb = Number(env.GIT_CTX_CACHE_LIMIT_MB);
  return Number.isFinite(mb) && mb > 0 ? Math.floor(mb * 1024 * 1024) : DEFAULT_CACHE_LIMIT_BYTES;
}

/** Regular files under dir (not following links), relative names with `/`. */
export function walk(dir: string | undefined): { name: string; abs: string; bytes: number; mtimeMs: number }[] {
  if (!dir) return [];
  const out: { name: string; abs: string; bytes: number; mtimeMs: number }[] = [];
  const visit = (d: string, rel: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      const abs = path.join(d, n);
      const name = rel ? `${rel}/${n}` : n;
      try {
        const st = statSync(abs, { throwIfNoEntry: false });
        if (!st) continue;
        if (st.isDirectory()) visit(abs, name);
        else if (st.isFile()) out.push({ name, abs, bytes: st.size, mtimeMs: st.mtimeMs });
      } catch {
        /* vanished while listing: a concurrent writer's temporary file */
      }
    }
  };
  visit(dir, '');
  return out;
}

export interface PruneResult {
  removed: string[];
  freedBytes: number;
  /** total size after pruning */
  bytes: number;
}

/**
 * Bring the cache directory under `limitBytes` by deleting the least recently written files
 * first (every cache is rewritten by the runs that use it, so the oldest is the least used),
 * and drop agent-session memories older than a week. Deleting a cache only costs time.
 */
export function pruneCacheDir(dir: string, limitBytes = cacheLimitBytes(), now = Date.now()): PruneResult {
  const files = walk(dir).filter((f) => f.name !== MARKER);
  let bytes = files.reduce((a, f) => a + f.bytes, 0);
  const removed: string[] = [];
  let freed = 0;
  for (const f of files.sort((a, b) => a.mtimeMs - b.mtimeMs)) {
    if (bytes <= limitBytes) break;
    try {
      rmSync(f.abs, { force: true });
      removed.push(f.name);
      bytes -= f.bytes;
      freed += f.bytes;
    } catch {
      /* a read-only git dir: nothing to do about it */
    }
  }
  for (const s of walk(path.join(dir, '..', 'agent-sessions'))) {
    if (now - s.mtimeMs <= SESSION_MAX_AGE_MS) continue;
    try {
      rmSync(s.abs, { force: true });
      removed.push(`../agent-sessions/${s.name}`);
      freed += s.bytes;
    } catch {
      /* as above */
    }
  }
  return { removed, freedBytes: freed, bytes };
}

let checked = false;
/**
 * Prune at most once an hour per clone, from a run that has just written a cache: the check
 * costs one stat of a marker file, the pruning one listing of the cache directory.
 */
export function pruneCachesSometimes(cacheDir: string): void {
  if (checked) return;
  checked = true;
  const marker = path.join(cacheDir, MARKER);
  try {
    const st = statSync(marker, { throwIfNoEntry: false });
    if (st && Date.now() - st.mtimeMs < PRUNE_EVERY_MS) return;
    if (st) utimesSync(marker, new Date(), new Date());
    else writeFileSync(marker, '');
    pruneCacheDir(cacheDir);
  } catch {
    /* housekeeping only */
  }
}

