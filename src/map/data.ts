// @spec SPEC-MAP-001

import type { ArtifactSet } from '../artifacts/load.js';
import { DOCUMENT_PATH, edgesOf } from '../artifacts/graph.js';
import type { Artifact } from '../artifacts/types.js';
import type { CodeIndex } from '../code/code-index.js';
import type { Config } from '../config.js';
import type { Snapshot } from '../snapshot/types.js';
import type { StaleReport, StaleStatus } from '../staleness/types.js';
import { provenanceOf, type Provenance } from '../artifacts/sources/provenance.js';
import { relationStatedBy } from '../artifacts/sources/extra.js';

/** Staleness as the map shows it: the engine's verdict, or why there is none. */
export type MapStaleness = StaleStatus | 'not judged';

export interface MapCommit {
  id: string;
  author: string;
  date: string;
  subject: string;
  anchor: string;
}

export interface MapNode {
  id: string;
  type: string;
  title: string;
  status: string;
  /** the status counts as no longer in force for its type */
  inactive: boolean;
  domain: string;
  scope: string;
  summary: string;
  file: string;
  keywords: string[];
  paths: string[];
  anchors: string[];
  /** code named in the record's text (weaker than anchors) */
  mentions: string[];
  staleness: MapStaleness;
  /** per-anchor verdicts that are not ok */
  drift: { anchor: string; state: string; note?: string }[];
  /** the commits that made it stale, newest last */
  commits: MapCommit[];
  supersededBy: string[];
  /** who, where and how it was captured, and its confidence (DEC-054: the map is read by people) */
  provenance: Provenance;
  /** layout position, computed here so the page opens without running a layout */
  x: number;
  y: number;
}

export interface MapEdge {
  id: string;
  source: string;
  target: string;
  /** link, requires, supersedes, depends_on, conflicts_with, caused_by, co_decided */
  kind: string;
  label?: string;
  /** the record whose text states the edge, when it is not the source's own ("Superseded by" written in the target) */
  statedBy?: string;
}

export interface MapData {
  version: 1;
  title: string;
  commit?: string;
  snapshot: string;
  /** type order used for layout columns and the legend */
  types: string[];
  nodes: MapNode[];
  edges: MapEdge[];
  /** edges whose target does not exist (shown nowhere as edges; listed on the node) */
  broken: { source: string; target: string; kind: string }[];
  /** edges to a document of the tree that is no record (a record's link to the design note beside it): not broken */
  documents?: { source: string; target: string; kind: string }[];
  /** why staleness could not be judged, if so */
  warnings: string[];
}

export interface BuildMapOptions {
  snapshot: Snapshot;
  config: Config;
  set: ArtifactSet;
  /** judge staleness (default true); the engine reads git history, so this is the slow part */
  staleness?: boolean;
  /** a code index to share */
  index?: CodeIndex;
  title?: string;
}

const ROWS = 30;
const DX = 220;
const DY = 70;

/**
 * Positions: one column block per type in configured order, nodes sorted by domain then id,
 * wrapping every ROWS rows. O(n), deterministic, and readable for the usual few hundred
 * records; a force layout over 2,000 nodes would take longer than the page may.
 */
function layout(nodes: MapNode[], types: string[]): void {
  const byType = new Map<string, MapNode[]>();
  for (const n of nodes) (byType.get(n.type) ?? byType.set(n.type, []).get(n.type)!).push(n);
  let col = 0;
  for (const t of types) {
    const list = byType.get(t);
    if (!list?.length) continue;
    list.sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    list.forEach((n, i) => {
      n.x = (col + Math.floor(i / ROWS)) * DX + (Math.floor(i / ROWS) % 2 ? 0 : 0);
      // stagger alternate columns so vertical edges do not run through nodes
      n.y = (i % ROWS) * DY + ((col + Math.floor(i / ROWS)) % 2 ? DY / 2 : 0);
    });
    col += Math.ceil(list.length / ROWS) + 0.5;
  }
}

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/**
 * The decision map's data: every repository artifact as a node (type, status, staleness
 * and the evidence behind it), links/requires/relations as typed edges, positions laid
 * out. Returns data; rendering is `renderMapHtml`.
 */
