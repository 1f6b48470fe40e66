// @spec SPEC-CACHE-001

import { statSync } from 'node:fs';
import path from 'node:path';
import { resolveGitDir } from '../git/git-dir.js';
import { readCacheJson, writeCacheFile } from './file.js';
import { cacheKind, type CacheKind, type CacheKindName } from './kinds.js';
import { buildDirName } from './prune.js';

/** `<git-dir>/ctx/cache`, every build's caches, whether caches are on or off (pruning and cleaning look at it either way). */
export function cacheRootDir(root: string): string | undefined {
  const g = resolveGitDir(root);
  return g ? path.join(g, 'ctx', 'cache') : undefined;
}

/**
 * `<git-dir>/ctx/cache/build-<id>`: the caches of the running build, and the one place a
 * cache file's folder is formed (DEC-117). Every kind's key is thereby also the build's
 * identity (src/version.ts): a build never reads a cache another build wrote, whatever the
 * kinds' hand-bumped versions say; pruning deletes the folders of builds no longer run.
 */
export function cacheDir(root: string): string | undefined {
  const dir = cacheRootDir(root);
  return dir ? path.join(dir, buildDirName()) : undefined;
}

/** The folder of a kind: this build's cache folder, or `<git-dir>/ctx/<home>` for one kept outside it (agent-session memories, not derived data, kept across builds). */
export function homeDir(root: string, kind: CacheKind): string | undefined {
  if (!kind.home) return cacheDir(root);
  const g = resolveGitDir(root);
  return g ? path.join(g, 'ctx', kind.home) : undefined;
}

/** GIT_CTX_NO_CACHE=1: every cache starts empty and is never written. */
export const cachesOff = (): boolean => process.env.GIT_CTX_NO_CACHE === '1';

/**
 * The file of a registered kind (its variant in place of `*`); undefined outside a
 * repository and, for the kinds in the cache folder, when caches are off (agent-session
 * memories are kept even then: they are what a session was shown, not derived data). For
 * the cache modules of src/cache and for files another program writes (git's private
 * index copy); domain code asks a memo instead.
 */
export function kindFile(root: string, name: CacheKindName, variant = ''): string | undefined {
  const k = cacheKind(name);
  if (!k.home && cachesOff()) return undefined;
  const dir = homeDir(root, k);
  return dir ? path.join(dir, fileName(k, variant)) : undefined;
}

/** The files an earlier version kept a kind's data in, beside the kind's own file (to remove when it is written). */
export function formerFiles(name: CacheKindName, file: string): string[] {
  return (cacheKind(name).formerly ?? []).map((f) => path.join(path.dirname(file), f));
}

/** A variant made safe as part of a file name. */
const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 200);

function fileName(k: CacheKind, variant: string): string {
  return k.file.includes('*') ? k.file.replace('*', safe(variant)) : k.file;
}

/**
 * Remembered values of one cache kind, each answering one key (a commit, an index stamp, a
 * content hash). `get` answers only for the very key it was set with, at the kind's
 * version; anything else (another key, an old version, a damaged or foreign file) is a
 * miss, never an error. `set` writes atomically and is skipped where nothing can be written.
 */
export interface Memo<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): boolean;
  /** whatever the memo holds, with its key: for a caller that checks the key itself */
  latest(): { key: string; value: V } | undefined;
  /** false outside a repository or with caches off: every get misses and set writes nothing */
  readonly on: boolean;
}

interface Envelope {
  kind: string;
  version: number;
  key: string;
  value: unknown;
  /** further entries, most recent first (kinds that keep several) */
  older?: [string, unknown][];
}

/** The memo of a registered `json` kind in a repository (`variant` for kinds with a `*`). */
export function memo<V>(root: string | undefined, name: CacheKindName, variant = ''): Memo<V> {
  const kind = cacheKind(name);
  const file = root ? kindFile(root, name, variant) : undefined;
  const read = (): Envelope | undefined => {
    const e = readCacheJson(file) as Partial<Envelope> | undefined;
    return e && typeof e === 'object' && e.kind === kind.name && e.version === kind.version && typeof e.key === 'string' ? (e as Envelope) : undefined;
  };
  const keep = kind.keep ?? 1;
  return {
    on: file !== undefined,
    get(key) {
      const e = read();
      if (!e) return undefined;
      if (e.key === key) return e.value as V;
      if (keep > 1 && Array.isArray(e.older)) for (const o of e.older) if (Array.isArray(o) && o[0] === key) return o[1] as V;
      return undefined;
    },
    set(key, value) {
      if (!file) return false;
      const env: Envelope = { kind: kind.name, version: kind.version, key, value };
      if (keep > 1) {
        const e = read();
        const prior: [string, unknown][] = e ? [[e.key, e.value], ...(Array.isArray(e.older) ? e.older : [])] : [];
        env.older = prior.filter((o) => Array.isArray(o) && o[0] !== key).slice(0, keep - 1);
      }
      return writeCacheFile(file, JSON.stringify(env));
    },
    latest() {
      const e = read();
      return e ? { key: e.key, value: e.value as V } : undefined;
    },
  };
}

/**
 * A `store` kind: one JSON file of the kind's own shape (versioned inside it), read and
 * rewritten whole, with no key: edges per origin, token counts, a session's memory.
 */
export interface CacheStore<V> {
  readonly on: boolean;
  /** the parsed file; undefined when absent, unreadable or not JSON */
  read(): V | undefined;
  write(value: V): boolean;
  /** the file's identity as it is now (device, inode, size, change time): which write a reader saw */
  stamp(): string | undefined;
}

/** The store of a registered kind in a repository (`variant` for kinds with a `*`). */
export function cacheStore<V>(root: string | undefined, name: CacheKindName, variant = ''): CacheStore<V> {
  const file = root ? kindFile(root, name, variant) : undefined;
  return storeAt<V>(file);
}

/** A store over a file a caller chose (an option naming one); undefined: nothing read or written. */
export function storeAt<V>(file: string | undefined): CacheStore<V> {
  return {
    on: file !== undefined,
    read: () => readCacheJson(file) as V | undefined,
    write: (value) => writeCacheFile(file, JSON.stringify(value)),
    stamp() {
      if (!file) return undefined;
      try {
        const st = statSync(file, { bigint: true });
        return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`;
      } catch {
        return undefined;
      }
    },
  };
}
