// @spec SPEC-RETRIEVE-001

import type { Artifact } from '../artifacts/types.js';
import { cacheFile } from '../git/git-dir.js';
import { readKeyedCache, writeKeyedCache } from '../cache/file.js';
import { sha256 } from '../util/hash.js';
import { terms } from './text.js';

/**
 * BM25 over records, fields weighted (title and keywords count thrice, summary twice, body
 * once: a simplified BM25F). The index is plain data so it can be cached under `.git/ctx`
 * keyed by the records' content (ids + blob ids): a warm search parses one JSON file and
 * never decodes a record's body.
 */
export interface KeywordIndex {
  /** record ids, by document number */
  ids: string[];
  /** weighted length of each document */
  lens: number[];
  avgLen: number;
  /** term → flat [doc, weighted tf, doc, weighted tf, …] */
  postings: Record<string, number[]>;
}

export interface KeywordHit {
  id: string;
  score: number;
  /** matched query terms, best contribution first */
  matched: string[];
}

const FIELD_WEIGHTS = { title: 3, keywords: 3, summary: 2, body: 1 } as const;
const K1 = 1.2;
const B = 0.75;
const CACHE_VERSION = 'bm25-v1';
/** Bodies past this many characters add little and cost time. */
const MAX_BODY = 20_000;

export function buildKeywordIndex(artifacts: readonly Artifact[]): KeywordIndex {
  const ids: string[] = [];
  const lens: number[] = [];
  const postings = new Map<string, number[]>();
  for (const a of artifacts) {
    const doc = ids.length;
    ids.push(a.id);
    const tf = new Map<string, number>();
    let len = 0;
    const add = (text: string | undefined, w: number) => {
      if (!text) return;
      for (const t of terms(text)) {
        tf.set(t, (tf.get(t) ?? 0) + w);
        len += w;
      }
    };
    add(a.title, FIELD_WEIGHTS.title);
    add(a.id, FIELD_WEIGHTS.title);
    add(a.keywords.join(' '), FIELD_WEIGHTS.keywords);
    add(a.summary, FIELD_WEIGHTS.summary);
    add(a.body.length > MAX_BODY ? a.body.slice(0, MAX_BODY) : a.body, FIELD_WEIGHTS.body);
    lens.push(len);
    for (const [t, n] of tf) {
      let p = postings.get(t);
      if (!p) postings.set(t, (p = []));
      p.push(doc, n);
    }
  }
  const avgLen = lens.length ? lens.reduce((x, y) => x + y, 0) / lens.length : 0;
  return { ids, lens, avgLen, postings: Object.fromEntries(postings) };
}

/** The index of a set's records, from the cache when their content is unchanged. */
export function keywordIndexFor(root: string | undefined, artifacts: readonly Artifact[]): { index: KeywordIndex; cached: boolean } {
  const key = sha256(CACHE_VERSION + '\0' + artifacts.map((a) => `${a.id}\0${a.blob}\0${a.origin}`).join('\n'));
  const file = root ? cacheFile(root, 'retrieve-keywords.json') : undefined;
  const hit = readKeyedCache(file, key) as KeywordIndex | undefined;
  if (hit && Array.isArray(hit.ids) && typeof hit.postings === 'object') return { index: hit, cached: true };
  const index = buildKeywordIndex(artifacts);
  writeKeyedCache(file, key, index);
  return { index, cached: false };
}

/**
 * Score documents for weighted query terms (term → weight; a passage of code gives some
 * terms more weight than others). Returns hits with a positive score, best first.
 */
export function searchKeywords(index: KeywordIndex, query: Map<string, number>, limit = 50): KeywordHit[] {
  const n = index.ids.length;
  if (!n) return [];
  const scores = new Map<number, number>();
  const matched = new Map<number, Map<string, number>>();
  for (const [term, qw] of query) {
    const p = index.postings[term];
    if (!p) continue;
    const df = p.length / 2;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    for (let i = 0; i < p.length; i += 2) {
      const doc = p[i]!;
      const tf = p[i + 1]!;
      const norm = tf * (K1 + 1) / (tf + K1 * (1 - B + (B * index.lens[doc]!) / (index.avgLen || 1)));
      const s = qw * idf * norm;
      scores.set(doc, (scores.get(doc) ?? 0) + s);
      let m = matched.get(doc);
      if (!m) matched.set(doc, (m = new Map()));
      m.set(term, s);
    }
  }
  return [...scores]
    .sort((a, b) => b[1] - a[1] || (index.ids[a[0]]! < index.ids[b[0]]! ? -1 : 1))
    .slice(0, limit)
    .map(([doc, score]) => ({
      id: index.ids[doc]!,
      score,
      matched: [...matched.get(doc)!].sort((a, b) => b[1] - a[1]).map(([t]) => t),
    }));
}

/** Query terms of a question: every term once per occurrence (weight = count). */
export function queryOf(text: string): Map<string, number> {
  const q = new Map<string, number>();
  for (const t of terms(text)) q.set(t, (q.get(t) ?? 0) + 1);
  return q;
}
