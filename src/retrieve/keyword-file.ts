// @spec SPEC-RETRIEVE-001

import { decodeKeywords, encodeKeywords, openKeywords, type OpenKeywords } from '../cache/keyword-index.js';
import { lengthParts, type KeywordIndex, type KeywordSource } from './bm25.js';

/**
 * The keyword index as the bytes of its cache: a container of the `retrieve-keywords` kind
 * (its sections in src/cache/keyword-index.ts), with each document's length part of the
 * BM25 denominator computed once here.
 */
export function encodeKeywordIndex(index: KeywordIndex, key: string): Buffer {
  return encodeKeywords({ ...index, dens: lengthParts(index.lens, index.avgLen) }, key);
}

/**
 * The index stored in `bytes` under `key`, as a search source; undefined when the bytes are
 * of another kind, version or key, or do not hold together (truncated, overwritten).
 */
export const decodeKeywordIndex: (bytes: Buffer, key: string) => KeywordSource | undefined = decodeKeywords;

/** An index read from its file section by section, postings when a term is looked up; `close` ends the reading. */
export type OpenKeywordIndex = OpenKeywords;

/** The index in its cache file under `key`, read by section (see openKeywords). */
export const openKeywordIndex: (file: string | undefined, key: string) => OpenKeywordIndex | undefined = openKeywords;
