import * as core from '@actions/core';
import * as github from '@actions/github';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { CtxError } from '../errors.js';
import { closeMatches } from '../util/close-match.js';
import { plural } from '../util/plural.js';
import { analyzePullRequest } from '../pr/analyze.js';
import { fetchPinnedSources, tokenAuth } from './sources.js';
import { recordPrAnalysis } from '../pr/record.js';
import { COMMENT_MAX_CHARS, SUMMARY_MAX_CHARS, nothingApplies, prFails, renderPrComment, reproduceCommand } from '../pr/render.js';
import type { FailOn, PrResult } from '../pr/types.js';
import { planAnnotations } from './annotations.js';
import { upsertStickyComment, type StickyCommentResult } from './comment.js';
import { postStampSuggestions } from './suggestions.js';
import { ensureHistory } from './fetch.js';
import { artifactUrl, mapSummary, uploadWithActionsArtifact, writeActionMap, type ArtifactUploader } from './map.js';
import { resolveLogin, resolveTarget } from './github.js';
import { now } from '../util/timing.js';

/** The Action's inputs, parsed (see action.yml). */
export interface ActionInputs {
  token: string;
  /** the token git sources are fetched with (input sources-token; default: github-token) */
  sourcesToken: string;
  workingDirectory: string;
  comment: boolean;
  failOn: FailOn;
  maxItems: number;
  includeStale: boolean;
  /** write the decision map of the head commit and attach it to the run */
  map: boolean;
}

/** A wrong input: reported as one line (no stack), naming the input and the accepted values. */
function inputError(name: string, expected: string, got: string, choices: string[] = []): CtxError {
  const near = choices.length ? closeMatches(got, choices, 1) : [];
  return new CtxError('USAGE', `input ${name} must be ${expected} (got ${JSON.stringify(got)})${near.length ? `; did you mean ${near[0]}?` : ''}`);
}

function booleanInput(name: string, def: boolean): boolean {
  const v = core.getInput(name).trim().toLowerCase();
  if (!v) return def;
  if (['true', 'yes', 'on', '1'].includes(v)) return true;
  if (['false', 'no', 'off', '0'].includes(v)) return false;
  throw inputError(name, 'true or false', v, ['true', 'false']);
}

/** Read and validate the inputs; defaults match action.yml so a bare environment works too. */
export function readInputs(): ActionInputs {
  const levels = ['error', 'warning', 'stale', 'never'];
  const failOn = (core.getInput('fail-on').trim() || 'error') as FailOn;
  if (!levels.includes(failOn)) throw inputError('fail-on', 'error, warning, stale or never', failOn, levels);
  const maxRaw = core.getInput('max-items').trim() || '50';
  const maxItems = Number(maxRaw);
  if (!/^\d+$/.test(maxRaw) || !Number.isSafeInteger(maxItems)) throw inputError('max-items', 'a non-negative integer', maxRaw);
  const workingDirectory = core.getInput('working-directory').trim() || '.';
  const workspace = process.env.GITHUB_WORKSPACE ?? process.cwd();
  const root = path.resolve(workspace, workingDirectory);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw inputError('working-directory', `a directory inside the workspace (${workspace})`, workingDirectory);
  const token = core.getInput('github-token').trim();
  if (!token) throw new CtxError('USAGE', 'input github-token is empty: pass ${{ github.token }} or a token that can read the repository');
  return {
    token,
    sourcesToken: core.getInput('sources-token').trim() || token,
    workingDirectory,
    comment: booleanInput('comment', true),
    failOn,
    maxItems,
    includeStale: booleanInput('include-stale', false),
    map: booleanInput('map', false),
  };
}

function runUrl(): string | undefined {
  const { serverUrl, runId } = github.context;
  const { owner, repo } = github.context.repo;
  return Number.isFinite(runId) && runId > 0 ? `${serverUrl}/${owner}/${repo}/actions/runs/${runId}` : undefined;
}

