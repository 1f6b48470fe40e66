import { buildGraph, REVERSE_NAMES } from '../artifacts/graph.js';
import type { ArtifactSet } from '../artifacts/load.js';
import { RELATION_KINDS, type Artifact } from '../artifacts/types.js';
import type { Config } from '../config.js';
import { isInactive } from '../artifacts/in-force.js';
import { detectDrift } from '../staleness/drift.js';
import { successorOf } from '../staleness/lifecycle.js';
import type { Snapshot } from '../snapshot/types.js';
import type { ChangedSides, Governance } from './governance.js';
import type { GovernanceMatch, Inclusion, PrArtifact, UnstampedChange } from './types.js';

/*
 * The records a pull request's report lists: those governing the changes directly, the
 * record files it edits, what they require, one hop of relations, and the records whose
 * text mentions a changed file.
 */

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The successor of a superseded record, as the PR report carries it. */
function successorField(set: ArtifactSet, id: string): Pick<PrArtifact, 'successor'> {
  const s = successorOf(set, id);
  return s ? { successor: { id: s.id, ...(s.title !== undefined ? { title: s.title } : {}), ...(s.status !== undefined ? { status: s.status } : {}), via: s.via } } : {};
}

/** Phase: the record files the PR adds, edits or deletes (a deleted record is listed as removed). */
export function editedRecords(sides: ChangedSides, headSet: ArtifactSet, baseSet: ArtifactSet): Map<string, { artifact: Artifact; removed: boolean }> {
  const headByFile = new Map(headSet.artifacts.filter((a) => a.origin === 'repo').map((a) => [a.file, a]));
  const baseByFile = new Map(baseSet.artifacts.filter((a) => a.origin === 'repo').map((a) => [a.file, a]));
  const edited = new Map<string, { artifact: Artifact; removed: boolean }>();
  for (const v of sides.views) {
    const h = v.headPath ? headByFile.get(v.headPath) : undefined;
    if (h) edited.set(h.id, { artifact: h, removed: false });
    else if (v.basePath && baseByFile.has(v.basePath)) {
      const b = baseByFile.get(v.basePath)!;
      if (!headSet.byId.has(b.id)) edited.set(b.id, { artifact: b, removed: true });
    }
  }
  return edited;
}

/** Phase: anchored code changed without a re-stamp (the hook's drift, over merge base...head); a record found only so governs the change. */
export async function unstampedChanges(gov: Governance, sides: ChangedSides, at: { headSnap: Snapshot; baseSnap: Snapshot; headConfig: Config; headSet: ArtifactSet; cache?: string | false }): Promise<Map<string, UnstampedChange[]>> {
  const drift = await detectDrift({
    staged: at.headSnap,
    head: at.baseSnap,
    config: at.headConfig,
    set: at.headSet,
    changedPaths: sides.codePaths,
    cache: at.cache,
  });
  const unstamped = new Map<string, UnstampedChange[]>();
  for (const d of drift) {
    const l = unstamped.get(d.artifact) ?? [];
    l.push({ anchor: d.anchor, change: d.change, path: d.path, symbol: d.symbol, line: d.line, movedTo: d.movedTo });
    unstamped.set(d.artifact, l);
    if (!gov.matches.has(d.artifact) && d.path) gov.addMatch(d.artifact, { via: 'anchor', file: d.path, symbol: d.symbol, pattern: d.anchor, line: d.line, side: d.change === 'removed' ? 'base' : 'head' });
  }
  return unstamped;
}

export type EntryOf = (a: Artifact, inclusion: Inclusion, extra?: Partial<PrArtifact>) => PrArtifact;

/** How a listed record is reported: its fields at head, its successor, the unstamped changes to it. */
export function entryMaker(headSet: ArtifactSet, headConfig: Config, unstamped: Map<string, UnstampedChange[]>): EntryOf {
  return (a, inclusion, extra = {}) => ({
    id: a.id,
    type: a.type,
    title: a.title,
    ...(a.status !== undefined ? { status: a.status } : {}),
    ...(a.summary !== undefined ? { summary: a.summary } : {}),
    file: a.file,
    inclusion,
    matches: [],
    inactive: isInactive(a, headConfig),
    ...successorField(headSet, a.id),
    unstamped: unstamped.get(a.id) ?? [],
    ...extra,
  });
}

