// @spec SPEC-STORE-001

import { readFileSync, renameSync, unlinkSync } from 'node:fs';
import { ctxDir } from '../git/git-dir.js';
import { MARKERS_JOURNAL, parseMarkerLines, type StaleMarker } from '../staleness/markers.js';
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
