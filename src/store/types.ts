// @spec SPEC-STORE-001

/** Who ran the retrieval an episode records. */
export type CallerKind = 'cli' | 'mcp' | 'hook' | 'action';
/** What a piece of evidence is. */
export type EvidenceKind = 'path' | 'symbol' | 'commit' | 'artifact' | 'task' | 'session' | 'run' | 'tool_call' | 'payload';
export const EVIDENCE_KINDS: readonly EvidenceKind[] = ['path', 'symbol', 'commit', 'artifact', 'task', 'session', 'run', 'tool_call', 'payload'];
/** How firmly it is grounded: read as text, found in an index, by meaning, by inference, checked. */
export type Grounding = 'loaded' | 'indexed' | 'semantic' | 'inferred' | 'validated';
export type Verdict = 'useful' | 'not-useful' | 'missing';

export interface EvidenceRef {
  kind: EvidenceKind;
  value: string;
  grounding: Grounding;
  /** 1-based position in the answer */
  rank: number;
  /** the retrieval band or slot it came from (declared, fused, links, bundle…) */
  slot?: string;
}

/**
 * A reference that frames or supports an answer rather than being part of it (`Episode.refs`):
 * `query` — the place asked (path, and symbol when one was named or found), rank 0;
 * `via` — code a result was found through (the graph neighbour whose annotation or anchor
 * declared it), with `of` the result it supports and `rank` that result's rank;
 * `context` — commit, session, run, tool_call of the call, rank 0.
 */
export interface SupportRef extends EvidenceRef {
  role: 'query' | 'via' | 'context';
  /** for `via`: the artifact or task it supports */
  of?: string;
}

export interface LaneRecord {
  name: string;
  status: string;
  count: number;
  ms: number;
  message?: string;
}

export interface EpisodeQuery {
  /** place (for, trace, hooks), search (a question), bundle (a task's context), pr, ids (MCP get_context) */
  kind: 'place' | 'search' | 'bundle' | 'pr' | 'ids';
  text?: string;
  /** repository-relative path of the place, when the query has one */
  place?: string;
}

/** One retrieval as it was answered. Append-only. */
export interface Episode {
  id: string;
  /** ms since the epoch */
  at: number;
  caller: { kind: CallerKind; session?: string; command?: string };
  commit?: string;
  /** the work tree had changes not committed (undefined: not known) */
  dirty?: boolean;
  query: EpisodeQuery;
  lanes: LaneRecord[];
  evidence: EvidenceRef[];
  /** what frames or supports the answer: the place asked, the code results were found through, run and tool_call (commit and session are columns, added when read) */
  refs?: SupportRef[];
  /** how long the retrieval took */
  ms?: number;
}

export interface FeedbackEntry {
  id: number;
  episode: string;
  at: number;
  verdict: Verdict;
  /** the evidence value judged (an artifact id, a path…) */
  ref: string;
  note?: string;
  /** cli or mcp (with its session) */
  source: string;
}

export interface Edge {
  src_kind: string;
  src: string;
  dst_kind: string;
  dst: string;
  /** relation: governs, anchors, paths, requires, supersedes… */
  kind: string;
}
export interface StoredEdge extends Edge {
  /** what produced it (an artifact file, the code graph of a file): refreshed as one unit */
  origin: string;
}

export interface Marker {
  artifact: string;
  anchor: string;
  verdict: string;
  commit?: string;
  dirty?: boolean;
  /** ms since the epoch; the store's clock when absent */
  at?: number;
  /** the staleness run that produced it */
  run: string;
}
