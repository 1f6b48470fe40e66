// @spec SPEC-STORE-001

import { artifactRef, type EpisodeRecorder } from '../store/record.js';
import type { EpisodeQuery, EvidenceRef, Grounding, LaneRecord, SupportRef } from '../store/types.js';
import { unansweredLanes, type RetrievalResult, type RetrievedRecord } from './types.js';

/*
 * A retrieval result as an evidence-store episode (for, search, context_for_code,
 * search_decisions, agent-read): the store records episodes and knows nothing of retrieval;
 * this is where a result's lanes, evidence and references become the store's rows.
 */

/**
 * The code each result was found through, beyond the place itself: the graph neighbours
 * (caller, callee, import, importer) whose annotations or anchors declared it. Inferred: the
 * record is declared there, not at the place.
 */
export function viaRefs(r: RetrievalResult): SupportRef[] {
  const out: SupportRef[] = [];
  const here = new Set([r.query.kind === 'place' ? r.query.path : '', r.query.kind === 'place' && r.query.symbol ? `${r.query.path}#${r.query.symbol}` : '']);
  r.results.forEach((x, i) => {
    const seen = new Set<string>();
    for (const w of x.why) {
      if (w.kind !== 'graph' || !w.path) continue;
      for (const node of w.path) {
        if (here.has(node) || seen.has(node)) continue;
        seen.add(node);
        out.push({ role: 'via', kind: node.includes('#') ? 'symbol' : 'path', value: node, grounding: 'inferred', rank: i + 1, of: x.id });
      }
    }
  });
  return out;
}

/** The lanes of a retrieval result as recorded. */
export function lanesOf(r: RetrievalResult): LaneRecord[] {
  return Object.entries(r.slots).map(([name, s]) => ({ name, status: s.status, count: s.count, ms: Math.round(s.ms * 10) / 10, ...(s.message ? { message: s.message } : {}) }));
}

/** How firmly a retrieved record is grounded: declared ones were found in the code index, linked ones inferred, semantic-led ones by meaning. */
export function groundingOf(x: RetrievedRecord): Grounding {
  if (x.slot === 'declared') return 'indexed';
  if (x.slot === 'links') return 'inferred';
  const top = [...x.why].filter((w) => w.contribution !== undefined).sort((a, b) => (b.contribution ?? 0) - (a.contribution ?? 0))[0];
  return top?.kind === 'semantic' ? 'semantic' : 'indexed';
}

/** The evidence of a retrieval result, in rank order. */
export function evidenceOf(r: RetrievalResult): EvidenceRef[] {
  return r.results.map((x, i) => artifactRef(x.id, x.type, i + 1, groundingOf(x), x.slot));
}

/** The query of a retrieval result. */
export function queryOf(r: RetrievalResult): EpisodeQuery {
  return r.query.kind === 'place' ? { kind: 'place', text: r.query.place, place: r.query.path } : { kind: 'search', text: r.query.text };
}

/** Record a retrieval result (for, search, context_for_code, search_decisions, agent-read); `dirty` when the caller judged it with a kept answer. */
export function finishRetrieval(rec: EpisodeRecorder, r: RetrievalResult, dirty?: boolean): Promise<string | undefined> {
  const query = queryOf(r);
  // a symbol found at a line is part of the place asked, though the text named only the line
  const found: SupportRef[] = r.query.kind === 'place' && r.query.symbol && !query.text?.includes('#') ? [{ role: 'query', kind: 'symbol', value: `${r.query.path}#${r.query.symbol}`, grounding: 'indexed', rank: 0 }] : [];
  const via = viaRefs(r);
  return rec.finish({ query, lanes: lanesOf(r), evidence: evidenceOf(r), refs: [...found, ...via], files: filesOf(r, via), ...(dirty === undefined ? {} : { dirty }) });
}

/**
 * Whether every lane answered: a lane that timed out (a cold cache on a busy machine) or
 * failed leaves an answer that the next run, with its caches warm, may give whole. Such an
 * answer is shown, and not kept (DEC-062): kept, it would stand until the tree changed.
 */
export const answeredWhole = (r: RetrievalResult): boolean => !Object.keys(unansweredLanes(r.slots)).length;

/** The files a retrieval answer was computed from: the place, the records' files, the code they were found through. */
export function filesOf(r: RetrievalResult, via: SupportRef[] = viaRefs(r)): string[] {
  const out = new Set<string>();
  if (r.query.kind === 'place') out.add(r.query.path);
  for (const x of r.results) if (x.file) out.add(x.file);
  for (const v of via) out.add(v.kind === 'symbol' ? v.value.slice(0, v.value.indexOf('#')) : v.value);
  return [...out];
}
