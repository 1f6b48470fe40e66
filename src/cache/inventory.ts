// @spec SPEC-CACHE-001

import { existsSync, rmSync } from 'node:fs';
import { getCompileCacheDir } from 'node:module';
import { ctxDir } from '../git/git-dir.js';
import { cacheLimitBytes, MARKER, pruneCacheDir, walk, type PruneResult } from './prune.js';

export { cacheLimitBytes, DEFAULT_CACHE_LIMIT_BYTES, SESSION_MAX_AGE_MS, type PruneResult } from './prune.js';

/**
 * What each file under `<git-dir>/ctx/cache/` holds, by name. A name no entry matches is
 * still listed (as "other") and still pruned: a cache from another git-ctx version.
 */
const KINDS: { kind: string; what: string; test: (name: string) => boolean }[] = [
  { kind: 'artifacts', what: "parsed artifacts by blob id, the finished set by the records' listing and config, and that key's digest", test: (n) => n.startsWith('artifacts.') },
  { kind: 'code-index', what: 'annotations and symbols per source blob, the tag-free blob set, its journal, the files carrying tags at HEAD (pre-commit hook)', test: (n) => n.startsWith('code-index.') },
  { kind: 'code-graph', what: 'code graph facts and shards, by blob id', test: (n) => n.startsWith('code-graph') },
  { kind: 'staleness', what: 'staleness judgements and anchor symbols', test: (n) => n.startsWith('stale-') || n.startsWith('staleness-') },
  { kind: 'retrieval', what: 'keyword index of the records', test: (n) => n.startsWith('retrieve-') },
  { kind: 'vectors', what: 'record vectors per embedder', test: (n) => n === 'vectors' || n.startsWith('vectors/') },
  { kind: 'tokens', what: 'token counts per text hash', test: (n) => n.startsWith('tokens-') },
  { kind: 'config', what: 'parsed config, by content hash', test: (n) => n === 'config.json' },
  { kind: 'listing', what: "HEAD's artifact listing, by commit", test: (n) => n === 'head-listing.json' },
  { kind: 'place', what: 'the git index listing and mention answers, and which folders are too large for the stat listing, by index stamp', test: (n) => n.startsWith('place-') },
  { kind: 'worktree', what: 'a private copy of the git index for git status (its stat data, untracked cache)', test: (n) => n.startsWith('worktree-index') },
  { kind: 'check', what: "findings of check rules that depend only on the records, by the records' blob ids", test: (n) => n.startsWith('check-rule-') },
  { kind: 'impact', what: 'impact edges per origin (record and annotated code files, by blob), the code graph importers and callers projection, and the code origins memo', test: (n) => n.startsWith('impact-') },
  { kind: 'evidence', what: 'paths staged against HEAD (the episode dirty flag), by commit and index checksum', test: (n) => n.startsWith('record-') },
  { kind: 'hook', what: "the records' mentioned paths that exist at HEAD, by commit (pre-commit hook)", test: (n) => n.startsWith('hook-') },
];

export interface CacheFileInfo {
  /** path relative to the cache directory, with `/` */
  name: string;
  kind: string;
  bytes: number;
  /** last write, ms since the epoch */
  mtimeMs: number;
}

export interface CacheStatus {
  /** `<git-dir>/ctx/cache`, or undefined outside a repository */
  dir: string | undefined;
  files: CacheFileInfo[];
  bytes: number;
  limitBytes: number;
  kinds: { kind: string; what: string; files: number; bytes: number }[];
  /** agent-session memories under `<git-dir>/ctx/agent-sessions` */
  sessions: { dir: string | undefined; files: number; bytes: number };
  /** Node's compile cache of git-ctx's code, per user (shared by every repository; bin/git-ctx.js, DEC-043) */
  compileCache: { dir: string | undefined; files: number; bytes: number };
  /** GIT_CTX_NO_CACHE=1: nothing is read or written */
  disabled: boolean;
}

function kindOf(name: string): { kind: string; what: string } {
  const k = KINDS.find((x) => x.test(name));
  return k ? { kind: k.kind, what: k.what } : { kind: 'other', what: 'not written by this version' };
}

/** The compile cache bin/git-ctx.js turned on for this process (none in-process, e.g. under the tests). */
function compileCacheDir(): string | undefined {
  return getCompileCacheDir?.();
}

/** Every cache of a repository with its size, and the limit. Reads only directory entries. */
export function cacheStatus(root: string, env: NodeJS.ProcessEnv = process.env): CacheStatus {
  const dir = ctxDir(root, 'cache');
  const files = walk(dir)
    .filter((f) => f.name !== MARKER)
    .map((f) => ({ name: f.name, kind: kindOf(f.name).kind, bytes: f.bytes, mtimeMs: f.mtimeMs }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
  const kinds = new Map<string, { kind: string; what: string; files: number; bytes: number }>();
  for (const f of files) {
    const k = kinds.get(f.kind) ?? { ...kindOf(f.name), files: 0, bytes: 0 };
    k.files++;
    k.bytes += f.bytes;
    kinds.set(f.kind, k);
  }
  const sum = (xs: { bytes: number }[]) => xs.reduce((a, x) => a + x.bytes, 0);
  const sessionsDir = ctxDir(root, 'agent-sessions');
  const sessions = walk(sessionsDir);
  const v8 = compileCacheDir();
  const compiled = walk(v8);
  return {
    dir,
    files,
    bytes: sum(files),
    limitBytes: cacheLimitBytes(env),
    kinds: [...kinds.values()].sort((a, b) => b.bytes - a.bytes),
    sessions: { dir: sessionsDir, files: sessions.length, bytes: sum(sessions) },
    compileCache: { dir: v8, files: compiled.length, bytes: sum(compiled) },
    disabled: env.GIT_CTX_NO_CACHE === '1',
  };
}

/** Prune the caches of a repository now (see pruneCacheDir). */
export function pruneCaches(root: string, limitBytes = cacheLimitBytes(), now = Date.now()): PruneResult {
  const dir = ctxDir(root, 'cache');
  return dir ? pruneCacheDir(dir, limitBytes, now) : { removed: [], freedBytes: 0, bytes: 0 };
}

export interface CleanResult {
  removed: { dir: string; files: number; bytes: number }[];
}

/**
 * Delete the caches of a repository (`<git-dir>/ctx/cache`); with `all`, also the
 * agent-session memories and the per-user compile cache. Never touches anything else under
 * `.git/ctx` (locks, the evidence store, a written map).
 */
export function cleanCaches(root: string, opts: { all?: boolean } = {}): CleanResult {
  const dirs = [ctxDir(root, 'cache')];
  if (opts.all) dirs.push(ctxDir(root, 'agent-sessions'), compileCacheDir());
  const removed: CleanResult['removed'] = [];
  for (const d of dirs) {
    if (!d || !existsSync(d)) continue;
    const files = walk(d);
    rmSync(d, { recursive: true, force: true });
    removed.push({ dir: d, files: files.length, bytes: files.reduce((a, f) => a + f.bytes, 0) });
  }
  return { removed };
}
