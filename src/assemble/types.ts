import type { Depth, Scope } from '../artifacts/types.js';
import type { Successor } from '../staleness/lifecycle.js';

/** Bumped whenever the JSON shape of a bundle or a manifest changes incompatibly. */
export const BUNDLE_SCHEMA_VERSION = 1;

/** Output formats of a bundle. `context` is the compact one meant for models. */
export type BundleFormat = 'context' | 'markdown' | 'json';
export const BUNDLE_FORMATS: readonly BundleFormat[] = ['context', 'markdown', 'json'];

/**
 * A staleness mark on a bundle entry. Filled by the staleness engine through
 * `AssembleOptions.staleness`; assembly itself never judges drift.
 */
export interface StaleMark {
  /** fresh | moved | stale | unanchored | unstamped (the staleness engine's vocabulary) */
  state: string;
  /** one line shown to the model, e.g. "3 commits touched generator.ts since the stamp" */
  summary?: string;
  /** anything else the engine wants to carry in JSON (kept out of the text formats) */
  detail?: Record<string, unknown>;
}

/** Why an artifact is in the bundle. */
/** `related`: not linked, found by retrieval for the root's paths (`--related N`), listed last. */
export type EntryRole = 'identity' | 'root' | 'linked' | 'related';

/** One artifact as included in a bundle. */
export interface BundleEntry {
  id: string;
  type: string;
  title: string;
  status?: string;
  scope: Scope;
  domain?: string;
  summary?: string;
  /** repository path of the artifact file (`~global/…` for global artifacts, `~source@commit/…` for a git source's) */
  file: string;
  /** git blob id of the file's bytes (content hash for global artifacts) */
  blob: string;
  origin: 'repo' | 'federated' | 'global';
  role: EntryRole;
  /** hops from the root along links/requires; 0 for the root, null for an unlinked identity */
  distance: number | null;
  /** linked straight from the root */
  direct: boolean;
  /** shortest link chain from the root (ties broken by id), root first, this id last */
  chain: string[];
  /** edge label for each hop of `chain` (links.specs, requires, …); one shorter than chain */
  via: string[];
  /** hops left out of `chain` between the root and chain[1]: long chains keep the root and their last hops */
  elided?: number;
  /** the chain as one line, e.g. "TASK-042 → SPEC-BILLING-001 (links.specs)" */
  why: string;
  /** depth asked for (--depth) */
  requestedDepth: Depth;
  /** depth given after budgeting */
  depth: Depth;
  /** tokens of this entry's `context` section at `depth` */
  tokens: number;
  /** frontmatter (stamp removed) */
  meta: Record<string, unknown>;
  /** for a superseded record: the record in force that replaces it (see successorOf) */
  successor?: Successor;
  /** body text at `depth` ('' at meta), duplicate title heading removed */
  body: string;
  paths: string[];
  anchors: string[];
  /** set by the staleness engine (AssembleOptions.staleness); absent when not judged */
  stale?: StaleMark;
}

/** Something the budget lowered or dropped, and why. */
export interface Adjustment {
  id: string;
  type: string;
  action: 'lowered' | 'dropped';
  from: Depth;
  /** depth given (lowered only) */
  to?: Depth;
  /** tokens before → after (after is 0 when dropped) */
  tokensBefore: number;
  tokensAfter: number;
  direct: boolean;
  why: string;
  reason: string;
}

/** A problem met while assembling that did not stop it (missing link target, inactive artifact, …). */
export interface BundleWarning {
  code: 'missing-link' | 'inactive' | 'no-identity' | 'duplicate-id';
  id: string;
  message: string;
}

/** The options that shape a bundle's content; recorded in headers and manifests. */
export interface BundleOptions {
  depth: Depth;
  budget: number | null;
  encoding: string;
  maxDepth: number | null;
  global: boolean;
  /** records retrieved for the root's paths, after the linked ones (absent: none) */
  related?: number;
}

export interface BundleHeader {
  schemaVersion: number;
  tool: { name: 'git-ctx'; version: string };
  /** the id the bundle was assembled for */
  root: string;
  /** commit the content comes from (HEAD for the working tree); null in a repository without commits */
  commit: string | null;
  /** something read differs from `commit` (working tree or index edits) */
  dirty: boolean;
  /** the files that differ, sorted */
  dirtyFiles: string[];
  options: BundleOptions;
  /** content hashes of included global artifacts (outside the commit), by file */
  global: Record<string, string>;
  /**
   * the git sources of included federated records (DEC-061): per source its upstream, ref, the
   * full pinned commit and the ids it gave (absent when none is included)
   */
  sources?: Record<string, { git: string; ref: string; commit: string; records: string[] }>;
  /** "sha256:<hex>" over the content (entries, adjustments, warnings, paths, anchors) */
  digest: string;
}

export interface BundleTotals {
  entries: number;
  /** sum of entry tokens */
  tokens: number;
  budget: number | null;
  lowered: number;
  dropped: number;
}

/** A context bundle: data only; render it with `renderBundle`. */
export interface Bundle {
  header: BundleHeader;
  entries: BundleEntry[];
  adjustments: Adjustment[];
  warnings: BundleWarning[];
  /** union of the included artifacts' `paths`, sorted */
  paths: string[];
  /** union of the included artifacts' `anchors`, sorted */
  anchors: string[];
  totals: BundleTotals;
}
