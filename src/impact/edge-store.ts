// @spec SPEC-IMPACT-001

import { cacheStore, type CacheStore } from '../cache/memo.js';
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

/** Bump when what an origin yields, or the file's shape, changes: old files are then ignored. */
const EDGE_CACHE_VERSION = 3;

/**
 * On disk, as columns (JSON parses a flat array of strings several times faster than an
 * object per origin and an array per edge): the origins, their hashes, how many edges each
 * has, then every edge as five strings `srcKind, src, dstKind, dst, kind`, origin by origin.
 */
interface FileShape {
  v: number;
  o: string[];
  h: string[];
  n: number[];
  e: string[];
}

function validShape(raw: FileShape | undefined): raw is FileShape {
  if (!raw || raw.v !== EDGE_CACHE_VERSION || ![raw.o, raw.h, raw.n, raw.e].every(Array.isArray)) return false;
  if (raw.h.length !== raw.o.length || raw.n.length !== raw.o.length) return false;
  let total = 0;
  for (const k of raw.n) total += k;
  return raw.e.length === 5 * total;
}

type Index = Map<ImpactNodeKind, Map<string, ImpactEdge[]>>;
const push = (m: Index, kind: ImpactNodeKind, id: string, e: ImpactEdge) => {
  let byId = m.get(kind);
  if (!byId) m.set(kind, (byId = new Map()));
  const l = byId.get(id);
  if (l) l.push(e);
  else byId.set(id, [e]);
};

/** Edges in memory, indexed both ways; saved to the impact-edges cache by `flush`. */
class EdgeCache implements EdgeStore {
  private readonly byOrigin = new Map<string, { hash: string; edges: ImpactEdge[] }>();
  private index: { from: Index; to: Index; toKind: Map<ImpactNodeKind, ImpactEdge[]> } | undefined;
  private dirty = false;

  constructor(private readonly file: CacheStore<FileShape> | undefined) {
    const raw = file?.read();
    if (!validShape(raw)) return;
    const { o, h, n, e } = raw;
    let at = 0;
    for (let i = 0; i < o.length; i++) {
      const origin = o[i]!;
      const edges: ImpactEdge[] = [];
      for (let j = 0; j < n[i]!; j++, at += 5) edges.push({ srcKind: e[at] as ImpactNodeKind, src: e[at + 1]!, dstKind: e[at + 2] as ImpactNodeKind, dst: e[at + 3]!, kind: e[at + 4] as ImpactEdge['kind'], origin });
      this.byOrigin.set(origin, { hash: h[i]!, edges });
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
    return this.built().from.get(kind)?.get(id) ?? [];
  }

  edgesTo(kind: ImpactNodeKind, id: string): ImpactEdge[] {
    return this.built().to.get(kind)?.get(id) ?? [];
  }

  edgesToKind(kind: ImpactNodeKind): ImpactEdge[] {
    return this.built().toKind.get(kind) ?? [];
  }

  flush(): void {
    if (!this.dirty || !this.file) return;
    const out: FileShape = { v: EDGE_CACHE_VERSION, o: [], h: [], n: [], e: [] };
    for (const [origin, o] of [...this.byOrigin].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      out.o.push(origin);
      out.h.push(o.hash);
      out.n.push(o.edges.length);
      for (const e of o.edges) out.e.push(e.srcKind, e.src, e.dstKind, e.dst, e.kind);
    }
    this.file.write(out);
    this.dirty = false;
  }

  private changed(): void {
    this.dirty = true;
    this.index = undefined;
  }

  private built() {
    if (this.index) return this.index;
    const from: Index = new Map();
    const to: Index = new Map();
    const toKind = new Map<ImpactNodeKind, ImpactEdge[]>();
    for (const o of this.byOrigin.values()) {
      for (const e of o.edges) {
        push(from, e.srcKind, e.src, e);
        push(to, e.dstKind, e.dst, e);
        const l = toKind.get(e.dstKind);
        if (l) l.push(e);
        else toKind.set(e.dstKind, [e]);
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
  return new EdgeCache(opts.cache === false ? undefined : edgeFile(root));
}

/** The edge file of a repository (off with GIT_CTX_NO_CACHE=1 or outside one). */
export const edgeFile = (root: string): CacheStore<FileShape> => cacheStore<FileShape>(root, 'impact-edges');
