// @spec SPEC-RETRIEVE-001

import { memo } from '../cache/memo.js';
import { CODE_WORDS_EXCLUDED, SOURCE_EXTENSIONS } from '../code/languages.js';
import { othersCodeOf } from '../code/others-code.js';
import { LOCKFILES, vendorFolderOf } from '../code/ungovernable.js';
import type { Snapshot } from '../snapshot/types.js';
import { sha1 } from '../util/hash.js';
import { extractPlaceTerms } from './extract.js';

/**
 * How many of this repository's code files use each word (document frequency), so a place
 * query can tell what its code says that other code does not: `handler`, `util`, the package
 * name and the words of a shared folder are in most files and say little; `idempotencyKey`, a
 * literal or a domain term in a comment are in few and say much.
 */
export interface CodeWords {
  /** code files read */
  files: number;
  /** words in 2 or more of them (a word not listed is in at most one) */
  df: Record<string, number>;
  /**
   * of `df`, the files that have the word only in their path, not in their code: a folder every
   * file sits under (`dotcom-rendering/`) makes its words look common without the code using them
   */
  pathOnly?: Record<string, number>;
}

/** Files read at most: a deterministic sample estimates the shares as well as the whole tree. */
const MAX_FILES = 1500;
/** Bytes read per file: the head of a file carries its imports, names and doc comments. */
const MAX_BYTES = 16_000;
const VERSION = 'code-words-v7';
/** the source files of src/code/languages.ts, but those code words leave out (SQL) */
const CODE_EXT = new RegExp(`\\.(?:${Object.keys(SOURCE_EXTENSIONS).filter((e) => !CODE_WORDS_EXCLUDED.has(e)).join('|')})$`, 'i');

/** Whether a path is code of the team's own by its name (not data, docs, configuration, build output). */
const isCodeFile = (p: string): boolean => CODE_EXT.test(p) && !/(^|\/)(dist|build)\//.test(p) && !/\.min\.js$/.test(p) && !LOCKFILES.has(p.slice(p.lastIndexOf('/') + 1));

/** Whether a path is code these frequencies count, by its name alone (no vendor folder: others-code.ts's rule without the tree's attributes). */
export const isCodePath = (p: string): boolean => isCodeFile(p) && vendorFolderOf(p) === undefined;

/**
 * What statistics sampled over the tree's code are kept by: the state of the git index (a
 * place snapshot's listing identity without its focus files, `<index stamp>|<focus blob ids>`),
 * else the commit; undefined when neither is known (then they are counted and not kept).
 */
export async function treeStateOf(snapshot: Snapshot): Promise<string | undefined> {
  const identityOf = (snapshot as { listIdentity?: () => Promise<string | undefined> }).listIdentity?.bind(snapshot);
  return (await identityOf?.().catch(() => undefined))?.split('|')[0] ?? (snapshot.kind === 'commit' ? snapshot.commit : undefined);
}

/**
 * Up to `max` of the tree's code files, evenly spaced in path order (deterministic for a tree);
 * undefined when it has fewer than `min` (links and submodules are not code files).
 */
export async function sampleCodePaths(snapshot: Snapshot, max: number, min: number): Promise<string[] | undefined> {
  // vendored and generated code says nothing about the team's words (others-code.ts)
  const othersCode = await othersCodeOf(snapshot);
  const paths = (await snapshot.list()).filter((e) => e.mode !== '120000' && e.mode !== '160000' && isCodeFile(e.path) && !othersCode(e.path)).map((e) => e.path);
  if (!paths.length || paths.length < min) return undefined;
  const step = Math.max(1, paths.length / max);
  const picked: string[] = [];
  for (let i = 0; i < paths.length && picked.length < max; i += step) picked.push(paths[Math.floor(i)]!);
  return picked;
}

/**
 * The code words of the snapshot's tree, remembered in the `code-words` cache by the state of
 * the git index (a place snapshot's listing identity without its focus files), else the
 * commit: a warm question reads one small file. The counts are shares over up to 1,500 files,
 * which the one file an agent is editing does not move, so editing the file in focus does not
 * count the tree again (about 0.2 s of CPU on 600 code files, 0.75 s on 1,600, at every read
 * after an edit). A tree without an identity is counted and not remembered.
 */
export function codeWordsOf(snapshot: Snapshot): Promise<CodeWords | undefined> {
  // once per snapshot (one tree state): a check judges every draft-like record with a search,
  // and a work tree has no identity to keep the counts by, so each search counted the tree again
  let p = counted.get(snapshot);
  if (!p) {
    p = countCodeWords(snapshot);
    counted.set(snapshot, p);
  }
  return p;
}

const counted = new WeakMap<Snapshot, Promise<CodeWords | undefined>>();

