// @spec SPEC-STORE-001

import type { ArtifactSet } from '../artifacts/load.js';
import { parseTraceTarget } from './trace.js';
import { retrieveForPlace, retrieveForText } from './engine.js';
import { feedbackScores, rankWithFeedback, type FeedbackMove, type FeedbackProfile } from './feedback-rank.js';
import type { RetrievedRecord, SemanticLane } from './types.js';
import { profileOf } from '../store/feedback-profile.js';
import type { Snapshot } from '../snapshot/types.js';
import type { Store } from '../store/store.js';
import type { Episode, FeedbackEntry } from '../store/types.js';

/**
 * `git ctx eval`: a regression test made from real use. Every episode that received
 * feedback is replayed (its query, against the current engine and records) and scored
 * against what the feedback called relevant (useful or missing) and not useful: recall =
 * relevant found / relevant; precision = relevant found / judged found (references
 * nobody judged do not count either way). The same scores for what the episode returned
 * when it was recorded show whether the engine got better or worse.
 */
export interface EvalEpisode {
  id: string;
  at: number;
  query: Episode['query'];
  relevant: string[];
  notUseful: string[];
  /** ids the current engine returns */
  now: string[];
  /** scores of the current engine and of the recorded answer */
  recall: number;
  precision: number | null;
  recordedRecall: number;
  recordedPrecision: number | null;
  /** relevant ids the current engine no longer returns */
  lost: string[];
  /** relevant ids it returns now that the recorded answer lacked */
  gained: string[];
  /** with `learn`: what feedback ranking would change in this answer (votes of other episodes only) */
  learn?: EvalLearn;
}

/** What feedback ranking does to one replayed answer: moves within slots, and the rank of the first relevant record. */
export interface EvalLearn {
  /** the answer with feedback ranking */
  ranked: string[];
  moved: FeedbackMove[];
  /** 1 / rank of the first relevant record (0: none returned), without and with feedback ranking */
  mrr: number;
  mrrWithFeedback: number;
}

export interface EvalReport {
  episodes: EvalEpisode[];
  /** episodes with feedback that cannot be replayed (bundles, PRs, get_context, a place that no longer exists), with why */
  skipped: { id: string; reason: string }[];
  /** micro-averaged over every judged reference */
  totals: { relevant: number; foundNow: number; foundRecorded: number; recall: number | null; recordedRecall: number | null; precision: number | null; recordedPrecision: number | null };
  /** with `learn`: feedback ranking over every replayed episode */
  learn?: { enabled: boolean; votes: number; episodesChanged: number; moved: number; mrr: number | null; mrrWithFeedback: number | null };
}

export interface EvalOptions {
  store: Store;
  snapshot: Snapshot;
  set: ArtifactSet;
  semantic?: SemanticLane;
  /** only episodes at or after (ms since the epoch) */
  since?: number;
  /** most episodes replayed, newest first (default 500) */
  limit?: number;
  /**
   * show what feedback ranking would change: each episode is replayed without it and ranked
   * with the votes of the *other* episodes (its own would make the score circular)
   */
  learn?: boolean;
}

