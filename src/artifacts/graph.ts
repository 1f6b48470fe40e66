// @spec SPEC-ARTIFACTS-001

import { RELATION_KINDS, type Artifact, type RelationKind } from './types.js';
import type { ArtifactSet } from './load.js';

/** Edge kinds: forward ones are written in files, reverse ones are computed. */
export type EdgeKind = 'link' | 'requires' | RelationKind;
export const REVERSE_NAMES: Record<EdgeKind, string> = {
  link: 'linked_from',
  requires: 'required_by',
  supersedes: 'superseded_by',
  depends_on: 'depended_on_by',
  conflicts_with: 'conflicts_with',
  caused_by: 'leads_to',
  co_decided: 'co_decided',
  amends: 'amended_by',
  clarifies: 'clarified_by',
  relates_to: 'relates_to',
};

export interface Edge {
  from: string;
  to: string;
  kind: EdgeKind;
  /** for links: the key under links: (specs, decisions, …) */
  label?: string;
  /** target exists in the set */
  resolved: boolean;
}

export interface LinkGraph {
  edges: Edge[];
  out: Map<string, Edge[]>;
  /** reverse edges: target id → edges pointing at it */
  in: Map<string, Edge[]>;
}

export function edgesOf(a: Artifact, has: (id: string) => boolean): Edge[] {
  const res: Edge[] = [];
  for (const l of a.links) res.push({ from: a.id, to: l.id, kind: 'link', label: l.kind, resolved: has(l.id) });
  for (const r of a.requires) res.push({ from: a.id, to: r, kind: 'requires', resolved: has(r) });
  for (const k of RELATION_KINDS) for (const t of a.relations[k] ?? []) res.push({ from: a.id, to: t, kind: k, resolved: has(t) });
  return res;
}

/**
 * A relation or link whose target is a path to a document (`docs/history-mode.md`), not an id:
 * a record read in place links the design note beside it. When the document exists, the edge
 * leads somewhere real (no broken link), though to no record. A document at the top of the
 * repository (`../../FEATURE_MATRIX.md` from docs/decisions/) is one too: its path has no folder.
 */
export const DOCUMENT_PATH = /(?:^|\/)[^/\s]+\.(?:md|markdown|rst|adoc|asciidoc|txt)$/i;

/** The link graph with computed reverse edges (leads_to, superseded_by, …). */
export function buildGraph(set: Pick<ArtifactSet, 'byId'>): LinkGraph {
  const has = (id: string) => set.byId.has(id);
  const edges: Edge[] = [];
  const out = new Map<string, Edge[]>();
  const inn = new Map<string, Edge[]>();
  for (const a of set.byId.values()) {
    const es = edgesOf(a, has);
    out.set(a.id, es);
    for (const e of es) {
      edges.push(e);
      if (!inn.has(e.to)) inn.set(e.to, []);
      inn.get(e.to)!.push(e);
    }
  }
  return { edges, out, in: inn };
}

/** Computed reverse relations of an artifact, by reverse name. */
export function reverseEdges(graph: LinkGraph, id: string): Record<string, string[]> {
  const res: Record<string, string[]> = {};
  for (const e of graph.in.get(id) ?? []) {
    const name = REVERSE_NAMES[e.kind];
    (res[name] ??= []).push(e.from);
  }
  for (const k of Object.keys(res)) res[k] = [...new Set(res[k])].sort();
  return res;
}

/**
 * The reverse edges worth showing beside a record's own relations: a symmetric relation both
 * records state (relates_to, conflicts_with, co_decided: "Implements [5. …]" / "Implemented in
 * [4. …]") is said once, as the record writes it, not again as computed.
 */
export function computedOnly(a: Artifact, reverse: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(reverse)) {
    const own = (a.relations as Partial<Record<string, string[]>>)[k] ?? [];
    const shown = v.filter((t) => !own.includes(t));
    if (shown.length) out[k] = shown;
  }
  return out;
}

/** Find one cycle along edges of the given kinds, or undefined. Deterministic (ids in sorted order). */
export function findCycles(graph: LinkGraph, kinds: EdgeKind[]): string[][] {
  const ids = [...graph.out.keys()].sort();
  const state = new Map<string, 1 | 2>();
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const stack: string[] = [];
  // iterative depth-first search: a 5,000-long requires chain must not exhaust the call stack
  const frames: { id: string; edges: Edge[]; next: number }[] = [];
  const enter = (id: string): void => {
    state.set(id, 1);
    stack.push(id);
    frames.push({ id, edges: graph.out.get(id) ?? [], next: 0 });
  };
  for (const start of ids) {
    if (state.has(start)) continue;
    enter(start);
    while (frames.length) {
      const f = frames[frames.length - 1]!;
      if (f.next >= f.edges.length) {
        frames.pop();
        stack.pop();
        state.set(f.id, 2);
        continue;
      }
      const e = f.edges[f.next++]!;
      if (!kinds.includes(e.kind) || !e.resolved) continue;
      const s = state.get(e.to);
      if (s === 1) {
        const cyc = stack.slice(stack.lastIndexOf(e.to));
        const key = [...cyc].sort().join('|');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push([...cyc, e.to]);
        }
      } else if (s === undefined) enter(e.to);
    }
  }
  return cycles;
}
