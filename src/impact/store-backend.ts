// @spec SPEC-IMPACT-001

import { readFileSync, renameSync, unlinkSync } from 'node:fs';
import { ctxDir } from '../git/git-dir.js';
import { isCtxError } from '../errors.js';
import type { Store } from '../store/store.js';
import { latestMarkers, MARKERS_JOURNAL, parseMarkerLines, type StaleMarker } from '../staleness/markers.js';
import { openEdgeCache, type EdgeStore } from './edge-store.js';
import type { ImpactEdge, ImpactNodeKind, ImpactStale } from './types.js';

/** Where `impact` keeps its edges and reads markers: the evidence store, or files when SQLite cannot load. */
export interface ImpactBackend {
  kind: 'sqlite' | 'file';
  edges: EdgeStore;
  markers(ids: string[]): Map<string, ImpactStale>;
  /** why the file backend is used (the store's error), when it is */
  note?: string;
  close(): void;
}

/** Verdicts that make an artifact worth a warning when listed. */
const NOT_FRESH = new Set(['stale', 'moved', 'superseded']);
const staleOf = (m: { verdict: string; commit?: string; at: string }): ImpactStale | undefined => (NOT_FRESH.has(m.verdict) ? { verdict: m.verdict, ...(m.commit ? { commit: m.commit } : {}), at: m.at } : undefined);

/** Markers from the journal only (no store): the latest artifact-level verdict of each id. */
export function journalMarkers(root: string): (ids: string[]) => Map<string, ImpactStale> {
  return (ids) => {
    const out = new Map<string, ImpactStale>();
    for (const [id, m] of latestMarkers(root, ids)) {
      const s = staleOf(m);
      if (s) out.set(id, s);
    }
    return out;
  };
}

/**
 * The evidence store's `edges`/`edge_sources` tables as an EdgeStore. Every edge impact stores
 * leaves an artifact, so the whole set (needed to match path entries) is read per artifact id
 * once and kept until an origin is replaced.
 */
class SqliteEdges implements EdgeStore {
  private all: ImpactEdge[] | undefined;
  constructor(
    private readonly store: Store,
    private readonly artifactIds: () => Iterable<string>,
  ) {}
  edgeSourceHash(origin: string) {
    return this.store.edgeSourceHash(origin);
  }
  replaceEdges(origin: string, hash: string, edges: ImpactEdge[]) {
    this.store.replaceEdges(origin, hash, edges.map((e) => ({ src_kind: e.srcKind, src: e.src, dst_kind: e.dstKind, dst: e.dst, kind: e.kind })));
    this.all = undefined;
  }
  removeOrigin(origin: string) {
    this.store.removeEdgeSources([origin]);
    this.all = undefined;
  }
  origins() {
    return this.store.edgeOrigins();
  }
  edgesFrom(kind: ImpactNodeKind, id: string) {
    return this.store.edgesFrom(kind, id).map(toEdge);
  }
  edgesTo(kind: ImpactNodeKind, id: string) {
    return this.store.edgesTo(kind, id).map(toEdge);
  }
  edgesToKind(kind: ImpactNodeKind) {
    if (!this.all) {
      this.all = [];
      for (const id of this.artifactIds()) this.all.push(...this.edgesFrom('artifact', id));
    }
    return this.all.filter((e) => e.dstKind === kind);
  }
  flush() {
    // every write is its own transaction
  }
}

const toEdge = (r: { src_kind: string; src: string; dst_kind: string; dst: string; kind: string; origin: string }): ImpactEdge => ({
  srcKind: r.src_kind as ImpactNodeKind,
  src: r.src,
  dstKind: r.dst_kind as ImpactNodeKind,
  dst: r.dst,
  kind: r.kind as ImpactEdge['kind'],
  origin: r.origin,
});

/**
 * Move the markers journal into the store: the journal is renamed first, so markers appended
 * meanwhile start a new journal, then read and recorded in one transaction, then deleted.
 */
export function ingestMarkerJournal(store: Pick<Store, 'recordMarkers'>, root: string): number {
  const file = ctxDir(root, MARKERS_JOURNAL);
  if (!file) return 0;
  const taken = `${file}.${process.pid}.ingest`;
  try {
    renameSync(file, taken);
  } catch {
    return 0;
  }
  const list: StaleMarker[] = parseMarkerLines(readFileSync(taken, 'utf8'));
  store.recordMarkers(list.map((m) => ({ artifact: m.artifact, anchor: m.anchor, verdict: m.verdict, ...(m.commit ? { commit: m.commit } : {}), dirty: m.dirty, at: Date.parse(m.at), run: m.run })));
  unlinkSync(taken);
  return list.length;
}

/**
 * The evidence store when its SQLite module loads (markers journal ingested first), else the
 * file-backed edges and the journal. Only `impact` front ends call this: check, the hook and
 * the Action never do.
 */
export async function openImpactBackend(root: string, artifactIds: () => Iterable<string>): Promise<ImpactBackend> {
  let store: Store;
  try {
    const { openStore } = await import('../store/store.js');
    store = openStore(root);
  } catch (e) {
    if (!isCtxError(e)) throw e;
    return { kind: 'file', edges: openEdgeCache(root), markers: journalMarkers(root), note: e.message, close: () => undefined };
  }
  try {
    ingestMarkerJournal(store, root);
  } catch {
    // markers stay in the journal for the next run; impact still answers
  }
  return {
    kind: 'sqlite',
    edges: new SqliteEdges(store, artifactIds),
    markers: (ids) => {
      const out = new Map<string, ImpactStale>();
      for (const m of store.latestMarkers(ids)) {
        if (m.anchor !== '') continue;
        const s = staleOf({ verdict: m.verdict, ...(m.commit ? { commit: m.commit } : {}), at: new Date(m.at ?? 0).toISOString() });
        if (s) out.set(m.artifact, s);
      }
      return out;
    },
    close: () => store.close(),
  };
}
