import * as core from '@actions/core';
import * as github from '@actions/github';
import path from 'node:path';
import { analyzePullRequest } from '../pr/analyze.js';
import { COMMENT_MAX_CHARS, SUMMARY_MAX_CHARS, nothingApplies, prFails, renderPrComment, reproduceCommand } from '../pr/render.js';
import type { FailOn, PrResult } from '../pr/types.js';
import { planAnnotations } from './annotations.js';
import { upsertStickyComment, type StickyCommentResult } from './comment.js';
import { ensureHistory } from './fetch.js';
import { resolveLogin, resolvePullRequest } from './github.js';

/** The Action's inputs, parsed (see action.yml). */
export interface ActionInputs {
  token: string;
  workingDirectory: string;
  comment: boolean;
  failOn: FailOn;
  maxItems: number;
  includeStale: boolean;
}

function booleanInput(name: string, def: boolean): boolean {
  const v = core.getInput(name).trim().toLowerCase();
  if (!v) return def;
  if (['true', 'yes', 'on', '1'].includes(v)) return true;
  if (['false', 'no', 'off', '0'].includes(v)) return false;
  throw new Error(`input ${name} must be true or false (got ${JSON.stringify(v)})`);
}

/** Read and validate the inputs; defaults match action.yml so a bare environment works too. */
export function readInputs(): ActionInputs {
  const failOn = (core.getInput('fail-on').trim() || 'error') as FailOn;
  if (!['error', 'warning', 'stale', 'never'].includes(failOn)) throw new Error(`input fail-on must be error, warning, stale or never (got ${JSON.stringify(failOn)})`);
  const maxRaw = core.getInput('max-items').trim() || '50';
  const maxItems = Number(maxRaw);
  if (!Number.isInteger(maxItems) || maxItems < 0) throw new Error(`input max-items must be a non-negative integer (got ${JSON.stringify(maxRaw)})`);
  return {
    token: core.getInput('github-token'),
    workingDirectory: core.getInput('working-directory') || '.',
    comment: booleanInput('comment', true),
    failOn,
    maxItems,
    includeStale: booleanInput('include-stale', false),
  };
}

function runUrl(): string | undefined {
  const { serverUrl, runId } = github.context;
  const { owner, repo } = github.context.repo;
  return Number.isFinite(runId) && runId > 0 ? `${serverUrl}/${owner}/${repo}/actions/runs/${runId}` : undefined;
}

function failureMessage(r: PrResult, failOn: FailOn): string {
  const c = r.counts;
  const parts = [`${c.errors} coherence error(s)`, `${c.warnings} warning(s)`];
  if (failOn === 'stale') parts.push(`${c.stale} stale and ${c.unstamped} unstamped governing artifact(s)`);
  return `git-ctx: the pull request introduces ${parts.join(', ')} (fail-on: ${failOn})`;
}

/**
 * The Action: resolve the pull request, make sure its history is here, analyse it with the
 * same library call as `git ctx pr`, then report through the job summary, annotations and
 * one sticky comment. Reads the repository only through git objects. Failures become
 * core.setFailed; a token that cannot comment only degrades the report.
 */
export async function run(): Promise<void> {
  try {
    const inputs = readInputs();
    if (!inputs.token) throw new Error('input github-token is empty: pass ${{ github.token }} or a token that can read the repository');
    const ctx = github.context;
    const octokit = github.getOctokit(inputs.token);
    const pr = await resolvePullRequest(octokit, { eventName: ctx.eventName, payload: ctx.payload, repo: ctx.repo });
    const workspace = process.env.GITHUB_WORKSPACE ?? process.cwd();
    const root = path.resolve(workspace, inputs.workingDirectory);
    core.info(`git-ctx: pull request #${pr.number}, base ${pr.baseSha.slice(0, 12)}, head ${pr.headSha.slice(0, 12)}`);

    const notes = await ensureHistory({ root, base: pr.baseSha, head: pr.headSha, log: (m) => core.debug(m) });
    const result = await analyzePullRequest({ cwd: root, base: pr.baseSha, head: pr.headSha, includeStale: inputs.includeStale, allowMissingMergeBase: true });
    result.limitations.unshift(...notes);

    const command = reproduceCommand(result);
    // the job summary first: it is the fallback for everything else
    const summaryText = renderPrComment(result, { marker: false, maxItems: 10_000, maxChars: SUMMARY_MAX_CHARS, command });
    await core.summary.addRaw(summaryText).write();

    const { annotations, dropped } = planAnnotations(result);
    for (const a of annotations) core[a.level](a.message, a.properties);
    if (dropped) core.info(`git-ctx: ${dropped} more annotation(s) are listed in the job summary only (GitHub shows 10 per level and step)`);

    let comment: StickyCommentResult | undefined;
    if (inputs.comment) {
      const body = renderPrComment(result, { maxItems: inputs.maxItems, maxChars: COMMENT_MAX_CHARS, summaryUrl: runUrl(), command });
      const login = await resolveLogin(octokit);
      comment = await upsertStickyComment(octokit, { ...ctx.repo, issueNumber: pr.number, login, body, create: !nothingApplies(result) });
      if (comment.action === 'forbidden') core.warning(`git-ctx: ${comment.reason}. The report is in the job summary and annotations; see the README (GitHub Action, "Pull requests from forks") for the workflow_run recipe.`);
      else core.info(`git-ctx: comment ${comment.action}${comment.url ? ` (${comment.url})` : ''}${comment.removed ? `, ${comment.removed} duplicate(s) removed` : ''}`);
    }

    core.setOutput('artifact-ids', result.artifacts.map((a) => a.id).join(','));
    core.setOutput('governing-ids', result.artifacts.filter((a) => a.inclusion === 'direct').map((a) => a.id).join(','));
    core.setOutput('stale-count', String(result.counts.stale));
    core.setOutput('unstamped-count', String(result.counts.unstamped));
    core.setOutput('error-count', String(result.counts.errors));
    core.setOutput('comment-id', comment?.id !== undefined ? String(comment.id) : '');
    core.setOutput('comment-url', comment?.url ?? '');
    core.setOutput('comment-action', comment?.action ?? 'disabled');

    if (prFails(result, inputs.failOn)) core.setFailed(failureMessage(result, inputs.failOn));
  } catch (e) {
    // known failures (CtxError: bad revision, not a repository) carry a hint; anything else is a bug: keep its stack in the log
    const hint = (e as { hint?: string } | undefined)?.hint;
    if (e instanceof Error && (e as { code?: unknown }).code === undefined && e.stack) core.info(e.stack);
    core.setFailed(e instanceof Error ? `${e.message}${hint ? ` (hint: ${hint})` : ''}` : String(e));
  }
}
