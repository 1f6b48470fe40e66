// @spec SPEC-CACHE-001

import { readCacheBytes, writeCacheFile } from './file.js';

/**
 * Digests remembered by a short key, most recent first, the last few kept: a clean records
 * listing's token names the finished set's key (DEC-042), so alternating between two
 * snapshots (the work tree and `--staged`) keeps both. A digest is only ever taken from an
 * entry whose key is byte for byte the one asked about.
 *
 * File: "GCDM1\n", then per entry a 4-byte big-endian key length, the 64 hex digits, the key
 * in UTF-8.
 */
const MAGIC = Buffer.from('GCDM1\n', 'latin1');
const KEEP = 4;
/** Keys larger than this are not remembered (no memo file of many megabytes). */
const MAX_KEY_BYTES = 8 * 1024 * 1024;

/** The digest remembered for `key` with memoRemember, or undefined. */
export function memoLookup(file: string | undefined, key: string): string | undefined {
  if (!file) return undefined;
  return lookup(file, Buffer.from(key, 'utf8')).digest;
}

/** Remember `digest` (64 hex digits) for `key`, most recent first, the last few kept. */
export function memoRemember(file: string | undefined, key: string, digest: string): void {
  const bytes = Buffer.from(key, 'utf8');
  if (!file || bytes.length > MAX_KEY_BYTES || !HEX64.test(digest)) return;
  const known = lookup(file, bytes);
  if (known.digest === digest) return;
  remember(file, bytes, digest, known.entries.filter((e) => !e.key.equals(bytes)));
}

const HEX64 = /^[0-9a-f]{64}$/;

interface Entry {
  digest: Buffer;
  key: Buffer;
}

/** The digest the memo holds for `bytes` (if any) and every entry read before it. */
function lookup(file: string, bytes: Buffer): { digest?: string; entries: Entry[] } {
  const entries: Entry[] = [];
  const buf = readCacheBytes(file);
  if (buf && buf.length >= MAGIC.length && buf.subarray(0, MAGIC.length).equals(MAGIC)) {
    let at = MAGIC.length;
    while (at + 68 <= buf.length) {
      const n = buf.readUInt32BE(at);
      if (at + 68 + n > buf.length) break; // cut short: the rest is ignored
      const digest = buf.subarray(at + 4, at + 68);
      const k = buf.subarray(at + 68, at + 68 + n);
      if (k.equals(bytes) && HEX64.test(digest.toString('latin1'))) return { digest: digest.toString('latin1'), entries };
      entries.push({ digest, key: k });
      at += 68 + n;
    }
  }
  return { entries };
}

function remember(file: string, bytes: Buffer, digest: string, entries: Entry[]): void {
  const kept = [{ digest: Buffer.from(digest, 'latin1'), key: bytes }, ...entries.slice(0, KEEP - 1)];
  const parts: Buffer[] = [MAGIC];
  for (const e of kept) {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(e.key.length);
    parts.push(len, e.digest, e.key);
  }
  writeCacheFile(file, Buffer.concat(parts));
}
