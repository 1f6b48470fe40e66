// @spec SPEC-RETRIEVE-001

import { memo } from '../cache/memo.js';
import type { Artifact } from '../artifacts/types.js';
import type { Snapshot } from '../snapshot/types.js';
import { sha1 } from '../util/hash.js';
import { searchKeywords, type KeywordHit, type KeywordSource } from './bm25.js';
import { codeWordsOf, distinctWords, sampleCodePaths, treeStateOf } from './code-words.js';
import { extractPlaceTerms, placeQuery } from './extract.js';
import { keywordIndexFor, keywordKeyOf } from './keyword-cache.js';

/**
 * What each record gets from any code file of this repository (issue 30 items 2 and 3,
 * DEC-075): over a deterministic sample of the code files, the mean of the record's keyword
 * score beside each file's best record (0 where it is not found). A record that speaks the
 * repository's everyday vocabulary (the package's name, folder words, the domain's common
 * nouns) stands high beside most files, and without a correction it sits in the top 3 of
 * files it does not govern; a record found only by what a few files do stands near 0.
 */
export interface PlaceBackground {
  /** code files sampled */
  files: number;
  /** record id → mean standing (score over the file's best score) over the sample */
  standing: Record<string, number>;
}

const VERSION = 'place-background-v7';
/** Files sampled: on the development sets (176 to 2,000 code files) the means settle by 200. */
const SAMPLE = 200;
/** Bytes read per file, as for the code words (code-words.ts): a file's head names what it does. */
const MAX_BYTES = 16_000;
/** A repository with fewer code files has no background worth measuring (as code-words.ts). */
const MIN_FILES = 20;

/**
 * How much of a record's background standing a place's keyword ranking takes off its own
 * standing. Measured on the three development sets (bench/retrieval.mjs, DEC-075): 0.25 lowers
 * the most frequent unlabelled record's count in file top-3s a little (13 → 11 of 24 on
 * git-en-boite), 0.35 more (13 → 9, 11 → 10 of 35, 14 → 11 of 35) with file MRR up on two sets
 * and within 0.001 on the third; 0.5 lowers it further (8, 8, 10) but costs dotcom-rendering
 * 0.027 of file MRR and git-en-boite 0.012.
 */
export const BACKGROUND_WEIGHT = 0.35;

/**
 * The background of the records over the snapshot's code, remembered in the `place-background`
 * cache by the state of the git index (or the commit) and the records' keyword index: a warm
 * place question reads one small file. Undefined for a tree of few code files.
 */
export async function placeBackgroundOf(snapshot: Snapshot, artifacts: readonly Artifact[], setKey?: string): Promise<PlaceBackground | undefined> {
  // a mean over 200 files, which the file an agent is editing does not move: kept per state of
  // the git index (editing the file in focus does not sample the tree again)
  const identity = await treeStateOf(snapshot);
  const key = identity ? sha1(`${VERSION}\n${SAMPLE}\n${identity}\n${keywordKeyOf(artifacts, setKey)}`) : undefined;
  const cache = memo<PlaceBackground>(snapshot.root, 'place-background');
  if (key) {
    const hit = cache.get(key);
    if (hit && typeof hit.files === 'number' && hit.standing && typeof hit.standing === 'object') return hit;
  }
  const picked = await sampleCodePaths(snapshot, SAMPLE, MIN_FILES);
  if (!picked) return undefined;
  const [bufs, cw] = await Promise.all([snapshot.readMany(picked), codeWordsOf(snapshot).catch(() => undefined)]);
  const distinct = distinctWords(cw);
  const { index, close } = keywordIndexFor(snapshot.root, artifacts, setKey);
  const standing: Record<string, number> = {};
  let files = 0;
  try {
    for (let i = 0; i < picked.length; i++) {
      const buf = bufs[i];
      if (!buf || buf.subarray(0, 8000).includes(0)) continue;
      const q = placeQuery(extractPlaceTerms(buf.subarray(0, MAX_BYTES).toString('utf8'), picked[i]!), distinct);
      if (!q.size) continue;
      files++;
      addStanding(index, q, standing);
    }
  } finally {
    close();
  }
  if (!files) return undefined;
  for (const id of Object.keys(standing)) standing[id] = Math.round((standing[id]! / files) * 1e4) / 1e4;
  const out: PlaceBackground = { files, standing };
  if (key) cache.set(key, out);
  return out;
}

function addStanding(index: KeywordSource, q: Map<string, number>, standing: Record<string, number>): void {
  const hits = searchKeywords(index, q, 50, { place: true });
  const top = hits[0]?.score ?? 0;
  if (!(top > 0)) return;
  for (const h of hits) standing[h.id] = (standing[h.id] ?? 0) + h.score / top;
}

/**
 * A place's keyword hits ranked by what they say of this place beyond what they say of any
 * code here: each standing (score over the best) less BACKGROUND_WEIGHT times the record's
 * background standing, never below a fiftieth of its own (a hit is reordered, never dropped),
 * back on the scale of the best score. The evidence (floor.ts) is judged on the hits as found.
 */
export function aboveBackground(found: readonly KeywordHit[], bg: PlaceBackground): KeywordHit[] {
  const top = found[0]?.score ?? 0;
  if (!(top > 0)) return [...found];
  return found
    .map((h) => {
      const s = h.score / top;
      return { ...h, score: top * Math.max(0.02 * s, s - BACKGROUND_WEIGHT * (bg.standing[h.id] ?? 0)) };
    })
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}
