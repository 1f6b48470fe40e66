// @spec SPEC-SEMANTIC-001

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { packageFile } from '../package-root.js';
import { CtxError } from '../errors.js';
import { WORD_MARKS } from './word-marks.js';
import { sha256 } from '../util/hash.js';

/**
 * The default embedder's word table: ~31k GloVe 6B 100d word vectors, int8 with a scale per
 * word, derived by scripts/derive-word-vectors.mjs (provenance in data/WORD-VECTORS-LICENSE.md).
 */
export interface WordTable {
  dims: number;
  /** word → row (built on first use: a few tens of ms for ~31k words) */
  readonly index: Map<string, number>;
  /** a word's row; the first lookups search the word list without building the index */
  row(word: string): number | undefined;
  /** GloVe frequency rank (1-based) per row */
  rank: Uint32Array;
  scale: Float32Array;
  /** every row's vector, back to back (read on first use: a query needs a few rows, see rowVector) */
  readonly vectors: Int8Array;
  /** one row's vector (`dims` values): read alone while few rows are asked for, else from `vectors` */
  rowVector(r: number): Int8Array;
  /** how many words GloVe has (for the Zipf frequency estimate) */
  vocabulary: number;
}

const GLOVE_VOCABULARY = 400_000;
/** Lookups answered by searching the word list before the word → row index is built. */
const SCANS_BEFORE_INDEX = 64;
/** Rows read one by one before the whole vector section (3 MB) is read instead. */
const ROWS_BEFORE_ALL = 64;
/** Newlines between the remembered positions of the word list (see row). */
const CHECKPOINT_EVERY = 512;
/** A walk longer than this (characters) from the nearest remembered position first checks the shipped ones (WORD_MARKS). */
const LONG_WALK = 16_000;

/** data/word-vectors.bin of the package. */
export function wordTablePath(): string {
  return packageFile('data/word-vectors.bin');
}

let cached: WordTable | undefined;

/** Read `n` bytes at `at` of an open file, all of them or throw. */
function readAt(fd: number, at: number, n: number): Buffer {
  const buf = Buffer.allocUnsafe(n);
  let got = 0;
  while (got < n) {
    const k = readSync(fd, buf, got, n - got, at + got);
    if (k <= 0) throw new Error('short read');
    got += k;
  }
  return buf;
}

/**
 * The table, read once per process: the header, the word list, ranks and scales at once
 * (half a megabyte), a row's vector when first asked for (a query embeds a handful of
 * words; the 3 MB of vectors are read whole only once many rows are wanted).
 */
