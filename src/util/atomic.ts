import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, link, lstat, open, readdir, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { CtxError } from '../errors.js';

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
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
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
