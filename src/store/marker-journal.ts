// @spec SPEC-STORE-001

import { appendFileSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readKeyedCache, writeKeyedCache } from '../cache/file.js';
import { ctxDir } from '../git/git-dir.js';
import { recordingEnabled } from './journal.js';
import type { Marker } from './types.js';

/**
 * A staleness verdict as it was reached by one run: the evidence store's `markers` row.
 * `anchor` is '' for the artifact's own verdict, else the anchor a non-ok verdict is about.
 */
export interface StaleMarker {
  artifact: string;
  anchor: string;
  verdict: string;
  /** commit the snapshot was at (HEAD for the work tree) */
  commit?: string;
  /** judged on a work tree or index that differs from the commit */
  dirty: boolean;
  /** ISO time */
  at: string;
  /** what ran it: stale, check, pr, mcp */
  run: string;
}

/** The journal the evidence store ingests: one JSON marker a line, appended, under `<git-dir>/ctx/`. */
export const MARKERS_JOURNAL = 'markers.jsonl';

/** Where the markers journal of a repository is (its one place: the store ingests it, staleness appends to it); undefined outside one. */
export const markersJournalFile = (root: string): string | undefined => ctxDir(root, MARKERS_JOURNAL);
/** Past this size the journal is compacted to the latest markers per (artifact, anchor). */
const MAX_JOURNAL_BYTES = 1_000_000;

/**
 * Append markers to the journal. Best effort, like a cache: a read-only git directory or a
 * full disk loses the markers, never the command. Plain appends of whole lines, so
 * concurrent writers interleave lines, not bytes; no SQLite is loaded (the hook, check and
 * the Action call this), the store ingests the journal when it opens. Off, like episodes,
 * with GIT_CTX_NO_RECORD=1 or `record: false` in the configuration given.
 */
export function appendMarkers(root: string, markers: readonly StaleMarker[], config?: { record?: boolean }): boolean {
  if (!markers.length || !recordingEnabled(process.env, config)) return false;
  const file = markersJournalFile(root);
  if (!file) return false;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    appendFileSync(file, markers.map((m) => JSON.stringify(m)).join('\n') + '\n');
    if (statSync(file).size > MAX_JOURNAL_BYTES) compact(file);
    return true;
  } catch {
    return false;
  }
}

/** Every marker in the journal, oldest first; lines that do not parse (a torn write) are skipped. */
export function readMarkers(root: string): StaleMarker[] {
  const file = markersJournalFile(root);
  if (!file) return [];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return parseMarkerLines(text);
}

/** Markers of journal text; lines that do not parse (a torn write) or lack fields are skipped. */
export function parseMarkerLines(text: string): StaleMarker[] {
  const out: StaleMarker[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const m = JSON.parse(line) as StaleMarker;
      if (m && typeof m.artifact === 'string' && typeof m.anchor === 'string' && typeof m.verdict === 'string' && typeof m.at === 'string' && typeof m.run === 'string') out.push(m);
    } catch {
      // a torn last line from a killed writer
    }
  }
  return out;
}

/** The latest artifact-level marker of each id asked (undefined: never judged). */
export function latestMarkers(root: string, ids: readonly string[]): Map<string, StaleMarker> {
  const want = new Set(ids);
  const out = new Map<string, StaleMarker>();
  for (const m of readMarkers(root)) if (m.anchor === '' && want.has(m.artifact) && (out.get(m.artifact)?.at ?? '') <= m.at) out.set(m.artifact, m);
  return out;
}

/** Keep the latest marker per (artifact, anchor); the rewrite is a rename, so readers see old or new. */
function compact(file: string): void {
  const latest = new Map<string, StaleMarker>();
  const text = readFileSync(file, 'utf8');
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const m = JSON.parse(line) as StaleMarker;
      latest.set(`${m.artifact}\0${m.anchor}`, m);
    } catch {
      // dropped
    }
  }
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, [...latest.values()].map((m) => JSON.stringify(m)).join('\n') + '\n');
  renameSync(tmp, file);
}

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
