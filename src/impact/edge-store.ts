// @spec SPEC-IMPACT-001

import { cacheFile } from '../git/git-dir.js';
import { readCacheJson, writeCacheFile } from '../cache/file.js';
import type { ImpactEdge, ImpactNodeKind } from './types.js';

/**
 * Where impact edges are kept, refreshed per origin (an artifact file, a code file) by the
 * origin's content hash. The shape is the evidence store's `edges` + `edge_sources` tables,
 * so that the SQLite store can serve it as it is; `openEdgeCache` is the file-backed one
 * that works without the native module.
 */
export interface EdgeStore {
  /** the hash the origin's edges were computed from, undefined when never seen */
  edgeSourceHash(origin: string): string | undefined;
  /** replace every edge of one origin (an origin with no edges keeps its hash, so it is not recomputed) */
  replaceEdges(origin: string, hash: string, edges: ImpactEdge[]): void;
  /** forget an origin that no longer exists, with its edges */
  removeOrigin(origin: string): void;
  /** every origin with edges */
  origins(): string[];
  /** the edges stored for one origin */
  edgesOfOrigin(origin: string): ImpactEdge[];
  edgesFrom(kind: ImpactNodeKind, id: string): ImpactEdge[];
  edgesTo(kind: ImpactNodeKind, id: string): ImpactEdge[];
  /** every edge of one kind of destination (path entries are matched, not looked up) */
  edgesToKind(kind: ImpactNodeKind): ImpactEdge[];
  /** persist what changed (no-op when nothing did) */
  flush(): void;
}

/** Bump when what an origin yields changes: old files are then ignored. */
const EDGE_CACHE_VERSION = 1;
const EDGE_CACHE = 'impact-edges.json';

/** Compact on-disk edge: [srcKind, src, dstKind, dst, kind]; the origin is the key it is stored under. */
type Row = [ImpactNodeKind, string, ImpactNodeKind, string, ImpactEdge['kind']];
interface FileShape {
  v: number;
  origins: Record<string, { hash: string; edges: Row[] }>;
}

/** Edges in memory, indexed both ways; saved to `<git-dir>/ctx/cache/impact-edges.json` by `flush`. */
class EdgeCache implements EdgeStore {
  private readonly byOrigin = new Map<string, { hash: string; edges: ImpactEdge[] }>();
  private index: { from: Map<string, ImpactEdge[]>; to: Map<string, ImpactEdge[]>; toKind: Map<ImpactNodeKind, ImpactEdge[]> } | undefined;
  private dirty = false;

  constructor(private readonly file: string | undefined) {
    const raw = file ? (readCacheJson(file) as FileShape | undefined) : undefined;
    if (!raw || raw.v !== EDGE_CACHE_VERSION || !raw.origins || typeof raw.origins !== 'object') return;
    for (const [origin, o] of Object.entries(raw.origins)) {
      if (!o || typeof o.hash !== 'string' || !Array.isArray(o.edges)) continue;
      this.byOrigin.set(origin, { hash: o.hash, edges: o.edges.map(([srcKind, src, dstKind, dst, kind]) => ({ srcKind, src, dstKind, dst, kind, origin })) });
    }
  }

  edgeSourceHash(origin: string): string | undefined {
    return this.byOrigin.get(origin)?.hash;
  }

  replaceEdges(origin: string, hash: string, edges: ImpactEdge[]): void {
    this.byOrigin.set(origin, { hash, edges: edges.map((e) => ({ ...e, origin })) });
    this.changed();
  }

  removeOrigin(origin: string): void {
    if (this.byOrigin.delete(origin)) this.changed();
  }

  origins(): string[] {
    return [...this.byOrigin.keys()];
  }

  edgesOfOrigin(origin: string): ImpactEdge[] {
    return this.byOrigin.get(origin)?.edges ?? [];
  }

  edgesFrom(kind: ImpactNodeKind, id: string): ImpactEdge[] {
    return this.built().from.get(`${kind}\0${id}`) ?? [];
  }

  edgesTo(kind: ImpactNodeKind, id: string): ImpactEdge[] {
    return this.built().to.get(`${kind}\0${id}`) ?? [];
  }

  edgesToKind(kind: ImpactNodeKind): ImpactEdge[] {
    return this.built().toKind.get(kind) ?? [];
  }

  flush(): void {
    if (!this.dirty || !this.file) return;
    const out: FileShape = { v: EDGE_CACHE_VERSION, origins: {} };
    for (const [origin, o] of [...this.byOrigin].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      out.origins[origin] = { hash: o.hash, edges: o.edges.map((e) => [e.srcKind, e.src, e.dstKind, e.dst, e.kind]) };
    }
    writeCacheFile(this.file, JSON.stringify(out));
    this.dirty = false;
  }

  private changed(): void {
    this.dirty = true;
    this.index = undefined;
  }

  private built() {
    if (this.index) return this.index;
    const from = new Map<string, ImpactEdge[]>();
    const to = new Map<string, ImpactEdge[]>();
    const toKind = new Map<ImpactNodeKind, ImpactEdge[]>();
    const push = <K>(m: Map<K, ImpactEdge[]>, k: K, e: ImpactEdge) => {
      const l = m.get(k);
      if (l) l.push(e);
      else m.set(k, [e]);
    };
    for (const o of this.byOrigin.values()) {
      for (const e of o.edges) {
        push(from, `${e.srcKind}\0${e.src}`, e);
        push(to, `${e.dstKind}\0${e.dst}`, e);
        push(toKind, e.dstKind, e);
      }
    }
    return (this.index = { from, to, toKind });
  }
}

/**
 * The file-backed edge store of a repository (`cache: false`: in memory only). A missing,
 * foreign or corrupt file is an empty store: every origin is recomputed and the file rewritten.
 */
export function openEdgeCache(root: string, opts: { cache?: boolean } = {}): EdgeStore {
  return new EdgeCache(opts.cache === false ? undefined : edgeCacheFile(root));
}

/** The edge file of a repository (undefined with GIT_CTX_NO_CACHE=1 or outside one). */
export const edgeCacheFile = (root: string): string | undefined => cacheFile(root, EDGE_CACHE);
