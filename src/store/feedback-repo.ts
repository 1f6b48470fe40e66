// @spec SPEC-STORE-001

import { CtxError } from '../errors.js';
import type { StoreDb } from './db.js';
import { resolveEpisodeId } from './episodes-repo.js';
import { profileOf, writeFeedbackProfile } from './feedback-profile.js';
import type { Episode, FeedbackEntry, Verdict } from './types.js';

/* The feedback table: verdicts on an episode's references, and the profile ranking reads. */

/**
 * Append feedback to an episode. Throws UNKNOWN_ID naming the episode when it is not
 * stored (after ingesting the journal). Returns the stored entries.
 */
export function addFeedback(s: StoreDb, episode: string, items: { verdict: Verdict; ref: string }[], opts: { note?: string; source?: string } = {}): FeedbackEntry[] {
  const id = resolveEpisodeId(s, episode);
  if (!id) throw new CtxError('UNKNOWN_ID', `no episode ${episode} in the evidence store`, { hint: 'list episodes with `git ctx episodes`' });
  const at = s.clock();
  const source = opts.source ?? 'cli';
  const list = items;
  if (!list.length) throw new CtxError('USAGE', 'feedback needs at least one judged reference (useful, not-useful or missing)');
  return s.write(() => {
    const ins = s.db.prepare('INSERT INTO feedback (episode, at, verdict, ref, note, source) VALUES (?, ?, ?, ?, ?, ?)');
    const out: FeedbackEntry[] = [];
    for (const it of list) {
      const r = ins.run(id, at, it.verdict, it.ref, opts.note ?? null, source);
      out.push({ id: Number(r.lastInsertRowid), episode: id, at, verdict: it.verdict, ref: it.ref, ...(opts.note ? { note: opts.note } : {}), source });
    }
    // under the write lock: the last profile written by concurrent writers holds every vote
    refreshFeedbackProfile(s);
    return out;
  });
}

/** Feedback, oldest first; for the given episodes, or all. */
export function feedbackFor(s: StoreDb, episodes?: string[]): FeedbackEntry[] {
  const rows = (
    episodes
      ? episodes.flatMap((e) => s.db.prepare('SELECT * FROM feedback WHERE episode = ? ORDER BY id').all(e))
      : s.db.prepare('SELECT * FROM feedback ORDER BY id').all()
  ) as Record<string, unknown>[];
  return rows.map(feedbackOf);
}

/**
 * Every feedback entry with the query of its episode, oldest first, in one statement: what
 * feedback ranking learns from (src/store/feedback-profile.ts).
 */
export function feedbackWithQueries(s: StoreDb): (FeedbackEntry & { query: Episode['query'] })[] {
  const rows = s.db
    .prepare('SELECT f.*, e.query_kind, e.query_text, e.place FROM feedback f JOIN episodes e ON e.id = f.episode ORDER BY f.id')
    .all() as Record<string, unknown>[];
  return rows.map((r) => ({
    ...feedbackOf(r),
    query: { kind: r.query_kind as Episode['query']['kind'], ...(r.query_text == null ? {} : { text: String(r.query_text) }), ...(r.place == null ? {} : { place: String(r.place) }) },
  }));
}

/** Rewrite the feedback profile (src/store/feedback-profile.ts) from the feedback table. */
export function refreshFeedbackProfile(s: StoreDb): void {
  writeFeedbackProfile(s.dir, profileOf(feedbackWithQueries(s)));
}

/** A feedback row as the API returns it. */
function feedbackOf(r: Record<string, unknown>): FeedbackEntry {
  return {
    id: Number(r.id),
    episode: String(r.episode),
    at: Number(r.at),
    verdict: r.verdict as Verdict,
    ref: String(r.ref),
    ...(r.note == null ? {} : { note: String(r.note) }),
    source: String(r.source),
  };
}