async function countCodeWords(snapshot: Snapshot): Promise<CodeWords | undefined> {
  const identity = await treeStateOf(snapshot);
  const key = identity ? sha1(`${VERSION}\n${identity}`) : undefined;
  const cache = memo<CodeWords>(snapshot.root, 'code-words');
  if (key) {
    const hit = cache.get(key);
    if (hit && typeof hit.files === 'number' && hit.df && typeof hit.df === 'object') return hit;
  }
  const picked = await sampleCodePaths(snapshot, MAX_FILES, 1);
  if (!picked) return undefined;
  const counts = new Map<string, number>();
  const pathCounts = new Map<string, number>();
  const bufs = await snapshot.readMany(picked);
  let files = 0;
  for (let i = 0; i < picked.length; i++) {
    const buf = bufs[i];
    if (!buf || buf.subarray(0, 8000).includes(0)) continue;
    files++;
    const t = extractPlaceTerms(buf.subarray(0, MAX_BYTES).toString('utf8'), picked[i]!, { keepPathNoise: true });
    const inCode = new Set([...t.identifiers, ...t.comments, ...t.strings, ...t.imports]);
    for (const w of new Set([...inCode, ...t.path])) counts.set(w, (counts.get(w) ?? 0) + 1);
    for (const w of new Set(t.path)) if (!inCode.has(w)) pathCounts.set(w, (pathCounts.get(w) ?? 0) + 1);
  }
  const df: Record<string, number> = {};
  for (const [w, n] of [...counts].sort((a, b) => (a[0] < b[0] ? -1 : 1))) if (n >= 2) df[w] = n;
  const pathOnly: Record<string, number> = {};
  for (const [w, n] of [...pathCounts].sort((a, b) => (a[0] < b[0] ? -1 : 1))) if (df[w] !== undefined) pathOnly[w] = n;
  const out: CodeWords = { files, df, pathOnly };
  if (key) cache.set(key, out);
  return out;
}

/**
 * Tuned on both development sets (bench/retrieval.mjs, DEC-055): a word's share of the files
 * maps to a factor `floor + (1 - floor) * (idf / max idf) ^ power`. The path's words spread
 * widely (a word only one file has outweighs a folder word all files share many times over); the
 * code's words narrowly (0.6 to 1), as a common identifier can still be what a record is
 * about, and a steeper code curve lost symbol queries.
 */
const PATH_CURVE = { floor: 0.05, power: 3 };
const CODE_CURVE = { floor: 0.6, power: 3 };

/**
 * How much a word of the code at a place says, in (0, 1]: 1 for a word at most one code file
 * uses, falling with the share of files that use it (a word in every file says least). The
 * scale is the word's idf over the code divided by the largest idf possible.
 */
export function codeWordWeight(cw: CodeWords | undefined, curve: { floor: number; power: number }): (term: string) => number {
  if (!cw || cw.files < 20) return () => 1;
  const max = Math.log(cw.files + 1);
  return (term) => {
    const n = cw.df[term];
    if (!n) return 1;
    return curve.floor + (1 - curve.floor) * Math.pow(Math.log((cw.files + 1) / n) / max, curve.power);
  };
}

/**
 * A word the code itself uses in at least COMMON_SHARE of the code files (the language's keywords
 * that are no stop words, `end`, `declare`, `namespace`; the vendor's or package's name,
 * `sylius`, `goboot`, `guardian`) says next to nothing of one file: its code factor is
 * COMMON_FACTOR of the curve's (DEC-087). The curve alone leaves it at its floor (0.6), as high
 * as a word in a tenth of the files, since the power 3 keeps the curve flat for all but rare
 * words. The share counts the code, not the path: a word only the folder names give to every
 * file (`render` of `dotcom-rendering/`) is no common code word, and the path side weighs
 * folder words already. Chosen on the five development sets (bench/retrieval.mjs): 0.5 and
 * 0.3 raise goboot's and Sylius's file MRR and leave the other three sets as they were; a
 * share of 0.4 costs dotcom-rendering, and counting path words in the share costs it too.
 */
const COMMON_SHARE = 0.5;
const COMMON_FACTOR = 0.3;

/** The code curve's factor with the words most code files use lowered (COMMON_SHARE). */
function lessForCommon(cw: CodeWords | undefined, factor: (term: string) => number): (term: string) => number {
  if (!cw || cw.files < 20) return factor;
  const inCode = (term: string) => (cw.df[term] ?? 0) - (cw.pathOnly?.[term] ?? 0);
  return (term) => (inCode(term) >= COMMON_SHARE * cw.files ? COMMON_FACTOR * factor(term) : factor(term));
}

/** The curves' factors alone (DEC-055), for the code's words and the path's. */
export const curveWords = (cw: CodeWords | undefined) => ({ code: codeWordWeight(cw, CODE_CURVE), path: codeWordWeight(cw, PATH_CURVE) });

/** The factors placeQuery takes, for the code's words and the path's. */
export function distinctWords(cw: CodeWords | undefined): { code: (term: string) => number; path: (term: string) => number } {
  const curve = curveWords(cw);
  return { code: lessForCommon(cw, curve.code), path: curve.path };
}
