// @spec SPEC-RETRIEVE-001

import path from 'node:path';
import { readVectorPlan, vectorDir, vectorFileName } from '../cache/vectors.js';
import { DefaultEmbedder } from '../semantic/embedder.js';
import { planScores } from '../semantic/plan-scores.js';
import { mark } from '../util/timing.js';
import { keywordCacheFile, openStoredKeywordIndex, queryOf, searchKeywords, type KeywordHit } from './bm25.js';

/**
 * A search's work that needs only its words and the caches, done while git lists the records
 * (DEC-040): a warm `git ctx search` waits tens of milliseconds for that listing, with the
 * main thread idle, before it can compute the set's key. The keyword index and the vector
 * plan stored last are read and searched then, each under the key it was stored with; the
 * lanes take an answer only when that key is the one they would have read (the set's), so
 * they get exactly what reading the cache then would have given, and otherwise do the work
 * as before. Nothing is written, nothing is trusted beyond what the cache itself is.
 */
interface Ahead {
  root: string;
  text: string;
  /** the keyword lane's limit (the fused pool) */
  limit: number;
  keywords?: { key: string; query: Map<string, number>; hits: KeywordHit[] };
  semantic?: SemanticAhead;
  /** a lane has asked (answered or not): its steps not yet run are skipped */
  askedKeywords?: boolean;
  askedSemantic?: boolean;
}

/** The question embedded by the default embedder, and every planned record's score under the plan stored for set `plan.key`. */
export interface SemanticAhead {
  provider: string;
  model: string;
  qv: Float32Array;
  plan?: { key: string; dims: number; scores: Float64Array };
}

let current: Ahead | undefined;

/**
 * Start a search's work for `text` (keyword limit `limit`) in steps the event loop runs
 * between git's output (setImmediate, never keeping the process alive); any earlier one is
 * dropped. Every step is optional: a failure leaves the lane to do it.
 */
export function searchAhead(root: string, text: string, limit: number): void {
  const a: Ahead = { root, text, limit };
  current = a;
  let embedder: DefaultEmbedder | undefined;
  const steps: (() => void)[] = [
    () => {
      if (a.askedKeywords) return;
      const o = openStoredKeywordIndex(keywordCacheFile(root));
      if (!o) return;
      try {
        const query = queryOf(text);
        a.keywords = { key: o.key, query, hits: searchKeywords(o.source, query, limit) };
      } finally {
        o.close();
      }
    },
    () => {
      if (a.askedSemantic) return;
      embedder = new DefaultEmbedder();
      a.semantic = { provider: embedder.provider, model: embedder.model, qv: embedder.embedOne(text) };
    },
    () => {
      const s = a.semantic;
      const dir = vectorDir(root);
      if (a.askedSemantic || !s || !embedder || !dir) return;
      const p = readVectorPlan(path.join(dir, vectorFileName(s.provider, s.model)), null);
      if (!p || p.provider !== s.provider || p.model !== s.model || p.dims !== s.qv.length) return;
      const space = embedder.space([], p.state);
      if (!space.norm) return;
      s.plan = { key: p.plan.key, dims: p.dims, scores: planScores(space.project(s.qv), p.vectors, p.plan.rows, p.plan.norms, p.dims) };
    },
  ];
  const next = (): void => {
    if (current !== a) return;
    try {
      steps.shift()!();
    } catch {
      /* optional work: the lane does it */
    }
    if (steps.length) setImmediate(next).unref();
  };
  setImmediate(next).unref();
}

/** Stop and forget the search done ahead (the command is done with it). */
export function endSearchAhead(): void {
  current = undefined;
}

const sameQuery = (a: Map<string, number>, b: Map<string, number>): boolean => {
  if (a.size !== b.size) return false;
  const ai = a.entries();
  for (const [t, w] of b) {
    const [u, v] = ai.next().value as [string, number];
    if (t !== u || w !== v) return false;
  }
  return true;
};

/**
 * The keyword lane's hits searched ahead, when they were searched in the index stored under
 * `key` (the one the lane would read) for the same query and limit; once.
 */
export function keywordsAhead(root: string, key: string, query: Map<string, number>, limit: number): KeywordHit[] | undefined {
  const a = current;
  if (a) a.askedKeywords = true;
  const k = a?.keywords;
  if (!a || !k || a.root !== root || a.limit !== limit || k.key !== key || !sameQuery(k.query, query)) return undefined;
  a.keywords = undefined;
  mark('keywords: searched ahead');
  return k.hits;
}

/** The question embedded ahead (and the plan's scores, whose key the lane checks) for this text and embedder; once. */
export function semanticAhead(root: string, text: string, provider: string, model: string): SemanticAhead | undefined {
  const a = current;
  if (a) a.askedSemantic = true;
  const s = a?.semantic;
  if (!a || !s || a.root !== root || a.text !== text || s.provider !== provider || s.model !== model) return undefined;
  a.semantic = undefined;
  return s;
}