/** A record file on GitHub at the commit the comment is about (the merge base for a removed record), path segments encoded. */
function recordUrlOf(r: PrResult): (file: string, side: 'head' | 'base') => string {
  const { serverUrl } = github.context;
  const { owner, repo } = github.context.repo;
  return (file, side) => `${serverUrl}/${owner}/${repo}/blob/${side === 'head' ? r.head.commit : r.mergeBase}/${file.split('/').map((seg) => encodeURIComponent(seg).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)).join('/')}`;
}

/**
 * Write the decision map of the head commit, upload it as a workflow artifact and link it
 * from the job summary. A map that cannot be built or uploaded is a warning, never a
 * failed job: the pull-request report stands on its own.
 */
async function attachMap(root: string, head: string, upload: ArtifactUploader): Promise<void> {
  core.setOutput('map-path', '');
  core.setOutput('map-artifact-id', '');
  let m;
  try {
    m = await writeActionMap({ root, rev: head });
  } catch (e) {
    core.warning(`git-ctx: the decision map was not written: ${(e as Error).message}`);
    return;
  }
  for (const w of m.warnings) core.info(`git-ctx: map: ${w}`);
  core.setOutput('map-path', m.path);
  core.info(`git-ctx: decision map written to ${m.path}`);
  const base = runUrl();
  let link: { id?: number; url?: string; error?: string };
  try {
    const { id } = await upload(m.path);
    core.setOutput('map-artifact-id', String(id));
    link = { id, url: base ? artifactUrl(base, id) : undefined };
    core.info(`git-ctx: decision map uploaded as artifact ${id}${link.url ? ` (${link.url})` : ''}`);
  } catch (e) {
    link = { error: (e as Error).message.split('\n')[0] };
    core.warning(`git-ctx: the decision map was written but not uploaded: ${link.error}`);
  }
  await core.summary.addRaw(mapSummary(m, link)).write();
}

function failureMessage(r: PrResult & { target?: string }, failOn: FailOn): string {
  const c = r.counts;
  const parts = [plural(c.errors, 'coherence error'), plural(c.warnings, 'warning')];
  if (failOn === 'stale') parts.push(`${c.stale} stale and ${c.unstamped} unstamped governing ${c.stale + c.unstamped === 1 ? 'artifact' : 'artifacts'}`);
  return `git-ctx: the ${r.target ?? 'pull request'} introduces ${parts.join(', ')} (fail-on: ${failOn})`;
}

/**
 * The Action: resolve the pull request, make sure its history is here, analyse it with the
 * same library call as `git ctx pr`, then report through the job summary, annotations and
 * one sticky comment. Reads the repository only through git objects. Failures become
 * core.setFailed; a token that cannot comment only degrades the report.
 */
