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

/**
 * Write to fd 1 or 2 as `process.stdout/stderr.write` would (synchronous on pipes, files and
 * terminals on POSIX), with a direct write. A descriptor in non-blocking mode that is full
 * (EAGAIN) hands the rest, and everything after it, to the stream, so order is kept; a reader
 * gone (EPIPE) goes to the stream too, whose error handler (bin/git-ctx.js) ends quietly.
 * Windows consoles want the stream (UTF-16 console writes): always the stream there.
 */
export function writeStd(fd: 1 | 2, s: string): void {
  const stream = () => (fd === 1 ? process.stdout : process.stderr);
  if (process.platform === 'win32' || viaStream.has(fd)) {
    stream().write(s);
    return;
  }
  let buf = Buffer.from(s, 'utf8');
  while (buf.length) {
    let n: number;
    try {
      n = writeSync(fd, buf);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EAGAIN' && code !== 'EPIPE') throw e;
      viaStream.add(fd);
      stream().write(buf);
      return;
    }
    buf = buf.subarray(n);
  }
}
