import { code } from '../pr/escape.js';
import { suggestionBlock } from '../pr/render-notes.js';
import type { MadeStale } from '../pr/stale.js';
import { httpStatus, type Octokit } from './github.js';

/** Marks the bot's suggestion for one record, so a re-run finds it instead of posting another. */
export function suggestionMarker(id: string): string {
  return `<!-- git-ctx:stamp-suggestion ${id.replace(/[^\w.-]/g, '_')} -->`;
}

export interface SuggestionResult {
  /** suggestions posted on this run */
  posted: number;
  /** identical suggestions already on the pull request, left alone */
  kept: number;
  /** the bot's earlier suggestions for the same records, replaced (they sat on an older head) */
  removed: number;
  /** why none could be posted (a read-only token, a line GitHub would not take) */
  problems: string[];
}

interface ReviewComment {
  id: number;
  body?: string | null;
  user?: { login?: string } | null;
}

/** The review comment's text: what the suggestion settles, the suggestion block itself. */
export function suggestionBody(m: MadeStale): string | undefined {
  const block = m.suggestion && suggestionBlock(m.suggestion);
  if (!block) return undefined;
  return [suggestionMarker(m.id), `**git-ctx**: this pull request changes code governed by ${code(m.id)} without re-stamping it. Once you have reviewed that it still holds, this is the stamp ${code(m.restamp)} would write:`, '', ...block, ''].join('\n');
}

/**
 * Post each stamp suggestion as a review comment on its lines, where GitHub lets the author
 * apply it with one click. Only suggestions on lines of the diff are posted; one already
 * there with the same text is kept, the bot's older ones for the same record are deleted.
 * A token that cannot comment, or a line GitHub refuses, is a problem to report, not a failure.
 */
export async function postStampSuggestions(octokit: Octokit, o: { owner: string; repo: string; pullNumber: number; headSha: string; login: string; items: readonly MadeStale[] }): Promise<SuggestionResult> {
  const out: SuggestionResult = { posted: 0, kept: 0, removed: 0, problems: [] };
  const wanted = o.items.filter((m) => m.suggestion?.inDiff).map((m) => ({ m, body: suggestionBody(m) })).filter((x): x is { m: MadeStale; body: string } => !!x.body);
  if (!wanted.length) return out;
  try {
    const existing = (await octokit.paginate(octokit.rest.pulls.listReviewComments, { owner: o.owner, repo: o.repo, pull_number: o.pullNumber, per_page: 100 })) as ReviewComment[];
    const mine = existing.filter((c) => c.user?.login === o.login);
    for (const { m, body } of wanted) {
      const marker = suggestionMarker(m.id);
      const earlier = mine.filter((c) => (c.body ?? '').startsWith(marker));
      if (earlier.some((c) => c.body === body)) {
        out.kept++;
        continue;
      }
      const s = m.suggestion!;
      await octokit.rest.pulls.createReviewComment({
        owner: o.owner,
        repo: o.repo,
        pull_number: o.pullNumber,
        commit_id: o.headSha,
        path: s.file,
        body,
        side: 'RIGHT',
        line: s.endLine,
        ...(s.startLine < s.endLine ? { start_line: s.startLine, start_side: 'RIGHT' as const } : {}),
      });
      out.posted++;
      for (const c of earlier) {
        await octokit.rest.pulls.deleteReviewComment({ owner: o.owner, repo: o.repo, comment_id: c.id });
        out.removed++;
      }
    }
  } catch (e) {
    const status = httpStatus(e);
    if (status === undefined || ![401, 403, 404, 422].includes(status)) throw e;
    out.problems.push(`GitHub answered ${status} to a stamp suggestion (${(e as Error).message.split('\n')[0]})`);
  }
  return out;
}
