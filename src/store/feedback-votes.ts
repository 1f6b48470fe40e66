// @spec SPEC-STORE-001

/*
 * The shape of the feedback the evidence store keeps for ranking: votes on records, each with
 * the question it was cast on. Free of imports, so retrieval can rank with it without loading
 * the store.
 */

/** The question an earlier episode asked, as far as similarity needs it. */
export type VoteQuery = { kind: 'place'; path: string } | { kind: 'search'; terms: string[] };

/** One judgement: +1 useful or missing (should be shown), −1 not useful; the latest per (episode, ref) wins. */
export interface FeedbackVote {
  episode: string;
  query: VoteQuery;
  ref: string;
  vote: 1 | -1;
}

/** What feedback ranking learns from: every vote, built from the evidence store's feedback (feedback-profile.ts); feedback ranking (src/retrieve/feedback-rank.ts) reads it. */
export interface FeedbackProfile {
  votes: FeedbackVote[];
}

const STOP = new Set(['the', 'and', 'for', 'with', 'how', 'what', 'why', 'does', 'are', 'was', 'that', 'this', 'from', 'into', 'when', 'where', 'which', 'who', 'our', 'use', 'not', 'can', 'should', 'about']);

/** The terms of a question compared for similarity: lower-case words of 2+ characters, common words left out, sorted and unique. */
export function questionTerms(text: string): string[] {
  return [...new Set((text.toLowerCase().match(/[a-z0-9_]{2,}/g) ?? []).filter((w) => !STOP.has(w)))].sort();
}