/**
 * Phase: the list, in the order records join it: direct, edited, then requires (transitively)
 * and one hop of relations, then the records that mention a changed file. Ids that no record
 * declares go to `unknownIds`.
 */
export function listRecords(
  gov: Governance,
  sides: ChangedSides,
  headSet: ArtifactSet,
  edited: Map<string, { artifact: Artifact; removed: boolean }>,
  toEntry: EntryOf,
): { listed: Map<string, PrArtifact>; unknownIds: string[] } {
  const { matches } = gov;
  const { headOf, changed, headPaths } = sides;
  const listed = new Map<string, PrArtifact>();
  const unknownIds: string[] = [];
  for (const id of [...matches.keys()].sort(cmp)) {
    const a = headSet.byId.get(id);
    if (!a) {
      // an annotation naming an id no artifact declares: check reports it; here it is noted
      unknownIds.push(id);
      continue;
    }
    // a base-side match that head still has (same symbol, renamed file or not) adds nothing
    const all = matches.get(id)!;
    const heads = all.filter((m) => m.side === 'head');
    const ms = all.filter((m) => m.side === 'head' || !heads.some((h) => h.via === m.via && h.symbol === m.symbol && h.pattern === m.pattern && (h.file === m.file || headOf.get(m.file) === h.file))).sort((x, y) => cmp(x.file, y.file) || (x.line ?? 0) - (y.line ?? 0) || cmp(x.via, y.via));
    listed.set(id, toEntry(a, 'direct', { matches: ms }));
  }
  for (const [id, e] of [...edited].sort((x, y) => cmp(x[0], y[0]))) {
    if (listed.has(id)) continue;
    listed.set(id, toEntry(e.artifact, 'edited', e.removed ? { file: e.artifact.file, inactive: true } : {}));
  }

  const graph = buildGraph(headSet);
  const seeds = [...listed.keys()];
  // requires, transitively: they are always loaded together with what requires them
  const queue = [...seeds];
  while (queue.length) {
    const from = queue.shift()!;
    for (const e of graph.out.get(from) ?? []) {
      if (e.kind !== 'requires' || !e.resolved || listed.has(e.to)) continue;
      listed.set(e.to, toEntry(headSet.byId.get(e.to)!, 'required', { via: { from, edge: 'requires' } }));
      queue.push(e.to);
    }
  }
  const relationKinds = new Set<string>(RELATION_KINDS);
  for (const from of seeds) {
    const hop: { to: string; edge: string }[] = [];
    for (const e of graph.out.get(from) ?? []) if (relationKinds.has(e.kind) && e.resolved) hop.push({ to: e.to, edge: e.kind });
    for (const e of graph.in.get(from) ?? []) if (relationKinds.has(e.kind)) hop.push({ to: e.from, edge: REVERSE_NAMES[e.kind] });
    hop.sort((x, y) => cmp(x.to, y.to) || cmp(x.edge, y.edge));
    for (const h of hop) {
      if (listed.has(h.to)) continue;
      const a = headSet.byId.get(h.to);
      if (a) listed.set(h.to, toEntry(a, 'related', { via: { from, edge: h.edge } }));
    }
  }

  // records whose text mentions a changed file: listed apart, below what governs it
  for (const a of headSet.artifacts) {
    if (a.origin !== 'repo' || !a.mentions?.length || listed.has(a.id) || headSet.byId.get(a.id) !== a) continue;
    const ms: GovernanceMatch[] = [];
    for (const m of a.mentions) {
      const hash = m.target.indexOf('#');
      for (const p of changed.match(hash < 0 ? m.target : m.target.slice(0, hash))) {
        if (!ms.some((x) => x.file === p)) ms.push({ via: 'mention', file: p, pattern: m.target, line: m.line, side: headPaths.has(p) ? 'head' : 'base' });
      }
    }
    if (ms.length) listed.set(a.id, toEntry(a, 'mentioned', { matches: ms.sort((x, y) => cmp(x.file, y.file)) }));
  }
  return { listed, unknownIds };
}
