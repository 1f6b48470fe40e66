// @spec SPEC-CACHE-001

import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { writeCacheFile } from './file.js';

/**
 * Where compiled-code caches live: `$XDG_CACHE_HOME/git-ctx/v8`, else `~/.cache/git-ctx/v8`
 * (`%LOCALAPPDATA%` on Windows). Per user on purpose: V8 trusts the bytes it is given, so a
 * cache must never come from a directory that other users can write (such as /tmp).
 * `GIT_CTX_NO_CACHE=1` turns it off.
 */
export function codeCacheDir(): string | undefined {
  if (process.env.GIT_CTX_NO_CACHE === '1') return undefined;
  const base =
    process.env.XDG_CACHE_HOME || (process.platform === 'win32' ? process.env.LOCALAPPDATA : undefined) || (os.homedir() ? path.join(os.homedir(), '.cache') : undefined);
  return base ? path.join(base, 'git-ctx', 'v8') : undefined;
}

/**
 * Whether compiled code may be read from `dir`: it is the current user's and no one else may
 * write it (not world-writable). V8 trusts the bytes it is given, so a cache directory placed
 * (by XDG_CACHE_HOME, say) where another user could write is never read. bin/git-ctx.js makes
 * the same check for the CLI bundle's own cache. Windows: per-user by location.
 */
export function trustedCacheDir(dir: string): boolean {
  return cacheDirState(dir) === 'trusted';
}

/** `trustedCacheDir` with a third answer, missing (created by the first write), in one stat. */
function cacheDirState(dir: string): 'trusted' | 'missing' | 'refused' {
  const st = statSync(dir, { throwIfNoEntry: false });
  if (!st) return 'missing';
  if (process.platform === 'win32') return 'trusted';
  return st.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o002) === 0 ? 'trusted' : 'refused';
}

/**
 * The cache file's key: 96 bits of three multiply-xor lanes over what identifies the file and
 * the Node that compiled it. Not a digest: bin/git-ctx.js restates it (test/cli/bundle.test.ts
 * checks both agree), and a sha256 there would load node:crypto on every run (DEC-041). A
 * collision is harmless beyond the time lost: the key spells the file's inode, size and times.
 */
export function codeCacheKey(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  let c = 0x85ebca6b;
  for (let i = 0; i < s.length; i++) {
    const k = s.charCodeAt(i);
    a = Math.imul(a ^ k, 0x01000193);
    b = Math.imul(b ^ k, 0x5bd1e995);
    b ^= b >>> 15;
    c = Math.imul(c + k, 0xc2b2ae35);
    c ^= c >>> 13;
  }
  return [a, b, c].map((x) => (x >>> 0).toString(16).padStart(8, '0')).join('');
}

/**
 * `require(file)` for a large CommonJS module, with V8's code cache kept on disk between runs.
 * Node 20 has no built-in compile cache (`module.enableCompileCache` arrived in Node 22), and
 * compiling the 9 MB TypeScript compiler costs ~0.3 s of every cold run; with the cache it
 * costs ~0.1 s. The cache is keyed by the file (path, inode, size, mtime and ctime: any write
 * changes the ctime, and V8 itself checks only the source length), the Node version and the
 * architecture, and V8 rejects data that does not fit its own version and flags, so a stale or
 * foreign cache only costs the time it would have saved. The cache is written at exit, after
 * the run has compiled the functions it used, so later runs skip those compilations too.
 * The module lands in `require.cache`, so a later plain `require` of it is free.
 *
 * `variant` keeps separate caches of one file for different uses: a cache holds the functions
 * its first run compiled, so the CLI bundle (DEC-031) keeps one per command, else a `for`
 * would compile its own functions on every run after a `check` wrote the cache.
 */
export function requireWithCodeCache(file: string, variant?: string): unknown {
  const require = createRequire(import.meta.url);
  if (require.cache[file]) return require.cache[file]!.exports;
  const source = readFileSync(file, 'utf8');
  const dir = codeCacheDir();
  let cacheFile: string | undefined;
  let cachedData: Buffer | undefined;
  // a directory not there yet is created by the first write; one another user could write is left alone
  const state = dir ? cacheDirState(dir) : 'refused';
  if (dir && state !== 'refused') {
    const st = statSync(file);
    const key = codeCacheKey(`${file}\0${st.ino}\0${st.size}\0${st.mtimeMs}\0${st.ctimeMs}\0${process.version}\0${process.arch}`);
    cacheFile = path.join(dir, `${prefixOf(file, variant)}${key}.bin`);
    try {
      if (state === 'trusted') cachedData = readFileSync(cacheFile);
    } catch {
      /* first run with this file: compiled from source, cache written at exit */
    }
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  const mod = new Module(file);
  mod.filename = file;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
  const fn = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  require.cache[file] = mod;
  try {
    fn.call(mod.exports, mod.exports, createRequire(file), mod, file, path.dirname(file));
  } catch (e) {
    delete require.cache[file];
    throw e;
  }
  mod.loaded = true;
  if (cacheFile && (!cachedData || script.cachedDataRejected)) {
    const target = cacheFile;
    process.once('exit', () => {
      // a read-only home (CI sandboxes) skips the write: the cache only ever saves time
      if (!writeCacheFile(target, script.createCachedData())) return;
      try {
        prune(path.dirname(target), prefixOf(file, variant), target, variant ? 2 : 4);
      } catch {
        /* pruning is housekeeping */
      }
    });
  }
  return mod.exports;
}

/**
 * The cache files' name prefix: the module's name, then the variant (letters, digits, `-` and
 * `_`) ended by a dot, so that one variant's prefix never matches another's (`cli-hook.` is
 * not a prefix of `cli-hook_agent-read.`).
 */
export function prefixOf(file: string, variant?: string): string {
  const v = variant?.replace(/[^a-z0-9_-]/gi, '').slice(0, 40);
  return `${path.basename(file, '.js')}-${v ? `${v}.` : ''}`;
}

/**
 * Keep the newest few caches of one module: each installation (a global install, a project's
 * node_modules, a pre-commit environment) and each upgrade has its own key, and 2.5 MB each
 * must not pile up in the user's cache directory.
 */
function prune(dir: string, prefix: string, keep: string, count: number): void {
  const files = readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && f.endsWith('.bin'))
    .map((f) => ({ f: path.join(dir, f), t: statSync(path.join(dir, f)).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  for (const { f } of files.slice(count)) if (f !== keep) rmSync(f, { force: true });
}
