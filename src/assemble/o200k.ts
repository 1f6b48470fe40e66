// @spec SPEC-ASSEMBLE-001

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Exact o200k_base token counts in plain JavaScript, for texts whose characters all lie in
 * {@link fastCountable}'s range; everything else goes to tiktoken (see DEC-030).
 *
 * Why: building tiktoken's o200k encoder (WASM: 200k base64 ranks into a hash map, the split
 * pattern compiled) costs 0.5-1 s, more than the rest of a cold `rules export`. Here the same
 * rank table (the file @dqbd/tiktoken ships) is decoded in one pass into a flat byte array and
 * an open-addressing hash table (~20 ms), and pieces are merged exactly as tiktoken's
 * `_byte_pair_merge` does (lowest rank first, leftmost on ties).
 *
 * The split pattern is tiktoken's, translated to a JavaScript regular expression: `(?i:'s|…)`
 * spelled out with its Unicode case folds (`'ſ` matches `'s`), and `\s` written as the
 * Unicode White_Space set Rust uses (JavaScript's `\s` differs: it has U+FEFF and lacks
 * U+0085). Character classes (`\p{L}`, `\p{Lu}`, …) come from the JavaScript engine's
 * Unicode tables, which may be a different Unicode version from tiktoken's; that is why
 * only a range of long-assigned code points is counted here (U+0000-U+07FF: Latin, Greek,
 * Cyrillic, Armenian, Hebrew, Arabic, Syriac, Thaana, NKo; and General Punctuation
 * U+2000-U+206F: typographic quotes, dashes, ellipsis). A test compares every code point of
 * that range, in several contexts, with tiktoken's own tokens.
 */

/** tiktoken's o200k_base split pattern, as the rank file states it (checked before use). */
const O200K_PATTERN =
  "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

/** Rust's `\s` (Unicode White_Space), as the inside of a character class. */
const WS = '\\t-\\r \\x85\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000';
/** `(?i:'s|'t|'re|'ve|'m|'ll|'d)` with Rust's simple case folding (s also folds to U+017F). */
const CONTRACTION = "(?:'[sS\\u017F]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])";
const UPPERISH = '[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]';
const LOWERISH = '[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]';
const JS_PATTERN = [
  `[^\\r\\n\\p{L}\\p{N}]?${UPPERISH}*${LOWERISH}+${CONTRACTION}?`,
  `[^\\r\\n\\p{L}\\p{N}]?${UPPERISH}+${LOWERISH}*${CONTRACTION}?`,
  '\\p{N}{1,3}',
  ` ?[^${WS}\\p{L}\\p{N}]+[\\r\\n/]*`,
  `[${WS}]*[\\r\\n]+`,
  `[${WS}]+(?![^${WS}])`,
  `[${WS}]+`,
].join('|');

/** UTF-16 units outside U+0000-U+07FF and U+2000-U+206F (surrogates too: astral characters are outside) */
const OUTSIDE_RANGE = /[\u0800-\u1FFF\u2070-\uFFFF]/;

/** Can this text be counted here (every character in the verified range)? */
export function fastCountable(text: string): boolean {
  return !OUTSIDE_RANGE.test(text);
}

const NONE = -1;

/** The o200k rank table: token bytes back to back, and a hash table from bytes to rank. */
interface Ranks {
  bytes: Uint8Array;
  /** token r is bytes[starts[r]] .. bytes[starts[r + 1]] */
  starts: Int32Array;
  slots: Int32Array;
  hashes: Int32Array;
  mask: number;
}

function hashOf(b: Uint8Array, from: number, to: number): number {
  // FNV-1a, 32 bits
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ b[i]!, 0x01000193);
  return h | 0;
}

function lookup(t: Ranks, b: Uint8Array, from: number, to: number): number {
  const h = hashOf(b, from, to);
  const len = to - from;
  for (let s = h & t.mask; ; s = (s + 1) & t.mask) {
    const r = t.slots[s]!;
    if (r === NONE) return NONE;
    if (t.hashes[s] !== h) continue;
    const at = t.starts[r]!;
    if (t.starts[r + 1]! - at !== len) continue;
    let i = 0;
    while (i < len && t.bytes[at + i] === b[from + i]) i++;
    if (i === len) return r;
  }
}

const B64 = (() => {
  const m = new Int8Array(128).fill(-1);
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < 64; i++) m[abc.charCodeAt(i)] = i;
  return m;
})();

const SPACE = 0x20;
const QUOTE = 0x22;
const EQUALS = 0x3d;

/**
 * Decode the `bpe_ranks` field of tiktoken's rank file: `! 0 ` then every token's bytes in
 * base64, space-separated, in rank order. Undefined when the file is not in that shape.
 */
