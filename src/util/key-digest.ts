/**
 * A digest that names a cache entry (an agent session's file, a shard of kept searches). A
 * cache key needs no cryptographic hash (issue 29), and this one keeps node:crypto, ~4 ms of
 * CPU to load, off the path of a question answered from a kept entry (DEC-067). Where a
 * digest must resist someone choosing inputs, or must match git's, use util/hash.ts.
 *
 * 128 bits as 32 hex digits: four 32-bit lanes over the UTF-16 code units, each lane its own
 * multiplier and seed, every step mixed, the lanes crossed and finished with murmur3's avalanche.
 */
export function keyDigest(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x9e3779b1;
  let c = 0x85ebca77;
  let d = 0xc2b2ae3d;
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    a = Math.imul(a ^ u, 0x01000193);
    b = Math.imul(b ^ u, 0x5bd1e995);
    c = Math.imul(c ^ u, 0xcc9e2d51);
    d = Math.imul(d ^ u, 0x1b873593);
    a ^= a >>> 15;
    b ^= b >>> 13;
    c ^= c >>> 16;
    d ^= d >>> 14;
  }
  const n = text.length;
  a = fmix(a ^ n);
  b = fmix(b + a);
  c = fmix(c + b);
  d = fmix(d + c);
  a = fmix(a + d);
  return hex(a) + hex(b) + hex(c) + hex(d);
}

/** murmur3's finaliser: every input bit flips about half of the output bits. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const hex = (x: number) => x.toString(16).padStart(8, '0');
