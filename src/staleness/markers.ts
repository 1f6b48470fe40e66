// @spec SPEC-STALENESS-001

import { appendFileSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ctxDir } from '../git/git-dir.js';
import { recordingEnabled } from '../store/journal.js';
import type { StaleReport } from './types.js';

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

/** The markers of one staleness report (every artifact's verdict, and the anchors that are not ok). */
export function markersOf(report: StaleReport, run: string, at: Date = new Date()): StaleMarker[] {
  const base = { commit: report.snapshot.commit ?? report.head, dirty: report.snapshot.kind !== 'commit', at: at.toISOString(), run };
  const out: StaleMarker[] = [];
  for (const j of report.artifacts) {
    out.push({ artifact: j.id, anchor: '', verdict: j.lifecycle.supersededBy.length && j.status === 'fresh' ? 'superseded' : j.status, ...base });
    for (const v of j.anchors) if (v.state !== 'ok') out.push({ artifact: j.id, anchor: v.anchor, verdict: v.state, ...base });
  }
  return out;
}

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
