// @spec SPEC-IMPACT-001

/**
 * Kinds of node an impact edge joins: an artifact (by id), a symbol (`path#Name`), or a
 * path entry (a file, a directory or a glob, matched like `paths:`).
 */
export type ImpactNodeKind = 'artifact' | 'symbol' | 'path';

/**
 * Kinds of edge. Artifact → code: `anchor` (declared anchor), `annotation` (`@spec` in the
 * code), `paths` (a `paths:` entry), `mentioned` (named in a record's text: weaker).
 * Artifact → artifact: `link`, `requires` and the relation kinds. Code → code edges
 * (`imports`, `calls`) are read from the code graph's own index when a walk needs them.
 */
export type ImpactEdgeKind = 'anchor' | 'annotation' | 'paths' | 'mentioned' | 'link' | 'requires' | 'supersedes' | 'depends_on' | 'conflicts_with' | 'caused_by' | 'co_decided' | 'amends' | 'clarifies' | 'relates_to' | 'imports' | 'calls';

/** One stored edge, in the evidence store's column order. `origin` is the file it was read from. */
export interface ImpactEdge {
  srcKind: ImpactNodeKind;
  src: string;
  dstKind: ImpactNodeKind;
  dst: string;
  kind: ImpactEdgeKind;
  /** repository path of the artifact or code file the edge was read from */
  origin: string;
}

/** Weaker evidence: shown, but marked and never counted as declared. */
export const WEAK_KINDS: ReadonlySet<ImpactEdgeKind> = new Set(['mentioned']);

/** A node of an answer. Code nodes are `file` (a repository path) or `symbol` (`path#Name`). */
export interface ImpactNode {
  kind: 'artifact' | 'file' | 'symbol';
  id: string;
}

/** One step of the path from the query to a result, as written (`from kind to`). */
export interface ImpactStep {
  from: string;
  kind: ImpactEdgeKind | 'contains' | 'imported_by' | 'called_by';
  to: string;
  /** the step walks an edge against its written direction (e.g. a record that requires the one asked about) */
  reverse?: boolean;
  /** the written target when it is not the node itself: a glob or directory covering a file, the symbol in a file, the file holding a symbol */
  via?: string;
  /** where it was read (artifact file:line, code file:line) */
  where?: string;
}

/** The latest staleness verdict recorded for an artifact. */
export interface ImpactStale {
  verdict: string;
  /** commit the verdict was reached at */
  commit?: string;
  /** ISO time of the run that recorded it */
  at: string;
}

export interface ImpactHit {
  node: ImpactNode;
  /** edges from the query to this node */
  distance: number;
  /** every step from the query; the first step starts at the query */
  path: ImpactStep[];
  /** reached only through weaker evidence (a mention) */
  weak?: boolean;
  type?: string;
  title?: string;
  status?: string;
  /** the latest staleness marker says it is not fresh */
  stale?: ImpactStale;
}

export interface ImpactQuery {
  kind: 'artifact' | 'file' | 'directory' | 'symbol';
  id: string;
  direction: 'forward' | 'reverse';
  depth: number;
}

export interface ImpactResult {
  query: ImpactQuery;
  /** artifacts first (nearest first), then code */
  artifacts: ImpactHit[];
  code: ImpactHit[];
  /** results left out by the limit */
  truncated: number;
  /** how the edges were refreshed: origins read, and how many of them were recomputed */
  edges: { origins: number; recomputed: number; removed: number; count: number; backend?: 'sqlite' | 'file' };
}
