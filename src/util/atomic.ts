import { chmodSync, closeSync, constants, fsyncSync, lstatSync, openSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { chmod, link, lstat, open, readdir, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { CtxError } from '../errors.js';
import { randomHex } from './hash.js';

export interface AtomicWriteOptions {
  /**
   * File mode for a new file (default 0o666 minus the umask, like `fs.writeFile`).
   * An existing file always keeps its own mode.
   */
  mode?: number;
  /**
   * Create only: fail with EXISTS instead of replacing a file that is already there.
   * Uses link(2), so two concurrent creators can never both succeed.
   */
  createOnly?: boolean;
}

/** A unique temp name in the target's own directory, so that rename(2) stays on one file system. */
function tempNameFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomHex(6)}.tmp`);
}

/** Is a process with this id running (on this machine)? EPERM means it exists but is not ours. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Remove temp files a killed writer (SIGKILL, power loss) left beside `file`: the next write
 * of the same file cleans up, so a crash never leaves debris for long. Only our own pattern,
 * and only when the writer's process is gone.
 */
async function removeStaleTemps(file: string): Promise<void> {
  const dir = path.dirname(file);
  const base = path.basename(file);
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const n of names) {
    if (!n.startsWith(`.${base}.`) || !n.endsWith('.tmp')) continue;
    const m = /^\.(\d+)\.[0-9a-f]{12}\.tmp$/.exec(n.slice(base.length + 1));
    if (m && Number(m[1]) !== process.pid && !alive(Number(m[1]))) await unlink(path.join(dir, n)).catch(() => undefined);
  }
}

/** fsync a directory so the rename itself survives a crash; not supported everywhere (Windows), so best effort. */
async function syncDir(dir: string): Promise<void> {
  let fh;
  try {
    fh = await open(dir, constants.O_RDONLY);
    await fh.sync();
  } catch {
    /* directories cannot be opened or synced on some platforms; the data itself is already synced */
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

/**
 * Replace (or create) a file atomically: write a temp file in the same directory, fsync it,
 * then rename it over the target. Readers see the old bytes or the new bytes, never a mix;
 * a crash leaves at most a stray `.name.pid.rand.tmp` file, which the next write of the same
 * file removes. The target's mode is kept.
 * A symbolic link at the target is refused rather than replaced by a regular file.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): Promise<void> {
  const target = path.resolve(file);
  const existing = await lstat(target).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw new CtxError('IO', `cannot stat ${target}: ${e.message}`, { cause: e, file: target });
  });
  if (existing?.isSymbolicLink()) throw new CtxError('IO', `${target} is a symbolic link; git-ctx never writes through links`, { file: target });
  if (existing && opts.createOnly) throw new CtxError('EXISTS', `${target} already exists`, { file: target });
  if (existing && !existing.isFile()) throw new CtxError('IO', `${target} exists and is not a regular file`, { file: target });
  const mode = existing ? existing.mode & 0o7777 : opts.mode;
  await removeStaleTemps(target);
  const tmp = tempNameFor(target);
  let fh;
  try {
    fh = await open(tmp, 'wx', mode ?? 0o666);
    await fh.writeFile(data);
    await fh.sync();
    await fh.close();
    fh = undefined;
    // open() applies the umask; an existing file's exact mode (e.g. 0755 scripts) must survive
    if (existing) await chmod(tmp, mode!);
    if (opts.createOnly) {
      await link(tmp, target);
      await unlink(tmp);
    } else {
      await rename(tmp, target);
    }
  } catch (e) {
    await fh?.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    const err = e as NodeJS.ErrnoException;
    if (opts.createOnly && err.code === 'EEXIST') throw new CtxError('EXISTS', `${target} already exists`, { cause: e, file: target });
    if (e instanceof CtxError) throw e;
    throw new CtxError('IO', `cannot write ${target}: ${err.message}`, { cause: e, file: target });
  }
  await syncDir(path.dirname(target));
}

/** One file of a batch write (see writeFilesAtomic). */
export interface BatchFile {
  /** absolute path, already resolved inside the repository (containedPath) */
  file: string;
  /** new content; null removes the file (a missing file is fine) */
  data: string | Uint8Array | null;
  /**
   * fsync the file before its rename (as writeFileAtomic does). Leave it off only for
   * files that are wholly derived from other files and rewritten by running the command
   * again: their replacement stays atomic, but a crash may lose the newest version.
   */
  durable?: boolean;
}

/**
 * Write many files, each atomically (temp file in the same directory, then rename; the
 * target's mode kept; a symbolic link refused), for commands that rewrite thousands of
 * generated files at once (`rules export`). Unlike calling writeFileAtomic per file, each
 * directory is listed once for stale temp files, only `durable` files are fsynced, and
 * each directory is fsynced once at the end, so the renames themselves are on disk when
 * this returns. The directories must exist.
 */
export async function writeFilesAtomic(files: BatchFile[]): Promise<void> {
  const byDir = new Map<string, BatchFile[]>();
  for (const f of files) {
    const dir = path.dirname(path.resolve(f.file));
    let list = byDir.get(dir);
    if (!list) byDir.set(dir, (list = []));
    list.push(f);
  }
  // stale temps of a killed writer, one listing per directory
  for (const [dir, list] of byDir) {
    const bases = new Set(list.map((f) => path.basename(f.file)));
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const n of names) {
      const m = /^\.(.+)\.(\d+)\.[0-9a-f]{12}\.tmp$/.exec(n);
      if (m && bases.has(m[1]!) && Number(m[2]) !== process.pid && !alive(Number(m[2]))) await unlink(path.join(dir, n)).catch(() => undefined);
    }
  }
  // Each file with blocking calls, one after another: thousands of small files through the
  // thread pool cost ~3x the CPU (a promise and a pool round trip per call, five calls a
  // file), and the pool's four threads gain nothing on one disk. One random draw names all temps.
  const rand = randomHex(6 * files.length);
  files.forEach((f, i) => {
    const target = path.resolve(f.file);
    if (f.data === null) {
      try {
        unlinkSync(target);
      } catch (e) {
        const err = e as NodeJS.ErrnoException;
        if (err.code !== 'ENOENT') throw new CtxError('IO', `cannot remove ${target}: ${err.message}`, { cause: e, file: target });
      }
      return;
    }
    let existing;
    try {
      existing = lstatSync(target, { throwIfNoEntry: false });
    } catch (e) {
      throw new CtxError('IO', `cannot stat ${target}: ${(e as Error).message}`, { cause: e, file: target });
    }
    if (existing?.isSymbolicLink()) throw new CtxError('IO', `${target} is a symbolic link; git-ctx never writes through links`, { file: target });
    if (existing && !existing.isFile()) throw new CtxError('IO', `${target} exists and is not a regular file`, { file: target });
    const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${rand.slice(12 * i, 12 * i + 12)}.tmp`);
    let fd: number | undefined;
    try {
      fd = openSync(tmp, 'wx', 0o666);
      writeFileSync(fd, f.data);
      if (f.durable) fsyncSync(fd);
      closeSync(fd);
      fd = undefined;
      if (existing) chmodSync(tmp, existing.mode & 0o7777);
      renameSync(tmp, target);
    } catch (e) {
      if (fd !== undefined) closeQuietly(fd);
      try {
        unlinkSync(tmp);
      } catch {
        /* never created, or already gone */
      }
      throw new CtxError('IO', `cannot write ${target}: ${(e as Error).message}`, { cause: e, file: target });
    }
  });
  for (const dir of byDir.keys()) await syncDir(dir);
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    /* the write already failed; that error is the one reported */
  }
}
