// @spec SPEC-RETRIEVE-001

import { REVERSE_NAMES } from '../artifacts/graph.js';
import type { ArtifactSet } from '../artifacts/load.js';
import { RELATION_KINDS, type RelationKind } from '../artifacts/types.js';
import type { Why } from './types.js';

export interface LinkHit {
  id: string;
  /** hops from the nearest hit */
  hops: number;
  /** the record it was reached from, at the first hop */
  from: string;
  why: Why;
}

/** A relation pointing at a record: from which record, of which kind. */
interface InEdge {
  from: string;
  kind: RelationKind;
}

/**
 * What slot 3 walks: the relations pointing at each record (computed once per set, from the
 * fields every artifact keeps in the parse cache's index, so no record is decoded), and each
 * record's own relations and `requires` read from the record when the walk reaches it. The
 * whole link graph (buildGraph) holds more than a walk from a few hits needs.
 */
interface RelationIndex {
  in: Map<string, InEdge[]>;
}

/** The steps out of a record, in the order the link graph lists them: requires, then each relation kind. */
function outSteps(set: ArtifactSet, id: string): { to: string; label: string }[] {
  const a = set.byId.get(id);
  if (!a) return [];
  const steps: { to: string; label: string }[] = [];
  for (const r of a.requires) if (set.byId.has(r)) steps.push({ to: r, label: 'requires' });
  for (const k of RELATION_KINDS) for (const t of a.relations[k] ?? []) if (set.byId.has(t)) steps.push({ to: t, label: k });
  return steps;
}

/**
 * Slot 3: records related to the hits by typed relations (both ways: `caused_by` reads as
 * `leads_to` from the other end) and `requires` (forward), breadth first to `depth` hops.
 */
export function followLinks(set: ArtifactSet, from: readonly string[], depth: number): LinkHit[] {
  if (depth <= 0 || !from.length) return [];
  const g = relationsOf(set);
  const seen = new Set(from);
  const out: LinkHit[] = [];
  let frontier = from.map((id) => ({ id, chain: [id], root: id }));
  for (let hop = 1; hop <= depth && frontier.length; hop++) {
    const next: typeof frontier = [];
    for (const f of frontier) {
      const steps = outSteps(set, f.id);
      for (const e of g.in.get(f.id) ?? []) steps.push({ to: e.from, label: REVERSE_NAMES[e.kind] });
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

/**
 * The records that supersede one (newest last in the chain), following supersedes edges
 * forward in time; when none does, the records that amend it ("See 0009 for updates" in a
 * deprecated record: DEC-053), so a record out of force still leads to what replaced it.
 */
export function successorsOf(set: ArtifactSet, id: string): string[] {
  return successorEdges(set, id).map((e) => e.id);
}

/** successorsOf with the relation each was reached by (`supersedes`, else `amends`). */
export function successorEdges(set: ArtifactSet, id: string): { id: string; kind: 'supersedes' | 'amends'; of: string }[] {
  const g = relationsOf(set);
  for (const kind of ['supersedes', 'amends'] as const) {
    const out: { id: string; kind: 'supersedes' | 'amends'; of: string }[] = [];
    const seen = new Set([id]);
    let cur = [id];
    while (cur.length) {
      const next: string[] = [];
      for (const c of cur) {
        for (const e of g.in.get(c) ?? []) {
          if (e.kind !== kind || seen.has(e.from)) continue;
          seen.add(e.from);
          out.push({ id: e.from, kind, of: c });
          next.push(e.from);
        }
      }
      cur = next;
    }
    if (out.length) return out;
  }
  return [];
}

const indexes = new WeakMap<ArtifactSet, RelationIndex>();
function relationsOf(set: ArtifactSet): RelationIndex {
  let g = indexes.get(set);
  if (!g) {
    const inn = new Map<string, InEdge[]>();
    // forEach: a for-of over the map allocates a result object per record in the interpreter
    set.byId.forEach((a) => {
      const rel = a.relations;
      let any = false;
      for (const _ in rel) {
        any = true;
        break;
      }
      if (!any) return;
      for (const kind of RELATION_KINDS) {
        for (const t of rel[kind] ?? []) {
          let list = inn.get(t);
          if (!list) inn.set(t, (list = []));
          list.push({ from: a.id, kind });
        }
      }
    });
    indexes.set(set, (g = { in: inn }));
  }
  return g;
}
