// @spec SPEC-RETRIEVE-001

import type { ArtifactSet } from '../artifacts/load.js';
import { memo } from '../cache/memo.js';
import { codeSelector } from '../code/code-index.js';
import type { Config } from '../config.js';
import { gitGrepFiles, tagEre } from '../code/grep.js';
import { languageOf } from '../code/languages.js';
import type { Snapshot } from '../snapshot/types.js';
import { sha1 } from '../util/hash.js';
import { mark } from '../util/timing.js';
import { treeStateOf } from './code-words.js';

const VERSION = 'tree-tags-v2';

/**
 * Whether walking the code graph from a place can find a record (DEC-121). The walk looks for
 * records declared on the files the place imports, is imported by, calls or is called by:
 * annotations written in those files, or records anchored to them. When no record anchors
 * code and no code file carries an annotation tag (an ADR folder read as it is, before anyone
 * annotates), it finds nothing, and the first build of the whole repository's graph it needs
 * (about 2.5 s of a first `for` on 11,000 TypeScript files) is skipped.
 */
export async function neighboursCanDeclare(snapshot: Snapshot, set: ArtifactSet): Promise<boolean> {
  if (set.artifacts.some((a) => a.anchors.length > 0)) return true;
  const carries = await treeCarriesTags(snapshot, set.config);
  if (!carries) mark('code graph: no record anchors code and no code file carries a tag, not walked');
  return carries;
}

const asked = new WeakMap<Snapshot, Promise<boolean>>();

/**
 * Whether any code file of the snapshot (a file the code index reads: a language it knows, in
 * the config's anchors selection, outside the records folder, where `init`'s config.yaml
 * writes tags in its comments) carries one of the tags, by `git grep` over the snapshot's content, remembered in the `tree-tags`
 * cache by the state of the git index (the files in focus aside) or the commit, as the code
 * words are (code-words.ts): a tag written into another file without staging it counts from
 * the next change of the index. Once true, true for the repository (and the tags) from then
 * on. True when git cannot tell (the walk then runs).
 */
export function treeCarriesTags(snapshot: Snapshot, config: Pick<Config, 'tags' | 'anchors' | 'dir'>): Promise<boolean> {
  let p = asked.get(snapshot);
  if (!p) asked.set(snapshot, (p = grepTags(snapshot, config)));
  return p;
}

async function grepTags(snapshot: Snapshot, config: Pick<Config, 'tags' | 'anchors' | 'dir'>): Promise<boolean> {
  const tags = config.tags;
  if (!tags.length) return false;
  const tagSet = JSON.stringify([[...tags].sort(), config.anchors.include, config.anchors.exclude, config.dir]);
  const cache = memo<{ carries: boolean }>(snapshot.root, 'tree-tags');
  // a repository once seen carrying tags is walked from then on: the grep (a second on 100,000
  // files) is not run again at each state of the index, and a walk that finds nothing costs
  // only what it cost before DEC-121
  const once = sha1(`${VERSION}\n${tagSet}`);
  if (cache.get(once)?.carries === true) return true;
  const identity = await treeStateOf(snapshot);
  const key = identity ? sha1(`${VERSION}\n${tagSet}\n${identity}`) : undefined;
  if (key) {
    const hit = cache.get(key);
    if (typeof hit?.carries === 'boolean') return hit.carries;
  }
  const files = await gitGrepFiles(snapshot, tagEre([...tags]));
  if (!files) return true;
  let carries = false;
  const select = codeSelector(config);
  for (const f of files) if (languageOf(f) !== undefined && select(f)) carries = true;
  if (key) cache.set(key, { carries });
  if (carries) cache.set(once, { carries });
  return carries;
}