export async function buildMapData(opts: BuildMapOptions): Promise<MapData> {
  const { snapshot, config, set } = opts;
  const arts: Artifact[] = [...set.byId.values()].filter((a) => a.origin === 'repo');
  const ids = new Set(arts.map((a) => a.id));
  const warnings: string[] = [];
  let report: StaleReport | undefined;
  if (opts.staleness !== false) {
    const stamped = arts.filter((a) => a.stamp?.commit).map((a) => a.id);
    if (stamped.length) {
      try {
        const { judgeArtifacts } = await import('../staleness/judge.js');
        report = await judgeArtifacts({ snapshot, config, set, ids: stamped, index: opts.index });
        warnings.push(...report.warnings);
      } catch (e) {
        warnings.push(`staleness not judged: ${(e as Error).message}`);
      }
    }
  }
  const judged = new Map((report?.artifacts ?? []).map((j) => [j.id, j]));
  const supersededBy = new Map<string, string[]>();
  for (const a of arts) for (const t of a.relations.supersedes ?? []) (supersededBy.get(t) ?? supersededBy.set(t, []).get(t)!).push(a.id);

  const nodes: MapNode[] = arts.map((a) => {
    const j = judged.get(a.id);
    const anchored = a.anchors.length > 0 || a.paths.length > 0;
    // code named in the record's text anchors it too (weaker): the same state stale gives it
    const mentionedOnly = !anchored && (a.mentions?.length ?? 0) > 0;
    const staleness: MapStaleness = j ? j.status : a.stamp?.commit ? 'not judged' : anchored || mentionedOnly ? 'unstamped' : 'unanchored';
    const commits: MapCommit[] = [];
    const seen = new Set<string>();
    for (const v of j?.anchors ?? []) {
      for (const c of v.commits ?? []) {
        if (seen.has(c.id)) continue;
        seen.add(c.id);
        commits.push({ id: c.id, author: c.author, date: c.date, subject: c.subject, anchor: v.anchor });
      }
    }
    commits.sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0));
    return {
      id: a.id,
      type: a.type,
      title: a.title || a.id,
      status: str(a.status),
      inactive: !!a.status && (config.types[a.type]?.inactive ?? []).includes(a.status),
      domain: str(a.domain),
      scope: a.scope,
      summary: str(a.summary),
      file: a.file,
      keywords: a.keywords,
      paths: a.paths,
      anchors: a.anchors,
      mentions: (a.mentions ?? []).map((m) => m.target),
      staleness,
      drift: (j?.anchors ?? []).filter((v) => v.state !== 'ok').map((v) => ({ anchor: v.anchor, state: v.state, ...(v.note ? { note: v.note } : {}) })),
      commits,
      supersededBy: (supersededBy.get(a.id) ?? []).sort(),
      provenance: provenanceOf(a),
      x: 0,
      y: 0,
    };
  });
  const types = [...config.order.filter((t) => nodes.some((n) => n.type === t)), ...[...new Set(nodes.map((n) => n.type))].filter((t) => !config.order.includes(t)).sort()];
  layout(nodes, types);

  const edges: MapEdge[] = [];
  const broken: MapData['broken'] = [];
  const documents: NonNullable<MapData['documents']> = [];
  const seenEdge = new Set<string>();
  for (const a of arts) {
    for (const e of edgesOf(a, (id) => ids.has(id))) {
      if (!e.resolved) {
        // a link to a document that exists leads somewhere (check says the same)
        if (DOCUMENT_PATH.test(e.to) && (await snapshot.blobOf(e.to)) !== undefined) documents.push({ source: e.from, target: e.to, kind: e.kind });
        else broken.push({ source: e.from, target: e.to, kind: e.kind });
        continue;
      }
      const id = `${e.from}|${e.kind}|${e.to}`;
      if (seenEdge.has(id) || e.from === e.to) continue;
      seenEdge.add(id);
      const statedBy = e.kind !== 'link' && e.kind !== 'requires' ? relationStatedBy(a, e.kind, e.to) : undefined;
      edges.push({ id, source: e.from, target: e.to, kind: e.kind, ...(e.label ? { label: e.label } : {}), ...(statedBy ? { statedBy } : {}) });
    }
  }
  return {
    version: 1,
    title: opts.title ?? 'Decision map',
    commit: snapshot.commit,
    snapshot: snapshot.kind,
    types,
    nodes,
    edges,
    broken,
    ...(documents.length ? { documents } : {}),
    warnings,
  };
}