export function loadWordTable(file = wordTablePath()): WordTable {
  if (cached && file === wordTablePath()) return cached;
  let fd: number;
  let size: number;
  try {
    fd = openSync(file, 'r');
    size = fstatSync(fd).size;
  } catch (e) {
    throw new CtxError('IO', `the default embedder's word table is missing (${file}): reinstall git-ctx (${(e as Error).message})`);
  }
  const damaged = () => new CtxError('IO', `${file} is truncated or damaged: reinstall git-ctx`);
  let head: Buffer;
  let count: number;
  let dims: number;
  let wordBytes: number;
  let at: number;
  try {
    const h = size >= 20 ? readAt(fd, 0, 20) : Buffer.alloc(0);
    if (h.length < 20 || h.toString('latin1', 0, 4) !== 'GCWV' || h.readUInt32LE(4) !== 1) throw new CtxError('IO', `${file} is not a git-ctx word table (version 1): reinstall git-ctx`);
    count = h.readUInt32LE(8);
    dims = h.readUInt32LE(12);
    wordBytes = h.readUInt32LE(16);
    at = 20 + wordBytes + ((4 - ((20 + wordBytes) % 4)) % 4);
    if (size !== at + count * 8 + count * dims) throw damaged();
    // header, word list, ranks and scales in one read, from offset 0 of its own memory (aligned views)
    head = readAt(fd, 0, at + count * 8);
  } catch (e) {
    closeSync(fd);
    if (e instanceof CtxError) throw e;
    throw damaged();
  }
  // the word list stays one string until many lookups ask for the index: a query embeds a
  // handful of words, and splitting ~31k words into a Map costs more than the rest of it
  const blob = '\n' + head.toString('utf8', 20, 20 + wordBytes) + '\n';
  const ab = head.byteOffset === 0 ? head.buffer : head.buffer.slice(head.byteOffset, head.byteOffset + head.length);
  let index: Map<string, number> | undefined;
  const buildIndex = () => {
    const words = blob.slice(1, -1).split('\n');
    if (words.length !== count) throw damaged();
    index = new Map();
    for (let i = 0; i < count; i++) index.set(words[i]!, i);
    return index;
  };
  // the vectors: rows read alone (the file stays open, closed once all are read or the
  // table is collected), or the whole section
  let all: Int8Array | undefined;
  let open: number | undefined = fd;
  const rows = new Map<number, Int8Array>();
  const readAll = (): Int8Array => {
    if (all) return all;
    try {
      all = new Int8Array(readAt(open!, at + count * 8, count * dims).buffer, 0, count * dims);
    } catch {
      throw damaged();
    } finally {
      closeSync(open!);
      closer.unregister(table);
      open = undefined;
    }
    rows.clear();
    return all;
  };
  // the row of a word found at `pos` of the list: newlines before it, counted from the
  // nearest remembered position (every CHECKPOINT_EVERY-th newline, noted while counting)
  let marks: number[] = [0];
  // the shipped positions (word-marks.ts), used only for the very word list they were computed from
  let shippedChecked = false;
  const shipped = () => {
    shippedChecked = true;
    if (WORD_MARKS.every !== CHECKPOINT_EVERY || WORD_MARKS.marks.length <= marks.length) return;
    // the marks are for the word list whose digest they carry (test/semantic/space-state.test.ts)
    if (sha256(head.subarray(20, 20 + wordBytes)) === WORD_MARKS.sha256) marks = [...WORD_MARKS.marks];
  };
  const rowAt = (pos: number): number => {
    if (!shippedChecked && pos - marks[marks.length - 1]! > LONG_WALK) shipped();
    let lo = 0;
    let hi = marks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (marks[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    let r = lo * CHECKPOINT_EVERY;
    let i = marks[lo]!;
    // i is the position of newline number r (0: the leading one); count those after it up to pos
    for (i = blob.indexOf('\n', i + 1); i !== -1 && i <= pos; i = blob.indexOf('\n', i + 1)) {
      r++;
      if (r % CHECKPOINT_EVERY === 0 && r / CHECKPOINT_EVERY === marks.length) marks.push(i);
    }
    return r;
  };
  let scans = 0;
  const table: WordTable = {
    dims,
    get index() {
      return index ?? buildIndex();
    },
    row(word) {
      if (index || ++scans > SCANS_BEFORE_INDEX) return (index ?? buildIndex()).get(word);
      if (word.includes('\n')) return undefined;
      const pos = blob.indexOf(`\n${word}\n`);
      if (pos < 0) return undefined;
      const r = rowAt(pos);
      return r < count ? r : undefined;
    },
    rank: new Uint32Array(ab, at, count),
    scale: new Float32Array(ab, at + count * 4, count),
    get vectors() {
      return readAll();
    },
    rowVector(r) {
      if (all) return all.subarray(r * dims, (r + 1) * dims);
      let v = rows.get(r);
      if (v) return v;
      if (rows.size >= ROWS_BEFORE_ALL) return readAll().subarray(r * dims, (r + 1) * dims);
      try {
        const b = readAt(open!, at + count * 8 + r * dims, dims);
        v = new Int8Array(b.buffer, b.byteOffset, dims);
      } catch {
        throw damaged();
      }
      rows.set(r, v);
      return v;
    },
    vocabulary: GLOVE_VOCABULARY,
  };
  closer.register(table, fd, table);
  if (file === wordTablePath()) cached = table;
  return table;
}

const closer = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    /* already closed */
  }
});
