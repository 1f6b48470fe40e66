// @spec SPEC-STALENESS-001

import type { StaleMarker } from '../store/marker-journal.js';
import type { StaleReport } from './types.js';

// The journal itself (append, read, compact) is the evidence store's: staleness only says
// which verdicts a report leaves.
export { appendMarkers, latestMarkers, MARKERS_JOURNAL, markersJournalFile, parseMarkerLines, readMarkers, type StaleMarker } from '../store/marker-journal.js';

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
