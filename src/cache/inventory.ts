// @spec SPEC-CACHE-001

import { existsSync, rmSync } from 'node:fs';
import { getCompileCacheDir } from 'node:module';
import path from 'node:path';
import { OpenContainer } from './container.js';
import { readCacheJson } from './file.js';
import { CACHE_AREAS, CACHE_KINDS, cacheKind, kindMatches, kindOfFile, type CacheKind } from './kinds.js';
import { cacheDir, cacheRootDir, homeDir } from './memo.js';
import { cacheLimitBytes, MARKER, pruneCacheDir, walk, type PruneResult } from './prune.js';

export { cacheLimitBytes, DEFAULT_CACHE_LIMIT_BYTES, SESSION_MAX_AGE_MS, type PruneResult } from './prune.js';

export interface CacheFileInfo {
  /** path relative to the cache directory, with `/` */
  name: string;
  /** the area it is summed under ('other': no registered kind, a leftover of another version) */
  kind: string;
  /** the registered kind it belongs to */
  cache?: string;
  bytes: number;
  /** last write, ms since the epoch */
  mtimeMs: number;
}

export interface CacheStatus {
  /** this build's caches, `<git-dir>/ctx/cache/build-<id>` (DEC-117), or undefined outside a repository */
  dir: string | undefined;
  /** what other builds (and versions before build folders) left under `<git-dir>/ctx/cache`, until pruning deletes it */
  otherBuilds: { files: number; bytes: number };
  files: CacheFileInfo[];
  bytes: number;
  limitBytes: number;
  kinds: { kind: string; what: string; files: number; bytes: number }[];
  /** every registered cache kind, with or without files */
  caches: CacheKindStatus[];
  /** agent-session memories under `<git-dir>/ctx/agent-sessions` */
  sessions: { dir: string | undefined; files: number; bytes: number };
  /** Node's compile cache of git-ctx's code, per user (shared by every repository; bin/git-ctx.js, DEC-043) */
  compileCache: { dir: string | undefined; files: number; bytes: number };
  /** GIT_CTX_NO_CACHE=1: nothing is read or written */
  disabled: boolean;
}

export interface CacheKindStatus {
  name: string;
  area: string;
  /** its file under the cache folder (`*`: the variant) */
  file: string;
  version: number;
  codec: string;
  /** what an entry is keyed by */
  key: string;
  files: number;
  bytes: number;
  /** entries readable at this version (files of another version or damaged count none); undefined where the codec does not say */
  entries?: number;
}

/** The compile cache bin/git-ctx.js turned on for this process (none in-process, e.g. under the tests). */
function compileCacheDir(): string | undefined {
  return getCompileCacheDir?.();
}

const OTHER = { kind: 'other', what: 'not written by this version' };

/**
 * Entries of this version in one file of a kind: a JSON memo's keys, a container's count
 * from its header; undefined for codecs with a shape of their own.
 */
function entriesIn(kind: CacheKind, abs: string): number | undefined {
  if (kind.codec === 'json') {
    const e = readCacheJson(abs) as { kind?: unknown; version?: unknown; older?: unknown } | undefined;
    return e && e.kind === kind.name && e.version === kind.version ? 1 + (Array.isArray(e.older) ? e.older.length : 0) : 0;
  }
  if (kind.codec === 'container') {
    const c = OpenContainer.open(abs, kind);
    c?.close();
    return c ? (c.head.entries ?? 1) : 0;
  }
  return undefined;
}

const sum = (xs: { bytes: number }[]) => xs.reduce((a, x) => a + x.bytes, 0);

/**
 * Every cache of a repository by registered kind, with its files, sizes and entries, and the
 * limit. Reads directory entries, and the header (or the envelope) of each file to count
 * its entries.
 */
export function cacheStatus(root: string, env: NodeJS.ProcessEnv = process.env): CacheStatus {
  const dir = cacheDir(root);
  const listed = walk(dir)
    .filter((f) => f.name !== MARKER)
    .map((f) => ({ ...f, reg: kindOfFile(f.name) }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  const files: CacheFileInfo[] = listed.map((f) => ({ name: f.name, kind: f.reg?.area ?? OTHER.kind, ...(f.reg ? { cache: f.reg.name } : {}), bytes: f.bytes, mtimeMs: f.mtimeMs }));
  const kinds = new Map<string, { kind: string; what: string; files: number; bytes: number }>();
  for (const f of files) {
    const k = kinds.get(f.kind) ?? { kind: f.kind, what: CACHE_AREAS[f.kind] ?? OTHER.what, files: 0, bytes: 0 };
    k.files++;
    k.bytes += f.bytes;
    kinds.set(f.kind, k);
  }
  const sessionsDir = homeDir(root, cacheKind('agent-session'));
  const sessions = walk(sessionsDir);
  const caches = CACHE_KINDS.map((k): CacheKindStatus => {
    const mine = k.home ? sessions.filter((f) => kindMatches(k, f.name)) : listed.filter((f) => f.reg === k);
    const counts = mine.map((f) => entriesIn(k, f.abs));
    const entries = counts.every((c) => c !== undefined) ? counts.reduce((a: number, c) => a + c!, 0) : undefined;
    return { name: k.name, area: k.area, file: k.home ? `../${k.home}/${k.file}` : k.file, version: k.version, codec: k.codec, key: k.key, files: mine.length, bytes: sum(mine), ...(entries === undefined ? {} : { entries }) };
  });
  const v8 = compileCacheDir();
  const compiled = walk(v8);
  const mine = dir ? `${path.basename(dir)}/` : '';
  const others = walk(cacheRootDir(root)).filter((f) => f.name !== MARKER && !f.name.startsWith(mine));
  return {
    dir,
    otherBuilds: { files: others.length, bytes: sum(others) },
    files,
    bytes: sum(files),
    limitBytes: cacheLimitBytes(env),
    kinds: [...kinds.values()].sort((a, b) => b.bytes - a.bytes),
    caches,
    sessions: { dir: sessionsDir, files: sessions.length, bytes: sum(sessions) },
    compileCache: { dir: v8, files: compiled.length, bytes: sum(compiled) },
    disabled: env.GIT_CTX_NO_CACHE === '1',
  };
}

/** Prune the caches of a repository now (see pruneCacheDir). */
export function pruneCaches(root: string, limitBytes = cacheLimitBytes(), now = Date.now()): PruneResult {
  const dir = cacheRootDir(root);
  return dir ? pruneCacheDir(dir, limitBytes, now) : { removed: [], freedBytes: 0, bytes: 0 };
}

export interface CleanResult {
  removed: { dir: string; files: number; bytes: number }[];
}

/**
 * Delete the caches of a repository (`<git-dir>/ctx/cache`, every build's); with `all`, also the
 * agent-session memories and the per-user compile cache. Never touches anything else under
 * `.git/ctx` (locks, the evidence store, a written map).
 */
export function cleanCaches(root: string, opts: { all?: boolean } = {}): CleanResult {
  const dirs = [cacheRootDir(root)];
  if (opts.all) dirs.push(homeDir(root, cacheKind('agent-session')), compileCacheDir());
  const removed: CleanResult['removed'] = [];
  for (const d of dirs) {
    if (!d || !existsSync(d)) continue;
    const files = walk(d);
    rmSync(d, { recursive: true, force: true });
    removed.push({ dir: d, files: files.length, bytes: files.reduce((a, f) => a + f.bytes, 0) });
  }
  return { removed };
}