export async function run(opts: { upload?: ArtifactUploader } = {}): Promise<void> {
  try {
    const inputs = readInputs();
    const ctx = github.context;
    const octokit = github.getOctokit(inputs.token);
    const target = await resolveTarget(octokit, { eventName: ctx.eventName, payload: ctx.payload, repo: ctx.repo });
    if (target.kind === 'skip') {
      core.notice(target.message);
      core.setOutput('comment-action', 'disabled');
      return;
    }
    const workspace = process.env.GITHUB_WORKSPACE ?? process.cwd();
    const root = path.resolve(workspace, inputs.workingDirectory);
    const pr = target.kind === 'pull-request' ? target.pr : undefined;
    const base = pr ? pr.baseSha : target.kind === 'range' ? target.base : '';
    const head = pr ? pr.headSha : target.kind === 'range' ? target.head : '';
    core.info(`git-ctx: ${pr ? `pull request #${pr.number}` : target.kind === 'range' ? target.label : ''}, base ${base.slice(0, 12)}, head ${head.slice(0, 12)}`);

    const notes = await ensureHistory({ root, base, head, log: (m) => core.debug(m) });
    // other repositories' records the lock pins, fetched with the token (DEC-061)
    for (const line of await fetchPinnedSources(root, [base, head], tokenAuth(inputs.sourcesToken))) core.info(line);
    const t0 = now();
    const result = await analyzePullRequest({ cwd: root, base, head, includeStale: inputs.includeStale, allowMissingMergeBase: true, title: pr?.title, body: pr?.body });
    await recordPrAnalysis(root, result, { kind: 'action', command: 'pr' }, { ms: now() - t0 });
    result.limitations.unshift(...notes);

    const command = reproduceCommand(result);
    // the job summary first: it is the fallback for everything else
    // the job summary carries the full list (the comment points to it): every row, within GitHub's 1 MiB
    const summaryText = renderPrComment(result, { marker: false, maxItems: Number.MAX_SAFE_INTEGER, maxChars: SUMMARY_MAX_CHARS, command, recordUrl: recordUrlOf(result) });
    await core.summary.addRaw(summaryText).write();

    const { annotations, dropped } = planAnnotations(result);
    for (const a of annotations) core[a.level](a.message, a.properties);
    if (dropped) core.info(`git-ctx: ${dropped} more annotation(s) are listed in the job summary only (GitHub shows 10 per level and step)`);

    let comment: StickyCommentResult | undefined;
    if (!pr) core.info(`git-ctx: ${ctx.eventName} event: no pull request to comment on; the report is in the job summary and annotations`);
    if (inputs.comment && pr) {
      const body = renderPrComment(result, { maxItems: inputs.maxItems, maxChars: COMMENT_MAX_CHARS, summaryUrl: runUrl(), command, recordUrl: recordUrlOf(result) });
      const login = await resolveLogin(octokit);
      comment = await upsertStickyComment(octokit, { ...ctx.repo, issueNumber: pr.number, login, body, create: !nothingApplies(result) });
      if (comment.action === 'forbidden') core.warning(`git-ctx: ${comment.reason}. The report is in the job summary and annotations; see docs/action.md ("Pull requests from forks") for the workflow_run recipe.`);
      else core.info(`git-ctx: comment ${comment.action}${comment.url ? ` (${comment.url})` : ''}${comment.removed ? `, ${comment.removed} duplicate(s) removed` : ''}`);
      // stamps the author can apply in one click: review comments on the stamp's lines
      if (comment.action !== 'forbidden' && result.madeStale?.length) {
        const s = await postStampSuggestions(octokit, { ...ctx.repo, pullNumber: pr.number, headSha: pr.headSha, login, items: result.madeStale });
        if (s.posted || s.kept || s.removed) core.info(`git-ctx: stamp suggestions: ${s.posted} posted, ${s.kept} unchanged, ${s.removed} outdated removed`);
        for (const p of s.problems) core.warning(`git-ctx: ${p}; the suggestion stays in the comment`);
      }
    }

    if (inputs.map) await attachMap(root, head, opts.upload ?? uploadWithActionsArtifact);

    core.setOutput('artifact-ids', result.artifacts.map((a) => a.id).join(','));
    core.setOutput('governing-ids', result.artifacts.filter((a) => a.inclusion === 'direct').map((a) => a.id).join(','));
    core.setOutput('stale-count', String(result.counts.stale));
    core.setOutput('unstamped-count', String(result.counts.unstamped));
    core.setOutput('error-count', String(result.counts.errors));
    core.setOutput('comment-id', comment?.id !== undefined ? String(comment.id) : '');
    core.setOutput('comment-url', comment?.url ?? '');
    core.setOutput('comment-action', comment?.action ?? 'disabled');

    if (prFails(result, inputs.failOn)) core.setFailed(failureMessage({ ...result, target: pr ? 'pull request' : target.kind === 'range' ? target.label : undefined }, inputs.failOn));
  } catch (e) {
    // known failures (CtxError: a wrong input, bad revision, not a repository) are one line with
    // their hint; anything else is a bug: keep its stack in the debug log, not in the output
    const hint = (e as { hint?: string } | undefined)?.hint;
    if (e instanceof Error && (e as { code?: unknown }).code === undefined && e.stack) core.debug(e.stack);
    core.setFailed(e instanceof Error ? `${e.message}${hint ? ` (hint: ${hint})` : ''}` : String(e));
  }
}
