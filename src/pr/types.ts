import type { Finding } from '../check/types.js';
import type { ZeroConfig } from '../config.js';
import type { ChangeStatus } from '../git/diff.js';
import type { PrProposal } from '../authoring/pr-proposals.js';
import type { UngovernableFile } from '../code/ungovernable.js';
import type { MadeStale } from './stale.js';

export type { PrProposal };

/** How an artifact came to be listed for a pull request. */
export type Inclusion =
  /** it governs code the PR changes (annotation, anchor or paths glob) */
  | 'direct'
  /** the PR adds or edits the artifact file itself */
  | 'edited'
  /** a governing artifact `requires` it (transitively) */
  | 'required'
  /** one relation away from a governing artifact (supersedes, depends_on, …, or their reverse) */
  | 'related'
  /** its text mentions a changed file (weaker evidence than governing it) */
  | 'mentioned'
  /** stale at head, not touched by the PR (only with includeStale) */
  | 'stale-elsewhere';

/** One way changed code is governed by an artifact. */
export interface GovernanceMatch {
  via: 'annotation' | 'anchor' | 'paths' | 'mention';
  /** changed file (head path; base path for deletions) */
  file: string;
  /** the innermost anchored symbol the change touches */
  symbol?: string;
  /** the anchor or glob as written in the artifact, for anchor and paths matches */
  pattern?: string;
  /** annotation tag (spec, decision, …) */
  tag?: string;
  /** where the anchored code is at head, when it still exists: lines for annotations */
  line?: number;
  endLine?: number;
  /** the match was found in the merge base (deleted code, removed annotation) */
  side: 'head' | 'base';
}

/** An anchor whose code the PR changes while the artifact's stamp stays behind. */
export interface UnstampedChange {
  anchor: string;
  change: 'changed' | 'moved' | 'removed';
  path?: string;
  symbol?: string;
  line?: number;
  movedTo?: string;
}

/** Staleness of an artifact at head, as judged by the staleness engine. */
export interface PrStaleness {
  status: 'fresh' | 'moved' | 'stale' | 'unanchored' | 'unstamped';
  /** anchors that are not ok, with the last commit that touched each */
  anchors: { anchor: string; state: string; movedTo?: string; commits: number; last?: { id: string; author: string }; mentioned?: boolean }[];
  /** the verdict rests on code the record only mentions in its text (weaker than declared anchors) */
  mentioned?: boolean;
}

/** An artifact listed in the PR report. */
export interface PrArtifact {
  id: string;
  type: string;
  title: string;
  status?: string;
  summary?: string;
  /** artifact file at head ('' when it exists only at base) */
  file: string;
  inclusion: Inclusion;
  /** how it governs the changed code (direct), or where its text mentions it (mentioned) */
  matches: GovernanceMatch[];
  /** for required/related: which listed artifact led here and over which edge */
  via?: { from: string; edge: string };
  /** its type counts this status as no longer in force (superseded, deprecated, …) */
  inactive: boolean;
  /** superseded: the record in force that replaces it (the end of its superseded-by chain) */
  successor?: { id: string; title?: string; status?: string; via: string[] };
  staleness?: PrStaleness;
  /** the PR changes its anchored code without re-stamping it */
  unstamped: UnstampedChange[];
}

/** A changed file, in brief. */
export interface PrFile {
  path: string;
  oldPath?: string;
  status: ChangeStatus;
  binary: boolean;
  hunks: number;
  /** ids of the artifacts that govern it */
  governedBy: string[];
  /** records retrieval finds for it beyond the declared ones (keywords, mentions): weaker, listed apart */
  alsoRelevant?: { id: string; type: string; title: string; status?: string; why: string }[];
}

/** Where in a pull request a record was brought in: a changed file and its line ranges (head lines; base lines for a deleted file; none for a whole-file match). */
export interface PrPlace {
  path: string;
  lines: [number, number][];
}

/**
 * One decision in the pull request's ranked list, strongest first: declared governance
 * (annotations, anchors, `paths`) before what retrieval over the change finds above its floor.
 * Only records that stand before the change (at the merge base) govern it: one the PR adds is
 * news, listed in `recordChanges`, never here (DEC-080). Each record once, with the places that
 * brought it in.
 */
