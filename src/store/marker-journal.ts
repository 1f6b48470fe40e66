// @spec SPEC-STORE-001

import { readFileSync, renameSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { readKeyedCache, writeKeyedCache } from '../cache/file.js';
import { markersJournalFile, parseMarkerLines, type StaleMarker } from '../staleness/markers.js';
import type { Marker } from './types.js';

/** Verdicts that make a record worth a warning where it is shown (impact, episodes). */
export const NOT_FRESH: ReadonlySet<string> = new Set(['stale', 'moved', 'superseded']);

/**
 * Move the markers journal (`<git-dir>/ctx/markers.jsonl`, appended by stale, check, pr and
 * the MCP staleness tool) into the store: the journal is renamed first, so markers appended
 * meanwhile start a new journal, then read and recorded in one transaction, then deleted.
 * Every store command does this when it opens the store (`openStore`), so `episodes` and
 * `impact` see the same verdicts. Returns how many markers were moved.
 */
export function ingestMarkerJournal(store: { recordMarkers(list: Marker[]): void }, root: string): number {
  const file = markersJournalFile(root);
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
 * `<git-dir>/ctx/evidence/markers-latest.json`: the latest record-level marker of each record,
 * a projection of the store's markers table that `impact` reads without loading SQLite
 * (DEC-032). The store rewrites it inside the write transaction that records markers, and
 * when it finds it missing or the database rebuilt, as it does the feedback profile (DEC-028).
 */
export const MARKER_PROJECTION_FILE = 'markers-latest.json';
const PROJECTION_KEY = 'markers-latest-v1';

export const markerProjectionFile = (dir: string) => path.join(dir, MARKER_PROJECTION_FILE);

export function writeMarkerProjection(dir: string, markers: Marker[]): void {
  writeKeyedCache(markerProjectionFile(dir), PROJECTION_KEY, markers.map((m) => [m.artifact, m.verdict, m.commit ?? null, m.at ?? 0]));
}

/** The projection's markers by record id; undefined when it is missing or unreadable (open the store instead). */
export function readMarkerProjection(dir: string): Map<string, Marker> | undefined {
  const v = readKeyedCache(markerProjectionFile(dir), PROJECTION_KEY);
  if (!Array.isArray(v)) return undefined;
  const out = new Map<string, Marker>();
  for (const row of v as unknown[]) {
    if (!Array.isArray(row) || typeof row[0] !== 'string' || typeof row[1] !== 'string') return undefined;
    out.set(row[0], { artifact: row[0], anchor: '', verdict: row[1], ...(typeof row[2] === 'string' ? { commit: row[2] } : {}), at: Number(row[3]) || 0, run: '' });
  }
  return out;
}
