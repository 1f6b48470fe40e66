// @spec SPEC-CLI-001

import { fstatSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Standard output and error without creating `process.stdout` / `process.stderr` when nothing
 * needs them: on a pipe (how agents, hooks and scripts run git-ctx) each is a net.Socket, and
 * creating them loads `net`, `tty` and the stream machinery, ~4 ms of every run (DEC-038).
 */

/** `process.stdout.isTTY` for a descriptor, without creating the stream (tty is loaded only for a character device). */
export function fdIsTTY(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false; // closed: Node's stream for it would not be a TTY either
  }
  return (createRequire(import.meta.url)('node:tty') as typeof import('node:tty')).isatty(fd);
}

const viaStream = new Set<number>();
/** Descriptors whose reader is gone (EPIPE, ECONNRESET): what is still to say is dropped. */
const closed = new Set<number>();
const guarded = new Set<number>();

/**
 * Write to fd 1 or 2 as `process.stdout/stderr.write` would (synchronous on pipes, files and
 * terminals on POSIX), with a direct write. A descriptor in non-blocking mode that is full
 * (EAGAIN) hands the rest, and everything after it, to the stream, so order is kept. A reader
 * gone (EPIPE: `git ctx list | head`) ends the output quietly, as other Unix tools do: the rest
 * is dropped, without a stack. Windows consoles want the stream (UTF-16 console writes):
 * always the stream there.
 */
export function writeStd(fd: 1 | 2, s: string): void {
  if (closed.has(fd)) return;
  if (process.platform === 'win32' || viaStream.has(fd)) {
    streamOf(fd).write(s);
    return;
  }
  let buf = Buffer.from(s, 'utf8');
  while (buf.length) {
    let n: number;
    try {
      n = writeSync(fd, buf);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (readerGone(code)) {
        closed.add(fd);
        return;
      }
      if (code !== 'EAGAIN') throw e;
      viaStream.add(fd);
      streamOf(fd).write(buf);
      return;
    }
    buf = buf.subarray(n);
  }
}

/**
 * The reader has gone: EPIPE on a pipe; ECONNRESET when the descriptor is a socket, as the
 * stdio Node gives a child process is (a parent that stops reading resets the connection).
 */
function readerGone(code: string | undefined): boolean {
  return code === 'EPIPE' || code === 'ECONNRESET';
}

/** process.stdout or process.stderr, which a reader gone leaves quiet too (see writeStd). */
function streamOf(fd: 1 | 2): NodeJS.WriteStream {
  const stream = fd === 1 ? process.stdout : process.stderr;
  if (!guarded.has(fd)) {
    guarded.add(fd);
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (!readerGone(e.code)) throw e;
      closed.add(fd);
    });
  }
  return stream;
}
