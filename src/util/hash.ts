import { createHash } from 'node:crypto';

/**
 * Digests by node:crypto, except for small inputs, which are hashed here in JavaScript with
 * the same result. Loading node:crypto (with the stream machinery it pulls in) costs ~5 ms of
 * a run, and the warm one-place runs (the agent-read hook, `for`, `trace`) hash only a few
 * short keys: the bundle loads node:crypto on first use (scripts/build-cli-bundle.mjs), so
 * those runs never load it (DEC-041). Larger inputs go to OpenSSL, whose speed matters there;
 * JavaScript that has not warmed up hashes ~10 MB/s.
 */
const SMALL = 4096;

const bytesOf = (content: string | Uint8Array): Uint8Array => (typeof content === 'string' ? Buffer.from(content, 'utf8') : content);

/** The message padded to whole 64-byte blocks with its bit length at the end (SHA-1 and SHA-2 alike). */
function padded(parts: readonly Uint8Array[]): DataView {
  let n = 0;
  for (const p of parts) n += p.length;
  const total = (n + 9 + 63) & ~63;
  const buf = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    buf.set(p, at);
    at += p.length;
  }
  buf[n] = 0x80;
  const dv = new DataView(buf.buffer);
  dv.setUint32(total - 8, Math.floor(n / 0x20000000));
  dv.setUint32(total - 4, (n << 3) >>> 0);
  return dv;
}

const hex = (words: readonly number[]): string => {
  let s = '';
  for (const w of words) s += (w >>> 0).toString(16).padStart(8, '0');
  return s;
};

// prettier-ignore
const K256 = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 (FIPS 180-4) of a short message, as lowercase hex. */
function sha256Small(parts: readonly Uint8Array[]): string {
  const dv = padded(parts);
  const W = new Int32Array(64);
  let h0 = 0x6a09e667 | 0, h1 = 0xbb67ae85 | 0, h2 = 0x3c6ef372 | 0, h3 = 0xa54ff53a | 0; // prettier-ignore
  let h4 = 0x510e527f | 0, h5 = 0x9b05688c | 0, h6 = 0x1f83d9ab | 0, h7 = 0x5be0cd19 | 0; // prettier-ignore
  for (let off = 0; off < dv.byteLength; off += 64) {
    for (let i = 0; i < 16; i++) W[i] = dv.getInt32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const x = W[i - 15]!;
      const y = W[i - 2]!;
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
    }
    let a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7; // prettier-ignore
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K256[i]! + W[i]!) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  return hex([h0, h1, h2, h3, h4, h5, h6, h7]);
}

/** SHA-1 (FIPS 180-4) of a short message, as lowercase hex: git's object ids. */
function sha1Small(parts: readonly Uint8Array[]): string {
  const dv = padded(parts);
  const W = new Int32Array(80);
  let h0 = 0x67452301 | 0, h1 = 0xefcdab89 | 0, h2 = 0x98badcfe | 0, h3 = 0x10325476 | 0, h4 = 0xc3d2e1f0 | 0; // prettier-ignore
  for (let off = 0; off < dv.byteLength; off += 64) {
    for (let i = 0; i < 16; i++) W[i] = dv.getInt32(off + 4 * i);
    for (let i = 16; i < 80; i++) {
      const x = W[i - 3]! ^ W[i - 8]! ^ W[i - 14]! ^ W[i - 16]!;
      W[i] = (x << 1) | (x >>> 31);
    }
    let a = h0, b = h1, c = h2, d = h3, e = h4; // prettier-ignore
    for (let i = 0; i < 80; i++) {
      const f = i < 20 ? (b & c) | (~b & d) : i < 40 || i >= 60 ? b ^ c ^ d : (b & c) | (b & d) | (c & d);
      const k = i < 20 ? 0x5a827999 : i < 40 ? 0x6ed9eba1 : i < 60 ? 0x8f1bbcdc | 0 : 0xca62c1d6 | 0;
      const t = (((a << 5) | (a >>> 27)) + f + e + k + W[i]!) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = t;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  return hex([h0, h1, h2, h3, h4]);
}

function digest(algorithm: 'sha1' | 'sha256', parts: readonly (string | Uint8Array)[]): string {
  const bytes = parts.map(bytesOf);
  let n = 0;
  for (const b of bytes) n += b.length;
  if (n <= SMALL) return algorithm === 'sha1' ? sha1Small(bytes) : sha256Small(bytes);
  const h = createHash(algorithm);
  for (const b of bytes) h.update(b);
  return h.digest('hex');
}

/** The git blob id of some content (sha1 of "blob <len>\0<content>"). */
export function gitBlobHash(content: Uint8Array): string {
  return digest('sha1', [`blob ${content.byteLength}\0`, content]);
}

/** SHA-256 of the parts one after another, as lowercase hex. */
export function sha256(...parts: (string | Uint8Array)[]): string {
  return digest('sha256', parts);
}

/** SHA-1 of the parts one after another, as lowercase hex (keys that were always SHA-1). */
export function sha1(...parts: (string | Uint8Array)[]): string {
  return digest('sha1', parts);
}

/**
 * `bytes` random bytes as hex, for names that must not collide (temp files, episode ids, lock
 * tokens), not for secrets: Math.random (seeded by V8 from the system's entropy per process)
 * spares the run node:crypto.
 */
export function randomHex(bytes: number): string {
  let s = '';
  for (let i = 0; i < bytes; i++) s += Math.floor(Math.random() * 256).toString(16).padStart(2, '0');
  return s;
}
