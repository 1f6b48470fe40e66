// @spec SPEC-RETRIEVE-001

import { buildGraph, REVERSE_NAMES, type EdgeKind } from '../artifacts/graph.js';
import type { ArtifactSet } from '../artifacts/load.js';
import { RELATION_KINDS } from '../artifacts/types.js';
import type { Why } from './types.js';

export interface LinkHit {
  id: string;
  /** hops from the nearest hit */
  hops: number;
  /** the record it was reached from, at the first hop */
  from: string;
  why: Why;
}

const FOLLOW = new Set<EdgeKind>([...RELATION_KINDS, 'requires']);

/**
 * Slot 3: records related to the hits by typed relations (both ways: `caused_by` reads as
 * `leads_to` from the other end) and `requires` (forward), breadth first to `depth` hops.
 */
export function followLinks(set: ArtifactSet, from: readonly string[], depth: number): LinkHit[] {
  if (depth <= 0 || !from.length) return [];
  const g = graphOf(set);
  const seen = new Set(from);
  const out: LinkHit[] = [];
  let frontier = from.map((id) => ({ id, chain: [id], root: id }));
  for (let hop = 1; hop <= depth && frontier.length; hop++) {
    const next: typeof frontier = [];
    for (const f of frontier) {
      const steps: { to: string; label: string }[] = [];
      for (const e of g.out.get(f.id) ?? []) if (FOLLOW.has(e.kind) && e.resolved) steps.push({ to: e.to, label: e.kind });
      for (const e of g.in.get(f.id) ?? []) if (FOLLOW.has(e.kind) && e.kind !== 'requires') steps.push({ to: e.from, label: REVERSE_NAMES[e.kind] });
      for (const s of steps) {
        if (seen.has(s.to)) continue;
        seen.add(s.to);
        const chain = [...f.chain, s.label, s.to];
        out.push({ id: s.to, hops: hop, from: f.root, why: { kind: 'link', text: chain.join(' '), path: chain } });
        next.push({ id: s.to, chain, root: f.root });
      }
    }
    frontier = next;
  }
  return out;
}

/** The records that supersede one (newest last in the chain), following supersedes edges forward in time. */
export function successorsOf(set: ArtifactSet, id: string): string[] {
  const g = graphOf(set);
  const out: string[] = [];
  const seen = new Set([id]);
  let cur = [id];
  while (cur.length) {
    const next: string[] = [];
    for (const c of cur) {
      for (const e of g.in.get(c) ?? []) {
        if (e.kind !== 'supersedes' || seen.has(e.from)) continue;
        seen.add(e.from);
        out.push(e.from);
        next.push(e.from);
      }
    }
    cur = next;
  }
  return out;
}

const graphs = new WeakMap<ArtifactSet, ReturnType<typeof buildGraph>>();
function graphOf(set: ArtifactSet): ReturnType<typeof buildGraph> {
  let g = graphs.get(set);
  if (!g) graphs.set(set, (g = buildGraph(set)));
  return g;
}
