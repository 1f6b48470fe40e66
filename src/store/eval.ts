// @spec SPEC-STORE-001

import type { ArtifactSet } from '../artifacts/load.js';
import { parseTraceTarget } from '../code/trace.js';
import { retrieveForPlace, retrieveForText } from '../retrieve/engine.js';
import type { SemanticLane } from '../retrieve/types.js';
import type { Snapshot } from '../snapshot/types.js';
import type { Store } from './store.js';
import type { Episode, FeedbackEntry } from './types.js';

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
}

export interface EvalReport {
  episodes: EvalEpisode[];
  /** episodes with feedback that cannot be replayed (bundles, PRs, get_context, a place that no longer exists), with why */
  skipped: { id: string; reason: string }[];
  /** micro-averaged over every judged reference */
  totals: { relevant: number; foundNow: number; foundRecorded: number; recall: number | null; recordedRecall: number | null; precision: number | null; recordedPrecision: number | null };
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
    try {
      const r = await replay(opts, ep.query);
      if (typeof r === 'string') {
        report.skipped.push({ id: ep.id, reason: r });
        continue;
      }
      now = r;
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
    });
  }
  const t = report.totals;
  t.recall = t.relevant ? t.foundNow / t.relevant : null;
  t.recordedRecall = t.relevant ? t.foundRecorded / t.relevant : null;
  t.precision = judgedNow ? relevantJudgedNow / judgedNow : null;
  t.recordedPrecision = judgedRecorded ? relevantJudgedRecorded / judgedRecorded : null;
  return report;
}

/** The ids the current engine returns for a recorded query, or why it cannot be replayed. */
async function replay(opts: EvalOptions, q: Episode['query']): Promise<string[] | string> {
  const base = { snapshot: opts.snapshot, set: opts.set, semantic: opts.semantic };
  if (q.kind === 'search') {
    if (!q.text) return 'a search without its text';
    return (await retrieveForText({ ...base, text: q.text })).results.map((r) => r.id);
  }
  if (q.kind === 'place') {
    const place = q.text ?? q.place;
    if (!place) return 'a place query without its place';
    const target = parseTraceTarget(place, opts.snapshot.root);
    if ((await opts.snapshot.blobOf(target.path)) === undefined && !(await opts.snapshot.listUnder(target.path)).length) return `${target.path} no longer exists`;
    return (await retrieveForPlace({ ...base, target, place, staleness: false })).results.map((r) => r.id);
  }
  return `${q.kind} episodes are not replayed (only for/search/trace places and questions)`;
}
