// @spec SPEC-HOOK-001

import { memo as cacheMemo } from '../cache/memo.js';
import { CODE_CACHE_VERSION } from '../code/code-cache.js';
import { CodeIndex } from '../code/code-index.js';
import { classificationSettings } from '../code/extract.js';
import type { Config } from '../config.js';
import type { Snapshot, SnapshotEntry } from '../snapshot/types.js';
import { ABSENT_MODE, treeShortcuts, type RawChange, type StagedDelta } from '../tree/index.js';
import { sha256 } from '../util/hash.js';
import { mark } from '../util/timing.js';
import { VERSION } from '../version.js';

/**
 * The pre-commit hook's code index, proportional to what is staged (DEC-033).
 *
 * A commit's tree holds 100,000 files of which a few thousand carry a tag. Which ones, with
 * their blob ids ("carriers"), is remembered per commit in the `code-index-carriers` cache. The
 * staged snapshot is that commit's tree plus what `git diff-index --cached <commit>` names,
 * so its carriers are among the remembered ones (unchanged since) and the changed files; a
 * partial CodeIndex classifies only those, through the blob-keyed extraction cache, and
 * finds the same annotations and problems as a whole-tree index. After each hook run the
 * memo moves to HEAD (the staged carriers, with HEAD's side of each staged change).
 */

/** Bump when what the memo holds changes: an old memo is then a miss. */
const CARRIERS_VERSION = 1;
/** Past this many changed paths since the remembered commit, a whole index is as cheap. */
const MAX_CHANGES = 20_000;

/** Everything a file's classification depends on besides its content: the memo's key. */
function carriersKey(config: Config): string {
  return sha256(`git-ctx/code-carriers ${CARRIERS_VERSION} ${VERSION} ${CODE_CACHE_VERSION}\n${classificationSettings(config)}`);
}

interface Carriers {
  commit: string;
  /** [path, blob] of every file of the commit's tree that may carry a tag or a problem */
  files: [string, string][];
}

function readCarriers(root: string, config: Config): Carriers | undefined {
  const v = cacheMemo<Partial<Carriers>>(root, 'code-index-carriers').get(carriersKey(config));
  if (!v || typeof v.commit !== 'string' || !Array.isArray(v.files)) return undefined;
  for (const f of v.files) if (!Array.isArray(f) || typeof f[0] !== 'string' || typeof f[1] !== 'string') return undefined;
  return v as Carriers;
}

export interface StagedIndexOptions {
  /** the staged snapshot (kind `index`, with a HEAD commit) */
  staged: Snapshot;
  config: Config;
  /** the changes against HEAD and remembered commits */
  delta: StagedDelta;
}

/**
 * A partial code index of the staged snapshot built from the carriers remembered for some
 * commit, or undefined when there is no usable memo (none yet, other settings, the commit
 * gone, a merge conflict, too many changes): the caller then builds a whole one.
 * `GIT_CTX_TREE=git` turns it off.
 */
export async function partialStagedIndex(opts: StagedIndexOptions): Promise<CodeIndex | undefined> {
  const { staged, config } = opts;
  if (!treeShortcuts() || staged.kind !== 'index' || staged.backend !== 'git' || !staged.commit) return undefined;
  const memo = readCarriers(staged.root, config);
  mark(`staged index: carriers ${memo ? `of ${memo.commit.slice(0, 12)}: ${memo.files.length}` : 'not remembered'}`);
  if (!memo) return undefined;
  let changes: RawChange[];
  try {
    changes = await opts.delta.since(memo.commit);
  } catch {
    return undefined; // the remembered commit is gone (rebased away, pruned)
  }
  if (changes.length > MAX_CHANGES || changes.some((c) => c.status === 'U')) return undefined;
  const known = new Map<string, SnapshotEntry>();
  for (const [path, blob] of memo.files) known.set(path, { path, mode: '100644', blob });
  for (const c of changes) {
    known.delete(c.path);
    if (c.newMode !== ABSENT_MODE) known.set(c.path, { path: c.path, mode: c.newMode, blob: c.newBlob });
  }
  mark(`staged index: ${changes.length} changes since then, ${known.size} files to classify`);
  return CodeIndex.build(staged, config, { known: [...known.values()] });
}

/**
 * Remember the carriers of HEAD's tree, derived from an index of the staged snapshot and
 * what this commit changes: a path the commit does not touch has the same content at HEAD;
 * a touched one is remembered with HEAD's blob (a superset: a file there that turns out
 * tag-free is classified clean again next time, from the tag-free set). Nothing is written
 * when the memo is already HEAD's, or when the index cannot say (blob ids unknown, a
 * merge conflict).
 */
export function rememberCarriers(staged: Snapshot, config: Config, index: CodeIndex, headChanges: RawChange[]): void {
  if (!treeShortcuts() || staged.kind !== 'index' || staged.backend !== 'git' || !staged.commit) return;
  if (headChanges.some((c) => c.status === 'U')) return;
  const carriersMemo = cacheMemo<Partial<Carriers>>(staged.root, 'code-index-carriers');
  const key = carriersKey(config);
  const now = carriersMemo.get(key);
  if (now?.commit === staged.commit) return;
  const carriers = index.carriers();
  if (!carriers) return;
  const touched = new Set(headChanges.map((c) => c.path));
  const files: [string, string][] = [];
  for (const c of carriers) if (!touched.has(c.path)) files.push([c.path, c.blob]);
  for (const c of headChanges) {
    if (c.oldMode === ABSENT_MODE || c.oldMode === '120000' || c.oldMode === '160000') continue;
    files.push([c.path, c.oldBlob]);
  }
  files.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  carriersMemo.set(key, { commit: staged.commit, files } satisfies Carriers);
  mark(`staged index: carriers of ${staged.commit.slice(0, 12)} remembered (${files.length})`);
}
