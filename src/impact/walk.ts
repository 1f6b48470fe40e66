// @spec SPEC-IMPACT-001

import type { ArtifactSet } from '../artifacts/load.js';
import { annotationId } from '../artifacts/lookup.js';
import type { CodeNeighbours } from '../code/neighbours.js';
import type { Snapshot } from '../snapshot/types.js';
import { compilePaths, entryCovers, type PathSet } from '../util/path-set.js';
import type { EdgeStore } from './edge-store.js';
import { WEAK_KINDS, type ImpactEdge, type ImpactHit, type ImpactNode, type ImpactStale, type ImpactStep } from './types.js';

/**
 * Relations that carry impact in both directions: a change to either side concerns the
 * other. The others carry it from target to writer (a record that requires, depends on,
 * amends or links another relies on it), except `supersedes`: the replaced record is no
 * longer in force, so a change to it affects nothing, and a change to its successor does
 * not revive it.
 */
const SYMMETRIC = new Set<ImpactEdge['kind']>(['conflicts_with', 'relates_to', 'co_decided']);
const CODE_KINDS = new Set<ImpactEdge['kind']>(['anchor', 'annotation', 'paths', 'mentioned']);
/** Files one path entry of an artifact is expanded to, at most (the rest are counted). */
const MAX_FILES_PER_ENTRY = 200;
/** Nodes a walk visits at most: a utility imported everywhere must not make a walk unbounded. */
const MAX_VISITED = 20_000;

export interface WalkOptions {
  snapshot: Snapshot;
  set: ArtifactSet;
  store: EdgeStore;
  /** the code graph; absent: no code → code steps */
  neighbours?: CodeNeighbours;
  /** `affects`: what a change to the start touches; `affected-by`: what the start depends on */
  mode: 'affects' | 'affected-by';
  start: ImpactNode[];
  depth: number;
  /** most artifacts and most code nodes listed (each) */
  limit: number;
  /** the latest staleness verdicts of artifacts */
  markers?: (ids: string[]) => Promise<Map<string, ImpactStale>> | Map<string, ImpactStale>;
}

/** A step, computed only for the results shown (its `where` reads the record's key lines). */
type LazyStep = () => ImpactStep;
/** One way to a node: the node, the step to it, and whether that step is weaker evidence. */
type Candidate = [ImpactNode, LazyStep, boolean];

interface Reached {
  node: ImpactNode;
  /** the node reached one step before (none for a start) */
  from: Reached | undefined;
  step: LazyStep | undefined;
  distance: number;
  weak: boolean;
}

/** The steps from the start to a node, each computed once however many results share it. */
function pathOf(r: Reached, memo: Map<Reached, ImpactStep>): ImpactStep[] {
  const out: ImpactStep[] = [];
  for (let at: Reached | undefined = r; at?.from && at.step; at = at.from) {
    let s = memo.get(at);
    if (!s) memo.set(at, (s = at.step()));
    out.push(s);
  }
  return out.reverse();
}

/** An entry with a `*` is a glob, never a file's name (one with `[`, `?` or `{` may be: `app/[id]/page.tsx`). */
const STAR = /\*/;
const fileOfSymbol = (id: string) => id.slice(0, id.indexOf('#'));
const literalPrefix = (entry: string) => {
  const i = entry.search(/[*?[\]{}!]/);
  const lit = i < 0 ? entry : entry.slice(0, i);
  return i < 0 ? lit.replace(/\/$/, '') : lit.slice(0, lit.lastIndexOf('/') + 1).replace(/\/$/, '');
};

/**
 * Walk impact edges breadth-first to a depth; every node reached is returned once, with its
 * shortest path (declared evidence preferred over mentions at equal length).
 */
