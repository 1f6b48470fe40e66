// @spec SPEC-RETRIEVE-001

import type { Artifact } from '../artifacts/types.js';
import { KeywordCacheDamaged } from '../cache/keyword-index.js';
import { recordParts, type PartKind } from '../artifacts/sources/parts.js';
import { contractionCount, joinedTerms, terms } from './text.js';

/**
 * BM25 over records, fields weighted (a simplified BM25F): title and keywords count thrice,
 * summary twice, and the body by its parts (DEC-053): what was decided twice, consequences
 * once, context and the options weighed less, quoted material (code, logs, tables) little. Built as plain data; kept between runs in a compact binary file
 * (keyword-file.ts, keyword-cache.ts) that a warm search reads only in part.
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

/** What searching needs of an index: built in memory (KeywordIndex) or read from the cache. */
export interface KeywordSource {
  ids: readonly string[];
  lens: ArrayLike<number>;
  avgLen: number;
  /** each document's length part of the BM25 denominator, `K1 × (1 − B + B × len / avgLen)` (computed when absent) */
  dens?: ArrayLike<number>;
  /** a term's flat [doc, weighted tf, …] list, docs ascending; undefined when no document has it */
  postingsOf(term: string): ArrayLike<number> | undefined;
}

export interface KeywordHit {
  id: string;
  score: number;
  /** matched query terms, best contribution first */
  matched: string[];
}

const FIELD_WEIGHTS = { title: 3, keywords: 3, summary: 2 } as const;
/**
 * Weights of a record's body parts (src/artifacts/sources/parts.ts). A pasted log or JSON dump adds
 * little to a record's terms and little to its length, so a long record cannot win by the
 * breadth of its vocabulary; what was decided outweighs the context that led there.
 */
export const PART_WEIGHTS: Record<PartKind, number> = { heading: 1, decision: 2, consequences: 1, context: 0.7, options: 0.5, status: 0.3, other: 0.8, quoted: 0.2 };
/**
 * Weighted term frequencies are kept as whole numbers (the cache file stores integers): every
 * weight is multiplied by TF_SCALE, and so is the length part of the denominator, which
 * leaves the score as with fractional weights.
 */
const TF_SCALE = 10;
const K1 = 1.2;
/**
 * Length normalisation near full: a record's weighted length counts almost wholly, so a long
 * record is not found by the breadth of its vocabulary. Measured on both dev sets
 * (bench/retrieval.mjs, git-ctx column): overall MRR 0.718 → 0.731 (git-en-boite) and
 * 0.735 → 0.738 (dotcom-rendering) from 0.75; 0.5 lost on both.
 */
const B = 0.9;
/** Bodies past this many characters add little and cost time. */
const MAX_BODY = 20_000;
/**
 * For a place (code as the query: up to 60 terms, most of them weak), a record longer than
 * OUTLIER_LENGTH times the set's average weighted length counts the excess superlinearly
 * (× (ratio / OUTLIER_LENGTH) ^ OUTLIER_POWER) in the length part of the denominator (DEC-064).
 * Such a record shares a few words in passing with almost any file of the domain it describes;
 * with plain BM25 each of those mentions is worth half of a focused record's, so breadth wins a
 * place in every top 3. The penalty shrinks weak (low-frequency) matches; a dense match, the
 * topic the record decides, still saturates. Questions are left alone: their few words do not
 * add up that way, and on the dev sets the same penalty there cost question MRR
 * (content-publisher 0.962 → 0.923). Chosen on the three dev sets (bench/retrieval.mjs): the
 * pivot 3 leaves dotcom-rendering's 027-pictures (3.5× the average, governing image code) its
 * rank, where a pivot of 2 or a penalty on every length (ratio^1.5) cost that set's file MRR.
 */
const OUTLIER_LENGTH = 3;
const OUTLIER_POWER = 2;

/** How a search reads the query. */
export interface SearchOptions {
  /** the query is the code at a place: outlier-long records' weak matches weigh less (OUTLIER_LENGTH) */
  place?: boolean;
  /**
   * the query is words a person typed (a search, a question): a word also matches a name the
   * records write in parts (`watttime`, `WattTime`). Code at a place has its names in parts
   * already, and matches their words.
   */
  joined?: boolean;
}

/**
 * The names a record writes in parts, run together (`WattTime` → watttime), are kept under
 * their own terms: this mark, which no word yields, before the joined term. A search reads
 * them as the word itself; other queries never meet them, so their scores do not move.
 */
const JOINED = '~';