export function parseRanks(file: Uint8Array): Ranks | undefined {
  const text = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  const key = text.indexOf('"bpe_ranks":"! 0 ');
  if (key < 0) return undefined;
  let header: { pat_str?: unknown };
  try {
    header = JSON.parse(text.toString('utf8', 0, key).replace(/,\s*$/, '') + '}') as { pat_str?: unknown };
  } catch {
    return undefined;
  }
  if (header.pat_str !== O200K_PATTERN) return undefined;
  const from = key + '"bpe_ranks":"! 0 '.length;
  const to = text.indexOf(QUOTE, from);
  if (to < 0) return undefined;
  let count = 1;
  for (let i = text.indexOf(SPACE, from); i >= 0 && i < to; i = text.indexOf(SPACE, i + 1)) count++;
  const bytes = new Uint8Array(Math.ceil(((to - from) * 3) / 4));
  const starts = new Int32Array(count + 1);
  let size = 1;
  while (size < count * 2) size <<= 1;
  const slots = new Int32Array(size).fill(NONE);
  const hashes = new Int32Array(size);
  const mask = size - 1;
  let out = 0;
  let rank = 0;
  for (let i = from; i <= to; i++) {
    // one token: base64 up to the next space (or the end), decoded and hashed (FNV-1a) in one pass
    const first = out;
    let h = 0x811c9dc5;
    let acc = 0;
    let bits = 0;
    for (; i < to; i++) {
      const c = text[i]!;
      if (c === SPACE) break;
      if (c === EQUALS) continue;
      const v = c < 128 ? B64[c]! : -1;
      if (v < 0) return undefined;
      acc = ((acc << 6) | v) & 0xfff;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        const b = (acc >> bits) & 0xff;
        bytes[out++] = b;
        h = Math.imul(h ^ b, 0x01000193);
      }
    }
    if (bits >= 6 || out === first || rank >= count) return undefined;
    h |= 0;
    starts[rank] = first;
    starts[rank + 1] = out;
    // a later duplicate wins, as in tiktoken's map
    let s = h & mask;
    for (; slots[s] !== NONE; s = (s + 1) & mask) if (hashes[s] === h && sameBytes(bytes, starts, slots[s]!, first, out)) break;
    slots[s] = rank;
    hashes[s] = h;
    rank++;
  }
  if (rank !== count) return undefined;
  const t: Ranks = { bytes, starts, slots, hashes, mask };
  // every single byte must be a token, or a piece could not be merged down to ranks
  const one = new Uint8Array(1);
  for (let b = 0; b < 256; b++) {
    one[0] = b;
    if (lookup(t, one, 0, 1) === NONE) return undefined;
  }
  return t;
}

function sameBytes(bytes: Uint8Array, starts: Int32Array, r: number, from: number, to: number): boolean {
  const at = starts[r]!;
  if (starts[r + 1]! - at !== to - from) return false;
  for (let k = 0; k < to - from; k++) if (bytes[at + k] !== bytes[from + k]) return false;
  return true;
}

/** The ranks of one piece's bytes, merged as tiktoken does. */
function mergePiece(t: Ranks, b: Uint8Array, len: number): number[] {
  const whole = lookup(t, b, 0, len);
  if (whole !== NONE) return [whole];
  // parts[i]: start of part i; rank[i]: rank of parts i and i+1 merged
  const start: number[] = [];
  const rank: number[] = [];
  for (let i = 0; i < len - 1; i++) {
    start.push(i);
    const r = lookup(t, b, i, i + 2);
    rank.push(r === NONE ? Infinity : r);
  }
  start.push(len - 1, len);
  rank.push(Infinity, Infinity);
  const rankAt = (i: number) => {
    if (i + 3 >= start.length) return Infinity;
    const r = lookup(t, b, start[i]!, start[i + 3]!);
    return r === NONE ? Infinity : r;
  };
  for (;;) {
    let min = Infinity;
    let at = -1;
    for (let i = 0; i < rank.length - 1; i++) {
      if (rank[i]! < min) {
        min = rank[i]!;
        at = i;
      }
    }
    if (at < 0) break;
    if (at > 0) rank[at - 1] = rankAt(at - 1);
    rank[at] = rankAt(at);
    start.splice(at + 1, 1);
    rank.splice(at + 1, 1);
  }
  const out: number[] = [];
  for (let i = 0; i < start.length - 1; i++) out.push(lookup(t, b, start[i]!, start[i + 1]!));
  return out;
}

/** An exact o200k_base encoder for {@link fastCountable} texts. */
export interface FastEncoder {
  /** token ids, as tiktoken's `encode_ordinary` returns them (the text must be fastCountable) */
  encode(text: string): number[];
  /** the number of tokens (the text must be fastCountable); pieces are remembered */
  count(text: string): number;
}

/** Build the encoder from a rank file's bytes; undefined when the file is not the o200k table expected. */
export function fastEncoderFrom(file: Uint8Array): FastEncoder | undefined {
  const t = parseRanks(file);
  if (!t) return undefined;
  const split = new RegExp(JS_PATTERN, 'gu');
  let buf = new Uint8Array(256);
  const utf8 = new TextEncoder();
  const bytesOf = (piece: string): number => {
    // UTF-8 is at most 3 bytes per UTF-16 unit
    if (piece.length * 3 > buf.length) buf = new Uint8Array(piece.length * 3 * 2);
    return utf8.encodeInto(piece, buf).written;
  };
  const memo = new Map<string, number>();
  const pieceCount = (piece: string) => {
    let n = memo.get(piece);
    if (n === undefined) {
      const len = bytesOf(piece);
      n = mergePiece(t, buf, len).length;
      if (memo.size < 100_000) memo.set(piece, n);
    }
    return n;
  };
  return {
    encode(text) {
      const out: number[] = [];
      for (const m of text.matchAll(split)) {
        const len = bytesOf(m[0]);
        out.push(...mergePiece(t, buf, len));
      }
      return out;
    },
    count(text) {
      let n = 0;
      split.lastIndex = 0;
      for (let m = split.exec(text); m; m = split.exec(text)) n += pieceCount(m[0]);
      return n;
    },
  };
}

let loaded: FastEncoder | null | undefined;

/**
 * The o200k encoder built from the rank file of the installed @dqbd/tiktoken, once per
 * process; undefined when that file cannot be read or is not in the expected shape (the
 * caller then counts with tiktoken).
 */
export function fastO200k(): FastEncoder | undefined {
  if (loaded === undefined) {
    try {
      const file = createRequire(import.meta.url).resolve('@dqbd/tiktoken/encoders/o200k_base.json');
      loaded = fastEncoderFrom(readFileSync(file)) ?? null;
    } catch {
      loaded = null;
    }
  }
  return loaded ?? undefined;
}
