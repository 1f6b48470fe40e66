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
  /** word → row */
  index: Map<string, number>;
  /** GloVe frequency rank (1-based) per row */
  rank: Uint32Array;
  scale: Float32Array;
  vectors: Int8Array;
  /** how many words GloVe has (for the Zipf frequency estimate) */
  vocabulary: number;
}

const GLOVE_VOCABULARY = 400_000;

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
  const words = buf.toString('utf8', 20, 20 + wordBytes).split('\n');
  const pad = (4 - ((20 + wordBytes) % 4)) % 4;
  const at = 20 + wordBytes + pad;
  if (words.length !== count || buf.length !== at + count * 8 + count * dims) throw new CtxError('IO', `${file} is truncated or damaged: reinstall git-ctx`);
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length);
  const index = new Map<string, number>();
  for (let i = 0; i < count; i++) index.set(words[i]!, i);
  const table: WordTable = {
    dims,
    index,
    rank: new Uint32Array(ab, at, count),
    scale: new Float32Array(ab, at + count * 4, count),
    vectors: new Int8Array(ab, at + count * 8, count * dims),
    vocabulary: GLOVE_VOCABULARY,
  };
  if (file === wordTablePath()) cached = table;
  return table;
}
