// @spec SPEC-RETRIEVE-001

import type { ArtifactSet } from '../artifacts/load.js';
import type { CodeIndex } from '../code/code-index.js';
import type { CodeNeighbours } from '../code/neighbours.js';
import type { TraceTarget } from './trace.js';
import type { Snapshot } from '../snapshot/types.js';
import type { UngovernableReason } from '../code/ungovernable.js';

/** The lanes of the engine. `declared` is slot 1, `keywords` 2, `links` 3, `metadata` 4, `semantic` 5. */
export type LaneName = 'declared' | 'keywords' | 'mentions' | 'nearness' | 'semantic' | 'links' | 'metadata';
export const LANE_NAMES: readonly LaneName[] = ['declared', 'keywords', 'mentions', 'nearness', 'semantic', 'links', 'metadata'];

/** What each lane did: a failing or slow lane is reported and the others still answer. */
export interface LaneReport {
  /** `partial`: the lane answered without part of its evidence (e.g. the code graph failed; `message` says why) */
  status: 'ok' | 'partial' | 'failed' | 'timeout' | 'not-configured' | 'skipped';
  /** results of this lane that made it into the answer */
  count: number;
  /** the most results this lane may add (undefined: no cap of its own) */
  cap?: number;
  ms: number;
  /** why it failed or was skipped */
  message?: string;
  /** the embedder behind the lane, `provider:model` (semantic) */
  embedder?: string;
}

/** The band a result is ranked in: declared hits first, then the fused band, then links. */
export type ResultSlot = 'declared' | 'fused' | 'links';

/** One piece of evidence, for people (`text`) and programs (`kind` + fields). */
export interface Why {
  kind: 'annotation' | 'anchor' | 'paths' | 'graph' | 'keywords' | 'mention' | 'nearness' | 'semantic' | 'link' | 'successor' | 'feedback';
  text: string;
  /** signal's share of the fused score (fused band only) */
  contribution?: number;
  /** matched terms (keywords) */
  terms?: string[];
  /** the embedder that scored it, `provider:model` (semantic) */
  embedder?: string;
  /** graph path, `a.ts#f → b.ts#g` (graph) or relation chain `DEC-1 supersedes DEC-2` (link) */
  path?: string[];
}

export interface RetrievedRecord {
  id: string;
  type: string;
  title: string;
  /** the record's status as written; null when it has none (the key is always present) */
  status: string | null;
  /** the record's file, relative to the repository root */
  file: string;
  slot: ResultSlot;
  score: number;
  why: Why[];
  summary?: string;
  /** the status says it is no longer in force (only with `all`) */
  inactive?: boolean;
  /** drift since its stamp (set by front ends that judge staleness) */
  stale?: string;
  /** full body, with depth full */
  body?: string;
  /**
   * calibrated relevance in [0, 1] (fused band only, src/retrieve/floor.ts): results at or
   * above RELEVANCE_FLOOR are answers, those below are `weak`
   */
  relevance?: number;
}

export interface RetrievalResult {
  query: { kind: 'place'; place: string; path: string; line?: number; symbol?: string } | { kind: 'search'; text: string };
  results: RetrievedRecord[];
  /**
   * fused matches under the relevance floor (src/retrieve/floor.ts): not answers, shown with
   * `--all` and kept here for debugging; the engine always sets it
   */
  weak?: RetrievedRecord[];
  slots: Record<LaneName, LaneReport>;
  /**
   * a place no record can govern (a lockfile, generated or vendored code, a binary, a test
   * snapshot, `ungovernable.paths`; DEC-101): only what names it
   * answers, and the related band's matches are weak. `detail` says what classed it.
   */
  ungovernable?: { reason: UngovernableReason; detail: string };
  /** a name the search read as a file, or found naming several (NamedNote) */
  named?: NamedNote;
  /** the other words read as files, when several were (at most NAMED_WORDS in all) */
  alsoNamed?: NamedNote[];
}

/**
 * A name a search read as a file (src/retrieve/named-file.ts): a word that is no file's path but
 * ends the path of `count` files (the first few in `files`); one, and it was taken as that file,
 * more, and the words were searched as words.
 */
export interface NamedNote {
  word: string;
  files: string[];
  count: number;
}

/** Per-slot caps; `retrieval:` in config.yaml overrides them. */
export interface RetrievalCaps {
  declared: number;
  fused: number;
  links: number;
}
export const DEFAULT_CAPS: RetrievalCaps = { declared: 10, fused: 5, links: 3 };

/** The semantic slot's message for a place the keywords answered (its fallback was not needed). */
export const SEMANTIC_NOT_NEEDED = 'a fallback for places: not needed, the keywords answered';

/**
 * The lanes that failed or timed out, by name: an answer given without them is partial, shown
 * with their reports and not kept (DEC-062), since the next run may give it whole.
 */
