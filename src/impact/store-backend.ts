// @spec SPEC-IMPACT-001

import { isCtxError } from '../errors.js';
import { ingestMarkerJournal, NOT_FRESH } from '../store/marker-journal.js';
import type { Store } from '../store/store.js';
import { latestMarkers } from '../staleness/markers.js';
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

export { ingestMarkerJournal };
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
 * Edges kept in the evidence store's `edges`/`edge_sources` tables, read through the file
 * cache: a walk asks for thousands of edges, and one SQLite statement each (the store
 * prepares per call) cost seconds on 2,000 records where the file costs milliseconds. Every
 * origin recomputed is written to both; at flush the store gets the origins it lacks (a new
 * store, a store moved aside) and loses those that vanished, so the two agree.
 */
class MirroredEdges implements EdgeStore {
  private changed = false;
  constructor(
    private readonly file: EdgeStore,
    private readonly store: Store,
  ) {}
  edgeSourceHash(origin: string) {
    return this.file.edgeSourceHash(origin);
  }
  replaceEdges(origin: string, hash: string, edges: ImpactEdge[]) {
    this.file.replaceEdges(origin, hash, edges);
    this.store.replaceEdges(origin, hash, edges.map(toRow));
    this.changed = true;
  }
  removeOrigin(origin: string) {
    this.file.removeOrigin(origin);
    this.store.removeEdgeSources([origin]);
    this.changed = true;
  }
  origins() {
    return this.file.origins();
  }
  edgesOfOrigin(origin: string) {
    return this.file.edgesOfOrigin(origin);
  }
  edgesFrom(kind: ImpactNodeKind, id: string) {
    return this.file.edgesFrom(kind, id);
  }
  edgesTo(kind: ImpactNodeKind, id: string) {
    return this.file.edgesTo(kind, id);
  }
  edgesToKind(kind: ImpactNodeKind) {
    return this.file.edgesToKind(kind);
  }
  flush() {
    this.file.flush();
    // nothing recomputed and as many edges on both sides: in step, no need to list the store's origins
    if (!this.changed && this.store.edgeCount() === this.file.origins().reduce((n, o) => n + this.file.edgesOfOrigin(o).length, 0)) return;
    const inStore = new Set(this.store.edgeOrigins());
    const inFile = new Set(this.file.origins());
    for (const o of inFile) if (!inStore.has(o)) this.store.replaceEdges(o, this.file.edgeSourceHash(o) ?? '', this.file.edgesOfOrigin(o).map(toRow));
    const gone = [...inStore].filter((o) => !inFile.has(o));
    if (gone.length) this.store.removeEdgeSources(gone);
  }
}

const toRow = (e: ImpactEdge) => ({ src_kind: e.srcKind, src: e.src, dst_kind: e.dstKind, dst: e.dst, kind: e.kind });

/**
 * The evidence store when its SQLite module loads (markers journal ingested first), else the
 * file-backed edges and the journal. Only `impact` front ends call this: check, the hook and
 * the Action never do.
 */
export async function openImpactBackend(root: string): Promise<ImpactBackend> {
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
    edges: new MirroredEdges(openEdgeCache(root), store),
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
