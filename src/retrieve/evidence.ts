// @spec SPEC-RETRIEVE-001

import { semanticEvidence } from './floor.js';
import type { LaneHit, ReplaceableLane } from './types.js';

/** What each lane answered (undefined: it did not run, failed or timed out). */
export type Lanes = Partial<Record<ReplaceableLane, LaneHit[]>>;

/**
 * The query's evidence: the best evidence of a fused candidate. A lane put in
 * a built-in one's place that reports no evidence cannot be judged by the floor: its answers
 * count in full, as before the floor existed.
 */
export function bestEvidence(lanes: Lanes, ids: ReadonlySet<string>, question: boolean, lookup: boolean): number {
  let best = 0;
  const sem = (lanes.semantic ?? []).filter((h) => ids.has(h.ref.id)).map((h) => ({ id: h.ref.id, score: h.score }));
  // a two-word question met in one word keeps a lookup's share only when meaning, when it ran, puts the record first too (DEC-106, DEC-110)
  const found = new Set(sem.slice(0, 1).map((h) => h.id));
  const of = (h: LaneHit) => (h.unconfirmed !== undefined && lanes.semantic && !found.has(h.ref.id) ? h.unconfirmed : h.evidence);
  for (const hits of [lanes.keywords, lanes.mentions]) {
    for (const h of hits ?? []) {
      const e = of(h);
      if (e === undefined) return 1;
      if (ids.has(h.ref.id) && e > best) best = e;
    }
  }
  // meaning: two lanes agreeing on the first record, or (for a question) one record clearly closest
  const k = lanes.keywords?.find((h) => ids.has(h.ref.id));
  return Math.max(best, semanticEvidence(k && { id: k.ref.id, evidence: of(k) ?? 0 }, sem, question, lookup));
}

/** The evidence meaning alone gives a record: only the semantic lane's first, when it is clearly the closest. */
export function meaningOnlyEvidence(lanes: Lanes, ids: ReadonlySet<string>, question: boolean, lookup: boolean): Map<string, number> {
  const sem = (lanes.semantic ?? []).filter((h) => ids.has(h.ref.id)).map((h) => ({ id: h.ref.id, score: h.score }));
  return sem[0] ? new Map([[sem[0].id, semanticEvidence(undefined, sem, question, lookup)]]) : new Map();
}
