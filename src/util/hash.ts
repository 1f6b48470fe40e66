import { createHash, randomBytes } from 'node:crypto';

// node:crypto is loaded with this module, at start-up for the commands that digest: loaded late
// instead (on a first digest in the middle of a cold 100,000-file check), the run peaked 15-25 MB
// higher. Paths that must not load it (a kept answer, DEC-067) import util/key-digest.ts.

function digest(algorithm: 'sha1' | 'sha256', parts: readonly (string | Uint8Array)[]): string {
  const h = createHash(algorithm);
  for (const p of parts) h.update(p);
  return h.digest('hex');
}

/** The git blob id of some content (sha1 of "blob <len>\0<content>"), as `git hash-object` gives it. */
export function gitBlobHash(content: Uint8Array): string {
  return digest('sha1', [`blob ${content.byteLength}\0`, content]);
}

/** SHA-256 of the parts one after another (strings as UTF-8), as lowercase hex: the cache keys. */
export function sha256(...parts: (string | Uint8Array)[]): string {
  return digest('sha256', parts);
}

/** SHA-1 of the parts one after another, as lowercase hex (keys that were always SHA-1). */
export function sha1(...parts: (string | Uint8Array)[]): string {
  return digest('sha1', parts);
}

/** `bytes` random bytes as hex, for names that must not collide (temp files, episode ids, lock tokens). */
export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
