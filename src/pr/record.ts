// @spec SPEC-STORE-001

import { recordConfiguredAt, recordsAsEvidence, startEpisode } from '../store/record.js';
import { recordingEnabled } from '../store/journal.js';
import type { Episode } from '../store/types.js';
import type { PrResult } from './types.js';

/**
 * Record a pull request analysis (caller action in the GitHub Action, cli for `git ctx pr`):
 * commit to commit, so never dirty. Like the analysis, it follows the configuration committed
 * at the PR head: `record: false` there (or GIT_CTX_NO_RECORD=1) records nothing.
 */
export async function recordPrAnalysis(root: string, r: PrResult, caller: Episode['caller'], opts: { env?: NodeJS.ProcessEnv; ms?: number; record?: boolean } = {}): Promise<string | undefined> {
  const env = opts.env ?? process.env;
  if (!recordingEnabled(env)) return undefined;
  const record = opts.record ?? (await recordConfiguredAt(root, r.head.commit));
  if (record === false) return undefined;
  const evidence = recordsAsEvidence(r.artifacts.map((a) => ({ id: a.id, type: a.type, slot: a.inclusion, grounding: a.inclusion === 'direct' ? ('indexed' as const) : ('inferred' as const) })));
  // in the GitHub Action, the workflow run (and its attempt) that analysed the PR
  const run = caller.kind === 'action' && env.GITHUB_RUN_ID ? `${env.GITHUB_RUN_ID}${env.GITHUB_RUN_ATTEMPT ? `/${env.GITHUB_RUN_ATTEMPT}` : ''}` : undefined;
  return startEpisode(root, { caller, env, probe: false, ...(run ? { context: { run } } : {}) }).finish({ query: { kind: 'pr', text: `${r.base.rev}...${r.head.rev}` }, commit: r.head.commit, dirty: false, evidence, ...(opts.ms === undefined ? {} : { ms: Math.round(opts.ms * 10) / 10 }) });
}
