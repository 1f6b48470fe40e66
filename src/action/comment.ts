import { COMMENT_MARKER } from '../pr/render.js';
import { httpStatus, type Octokit } from './github.js';

export interface StickyCommentOptions {
  owner: string;
  repo: string;
  issueNumber: number;
  /** the login the token comments as (only its comments are ever touched) */
  login: string;
  body: string;
  /** post a new comment when none exists yet (false: only update or collapse an existing one) */
  create: boolean;
}

export interface StickyCommentResult {
  action: 'created' | 'updated' | 'unchanged' | 'skipped' | 'forbidden';
  id?: number;
  url?: string;
  /** duplicates (from earlier races) that were removed */
  removed: number;
  /** why nothing was written (forbidden: the token is read-only) */
  reason?: string;
}

interface IssueComment {
  id: number;
  body?: string | null;
  html_url: string;
  user?: { login?: string } | null;
}

/** The bot's own sticky comments on an issue, oldest first: marker in the body and written by `login`. */
export async function findStickyComments(octokit: Octokit, o: Pick<StickyCommentOptions, 'owner' | 'repo' | 'issueNumber' | 'login'>): Promise<IssueComment[]> {
  // every page: a busy PR has more than 100 comments and the bot's may be on any page
  const all = (await octokit.paginate(octokit.rest.issues.listComments, { owner: o.owner, repo: o.repo, issue_number: o.issueNumber, per_page: 100 })) as IssueComment[];
  return all.filter((c) => (c.body ?? '').includes(COMMENT_MARKER) && c.user?.login === o.login).sort((a, b) => a.id - b.id);
}

const READ_ONLY = new Set([401, 403, 404]);

/**
 * Create or update the one sticky comment. Re-runs update it in place (never a second one;
 * duplicates left by concurrent runs are deleted), an identical body is left alone, and a
 * read-only token (fork pull requests) yields `forbidden` instead of an error.
 */
export async function upsertStickyComment(octokit: Octokit, o: StickyCommentOptions): Promise<StickyCommentResult> {
  try {
    const [first, ...dupes] = await findStickyComments(octokit, o);
    let removed = 0;
    for (const d of dupes) {
      await octokit.rest.issues.deleteComment({ owner: o.owner, repo: o.repo, comment_id: d.id });
      removed++;
    }
    if (first) {
      if ((first.body ?? '') === o.body) return { action: 'unchanged', id: first.id, url: first.html_url, removed };
      const r = await octokit.rest.issues.updateComment({ owner: o.owner, repo: o.repo, comment_id: first.id, body: o.body });
      return { action: 'updated', id: r.data.id, url: r.data.html_url, removed };
    }
    if (!o.create) return { action: 'skipped', removed, reason: 'nothing applies and there is no earlier comment to update' };
    const r = await octokit.rest.issues.createComment({ owner: o.owner, repo: o.repo, issue_number: o.issueNumber, body: o.body });
    return { action: 'created', id: r.data.id, url: r.data.html_url, removed };
  } catch (e) {
    const status = httpStatus(e);
    if (status !== undefined && READ_ONLY.has(status)) {
      return { action: 'forbidden', removed: 0, reason: `GitHub answered ${status} (${(e as Error).message.split('\n')[0]}): the token cannot comment here, as with pull requests from forks` };
    }
    throw e;
  }
}
