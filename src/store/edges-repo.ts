// @spec SPEC-STORE-001

import type { StoreDb } from './db.js';
import type { Edge, StoredEdge } from './types.js';

/* The impact edges (computed by src/impact, stored here) and the content hash of each origin. */

/** The content hash the edges of `origin` were computed from, or undefined when never stored. */
export function edgeSourceHash(s: StoreDb, origin: string): string | undefined {
  const h = s.scalar('SELECT hash AS n FROM edge_sources WHERE origin = ?', 'n', origin);
  return h === undefined ? undefined : String(h);
}

/** Replace every edge of `origin` with `edges`, remembering `hash`, in one transaction. */
export function replaceEdges(s: StoreDb, origin: string, hash: string, edges: Edge[]): void {
  s.write(() => {
    s.db.prepare('DELETE FROM edges WHERE origin = ?').run(origin);
    const ins = s.db.prepare('INSERT OR REPLACE INTO edges (src_kind, src, dst_kind, dst, kind, origin) VALUES (?, ?, ?, ?, ?, ?)');
    for (const e of edges) ins.run(e.src_kind, e.src, e.dst_kind, e.dst, e.kind, origin);
    s.db.prepare('INSERT INTO edge_sources (origin, hash) VALUES (?, ?) ON CONFLICT(origin) DO UPDATE SET hash = excluded.hash').run(origin, hash);
  });
}

/** Forget origins no longer present (a deleted record or file), with their edges. */
export function removeEdgeSources(s: StoreDb, origins: string[]): void {
  s.write(() => {
    for (const o of origins) {
      s.db.prepare('DELETE FROM edges WHERE origin = ?').run(o);
      s.db.prepare('DELETE FROM edge_sources WHERE origin = ?').run(o);
    }
  });
}

/** How many edges are stored (one count, not stats(): the evidence table of a large store is slow to count). */
export function edgeCount(s: StoreDb): number {
  return Number(s.scalar('SELECT count(*) AS n FROM edges'));
}

/** Every origin with stored edges. */
export function edgeOrigins(s: StoreDb): string[] {
  return (s.db.prepare('SELECT origin FROM edge_sources ORDER BY origin').all() as { origin: string }[]).map((r) => String(r.origin));
}

/** Edges leaving (kind, id): forward impact. */
export function edgesFrom(s: StoreDb, kind: string, id: string): StoredEdge[] {
  return (s.db.prepare('SELECT src_kind, src, dst_kind, dst, kind, origin FROM edges WHERE src_kind = ? AND src = ? ORDER BY dst_kind, dst, kind').all(kind, id) as Record<string, unknown>[]).map(edgeOf);
}

/** Edges arriving at (kind, id): reverse impact. */
export function edgesTo(s: StoreDb, kind: string, id: string): StoredEdge[] {
  return (s.db.prepare('SELECT src_kind, src, dst_kind, dst, kind, origin FROM edges WHERE dst_kind = ? AND dst = ? ORDER BY src_kind, src, kind').all(kind, id) as Record<string, unknown>[]).map(edgeOf);
}

function edgeOf(r: Record<string, unknown>): StoredEdge {
  return { src_kind: String(r.src_kind), src: String(r.src), dst_kind: String(r.dst_kind), dst: String(r.dst), kind: String(r.kind), origin: String(r.origin) };
}
