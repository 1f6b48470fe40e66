// @spec SPEC-CLI-001

import { readSync } from 'node:fs';

/**
 * All of stdin, read synchronously from fd 0 when it blocks (a pipe, a file, the socket an
 * agent's hook runner passes): `process.stdin` on a pipe is a net.Socket, and creating it loads
 * `net` and the stream machinery, a few milliseconds of a hook that must answer in 100 (DEC-038).
 * A descriptor in non-blocking mode (EAGAIN) or one that cannot be read this way hands over to
 * `process.stdin` for the rest; the bytes read so far are kept, so the result is the same.
 */
export async function readAllStdin(fd = 0): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let buf = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buf, 0, buf.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EOF' || code === 'EBADF') break; // end of a Windows pipe; no stdin at all
      if (code === 'EAGAIN' || code === 'EWOULDBLOCK' || code === 'EINVAL' || code === 'EISDIR' || code === 'ESPIPE') {
        for await (const c of process.stdin) chunks.push(c as Buffer);
        break;
      }
      throw e;
    }
    if (n === 0) break;
    chunks.push(buf.subarray(0, n));
    if (n === buf.length) buf = Buffer.allocUnsafe(buf.length * 2);
    else buf = buf.subarray(n);
  }
  return Buffer.concat(chunks);
}