// @decision DEC-142
/**
 * A record's number is how people name it ("ADR 11", "ADR-0011"), never a word of what it
 * decides: code that writes `11` or `24` (a version, a retry count) met the records titled
 * "# 11. …" and "ADR-0024" through their numbers (agents33: a version bump answered by
 * ADR-0011). The number of the id is indexed as a joined term, which only words a person typed
 * search ("ADR 11" finds ADR-0011 by twice its title's weight), and a heading's leading
 * ordinal ("11. Matching …", "0008: …", "1. Context") matches nothing, though it counts in the
 * record's length as the words it is (dropped from the length, it moved a pull request's record
 * under the floor: lengths stay as they were).
 */
const LEAD_ORDINAL = /^\s*(?:(?:adr|rfc|dec|decision)[-\s]?)?\d+(?:\.\d+)*\s*(?:[.:)]|\s[-\u2013\u2014]\s)\s*/i;
const ID_NUMBER = /^(.*?)[-_ ]?(\d+)$/;

export function buildKeywordIndex(artifacts: readonly Artifact[]): KeywordIndex {
  const ids: string[] = [];
  const lens: number[] = [];
  const postings = new Map<string, number[]>();
  for (const a of artifacts) {
    const doc = ids.length;
    ids.push(a.id);
    const tf = new Map<string, number>();
    let len = 0;
    const add = (text: string | undefined, weight: number, pairs = false) => {
      if (!text) return;
      const w = Math.round(weight * TF_SCALE);
      if (!w) return;
      for (const t of terms(text)) {
        tf.set(t, (tf.get(t) ?? 0) + w);
        len += w;
      }
      // "WattTime" is also found as "watttime" by a search: indexed apart, not counted in the length (text.ts)
      for (const t of joinedTerms(text, { pairs })) tf.set(JOINED + t, (tf.get(JOINED + t) ?? 0) + w);
      // "don't", "we'll": words the record wrote, no terms (text.ts)
      len += w * contractionCount(text);
    };
    add(a.title, FIELD_WEIGHTS.title, true);
    const numbered = ID_NUMBER.exec(a.id);
    add(numbered ? numbered[1] : a.id, FIELD_WEIGHTS.title);
    if (numbered) {
      // counted in the length as the word it was, matched only as a name
      len += FIELD_WEIGHTS.title * TF_SCALE;
      const w = 2 * FIELD_WEIGHTS.title * TF_SCALE;
      for (const n of new Set([numbered[2]!, String(Number(numbered[2]))])) tf.set(JOINED + n, (tf.get(JOINED + n) ?? 0) + w);
    }
    add(a.keywords.join(' '), FIELD_WEIGHTS.keywords);
    add(a.summary, FIELD_WEIGHTS.summary);
    for (const p of recordParts(a.body.length > MAX_BODY ? a.body.slice(0, MAX_BODY) : a.body, /\.rst$/i.test(a.file))) {
      const ordinal = p.kind === 'heading' ? LEAD_ORDINAL.exec(p.text)?.[0] : undefined;
      // the ordinal is written (it counts in the record's length), and matches nothing
      if (ordinal) len += Math.round(PART_WEIGHTS.heading * TF_SCALE) * terms(ordinal).length;
      add(ordinal ? p.text.slice(ordinal.length) : p.text, PART_WEIGHTS[p.kind]);
    }
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

/** An in-memory index as a source for searchKeywords. */
export function sourceOf(index: KeywordIndex): KeywordSource {
  return { ids: index.ids, lens: index.lens, avgLen: index.avgLen, postingsOf: (t) => (Object.hasOwn(index.postings, t) ? index.postings[t] : undefined) };
}

/** A cached index whose numbers do not hold together (src/cache/keyword-index.ts): searched again from a fresh build. */
export { KeywordCacheDamaged };

/**
 * Score documents for weighted query terms (term → weight; a passage of code gives some
 * terms more weight than others). Returns the documents any term reached, best first
 * (ties by id).
 */
export function searchKeywords(index: KeywordIndex | KeywordSource, query: Map<string, number>, limit = 50, opts: SearchOptions = {}): KeywordHit[] {
  const src = 'postingsOf' in index ? index : sourceOf(index);
  const n = src.ids.length;
  if (!n) return [];
  // the formula as ever, its per-document and per-term parts computed once (the same
  // numbers, fewer operations in a loop that runs once per process, mostly unoptimised):
  // score += (qw × idf) × (tf × (K1 + 1) / (tf + lengthPart(doc)))
  const plain = src.dens ?? lengthParts(src.lens, src.avgLen);
  const dens = opts.place ? outlierLengthParts(plain, src.lens, src.avgLen) : plain;
  const k1 = K1 + 1;
  const lists: { term: string; w: number; p: ArrayLike<number> }[] = [];
  for (const [term, qw] of query) {
    const p = opts.joined ? withJoined(src.postingsOf(term), src.postingsOf(JOINED + term)) : src.postingsOf(term);
    if (!p) continue;
    const df = p.length / 2;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    lists.push({ term, w: qw * idf, p });
  }
  // every document's score, and the documents in the order a term first reached them (the order ties keep)
  const { scores, docs } = scoreLists(lists, dens, n, k1);
  const ids = src.ids;
  // only the best `limit` are ranked: the score of the limit-th best (a native sort of
  // numbers) bounds them, and every document at or above it (ties included) is sorted as
  // before, so the answer is the one a sort of all of them gives
  let pool = docs;
  if (docs.length > limit * 4 && limit > 0) {
    const all = new Float64Array(docs.length);
    for (let i = 0; i < docs.length; i++) all[i] = scores[docs[i]!]!;
    all.sort();
    const bar = all[all.length - limit]!;
    pool = docs.filter((d) => scores[d]! >= bar);
  }
  // the same comparator as ever: equal scores by id (a duplicate id, a broken set, after the other)
  pool.sort((a, b) => scores[b]! - scores[a]! || (ids[a]! < ids[b]! ? -1 : 1));
  const top = pool.slice(0, limit);
  // the matched terms of the documents shown only, each with its contribution
  const rank = new Int32Array(n).fill(-1);
  top.forEach((d, i) => (rank[d] = i));
  const matched: [string, number][][] = top.map(() => []);
  for (const l of lists) {
    for (let i = 0; i < l.p.length; i += 2) {
      const r = rank[l.p[i]!]!;
      if (r < 0) continue;
      const tf = l.p[i + 1]!;
      matched[r]!.push([l.term, l.w * ((tf * k1) / (tf + dens[l.p[i]!]!))]);
    }
  }
  return top.map((doc, i) => ({
    id: ids[doc]!,
    score: scores[doc]!,
    matched: matched[i]!.sort((a, b) => b[1] - a[1]).map(([t]) => t),
  }));
}

/** A term's postings with those of the same word as a joined name: one list, docs ascending, a document in both summing its weights. */
function withJoined(plain: ArrayLike<number> | undefined, joined: ArrayLike<number> | undefined): ArrayLike<number> | undefined {
  if (!joined) return plain;
  if (!plain) return joined;
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < plain.length || j < joined.length) {
    const a = i < plain.length ? plain[i]! : Infinity;
    const b = j < joined.length ? joined[j]! : Infinity;
    if (a === b) {
      out.push(a, plain[i + 1]! + joined[j + 1]!);
      i += 2;
      j += 2;
    } else if (a < b) {
      out.push(a, plain[i + 1]!);
      i += 2;
    } else {
      out.push(b, joined[j + 1]!);
      j += 2;
    }
  }
  return out;
}

/**
 * score[doc] += w × (tf × k1 / (tf + dens[doc])) over every list's postings, in order, and
 * the documents in the order a term first reached them.
 */
export function scoreLists(lists: readonly { w: number; p: ArrayLike<number> }[], dens: ArrayLike<number>, n: number, k1: number): { scores: Float64Array; docs: number[] } {
  const scores = new Float64Array(n);
  const reached = new Uint8Array(n);
  const docs: number[] = [];
  for (const { w, p } of lists) {
    for (let i = 0; i < p.length; i += 2) {
      const doc = p[i]!;
      if (!(doc < n)) throw new KeywordCacheDamaged();
      const tf = p[i + 1]!;
      scores[doc]! += w * ((tf * k1) / (tf + dens[doc]!));
      if (!reached[doc]) {
        reached[doc] = 1;
        docs.push(doc);
      }
    }
  }
  return { scores, docs };
}

/** Each document's length part of the BM25 denominator: TF_SCALE × K1 × (1 − B + B × len / avgLen). */
export function lengthParts(lens: ArrayLike<number>, avgLen: number): Float64Array {
  const avg = avgLen || 1;
  const out = new Float64Array(lens.length);
  for (let i = 0; i < lens.length; i++) out[i] = TF_SCALE * K1 * (1 - B + (B * lens[i]!) / avg);
  return out;
}

/** The length parts for a place: those of records past OUTLIER_LENGTH × the average grow superlinearly (the others are shared, not copied). */
export function outlierLengthParts(dens: ArrayLike<number>, lens: ArrayLike<number>, avgLen: number): ArrayLike<number> {
  const avg = avgLen || 1;
  let out: Float64Array | undefined;
  for (let i = 0; i < lens.length; i++) {
    const r = lens[i]! / avg;
    if (r <= OUTLIER_LENGTH) continue;
    out ??= Float64Array.from(dens);
    out[i] = TF_SCALE * K1 * (1 - B + B * r * Math.pow(r / OUTLIER_LENGTH, OUTLIER_POWER));
  }
  return out ?? dens;
}

/** Query terms of a question: every term once per occurrence (weight = count). */
export function queryOf(text: string): Map<string, number> {
  const q = new Map<string, number>();
  for (const t of terms(text)) q.set(t, (q.get(t) ?? 0) + 1);
  return q;
}