export function unansweredLanes(slots: Partial<Record<LaneName, LaneReport>>): Partial<Record<LaneName, LaneReport>> {
  return Object.fromEntries(Object.entries(slots).filter(([, s]) => s.status === 'timeout' || s.status === 'failed'));
}

/** Metadata filters (slot 4): always applied. */
export interface RetrievalFilters {
  /** show inactive records too (marked) */
  all?: boolean;
  status?: string[];
  type?: string[];
  owner?: string[];
  /** created on or after (YYYY-MM-DD) */
  since?: string;
  domain?: string[];
  scope?: string[];
  /** source format (contextia, adr) or provenance source (ai_chat, meeting, manual) */
  source?: string[];
}

/**
 * A lane the semantic issue fills: similarity of records to a text. Undefined in the
 * options = slot 5 reports itself not configured and the others answer.
 */
export interface SemanticLane {
  readonly name: string;
  /** the embedder behind it, `provider:model` (e.g. `openai:text-embedding-3-small`), recorded in results */
  readonly embedder?: string;
  /** similarity in [0, 1] of the best records to a text, best first */
  similar(text: string, ids: readonly string[], limit: number): Promise<{ id: string; score: number }[]>;
}

/** A typed reference to what a lane found; results are fused by it (today lanes find records). */
export interface LaneRef {
  kind: 'artifact';
  id: string;
}

/** One answer of a lane: what, how strongly (in the lane's own scale), and the evidence. */
export interface LaneHit {
  ref: LaneRef;
  score: number;
  why: Why[];
  /**
   * evidence on the calibrated scale in [0, 1] (floor.ts): how much of the query this hit
   * accounts for; the fused band's best evidence decides whether anything is an answer
   */
  evidence?: number;
  /** the evidence left when the semantic lane does not find this record too (floor.ts textEvidence `unconfirmed`, DEC-106) */
  unconfirmed?: number;
}

/** What a lane is asked: a place in the code (with the code there), or a text (with a file it names, if any). */
export type LaneQuery =
  | { kind: 'place'; target: TraceTarget; path: string; symbol?: string; code(): Promise<string> }
  /** `fileTerms`: terms of the words that name files of the tree (named-file.ts), which count only when matched */
  | { kind: 'text'; text: string; place?: TraceTarget; fileTerms?: string[] };

/** What lanes share: the snapshot and records, the code index and graph (built once, on demand). */
export interface LaneContext {
  snapshot: Snapshot;
  set: ArtifactSet;
  index(): Promise<CodeIndex>;
  neighbours(): Promise<CodeNeighbours | undefined>;
  semantic?: SemanticLane;
  /** candidates a fused lane returns at most */
  pool: number;
}

/**
 * A retrieval lane: every slot runs behind this one interface. Hits come back best first;
 * a lane that answers without part of its evidence returns `partial` with the reason. A lane
 * that throws or does not answer within the time budget is reported in `slots` and the
 * others' answers are still ranked and returned.
 */
export interface RetrievalLane {
  readonly name: LaneName;
  run(query: LaneQuery, ctx: LaneContext): Promise<LaneHit[] | { hits: LaneHit[]; partial?: string }>;
}

/** Lanes that can be replaced (tests inject failing ones; another provider can stand in). */
export type ReplaceableLane = 'declared' | 'keywords' | 'mentions' | 'nearness' | 'semantic';

export interface RetrieveOptions {
  /** replace built-in lanes (same name, same scale of scores) */
  lanes?: Partial<Record<ReplaceableLane, RetrievalLane>>;
  snapshot: Snapshot;
  set: ArtifactSet;
  /** the code index (annotations, symbols); built on demand when absent */
  index?: CodeIndex;
  /** the code graph; a default TypeScript provider when absent */
  neighbours?: CodeNeighbours | false;
  semantic?: SemanticLane;
  caps?: Partial<RetrievalCaps>;
  filters?: RetrievalFilters;
  /** link hops from the hits (default 1) */
  linkDepth?: number;
  /** include summaries (default) or bodies too */
  depth?: 'summary' | 'full';
  /** judge staleness of the results (default true) */
  staleness?: boolean;
  /** time budget of the semantic lane and of lanes put in place by the caller, ms (default 5000); the built-in lanes that compute in this process get 120 s (engine.ts) */
  laneTimeoutMs?: number;
  /**
   * feedback ranking within slots (src/retrieve/feedback-rank.ts): a profile to rank with,
   * `false` for none; by default the evidence store's when `retrieval.feedback_ranking` is on
   */
  feedback?: import('./feedback-rank.js').FeedbackProfile | false;
  /** with `feedback`: leave out this episode's own votes (eval replays) */
  feedbackExclude?: string;
}
