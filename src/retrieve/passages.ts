// @spec SPEC-RETRIEVE-001

import type { Artifact } from '../artifacts/types.js';
import { memo } from '../cache/memo.js';
import { passagesOf } from './floor.js';
import { keywordKeyOf } from './keyword-cache.js';
import { joinedTerms, terms } from './text.js';

/**
 * The records' passages as a short question reads them (floor.ts PASSAGE_SHARE, DEC-092): per
 * record id, each passage (its head, then each paragraph of its body) as the index's terms
 * joined by spaces. Kept in the `retrieve-passages` cache by the set's key, as the keyword index
 * is: a warm search answered from the kept search set (DEC-066), which holds no bodies, reads
 * this instead; only a miss reads the records' bodies (and, from the kept set, is computed
 * from the repository, which keeps it).
 */
export type PassageIndex = Record<string, string[]>;

const termsOf = (text: string): string[] => [...terms(text), ...joinedTerms(text)];

/** One record's passages as term lists (deduplicated per passage). */
function recordPassages(a: Artifact): string[] {
  const passages = passagesOf(`${a.title}\n${a.id}\n${a.summary ?? ''}\n${a.keywords.join(' ')}`, a.body, termsOf);
  // the head holds the title's words side by side run together, as the keyword index does (bm25.ts)
  for (const t of joinedTerms(a.title, { pairs: true })) passages[0]?.add(t);
  return passages.map((p) => [...p].join(' '));
}

/** The passage index of a set's records, from the cache when their content is unchanged. */
export function passageIndexFor(root: string | undefined, artifacts: readonly Artifact[], setKey?: string): PassageIndex {
  const key = keywordKeyOf(artifacts, setKey);
  const cache = memo<PassageIndex>(root, 'retrieve-passages');
  const hit = cache.get(key);
  if (hit && typeof hit === 'object') return hit;
  const index: PassageIndex = {};
  for (const a of artifacts) index[a.id] = recordPassages(a);
  cache.set(key, index);
  return index;
}

/** A record's passages as sets of terms, for textEvidence; undefined for a record the index lacks. */
export function passagesIn(index: PassageIndex, id: string): Set<string>[] | undefined {
  const p = Object.hasOwn(index, id) ? index[id] : undefined;
  return Array.isArray(p) ? p.map((s) => new Set(s.split(' '))) : undefined;
}