export async function evaluateEpisodes(opts: EvalOptions): Promise<EvalReport> {
  const feedback = opts.store.feedbackFor();
  const byEpisode = new Map<string, FeedbackEntry[]>();
  for (const f of feedback) byEpisode.set(f.episode, [...(byEpisode.get(f.episode) ?? []), f]);
  const report: EvalReport = { episodes: [], skipped: [], totals: { relevant: 0, foundNow: 0, foundRecorded: 0, recall: null, recordedRecall: null, precision: null, recordedPrecision: null } };
  let judgedNow = 0;
  let relevantJudgedNow = 0;
  let judgedRecorded = 0;
  let relevantJudgedRecorded = 0;
  const ids = [...byEpisode.keys()];
  // feedback ranking on in config: "now" is the answer it gives (each episode without its own votes)
  const enabled = !!opts.set.config.retrieval?.feedback_ranking;
  const profile: FeedbackProfile | undefined = opts.learn || enabled ? profileOf(opts.store.feedbackWithQueries()) : undefined;
  let mrrSum = 0;
  let mrrLearnSum = 0;
  let moved = 0;
  let changed = 0;
  const episodes = ids
    .map((id) => opts.store.getEpisode(id))
    .filter((e): e is NonNullable<typeof e> => !!e && (opts.since === undefined || e.at >= opts.since))
    .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1))
    .slice(0, opts.limit ?? 500);
  for (const ep of episodes) {
    // the latest verdict on a reference wins (feedback is append-only; a later call corrects an earlier one)
    const verdict = new Map<string, string>();
    for (const f of byEpisode.get(ep.id) ?? []) verdict.set(f.ref, f.verdict);
    const relevant = [...verdict].filter(([, v]) => v !== 'not-useful').map(([r]) => r);
    const notUseful = [...verdict].filter(([, v]) => v === 'not-useful').map(([r]) => r);
    let now: string[];
    let learn: EvalLearn | undefined;
    try {
      const r = await replay(opts, ep.query);
      if (typeof r === 'string') {
        report.skipped.push({ id: ep.id, reason: r });
        continue;
      }
      const plain = r.results.map((x) => x.id);
      now = plain;
      if (profile) {
        const ranked = rankWithFeedback(r.results, feedbackScores(profile, r.query, { exclude: ep.id }), r.query.kind === 'place' ? 'place' : 'question');
        const ids = ranked.results.map((x) => x.id);
        if (enabled) now = ids;
        const relevantSet = new Set(relevant);
        const rr = (list: string[]) => {
          const i = list.findIndex((x) => relevantSet.has(x));
          return i < 0 ? 0 : 1 / (i + 1);
        };
        learn = { ranked: ids, moved: ranked.moved, mrr: rr(plain), mrrWithFeedback: rr(ids) };
        mrrSum += learn.mrr;
        mrrLearnSum += learn.mrrWithFeedback;
        moved += ranked.moved.length;
        if (ranked.moved.length) changed++;
      }
    } catch (e) {
      report.skipped.push({ id: ep.id, reason: (e as Error).message.split('\n')[0]! });
      continue;
    }
    const recorded = ep.evidence.map((x) => x.value);
    const score = (got: string[]) => {
      const set = new Set(got);
      const found = relevant.filter((r) => set.has(r)).length;
      const judged = got.filter((g) => verdict.has(g)).length;
      return { found, judged, recall: relevant.length ? found / relevant.length : 1, precision: judged ? found / judged : null };
    };
    const n = score(now);
    const o = score(recorded);
    report.totals.relevant += relevant.length;
    report.totals.foundNow += n.found;
    report.totals.foundRecorded += o.found;
    judgedNow += n.judged;
    relevantJudgedNow += n.found;
    judgedRecorded += o.judged;
    relevantJudgedRecorded += o.found;
    const nowSet = new Set(now);
    const recSet = new Set(recorded);
    report.episodes.push({
      id: ep.id,
      at: ep.at,
      query: ep.query,
      relevant,
      notUseful,
      now,
      recall: n.recall,
      precision: n.precision,
      recordedRecall: o.recall,
      recordedPrecision: o.precision,
      lost: relevant.filter((r) => recSet.has(r) && !nowSet.has(r)),
      gained: relevant.filter((r) => nowSet.has(r) && !recSet.has(r)),
      ...(opts.learn && learn ? { learn } : {}),
    });
  }
  if (opts.learn) {
    const n = report.episodes.length;
    report.learn = { enabled, votes: profile?.votes.length ?? 0, episodesChanged: changed, moved, mrr: n ? mrrSum / n : null, mrrWithFeedback: n ? mrrLearnSum / n : null };
  }
  const t = report.totals;
  t.recall = t.relevant ? t.foundNow / t.relevant : null;
  t.recordedRecall = t.relevant ? t.foundRecorded / t.relevant : null;
  t.precision = judgedNow ? relevantJudgedNow / judgedNow : null;
  t.recordedPrecision = judgedRecorded ? relevantJudgedRecorded / judgedRecorded : null;
  return report;
}

/** The ids the current engine returns for a recorded query, or why it cannot be replayed. */
async function replay(opts: EvalOptions, q: Episode['query']): Promise<{ results: RetrievedRecord[]; query: { kind: 'place'; path: string } | { kind: 'search'; text: string } } | string> {
  // without feedback ranking: evaluateEpisodes applies it itself, leaving out the episode's own votes
  const base = { snapshot: opts.snapshot, set: opts.set, semantic: opts.semantic, feedback: false as const };
  if (q.kind === 'search') {
    if (!q.text) return 'a search without its text';
    return { results: (await retrieveForText({ ...base, text: q.text })).results, query: { kind: 'search', text: q.text } };
  }
  if (q.kind === 'place') {
    const place = q.text ?? q.place;
    if (!place) return 'a place query without its place';
    const target = parseTraceTarget(place, opts.snapshot.root);
    if ((await opts.snapshot.blobOf(target.path)) === undefined && !(await opts.snapshot.listUnder(target.path)).length) return `${target.path} no longer exists`;
    const r = await retrieveForPlace({ ...base, target, place, staleness: false });
    return { results: r.results, query: { kind: 'place', path: r.query.kind === 'place' ? r.query.path : target.path } };
  }
  return `${q.kind} episodes are not replayed (only for/search/trace places and questions)`;
}
