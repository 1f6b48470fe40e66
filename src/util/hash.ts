import { createHash } from 'node:crypto';

/** The git blob id of some content (sha1 of "blob <len>\0<content>"). */
export function gitBlobHash(content: Uint8Array): string {
  const h = createHash('sha1');
  h.update(`blob ${content.byteLength}\0`);
  h.update(content);
  return h.digest('hex');
}

export function sha256(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}
