import type { getOctokit } from '@actions/github';

/** The Octokit client @actions/github hands out (REST methods + paginate + graphql). */
export type Octokit = ReturnType<typeof getOctokit>;

/** HTTP status of an Octokit RequestError, if the error is one. */
export function httpStatus(e: unknown): number | undefined {
  const s = (e as { status?: unknown } | undefined)?.status;
  return typeof s === 'number' ? s : undefined;
}

/** The login GITHUB_TOKEN comments as. */
export const ACTIONS_BOT_LOGIN = 'github-actions[bot]';

/**
 * The login the token acts as, so that only the bot's own comments are ever edited. GraphQL
 * `viewer` answers for user tokens and PATs; `GET /user` is the REST fallback; an installation
 * token (GITHUB_TOKEN) can call neither, and it always posts as github-actions[bot].
 */
export async function resolveLogin(octokit: Octokit): Promise<string> {
  try {
    const r = await octokit.graphql<{ viewer: { login: string } }>('query { viewer { login } }');
    if (r?.viewer?.login) return r.viewer.login;
  } catch {
    /* fall through to REST */
  }
  try {
    const r = await octokit.rest.users.getAuthenticated();
    if (r.data?.login) return r.data.login;
  } catch {
    /* installation tokens: 403 "Resource not accessible by integration" */
  }
  return ACTIONS_BOT_LOGIN;
}

/** The pull request a run is about. */
export interface PullRequestRef {
  number: number;
  baseSha: string;
  headSha: string;
  baseRef?: string;
  /** the head lives in another repository (a fork) */
  fromFork: boolean;
  /** the pull request's title and description: part of what change retrieval asks with */
  title?: string;
  body?: string;
}

interface PrPayload {
  number: number;
  title?: string;
  body?: string | null;
  base: { sha: string; ref?: string; repo?: { full_name?: string } };
  head: { sha: string; ref?: string; repo?: { full_name?: string } | null };
}

function fromPayload(pr: PrPayload): PullRequestRef {
  const baseRepo = pr.base.repo?.full_name;
  const headRepo = pr.head.repo?.full_name;
  return {
    number: pr.number,
    baseSha: pr.base.sha,
    headSha: pr.head.sha,
    baseRef: pr.base.ref,
    fromFork: !!headRepo && !!baseRepo && headRepo !== baseRepo,
    title: pr.title || undefined,
    body: pr.body || undefined,
  };
}

/** What a run analyses: a pull request (commented on), or a range of commits (report only). */
export type RunTarget =
  | { kind: 'pull-request'; pr: PullRequestRef }
  | { kind: 'range'; event: string; base: string; head: string; label: string }
  | { kind: 'skip'; message: string };

const ZERO_SHA = /^0+$/;

/**
 * What to analyse for this event. Pull-request events (and workflow_run) resolve the pull
 * request; `push` compares the pushed range (before..after) and `merge_group` the queued
 * commit with its base, reporting through the job summary and annotations (there is no
 * pull request to comment on). Anything else, `workflow_dispatch` included, is skipped with
 * one line saying why.
 */
export async function resolveTarget(
  octokit: Octokit,
  ctx: { eventName: string; payload: Record<string, unknown>; repo: { owner: string; repo: string } },
): Promise<RunTarget> {
  const p = ctx.payload as { before?: string; after?: string; ref?: string; merge_group?: { base_sha?: string; head_sha?: string; head_ref?: string } };
  if (ctx.eventName === 'push') {
    if (!p.before || !p.after || ZERO_SHA.test(p.after)) return { kind: 'skip', message: `git-ctx: push deleting ${p.ref ?? 'a ref'}: nothing to analyse` };
    if (ZERO_SHA.test(p.before)) return { kind: 'skip', message: `git-ctx: push creating ${p.ref ?? 'a ref'}: there is no earlier commit to compare with; open a pull request to get the report` };
    return { kind: 'range', event: 'push', base: p.before, head: p.after, label: `push to ${p.ref ?? '?'}` };
  }
  if (ctx.eventName === 'merge_group') {
    const g = p.merge_group;
    if (!g?.base_sha || !g.head_sha) return { kind: 'skip', message: 'git-ctx: merge_group event without base_sha and head_sha: nothing to analyse' };
    return { kind: 'range', event: 'merge_group', base: g.base_sha, head: g.head_sha, label: `merge queue ${g.head_ref ?? ''}`.trim() };
  }
  if (['pull_request', 'pull_request_target', 'workflow_run'].includes(ctx.eventName)) return { kind: 'pull-request', pr: await resolvePullRequest(octokit, ctx) };
  return {
    kind: 'skip',
    message: `git-ctx: nothing to analyse on ${ctx.eventName || 'this'} event: it runs on pull_request, pull_request_target, workflow_run, push and merge_group (run \`git ctx pr --base <rev>\` in a step for anything else)`,
  };
}

/**
 * Find the pull request from the event. pull_request and pull_request_target carry it;
 * workflow_run carries it for same-repository branches, and for forks (where GitHub leaves
 * `pull_requests` empty) it is looked up by the fork's owner:branch and the run's head SHA.
 */
export async function resolvePullRequest(
  octokit: Octokit,
  ctx: { eventName: string; payload: Record<string, unknown>; repo: { owner: string; repo: string } },
): Promise<PullRequestRef> {
  const payload = ctx.payload as { pull_request?: PrPayload; workflow_run?: Record<string, unknown> };
  if ((ctx.eventName === 'pull_request' || ctx.eventName === 'pull_request_target') && payload.pull_request) return fromPayload(payload.pull_request);
  if (ctx.eventName === 'workflow_run' && payload.workflow_run) {
    const run = payload.workflow_run as { head_sha: string; head_branch?: string; pull_requests?: PrPayload[]; head_repository?: { owner?: { login?: string }; full_name?: string } };
    const direct = run.pull_requests?.find((p) => p.head.sha === run.head_sha) ?? run.pull_requests?.[0];
    if (direct) {
      // the run's payload omits the repositories; its head SHA is the one the run tested
      return { ...fromPayload(direct), headSha: run.head_sha, fromFork: false };
    }
    const owner = run.head_repository?.owner?.login;
    if (owner && run.head_branch) {
      const list = await octokit.paginate(octokit.rest.pulls.list, { ...ctx.repo, state: 'open', head: `${owner}:${run.head_branch}`, per_page: 100 });
      const pr = list.find((p) => p.head.sha === run.head_sha);
      if (pr) return fromPayload(pr as unknown as PrPayload);
    }
    throw new Error(`no open pull request has head ${run.head_sha.slice(0, 12)} (workflow_run from ${run.head_repository?.full_name ?? 'unknown repository'}:${run.head_branch ?? '?'})`);
  }
  throw new Error(`git-ctx runs on pull_request, pull_request_target or workflow_run events (this run: ${ctx.eventName || 'unknown'})`);
}
