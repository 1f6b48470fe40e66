import { existsSync } from 'node:fs';
import { mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { resolveGitDir } from './git-dir.js';
import { CtxError } from '../errors.js';
import { randomHex, sha256 } from '../util/hash.js';

/** What a lock file records about its holder; shown in LOCKED errors. */
export interface LockHolder {
  pid: number;
  host: string;
  /** ISO time the lock was taken */
  since: string;
  /** the locked file */
  file: string;
  /** the command that holds it, for the error message */
  command: string;
  /** random token: a holder only ever removes its own lock */
  token: string;
}

export interface LockOptions {
  /** directory for lock files (default: <git-dir>/ctx/locks, else next to the file) */
  lockDir?: string;
  /** how long to wait for a busy lock before failing with LOCKED (default 10 s; 0 = fail at once) */
  timeoutMs?: number;
  /** a lock older than this is stale even if its pid seems alive (default 60 s; writes take milliseconds) */
  staleMs?: number;
  /** poll interval while waiting (default 20 ms, with jitter) */
  retryMs?: number;
}

export interface Lock {
  /** path of the lock file */
  readonly path: string;
  readonly holder: LockHolder;
  /** Remove the lock if it is still ours. Idempotent. */
  release(): Promise<void>;
}

const DEFAULTS = { timeoutMs: 10_000, staleMs: 60_000, retryMs: 20 };
/** A break lock only lives for the microseconds it takes to unlink a stale lock. */
const BREAK_STALE_MS = 10_000;

/**
 * The git directory that holds `dir`, found by walking up to a `.git` directory or a
 * `.git` file (`gitdir: …`, used by worktrees and submodules). Undefined outside a repository.
 * Done on the file system rather than with `git rev-parse` because locks are taken on
 * every write and a spawn per write is wasted time.
 */
export function findGitDir(dir: string): string | undefined {
  // walk up to the work tree's top level, then resolve its (common) git dir
  let cur = path.resolve(dir);
  for (;;) {
    if (existsSync(path.join(cur, '.git'))) return resolveGitDir(cur);
    const up = path.dirname(cur);
    if (up === cur) return undefined;
    cur = up;
  }
}

/**
 * Where the lock for `file` lives: `<git-dir>/ctx/locks/<hash>.lock` inside a repository
 * (derived data stays out of the working tree, DEC-004), else `<file>.lock` beside it.
 */
export function lockPathFor(file: string, lockDir?: string): string {
  const abs = path.resolve(file);
  const dir = lockDir ?? (() => {
    const gitDir = findGitDir(path.dirname(abs));
    return gitDir ? path.join(gitDir, 'ctx', 'locks') : undefined;
  })();
  if (!dir) return `${abs}.lock`;
  const name = `${path.basename(abs).replace(/[^A-Za-z0-9._-]/g, '_')}.${sha256(abs).slice(0, 16)}.lock`;
  return path.join(dir, name);
}

/** True when a process with this pid exists on this host (EPERM means it exists but is not ours). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readHolder(lockPath: string): Promise<LockHolder | undefined> {
  try {
    const raw = await readFile(lockPath, 'utf8');
    return JSON.parse(raw) as LockHolder;
  } catch {
    return undefined;
  }
}

/**
 * Stale: the holder is gone (same host, pid not alive) or the lock is older than staleMs.
 * An unreadable lock (a writer between open and write, or garbage) is judged by its mtime.
 */
async function isStale(lockPath: string, holder: LockHolder | undefined, staleMs: number): Promise<boolean> {
  let mtime: number;
  try {
    mtime = (await stat(lockPath)).mtimeMs;
  } catch {
    return false; // gone already: the next attempt will take it
  }
  const since = holder ? Date.parse(holder.since) : NaN;
  const age = Date.now() - (Number.isNaN(since) ? mtime : Math.min(since, mtime));
  if (age > staleMs) return true;
  if (holder && holder.host === os.hostname() && !isProcessAlive(holder.pid)) return true;
  return false;
}

/**
 * Remove a stale lock without racing another breaker: the removal happens under a short
 * second lock, and only if the lock still holds the token that was judged stale. Without
 * this, two waiters could both see the stale lock, one could take a fresh lock, and the
 * other would then delete the fresh one.
 */
async function breakStale(lockPath: string, judged: LockHolder | undefined): Promise<void> {
  const breaker = `${lockPath}.break`;
  let fh;
  try {
    fh = await open(breaker, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const st = await stat(breaker).catch(() => undefined);
    if (st && Date.now() - st.mtimeMs > BREAK_STALE_MS) await unlink(breaker).catch(() => undefined);
    return;
  }
  try {
    await fh.close();
    const now = await readHolder(lockPath);
    if (now?.token === judged?.token) await unlink(lockPath).catch(() => undefined);
  } finally {
    await unlink(breaker).catch(() => undefined);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Take the exclusive lock for `file` (an `open(…, 'wx')` lock file). Waits up to
 * `timeoutMs` while another writer holds it, breaks stale locks, and otherwise fails with
 * a LOCKED error that names the holder (pid, host, command, since) and the lock file.
 */
export async function acquireLock(file: string, opts: LockOptions = {}): Promise<Lock> {
  const abs = path.resolve(file);
  const timeoutMs = opts.timeoutMs ?? DEFAULTS.timeoutMs;
  const staleMs = opts.staleMs ?? DEFAULTS.staleMs;
  const retryMs = opts.retryMs ?? DEFAULTS.retryMs;
  const lockPath = lockPathFor(abs, opts.lockDir);
  await mkdir(path.dirname(lockPath), { recursive: true }).catch((e: NodeJS.ErrnoException) => {
    throw new CtxError('IO', `cannot create the lock directory ${path.dirname(lockPath)}: ${e.message}`, { cause: e });
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const holder: LockHolder = {
      pid: process.pid,
      host: os.hostname(),
      since: new Date().toISOString(),
      file: abs,
      command: process.argv.slice(1).map((a) => path.basename(a)).join(' ').slice(0, 200),
      token: randomHex(12),
    };
    try {
      const fh = await open(lockPath, 'wx');
      try {
        await fh.writeFile(JSON.stringify(holder) + '\n');
      } finally {
        await fh.close();
      }
      let released = false;
      return {
        path: lockPath,
        holder,
        async release() {
          if (released) return;
          released = true;
          const cur = await readHolder(lockPath);
          if (cur?.token === holder.token) await unlink(lockPath).catch(() => undefined);
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new CtxError('IO', `cannot create lock file ${lockPath}: ${(e as Error).message}`, { cause: e });
      }
    }
    const other = await readHolder(lockPath);
    if (await isStale(lockPath, other, staleMs)) {
      await breakStale(lockPath, other);
      continue;
    }
    if (Date.now() >= deadline) {
      const who = other ? `pid ${other.pid} on ${other.host} (${other.command || 'unknown command'}) since ${other.since}` : 'another process';
      throw new CtxError('LOCKED', `${abs} is locked by ${who}`, {
        file: abs,
        hint: `lock file: ${lockPath}; if that process is no longer running, delete the lock file`,
      });
    }
    await sleep(retryMs + Math.floor(Math.random() * retryMs));
  }
}

/** Run `fn` while holding the lock for `file`; the lock is released even when `fn` throws. */
export async function withLock<T>(file: string, fn: () => Promise<T>, opts: LockOptions = {}): Promise<T> {
  const lock = await acquireLock(file, opts);
  try {
    return await fn();
  } finally {
    await lock.release();
  }
}
