// @spec SPEC-IMPACT-001

import { statSync } from 'node:fs';
import path from 'node:path';
import { readKeyedCache, writeKeyedCache } from '../cache/file.js';
import { isCtxError, type CtxError } from '../errors.js';
import { driverResolvable } from '../store/driver.js';
import { evidenceDir } from '../store/journal.js';
import { ingestMarkerJournal, NOT_FRESH, readMarkerProjection } from '../store/marker-journal.js';
import type { Store } from '../store/store.js';
import { latestMarkers, markersJournalFile } from '../staleness/markers.js';
import { edgeFile, openEdgeCache, type EdgeStore } from './edge-store.js';
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

/** Edge stores that write elsewhere too but always read from the edge file (walks ask for thousands of edges). */
abstract class ReadsFromFile {
  constructor(protected readonly file: EdgeStore) {}
  edgeSourceHash(origin: string) {
    return this.file.edgeSourceHash(origin);
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
}

/**
 * Edges kept in the evidence store's `edges`/`edge_sources` tables, read through the file
 * cache: a walk asks for thousands of edges, and one SQLite statement each (the store
 * prepares per call) cost seconds on 2,000 records where the file costs milliseconds. Every
 * origin recomputed is written to both; at flush the store gets the origins it lacks (a new
 * store, a store moved aside) and loses those that vanished, so the two agree. The store is
 * opened on first need (DEC-032): a warm walk that recomputes nothing, with the sync stamp
 * saying the store already holds this edge file, never loads SQLite.
 */
class MirroredEdges extends ReadsFromFile implements EdgeStore {
  private changed = false;
  constructor(
    file: EdgeStore,
    private readonly store: () => Store,
    private readonly sync: { inStep(): boolean; done(): void },
  ) {
    super(file);
  }
  replaceEdges(origin: string, hash: string, edges: ImpactEdge[]) {
    this.file.replaceEdges(origin, hash, edges);
    this.store().replaceEdges(origin, hash, edges.map(toRow));
    this.changed = true;
  }
  removeOrigin(origin: string) {
    this.file.removeOrigin(origin);
    this.store().removeEdgeSources([origin]);
    this.changed = true;
  }
  flush() {
    this.file.flush();
    // nothing recomputed and the stamp written after the last sync names this store and this edge file: in step
    if (!this.changed && this.sync.inStep()) return;
    const store = this.store();
    // nothing recomputed and as many edges on both sides: in step, no need to list the store's origins
    if (this.changed || store.edgeCount() !== this.file.origins().reduce((n, o) => n + this.file.edgesOfOrigin(o).length, 0)) {
      const inStore = new Set(store.edgeOrigins());
      const inFile = new Set(this.file.origins());
      for (const o of inFile) if (!inStore.has(o)) store.replaceEdges(o, this.file.edgeSourceHash(o) ?? '', this.file.edgesOfOrigin(o).map(toRow));
      const gone = [...inStore].filter((o) => !inFile.has(o));
      if (gone.length) store.removeEdgeSources(gone);
    }
    this.changed = false;
    this.sync.done();
  }
}

const toRow = (e: ImpactEdge) => ({ src_kind: e.srcKind, src: e.src, dst_kind: e.dstKind, dst: e.dst, kind: e.kind });

/** `<git-dir>/ctx/evidence/impact-sync.json`: which database file held which edge file when they were last found in step. */
const SYNC_FILE = 'impact-sync.json';
const stampOf = (file: string | undefined): string | undefined => {
  if (!file) return undefined;
  try {
    const st = statSync(file, { bigint: true });
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}`;
  } catch {
    return undefined;
  }
};

function syncStamp(root: string, dir: string, dbFile: string) {
  const file = path.join(dir, SYNC_FILE);
  // the database by its inode (a file moved aside and rebuilt is another one), the edge file by its stat
  const now = () => {
    const db = stampOf(path.join(dir, dbFile))?.split(':').slice(0, 2).join(':');
    const edges = edgeFile(root).stamp();
    return db && edges ? `${db}\n${edges}` : undefined;
  };
  return {
    inStep: () => {
      const s = now();
      return s !== undefined && readKeyedCache(file, 'impact-sync-v1') === s;
    },
    done: () => {
      const s = now();
      if (s) writeKeyedCache(file, 'impact-sync-v1', s);
    },
  };
}

const markersOf = (list: Iterable<{ artifact: string; anchor: string; verdict: string; commit?: string; at?: number }>, ids: string[]): Map<string, ImpactStale> => {
  const want = new Set(ids);
  const out = new Map<string, ImpactStale>();
  for (const m of list) {
    if (m.anchor !== '' || !want.has(m.artifact)) continue;
    const s = staleOf({ verdict: m.verdict, ...(m.commit ? { commit: m.commit } : {}), at: new Date(m.at ?? 0).toISOString() });
    if (s) out.set(m.artifact, s);
  }
  return out;
};

/** Whether staleness runs left markers in the journal for the store to take in. */
function markersPending(root: string): boolean {
  const file = markersJournalFile(root);
  try {
    return !!file && statSync(file).size > 0;
  } catch {
    return false;
  }
}

/**
 * The evidence store when its SQLite module loads (markers journal ingested first), else the
 * file-backed edges and the journal. Only `impact` front ends call this: check, the hook and
 * the Action never do. When no markers wait in the journal and the store's projection of the
 * latest markers is there, the store is not opened until an edge has to be written to it.
 */
export async function openImpactBackend(root: string): Promise<ImpactBackend> {
  const { openStore, DB_FILE } = await import('../store/store.js');
  const dir = evidenceDir(root);
  const projected = dir && !markersPending(root) && driverResolvable() ? readMarkerProjection(dir) : undefined;
  if (dir && projected) {
    let store: Store | undefined;
    let failed: CtxError | undefined;
    const open = () => {
      if (!store) {
        try {
          store = openStore(root);
        } catch (e) {
          if (!isCtxError(e)) throw e;
          failed = e;
          throw e;
        }
      }
      return store;
    };
    const file = openEdgeCache(root);
    const mirrored = new MirroredEdges(file, open, syncStamp(root, dir, DB_FILE));
    return {
      get kind() {
        return failed ? ('file' as const) : ('sqlite' as const);
      },
      // a store that cannot load (the module gone since the projection was written) leaves the file: the same answers
      edges: new FallbackEdges(mirrored, file, () => failed !== undefined),
      markers: (ids) => markersOf(projected.values(), ids),
      get note() {
        return failed?.message;
      },
      close: () => store?.close(),
    };
  }
  let store: Store;
  try {
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
    edges: new MirroredEdges(openEdgeCache(root), () => store, syncStamp(root, store.dir, DB_FILE)),
    markers: (ids) => markersOf(store.latestMarkers(ids), ids),
    close: () => store.close(),
  };
}

/** The mirrored edges until the store fails to open, then the file alone. */
class FallbackEdges extends ReadsFromFile implements EdgeStore {
  constructor(
    private readonly mirrored: EdgeStore,
    file: EdgeStore,
    private readonly failed: () => boolean,
  ) {
    super(file);
  }
  private run<T>(fn: (s: EdgeStore) => T): T {
    if (this.failed()) return fn(this.file);
    try {
      return fn(this.mirrored);
    } catch (e) {
      if (!this.failed()) throw e;
      return fn(this.file);
    }
  }
  replaceEdges(origin: string, hash: string, edges: ImpactEdge[]) {
    this.run((s) => s.replaceEdges(origin, hash, edges));
  }
  removeOrigin(origin: string) {
    this.run((s) => s.removeOrigin(origin));
  }
  flush() {
    this.run((s) => s.flush());
  }
}