export interface PrRanked {
  id: string;
  type: string;
  title: string;
  status?: string;
  /** record file at head ('' when it exists only at base) */
  file: string;
  /** declared: an annotation, anchor or `paths` of it covers changed code; retrieved: the change's words, paths or description find it */
  strength: 'declared' | 'retrieved';
  /** the pull request also edits (or removes) this record's file: its text at head is the PR's (absent otherwise) */
  editedHere?: boolean;
  /** strength within its band (declared: how much of the change it governs; retrieved: relevance, the floor being 1) */
  score: number;
  /** one line: why it is listed */
  why: string;
  places: PrPlace[];
  /** its type counts its status as no longer in force */
  inactive: boolean;
}

/** A record file the pull request adds, edits or removes: news for the reviewer, apart from what governs the change (DEC-080). */
export interface PrRecordChange {
  id: string;
  type: string;
  title: string;
  status?: string;
  /** record file at head (at the merge base for a removed record) */
  file: string;
  change: 'added' | 'edited' | 'removed';
  /** the record also governs the change: it is in `ranked` too, marked `editedHere` (absent otherwise); front ends say it once, here (DEC-084) */
  alsoRanked?: true;
}

/** What the change retrieval read and left out (ungovernable files are not scored). */
export interface PrRetrieval {
  /** changed files whose lines were read */
  read: number;
  /** changed files not read, and why (binary, lockfile, generated, record) */
  skipped: { path: string; reason: string }[];
  /** records found under the floor, not listed */
  belowFloor: number;
  /** where the description came from: the --title/--body given, or the commit messages of the range */
  description: 'given' | 'commits' | 'none';
}

/** A place at head where changed, governed code sits: the target of a GitHub annotation. */
export interface PrLocation {
  file: string;
  line: number;
  endLine: number;
  symbol?: string;
  ids: string[];
  /** warning when an id on it is stale or changed without re-stamping; notice otherwise */
  level: 'warning' | 'notice';
  message: string;
}

/** Everything the PR bot says, as data. */
export interface PrResult {
  version: 1;
  base: { rev: string; commit: string };
  head: { rev: string; commit: string };
  /** the commit the PR is compared with (merge base of base and head) */
  mergeBase: string;
  files: PrFile[];
  /** the decisions that govern this pull request's change, strongest first, each once (empty: no record governs the change) */
  ranked: PrRanked[];
  /** the record files this pull request adds, edits or removes, by id (empty when none) */
  recordChanges: PrRecordChange[];
  /** what retrieval over the change read */
  retrieval: PrRetrieval;
  artifacts: PrArtifact[];
  locations: PrLocation[];
  coherence: {
    /** findings at head that the merge base did not have */
    introduced: Finding[];
    /** findings the PR fixed (present at the merge base, gone at head) */
    resolved: number;
    /** rules that failed to run, at head */
    ruleErrors: { rule: string; message: string }[];
  };
  counts: {
    files: number;
    governed: number;
    direct: number;
    stale: number;
    unstamped: number;
    errors: number;
    warnings: number;
  };
  /** what could not be judged, and why (shallow history, rename limit, unreadable files) */
  limitations: string[];
  /** the head has no config file: the records folders read as `git ctx for` reads them without one (absent otherwise, or when none was found) */
  zeroConfig?: ZeroConfig;
  /** decisions added by the PR that resemble an active decision (absent when none) */
  similarDecisions?: PrSimilarDecision[];
  /** records proposed in the PR (e.g. by an agent through propose_decision), to confirm or reject (absent when none) */
  proposals?: PrProposal[];
  /** changed files no record can govern (lockfiles, generated, vendored, binaries, snapshots, `ungovernable.paths`): counted, never scored, not in `files` (absent when none) */
  ungovernable?: UngovernableFile[];
  /** records whose anchored code the PR changes without re-stamping, with the commands that settle each (absent when none) */
  madeStale?: MadeStale[];
}

/** A decision the PR adds and the active decisions it resembles (similarity ≥ semantic.conflict_threshold). */
export interface PrSimilarDecision {
  id: string;
  title: string;
  file: string;
  similar: { id: string; title: string; similarity: number }[];
}

/** Front-end failure policy: the lowest kind of finding that fails the job (or exit 1). */
export type FailOn = 'error' | 'warning' | 'stale' | 'never';
