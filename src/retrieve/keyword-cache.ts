// @spec SPEC-RETRIEVE-001

import type { Artifact } from '../artifacts/types.js';
import { keywordFiles, writeKeywords } from '../cache/keyword-index.js';
import { sha256 } from '../util/hash.js';
import { buildKeywordIndex, KeywordCacheDamaged, searchKeywords, sourceOf, type KeywordHit, type KeywordSource, type SearchOptions } from './bm25.js';
import { encodeKeywordIndex, openKeywordIndex } from './keyword-file.js';

/**
 * The keyword index kept in the `retrieve-keywords` cache, keyed by the records' content (ids + blob ids, or
 * the finished set's key): a warm search maps the file, finds the query's terms by binary
 * search in the term dictionary and decodes only their postings; it never decodes a
 * record's body.
 */
const CACHE_VERSION = 'bm25-v6-record-numbers';

/** The cache key of a set's records: ids, blob ids and origins, in order. */
export function keywordIndexKey(artifacts: readonly Artifact[]): string {
  let s = CACHE_VERSION;
  for (const a of artifacts) s += `\n${a.id}\0${a.blob}\0${a.origin}`;
  return sha256(s);
}

/**
 * The key of a set's keyword index: the finished artifact set's key when it has one (it
 * determines every record's id and text: DEC-037), else the records' ids, blob ids and origins.
 */
export function keywordKeyOf(artifacts: readonly Artifact[], setKey?: string): string {
  return setKey ? sha256(`${CACHE_VERSION}\nset ${setKey}`) : keywordIndexKey(artifacts);
}

/**
 * The index of a set's records, from the cache when their content is unchanged (`setKey`:
 * the set's key, see keywordKeyOf). A cached index reads its postings from the file when
 * searched: `close` when done (also closed when collected).
 */
export function keywordIndexFor(root: string | undefined, artifacts: readonly Artifact[], setKey?: string): { index: KeywordSource; cached: boolean; close(): void } {
  const key = keywordKeyOf(artifacts, setKey);
  const files = keywordFiles(root);
  for (const file of files) {
    const hit = openKeywordIndex(file, key);
    if (hit) return { index: hit.source, cached: true, close: hit.close };
  }
  const index = buildKeywordIndex(artifacts);
  writeKeywords(files, encodeKeywordIndex(index, key));
  return { index: sourceOf(index), cached: false, close: () => undefined };
}

/**
 * Search a set's records: from the cached index, or (when the cache turns out damaged while
 * searching) from a fresh build, which replaces it.
 */
export function searchRecords(root: string | undefined, artifacts: readonly Artifact[], query: Map<string, number>, limit = 50, setKey?: string, opts: SearchOptions = {}): KeywordHit[] {
  const { index, cached, close } = keywordIndexFor(root, artifacts, setKey);
  try {
    return searchKeywords(index, query, limit, opts);
  } catch (e) {
    if (!(cached && e instanceof KeywordCacheDamaged)) throw e;
    const fresh = buildKeywordIndex(artifacts);
    writeKeywords(keywordFiles(root), encodeKeywordIndex(fresh, keywordKeyOf(artifacts, setKey)));
    return searchKeywords(fresh, query, limit, opts);
  } finally {
    close();
  }
}

