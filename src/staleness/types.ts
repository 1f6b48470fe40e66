import type { AnchorSpec } from '../code/anchors.js';
import type { AnchorOrigin } from './anchors.js';

/**
 * Drift of an artifact against its stamp (or base):
 * fresh — every anchor matches; moved — same text at another place (fixable by
 * `git ctx stamp --fix`); stale — anchored content changed, disappeared or appeared;
 * unanchored — nothing anchors it; unstamped — anchored but no stamp and no base to judge
 * from (never guessed).
 */
export type StaleStatus = 'fresh' | 'moved' | 'stale' | 'unanchored' | 'unstamped';

export const STALE_STATUSES: readonly StaleStatus[] = ['stale', 'moved', 'unstamped', 'unanchored', 'fresh'];

/** What happened to one anchor. */
export type AnchorState =
  /** fingerprint matches */
  | 'ok'
  /** content changed */
  | 'changed'
  /** same content at another location */
  | 'moved'
  /** gone (file deleted, symbol removed, glob matches nothing): a dead anchor */
  | 'removed'
  /** the path now holds a different, unrelated file (deleted, then a new file added there) */
  | 'replaced'
  /** an anchor that did not exist at the stamp/base: never verified */
  | 'added'
  /** an endpoint whose registering code cannot be found (nothing to compare) */
  | 'unresolved';

/** A commit named as evidence. */
export interface CommitRef {
  id: string;
  author: string;
  email: string;
  /** author date, ISO 8601 */
  date: string;
  subject: string;
  /** what it did to the anchor: modified, renamed, renamed+modified, deleted, added, … */
  change: string;
}

export interface AnchorVerdict {
  /** the anchor key (as stamped, or as found now for added anchors) */
  anchor: string;
  kind: AnchorSpec['kind'];
  origins: AnchorOrigin[];
  state: AnchorState;
  /** fingerprint at the stamp/base, and now */
  before?: string;
  after?: string;
  /** for moved anchors: the key where the same content is now */
  movedTo?: string;
  /** the file it is in now (after renames), when known */
  path?: string;
  /** symbols whose text changed (the anchor's own, or those inside a changed file) */
  changedSymbols?: string[];
  /** commits in the judged range that touched it, oldest first */
  commits?: CommitRef[];
  /** one-line human explanation (e.g. "deleted in abc123, then a new file added in def456") */
  note?: string;
  /** changes not committed yet that differ from HEAD: in the index (staged), in the working tree */
  uncommitted?: ('staged' | 'working tree')[];
  /** globs and directories: which files were added, removed, modified or moved since the base */
  files?: GlobFileChange[];
}

/** One file of a glob or directory anchor that changed since the base. */
export interface GlobFileChange {
  path: string;
  change: 'added' | 'removed' | 'modified' | 'moved';
  /** for moved files: where the same content was */
  from?: string;
  /** ids of the commits in the range that touched it, oldest first */
  commits: string[];
}

/**
 * How the verdict was reached. fingerprints: compared with `stamp.fingerprints`.
 * history: no fingerprints (hand-written stamp, no stamp, or --since), so the anchors were
 * fingerprinted at the base commit and compared with now.
 */
export type JudgeMethod = 'fingerprints' | 'history' | 'none';

/** Where the base of the judgement came from. */
export type BaseSource = 'stamp' | 'artifact-history' | 'since';

/** How the commit evidence was found, and how far it can be trusted. */
export type ExplanationSource =
  /** git log <stamp>..HEAD */
  | 'stamp-range'
  /** the stamp commit is unreachable (rebase, squash merge) or absent: git log since the commit that last changed the artifact file */
  | 'artifact-history'
  /** --since <rev> */
  | 'since'
  /** nothing to walk (shallow clone without the commits, no base) */
  | 'unavailable';

export interface Lifecycle {
  status?: string;
  /** the status counts as no longer in force for its type (config types.<t>.inactive) */
  inactive: boolean;
  /** computed reverse of relations.supersedes */
  supersededBy: string[];
}

/** The judgement of one artifact. */
export interface ArtifactJudgement {
  id: string;
  type: string;
  file: string;
  status: StaleStatus;
  method: JudgeMethod;
  /** the commit the anchors were compared against, with where it came from */
  base?: { commit: string; source: BaseSource };
  stamp?: { commit?: string; fingerprinted: boolean; reachable?: boolean; exists?: boolean };
  explanation: ExplanationSource;
  anchors: AnchorVerdict[];
  lifecycle: Lifecycle;
  /**
   * the verdict rests on `mentioned` anchors only (code named in a record's text, weaker
   * than declared anchors): shown as such by every front end
   */
  mentioned?: boolean;
  /** human sentences: why the history explanation degraded, which method was used, … */
  notes: string[];
}

export interface StaleReport {
  version: 1;
  /** HEAD when judged */
  head?: string;
  snapshot: { kind: string; commit?: string };
  shallow: boolean;
  /** git skipped inexact rename detection somewhere in a walked range */
  renameLimit?: { hit: true; needed?: number };
  artifacts: ArtifactJudgement[];
  counts: Record<StaleStatus, number>;
  /** report-level warnings (shallow clone, rename limit, …) */
  warnings: string[];
}
