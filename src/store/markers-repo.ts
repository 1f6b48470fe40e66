// @spec SPEC-STORE-001

import type { StoreDb } from './db.js';
import { NOT_FRESH, writeMarkerProjection } from './marker-journal.js';
import type { Marker } from './types.js';

/* The staleness markers (recorded by staleness runs) and impact's projection of the latest. */

/** A staleness verdict in force when an episode showed a record: the latest marker at or before it, at its commit. */
export interface StaleWhenShown {
  verdict: string;
  /** ms since the epoch: when the staleness run judged it */
  at: number;
  commit?: string;
  /** what judged it: stale, check, pr, mcp */
  run: string;
}

/**
 * Of these artifacts, those whose latest artifact-level marker at or before `at` (and at
 * `commit`, when known) says not fresh: what an episode showed that was stale when shown.
 */
export function staleWhenShown(s: StoreDb, artifacts: string[], at: number, commit: string | undefined): Map<string, StaleWhenShown> {
  const out = new Map<string, StaleWhenShown>();
  if (!artifacts.length) return out;
  const stmt = s.db.prepare(
    `SELECT verdict, commit_id, at, run FROM markers WHERE artifact = ? AND anchor = '' AND at <= ?${commit ? ' AND commit_id = ?' : ''} ORDER BY at DESC, rowid DESC LIMIT 1`,
  );
  for (const a of new Set(artifacts)) {
    const r = (commit ? stmt.get(a, Math.floor(at), commit) : stmt.get(a, Math.floor(at))) as Record<string, unknown> | undefined;
    if (!r || !NOT_FRESH.has(String(r.verdict))) continue;
    out.set(a, { verdict: String(r.verdict), at: Number(r.at), ...(r.commit_id == null ? {} : { commit: String(r.commit_id) }), run: String(r.run) });
  }
  return out;
}

/** Append markers (one staleness run's verdicts), in one transaction. */
export function recordMarkers(s: StoreDb, list: Marker[]): void {
  const at = s.clock();
  s.write(() => {
    const ins = s.db.prepare('INSERT INTO markers (artifact, anchor, verdict, commit_id, dirty, at, run) VALUES (?, ?, ?, ?, ?, ?, ?)');
    for (const m of list) ins.run(m.artifact, m.anchor, m.verdict, m.commit ?? null, m.dirty ? 1 : 0, Math.floor(m.at ?? at), m.run);
    // under the write lock, as the feedback profile: the last projection written holds every marker
    refreshMarkerProjection(s);
  });
}

/** Rewrite the projection of the latest record-level markers (src/store/marker-journal.ts) from the markers table. */
export function refreshMarkerProjection(s: StoreDb): void {
  const rows = s.db
    .prepare(`SELECT artifact, verdict, commit_id, at FROM (SELECT artifact, verdict, commit_id, at, row_number() OVER (PARTITION BY artifact ORDER BY at DESC, rowid DESC) AS n FROM markers WHERE anchor = '') WHERE n = 1 ORDER BY artifact`)
    .all() as Record<string, unknown>[];
  writeMarkerProjection(s.dir, rows.map((r) => ({ artifact: String(r.artifact), anchor: '', verdict: String(r.verdict), ...(r.commit_id == null ? {} : { commit: String(r.commit_id) }), at: Number(r.at), run: '' })));
}

/** The latest marker of each (artifact, anchor) for these artifacts (all artifacts when omitted). */
export function latestMarkers(s: StoreDb, artifactIds?: string[]): Marker[] {
  const sql = `SELECT artifact, anchor, verdict, commit_id, dirty, at, run FROM markers m
    WHERE rowid = (SELECT rowid FROM markers x WHERE x.artifact = m.artifact AND x.anchor = m.anchor ORDER BY at DESC, rowid DESC LIMIT 1)`;
  const rows = (
    artifactIds
      ? ((stmt) => artifactIds.flatMap((a) => stmt.all(a)))(s.db.prepare(`${sql} AND artifact = ? ORDER BY anchor`))
      : s.db.prepare(`${sql} ORDER BY artifact, anchor`).all()
  ) as Record<string, unknown>[];
  return rows.map((r) => ({
    artifact: String(r.artifact),
    anchor: String(r.anchor),
    verdict: String(r.verdict),
    ...(r.commit_id == null ? {} : { commit: String(r.commit_id) }),
    dirty: Number(r.dirty) === 1,
    at: Number(r.at),
    run: String(r.run),
  }));
}
