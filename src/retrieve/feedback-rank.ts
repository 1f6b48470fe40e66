// @spec SPEC-RETRIEVE-001

import { questionTerms, type FeedbackProfile, type FeedbackVote, type VoteQuery } from '../store/feedback-votes.js';
import type { RetrievedRecord, Why } from './types.js';

export { questionTerms, type FeedbackProfile, type FeedbackVote, type VoteQuery };

/**
 * Feedback ranking (`retrieval.feedback_ranking`, off by default; DEC-028): what agents and
 * people said about earlier answers to similar questions moves records up or down *within*
 * their slot. It never moves a record across slots (declared hits stay above the fused
 * band, the fused band above links) and never adds or removes one: the slots decide what
 * is shown, feedback only the order inside each.
 */

/** The weighted votes on one record for one query. */
export interface FeedbackScore {
  /** Σ similarity × vote */
  score: number;
  useful: number;
  notUseful: number;
}

/** A record that feedback moved within its slot (1-based positions in the whole answer). */
export interface FeedbackMove {
  id: string;
  slot: RetrievedRecord['slot'];
  from: number;
  to: number;
  score: number;
}

/** Episodes asked about the same file count fully, the same directory half, a question sharing at least half its terms by that share. */
const SAME_DIR = 0.5;
const MIN_TERM_OVERLAP = 0.5;

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

function jaccard(a: readonly string[], b: readonly string[]): number {
  if (!a.length || !b.length) return 0;
  const sb = new Set(b);
  let both = 0;
  for (const t of a) if (sb.has(t)) both++;
  return both / (a.length + b.length - both);
}

/**
 * The feedback score of each record judged on episodes similar to a query; `exclude` leaves
 * out one episode's own votes (eval replays an episode without what was said about it).
 */
export function feedbackScores(profile: FeedbackProfile, query: { kind: 'place'; path: string } | { kind: 'search'; text: string }, opts: { exclude?: string } = {}): Map<string, FeedbackScore> {
  const out = new Map<string, FeedbackScore>();
  const terms = query.kind === 'search' ? questionTerms(query.text) : [];
  const dir = query.kind === 'place' ? dirOf(query.path) : '';
  for (const v of profile.votes) {
    if (v.episode === opts.exclude) continue;
    let sim = 0;
    if (query.kind === 'place' && v.query.kind === 'place') sim = v.query.path === query.path ? 1 : dirOf(v.query.path) === dir ? SAME_DIR : 0;
    else if (query.kind === 'search' && v.query.kind === 'search') {
      const j = jaccard(terms, v.query.terms);
      sim = j >= MIN_TERM_OVERLAP ? j : 0;
    }
    if (sim === 0) continue;
    const s = out.get(v.ref) ?? { score: 0, useful: 0, notUseful: 0 };
    s.score += sim * v.vote;
    if (v.vote > 0) s.useful++;
    else s.notUseful++;
    out.set(v.ref, s);
  }
  return out;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Reorder each slot's run of results by feedback: records with a positive score first
 * (highest first), then the unjudged and balanced in their original order, then those with a
 * negative score (least negative first). Slots are contiguous in an answer and each is sorted
 * on its own, so no record crosses a slot boundary. Records with a score get a `feedback` why.
 */
export function rankWithFeedback(results: readonly RetrievedRecord[], scores: ReadonlyMap<string, FeedbackScore>, what: 'place' | 'question' = 'place'): { results: RetrievedRecord[]; moved: FeedbackMove[] } {
  const out: RetrievedRecord[] = [];
  const moved: FeedbackMove[] = [];
  const band = (s: number) => (s > 0 ? 0 : s < 0 ? 2 : 1);
  for (let start = 0; start < results.length; ) {
    let end = start;
    while (end < results.length && results[end]!.slot === results[start]!.slot) end++;
    const run = results.slice(start, end).map((r, i) => ({ r, i, s: round(scores.get(r.id)?.score ?? 0) }));
    run.sort((a, b) => band(a.s) - band(b.s) || (a.s > 0 ? b.s - a.s : 0) || (a.s < 0 ? b.s - a.s : 0) || a.i - b.i);
    run.forEach((x, k) => {
      const f = scores.get(x.r.id);
      const r = f && (f.useful || f.notUseful) ? { ...x.r, why: [...x.r.why, feedbackWhy(f, x.s, what)] } : x.r;
      out.push(r);
      if (k !== x.i) moved.push({ id: r.id, slot: r.slot, from: start + x.i + 1, to: start + k + 1, score: x.s });
    });
    start = end;
  }
  return { results: out, moved };
}

function feedbackWhy(f: FeedbackScore, score: number, what: 'place' | 'question'): Why {
  const parts = [f.useful ? `useful ${f.useful}×` : '', f.notUseful ? `not useful ${f.notUseful}×` : ''].filter(Boolean).join(', ');
  return { kind: 'feedback', text: `feedback on similar ${what}s: ${parts} (score ${score}; reorders within its slot only)` };
}
