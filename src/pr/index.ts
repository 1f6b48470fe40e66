/**
 * The pull-request analysis behind `git ctx pr` and the GitHub Action: what governs the
 * code a PR changes, what it leaves stale or unstamped, and what coherence findings it
 * introduces — computed locally from git objects, rendered by front ends.
 */
export { analyzePullRequest, innermostAnnotations, type AnalyzePullRequestOptions } from './analyze.js';
export { diffPullRequest, findMergeBase, parseRawPatch, parseHunkHeader, unquoteGitPath, type ChangedFile, type ChangeStatus, type Hunk, type PrDiff, type DiffOptions } from '../git/diff.js';
export { code, escapeText, truncate, annotationText } from './escape.js';
export {
  COMMENT_MARKER,
  COMMENT_MAX_CHARS,
  SUMMARY_MAX_CHARS,
  PR_RENDERERS,
  nothingApplies,
  prFails,
  renderPrComment,
  renderPrJson,
  reproduceCommand,
  type PrFormat,
  type RenderPrOptions,
} from './render.js';
export type { FailOn, GovernanceMatch, Inclusion, PrArtifact, PrFile, PrLocation, PrResult, PrStaleness, UnstampedChange } from './types.js';
export type { MadeStale, StampSuggestion } from './stale.js';
export type { UngovernableFile } from './ungoverned.js';