export async function walkImpact(opts: WalkOptions): Promise<{ artifacts: ImpactHit[]; code: ImpactHit[]; truncated: number }> {
  const { set, store, snapshot } = opts;
  // an annotation's id as the team typed it (`@adr 5`) names its record here, with the set
  // known: the stored edges are kept per file content and read the id as written (DEC-096)
  const aliases = new Map<string, string[]>();
  const canon = (e: ImpactEdge): ImpactEdge => {
    if (e.kind !== 'annotation' || set.byId.has(e.src)) return e;
    const id = annotationId(set, e.src);
    if (id === e.src) return e;
    const l = aliases.get(id);
    if (!l) aliases.set(id, [e.src]);
    else if (!l.includes(e.src)) l.push(e.src);
    return { ...e, src: id };
  };
  // path entries by their literal directory, so a file meets only the entries above it
  const pathEdges = new Map<string, ImpactEdge[]>();
  for (const raw of store.edgesToKind('path')) {
    const e = canon(raw);
    if (!set.byId.has(e.src)) continue;
    const k = literalPrefix(e.dst);
    const l = pathEdges.get(k);
    if (l) l.push(e);
    else pathEdges.set(k, [e]);
  }
  const symbolEdgesByFile = new Map<string, ImpactEdge[]>();
  for (const raw of store.edgesToKind('symbol')) {
    const e = canon(raw);
    if (!set.byId.has(e.src)) continue;
    const f = fileOfSymbol(e.dst);
    const l = symbolEdgesByFile.get(f);
    if (l) l.push(e);
    else symbolEdgesByFile.set(f, [e]);
  }
  // records often share an entry or a whole `paths:` list, and a walk meets a file many times:
  // each (entry, file) and (list, file) is matched once
  const entryMemo = new Map<string, Map<string, boolean>>();
  const setOf = new Map<string, PathSet>();
  const setOfRecord = (id: string) => {
    let ps = setOf.get(id);
    if (!ps) setOf.set(id, (ps = compilePaths(set.byId.get(id)!.paths)));
    return ps;
  };
  const setMemo = new Map<PathSet, Map<string, boolean>>();
  const covers = (e: ImpactEdge, file: string) => {
    let byFile = entryMemo.get(e.dst);
    if (!byFile) entryMemo.set(e.dst, (byFile = new Map()));
    let hit = byFile.get(file);
    if (hit === undefined) byFile.set(file, (hit = entryCovers(e.dst, file)));
    if (!hit) return false;
    // a `paths:` entry counts only where the artifact's whole set (exclusions too) covers the file
    if (e.kind !== 'paths') return true;
    const ps = setOfRecord(e.src);
    let m = setMemo.get(ps);
    if (!m) setMemo.set(ps, (m = new Map()));
    let c = m.get(file);
    if (c === undefined) m.set(file, (c = ps.covers(file)));
    return c;
  };
  // the same directory is expanded for every record naming it
  const listed = new Map<string, Promise<{ path: string }[]>>();
  const listUnder = (prefix: string) => {
    let l = listed.get(prefix);
    if (!l) listed.set(prefix, (l = snapshot.listUnder(prefix)));
    return l;
  };
  // the files an entry covers (through the record's whole `paths:` set for a `paths` entry), once per entry and set
  const expanded = new Map<string, Map<PathSet | undefined, Promise<string[]>>>();
  const expand = (e: ImpactEdge): Promise<string[]> => {
    const ps = e.kind === 'paths' ? setOfRecord(e.src) : undefined;
    let bySet = expanded.get(e.dst);
    if (!bySet) expanded.set(e.dst, (bySet = new Map()));
    let files = bySet.get(ps);
    if (!files) {
      files = listUnder(literalPrefix(e.dst)).then((listed) => {
        const out: string[] = [];
        for (const f of listed) {
          if (!covers(e, f.path)) continue;
          if (out.length >= MAX_FILES_PER_ENTRY) break;
          out.push(f.path);
        }
        return out;
      });
      bySet.set(ps, files);
    }
    return files;
  };
  const blobs = new Map<string, Promise<string | undefined>>();
  const blobOf = (p: string) => {
    let b = blobs.get(p);
    if (!b) blobs.set(p, (b = snapshot.blobOf(p)));
    return b;
  };
  const where = (e: ImpactEdge) => {
    const a = set.byId.get(e.src);
    if (e.kind === 'annotation') return e.origin;
    const line = a?.keyLines[e.kind === 'paths' ? 'paths' : e.kind === 'anchor' ? 'anchors' : e.kind === 'mentioned' ? '' : e.kind === 'link' ? 'links' : e.kind === 'requires' ? 'requires' : 'relations'];
    return a ? `${a.file}${line ? `:${line}` : ''}` : e.origin;
  };
  const step = (e: ImpactEdge, reverse: boolean): ImpactStep => ({ from: reverse ? e.dst : e.src, kind: e.kind, to: reverse ? e.src : e.dst, ...(reverse ? { reverse: true } : {}), where: where(e) });

  /** Artifacts declared on a file (or on a symbol in it, or on a path entry covering it). */
  const governorsOfFile = (file: string, withSymbols = true): Candidate[] => {
    const out: Candidate[] = [];
    const dirs = [''];
    for (let i = file.indexOf('/'); i >= 0; i = file.indexOf('/', i + 1)) dirs.push(file.slice(0, i));
    dirs.push(file);
    for (const d of dirs) for (const e of pathEdges.get(d) ?? []) if (covers(e, file)) out.push([{ kind: 'artifact', id: e.src }, () => ({ ...step(e, true), from: file, ...(e.dst !== file ? { via: e.dst } : {}) }), WEAK_KINDS.has(e.kind)]);
    if (withSymbols) for (const e of symbolEdgesByFile.get(file) ?? []) out.push([{ kind: 'artifact', id: e.src }, () => ({ ...step(e, true), from: file, via: e.dst }), WEAK_KINDS.has(e.kind)]);
    return out;
  };
  const governorsOfSymbol = (id: string): Candidate[] => {
    const file = fileOfSymbol(id);
    const name = id.slice(file.length + 1);
    const out: Candidate[] = [];
    for (const e of symbolEdgesByFile.get(file) ?? []) {
      const sym = e.dst.slice(file.length + 1);
      // declared on the symbol, on a symbol enclosing it, or on a member of it
      if (sym === name || name.startsWith(sym + '.') || sym.startsWith(name + '.')) out.push([{ kind: 'artifact', id: e.src }, () => step(e, true), WEAK_KINDS.has(e.kind)]);
    }
    // what governs the whole file governs each symbol in it
    for (const [node, lazy, weak] of governorsOfFile(file, false)) {
      out.push([
        node,
        () => {
          const s = lazy();
          return { ...s, from: id, via: s.via ?? file };
        },
        weak,
      ]);
    }
    return out;
  };
  /** The code an artifact names: symbols as they are, path entries expanded to the files they cover. */
  const codeOf = async (id: string): Promise<Candidate[]> => {
    const out: Candidate[] = [];
    const written = (aliases.get(id) ?? []).flatMap((w) => store.edgesFrom('artifact', w).filter((e) => e.kind === 'annotation').map(canon));
    for (const e of [...store.edgesFrom('artifact', id), ...written]) {
      if (!CODE_KINDS.has(e.kind)) continue;
      const weak = WEAK_KINDS.has(e.kind);
      if (e.dstKind === 'symbol') {
        out.push([{ kind: 'symbol', id: e.dst }, () => step(e, false), weak]);
        continue;
      }
      // `src/x/**` is not looked up as a file (a lookup outside the folders listed lists a whole top-level directory)
      if (!STAR.test(e.dst) && (await blobOf(e.dst)) !== undefined) {
        out.push([{ kind: 'file', id: e.dst }, () => step(e, false), weak]);
        continue;
      }
      for (const f of await expand(e)) out.push([{ kind: 'file', id: f }, () => ({ ...step(e, false), to: f, ...(e.dst !== f ? { via: e.dst } : {}) }), weak]);
    }
    return out;
  };
  /** Records related to an artifact in the walk's direction. */
  const relatedOf = (id: string): Candidate[] => {
    const out: Candidate[] = [];
    // who relies on it (affects) / what it relies on (affected-by)
    const forward = opts.mode === 'affected-by';
    const edges = forward ? store.edgesFrom('artifact', id) : store.edgesTo('artifact', id);
    for (const e of edges) {
      if (e.dstKind !== 'artifact' || e.kind === 'supersedes' || (!forward && e.srcKind !== 'artifact')) continue;
      const other = forward ? e.dst : e.src;
      if (set.byId.has(other)) out.push([{ kind: 'artifact', id: other }, () => step(e, !forward), false]);
    }
    const sym = forward ? store.edgesTo('artifact', id) : store.edgesFrom('artifact', id);
    for (const e of sym) {
      if (!SYMMETRIC.has(e.kind) || e.dstKind !== 'artifact') continue;
      const other = forward ? e.src : e.dst;
      if (set.byId.has(other)) out.push([{ kind: 'artifact', id: other }, () => step(e, forward), false]);
    }
    return out;
  };
  const nb = opts.neighbours;
  const next = async (n: ImpactNode): Promise<Candidate[]> => {
    if (n.kind === 'artifact') return [...(await codeOf(n.id)), ...relatedOf(n.id)];
    if (opts.mode === 'affects') {
      const governed = n.kind === 'file' ? governorsOfFile(n.id) : governorsOfSymbol(n.id);
      if (!nb) return governed;
      if (n.kind === 'file') {
        const users = (await nb.importers(n.id)).map((f): Candidate => [{ kind: 'file', id: f }, () => ({ from: n.id, kind: 'imported_by', to: f }), false]);
        return [...governed, ...users];
      }
      const file = fileOfSymbol(n.id);
      const callers = (await nb.callers(file, n.id.slice(file.length + 1))).map((c): Candidate => {
        const to = `${c.path}#${c.symbol}`;
        return [{ kind: 'symbol', id: to }, () => ({ from: n.id, kind: 'called_by', to, where: `${c.path}:${c.line}` }), false];
      });
      return [...governed, ...callers];
    }
    // affected-by: a change to what the code uses touches it
    if (!nb) return [];
    if (n.kind === 'file') return (await nb.imports(n.id)).map((f): Candidate => [{ kind: 'file', id: f }, () => ({ from: n.id, kind: 'imports', to: f }), false]);
    const file = fileOfSymbol(n.id);
    return (await nb.callees(file, n.id.slice(file.length + 1))).map((c) => {
      const to = `${c.path}#${c.symbol}`;
      return [{ kind: 'symbol', id: to }, () => ({ from: n.id, kind: 'calls', to, where: `${file}:${c.line}` }), false];
    });
  };

  // nodes by kind then id (no joined keys: a walk weighs thousands of candidates), and in the order first reached
  const byKind = () => ({ artifact: new Map<string, number>(), file: new Map<string, number>(), symbol: new Map<string, number>() });
  const visited = byKind();
  const reached: Reached[] = [];
  let frontier: Reached[] = [];
  for (const s of opts.start) {
    if (visited[s.kind].has(s.id)) continue;
    visited[s.kind].set(s.id, -1);
    frontier.push({ node: s, from: undefined, step: undefined, distance: 0, weak: false });
  }
  let count = frontier.length;
  for (let d = 0; d < opts.depth && frontier.length && count < MAX_VISITED; d++) {
    const layer: Reached[] = [];
    const inLayer = byKind();
    for (const r of frontier) {
      for (const [node, s, weak] of await next(r.node)) {
        if (visited[node.kind].has(node.id)) continue;
        const w = r.weak || weak;
        const at = inLayer[node.kind].get(node.id);
        if (at === undefined) {
          inLayer[node.kind].set(node.id, layer.length);
          layer.push({ node, from: r, step: s, distance: d + 1, weak: w });
        } else if (layer[at]!.weak && !w) layer[at] = { node, from: r, step: s, distance: d + 1, weak: w };
      }
    }
    for (const r of layer) {
      visited[r.node.kind].set(r.node.id, 0);
      reached.push(r);
    }
    count += layer.length;
    frontier = layer;
  }

  const order = (a: Reached, b: Reached) => a.distance - b.distance || Number(a.weak) - Number(b.weak) || (a.node.id < b.node.id ? -1 : a.node.id > b.node.id ? 1 : 0);
  const arts = reached.filter((r) => r.node.kind === 'artifact').sort(order);
  const code = reached.filter((r) => r.node.kind !== 'artifact').sort(order);
  const truncated = Math.max(0, arts.length - opts.limit) + Math.max(0, code.length - opts.limit);
  const shownArts = arts.slice(0, opts.limit);
  const marks = opts.markers && shownArts.length ? await opts.markers(shownArts.map((r) => r.node.id)) : new Map<string, ImpactStale>();
  const steps = new Map<Reached, ImpactStep>();
  const hit = (r: Reached): ImpactHit => {
    const h: ImpactHit = { node: r.node, distance: r.distance, path: pathOf(r, steps) };
    if (r.weak) h.weak = true;
    if (r.node.kind === 'artifact') {
      const a = set.byId.get(r.node.id)!;
      h.type = a.type;
      h.title = a.title;
      if (a.status !== undefined) h.status = a.status;
      const m = marks.get(a.id);
      if (m) h.stale = m;
    }
    return h;
  };
  return { artifacts: shownArts.map(hit), code: code.slice(0, opts.limit).map(hit), truncated };
}
