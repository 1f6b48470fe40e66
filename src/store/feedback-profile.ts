// @spec SPEC-STORE-001

import path from 'node:path';
import { readKeyedCache, writeKeyedCache } from '../cache/file.js';
import { evidenceDir } from './journal.js';
import { questionTerms, type FeedbackProfile, type FeedbackVote } from './feedback-votes.js';
import type { Episode, Verdict } from './types.js';

/**
 * `<git-dir>/ctx/evidence/feedback-profile.json`: the votes feedback ranking reads, a
 * projection of the store's feedback table. The store rewrites it inside the write
 * transaction that adds feedback (writers are serialized, so the last file written holds
 * every vote), and when it finds it missing or the database rebuilt. Readers never load
 * SQLite: the agent-read hook, bundles and the Action may rank with it.
 */
export const FEEDBACK_PROFILE_FILE = 'feedback-profile.json';
const PROFILE_KEY = 'feedback-profile-v1';

/** The votes of feedback entries: the latest verdict per (episode, ref); only place and search episodes (the ones a ranking can meet again). */
export function profileOf(entries: readonly { episode: string; ref: string; verdict: Verdict; query: Episode['query'] }[]): FeedbackProfile {
  const latest = new Map<string, FeedbackVote>();
  for (const f of entries) {
    const q = f.query;
    const query = q.kind === 'place' && q.place !== undefined ? { kind: 'place' as const, path: q.place } : q.kind === 'search' && q.text ? { kind: 'search' as const, terms: questionTerms(q.text) } : undefined;
    if (!query) continue;
    // re-inserted so a later verdict on the same reference also takes the later position
    const k = `${f.episode}\0${f.ref}`;
    latest.delete(k);
    latest.set(k, { episode: f.episode, query, ref: f.ref, vote: f.verdict === 'not-useful' ? -1 : 1 });
  }
  return { votes: [...latest.values()] };
}

/** Where the profile of the evidence directory `dir` is kept. */
export function feedbackProfileFile(dir: string): string {
  return path.join(dir, FEEDBACK_PROFILE_FILE);
}

/** Write the profile (best effort: a profile that cannot be written leaves ranking on the previous one). */
export function writeFeedbackProfile(dir: string, profile: FeedbackProfile): boolean {
  return writeKeyedCache(feedbackProfileFile(dir), PROFILE_KEY, profile);
}

/**
 * The feedback profile of the repository at `root`: one small JSON read, no SQLite. No store,
 * no feedback yet, or an unreadable file: no votes (ranking then changes nothing).
 */
export function readFeedbackProfile(root: string): FeedbackProfile {
  const dir = evidenceDir(root);
  if (!dir) return { votes: [] };
  const p = readKeyedCache(feedbackProfileFile(dir), PROFILE_KEY) as FeedbackProfile | undefined;
  return p && Array.isArray(p.votes) ? p : { votes: [] };
}
