// @spec SPEC-CACHE-001

import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildId } from '../version.js';

/** Default bound on everything under `<git-dir>/ctx/cache/`; GIT_CTX_CACHE_LIMIT_MB overrides it. */
export const DEFAULT_CACHE_LIMIT_BYTES = 512 * 1024 * 1024;
/** Agent-session memories (what the read hook already showed) older than this are dropped. */
export const SESSION_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
/** How often a writing run looks at the total size (a marker file's mtime says when it last did). */
const PRUNE_EVERY_MS = 3600 * 1000;
export const MARKER = '.pruned';

/**
 * Every cache lives in a folder of the build that wrote it, `<git-dir>/ctx/cache/build-<id>/`
 * (DEC-117): a build never reads what another computed. The folder of this build.
 */
export const BUILD_DIR_PREFIX = 'build-';
export const buildDirName = (): string => `${BUILD_DIR_PREFIX}${buildId()}`;
/**
 * Other builds' folders pruning keeps beside this build's: those written in the last day, at
 * most OTHER_BUILDS_KEPT of them, the most recent first. Installs used in turn (a global one
 * and a project's, or the worktrees of one clone, which share its git dir, each at another
 * build) do not delete each other's caches; an upgrade's predecessor goes a day after its
 * last write, or earlier with the size bound.
 */
export const OTHER_BUILDS_KEPT = 3;
export const OTHER_BUILD_MAX_AGE_MS = 24 * 3600 * 1000;

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
 * Delete what no build reads any more from the cache folder: other builds' folders but the
 * recent ones (OTHER_BUILDS_KEPT), and the files of versions before build folders.
 */
function dropOtherBuilds(dir: string, removed: string[], now: number): number {
  const mine = buildDirName();
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true }).filter((e) => e.name !== MARKER && e.name !== mine);
  } catch {
    return 0;
  }
  const mtime = (name: string) => statSync(path.join(dir, name), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const builds = entries.filter((e) => e.isDirectory() && e.name.startsWith(BUILD_DIR_PREFIX)).map((e) => ({ name: e.name, at: mtime(e.name) }));
  const recent = builds.filter((b) => now - b.at <= OTHER_BUILD_MAX_AGE_MS).sort((a, b) => b.at - a.at);
  const kept = new Set(recent.slice(0, OTHER_BUILDS_KEPT).map((b) => b.name));
  let freed = 0;
  for (const e of entries) {
    if (kept.has(e.name)) continue;
    const abs = path.join(dir, e.name);
    const bytes = e.isDirectory() ? walk(abs).reduce((a, f) => a + f.bytes, 0) : (statSync(abs, { throwIfNoEntry: false })?.size ?? 0);
    try {
      rmSync(abs, { recursive: true, force: true });
      removed.push(`../${e.name}${e.isDirectory() ? '/' : ''}`);
      freed += bytes;
    } catch {
      /* a read-only git dir: nothing to do about it */
    }
  }
  return freed;
}

/**
 * Bring the cache directory (`<git-dir>/ctx/cache`, every build's folder) under `limitBytes`:
 * first delete other builds' caches (dropOtherBuilds), then the least recently written files
 * (every cache is rewritten by the runs that use it, so the oldest is the least used); and
 * drop agent-session memories older than a week. Deleting a cache only costs time. Names are
 * relative to this build's folder (`../` for what is beside it).
 */
export function pruneCacheDir(dir: string, limitBytes = cacheLimitBytes(), now = Date.now()): PruneResult {
  const removed: string[] = [];
  let freed = dropOtherBuilds(dir, removed, now);
  const mine = `${buildDirName()}/`;
  const files = walk(dir).filter((f) => f.name !== MARKER);
  let bytes = files.reduce((a, f) => a + f.bytes, 0);
  for (const f of files.sort((a, b) => a.mtimeMs - b.mtimeMs)) {
    if (bytes <= limitBytes) break;
    try {
      rmSync(f.abs, { force: true });
      removed.push(f.name.startsWith(mine) ? f.name.slice(mine.length) : `../${f.name}`);
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
 * Prune at most once an hour per clone, from a run that has just written a cache, and at once
 * when a build not among the last to prune writes (an upgrade: the old build's caches go).
 * The marker file names those builds; the check costs one stat and one read of it, the
 * pruning one listing of the cache directory.
 */
export function pruneCachesSometimes(cacheDir: string): void {
  if (checked) return;
  checked = true;
  const marker = path.join(cacheDir, MARKER);
  try {
    const st = statSync(marker, { throwIfNoEntry: false });
    const seen = st ? readFileSync(marker, 'utf8').split('\n').filter(Boolean) : [];
    const id = buildId();
    if (st && seen.includes(id) && Date.now() - st.mtimeMs < PRUNE_EVERY_MS) return;
    writeFileSync(marker, [id, ...seen.filter((s) => s !== id)].slice(0, OTHER_BUILDS_KEPT + 1).join('\n') + '\n');
    pruneCacheDir(cacheDir);
  } catch {
    /* housekeeping only */
  }
}

