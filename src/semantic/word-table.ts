// @spec SPEC-SEMANTIC-001

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CtxError } from '../errors.js';

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
  vectors: Int8Array;
  /** how many words GloVe has (for the Zipf frequency estimate) */
  vocabulary: number;
}

const GLOVE_VOCABULARY = 400_000;
/** Lookups answered by searching the word list before the word → row index is built. */
const SCANS_BEFORE_INDEX = 64;

/** data/word-vectors.bin beside the package (src/semantic or dist/semantic → ../../data). */
export function wordTablePath(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/word-vectors.bin');
}

let cached: WordTable | undefined;

/** The table, read once per process (a few ms: one 3.6 MB read, one split of the word list). */
export function loadWordTable(file = wordTablePath()): WordTable {
  if (cached && file === wordTablePath()) return cached;
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch (e) {
    throw new CtxError('IO', `the default embedder's word table is missing (${file}): reinstall git-ctx (${(e as Error).message})`);
  }
  if (buf.length < 20 || buf.toString('latin1', 0, 4) !== 'GCWV' || buf.readUInt32LE(4) !== 1) throw new CtxError('IO', `${file} is not a git-ctx word table (version 1): reinstall git-ctx`);
  const count = buf.readUInt32LE(8);
  const dims = buf.readUInt32LE(12);
  const wordBytes = buf.readUInt32LE(16);
  // the word list stays one string until many lookups ask for the index: a query embeds a
  // handful of words, and splitting ~31k words into a Map costs more than the rest of it
  const blob = '\n' + buf.toString('utf8', 20, 20 + wordBytes) + '\n';
  const pad = (4 - ((20 + wordBytes) % 4)) % 4;
  const at = 20 + wordBytes + pad;
  if (buf.length !== at + count * 8 + count * dims) throw new CtxError('IO', `${file} is truncated or damaged: reinstall git-ctx`);
  // a whole-file read owns its memory: view it in place (a copy of 3.5 MB costs more than the rest)
  const ab = buf.byteOffset === 0 && buf.buffer.byteLength === buf.length ? buf.buffer : buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length);
  let index: Map<string, number> | undefined;
  const buildIndex = () => {
    const words = blob.slice(1, -1).split('\n');
    if (words.length !== count) throw new CtxError('IO', `${file} is truncated or damaged: reinstall git-ctx`);
    index = new Map();
    for (let i = 0; i < count; i++) index.set(words[i]!, i);
    return index;
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
      let r = 0;
      for (let i = blob.indexOf('\n', 1); i !== -1 && i <= pos; i = blob.indexOf('\n', i + 1)) r++;
      return r < count ? r : undefined;
    },
    rank: new Uint32Array(ab, at, count),
    scale: new Float32Array(ab, at + count * 4, count),
    vectors: new Int8Array(ab, at + count * 8, count * dims),
    vocabulary: GLOVE_VOCABULARY,
  };
  if (file === wordTablePath()) cached = table;
  return table;
}
