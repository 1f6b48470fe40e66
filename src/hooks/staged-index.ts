// @spec SPEC-HOOK-001

import { memo as cacheMemo } from '../cache/memo.js';
import { CODE_CACHE_VERSION } from '../cache/code-index.js';
import { CodeIndex } from '../code/code-index.js';
import { classificationSettings } from '../code/extract.js';
import type { Config } from '../config.js';
import { runGit, splitZ } from '../git/exec.js';
import type { Snapshot, SnapshotEntry } from '../snapshot/types.js';
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

/** One line of `git diff-index --raw`: a path's mode and blob on both sides (zeros: absent). */
export interface RawChange {
  path: string;
  oldMode: string;
  newMode: string;
  oldBlob: string;
  newBlob: string;
  /** A, M, D, T; U for an unmerged path */
  status: string;
}

const ABSENT_MODE = '000000';

/** Parse `git diff-index --raw -z` output. */
export function parseRawDiff(out: string): RawChange[] {
  const parts = splitZ(out);
  const res: RawChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const head = parts[i]!;
    const path = parts[i + 1]!;
    if (!head.startsWith(':')) throw new Error(`unexpected git diff-index output: ${head.slice(0, 80)}`);
    const [oldMode, newMode, oldBlob, newBlob, status] = head.slice(1).split(' ');
    res.push({ path, oldMode: oldMode!, newMode: newMode!, oldBlob: oldBlob!, newBlob: newBlob!, status: (status ?? '').slice(0, 1) });
  }
  return res;
}

/**
 * What differs between a commit's tree and the git index (`--cached`: never the work
 * tree; no renames: a rename is its old path deleted and its new path added).
 */
export async function stagedChanges(root: string, rev: string): Promise<RawChange[]> {
  const out = await runGit(['diff-index', '--cached', '--raw', '-z', '--no-renames', '--no-abbrev', rev, '--'], { cwd: root });
  return parseRawDiff(out);
}

/**
 * What differs between commits and the git index, each asked of git once per run: HEAD's
 * (what this commit changes) at once, a remembered commit's when a memo needs it.
 */
export class StagedDelta {
  readonly headChanges: Promise<RawChange[]>;
  private readonly bySince = new Map<string, Promise<RawChange[]>>();
  constructor(
    readonly root: string,
    readonly head: string,
  ) {
    this.headChanges = this.since(head);
  }
  since(commit: string): Promise<RawChange[]> {
    let p = this.bySince.get(commit);
    if (!p) {
      p = stagedChanges(this.root, commit).then((changes) => {
        for (const c of changes) if (c.status !== 'U') this.staged.set(c.path, c);
        return changes;
      });
      p.catch(() => undefined); // each caller handles the failure
      this.bySince.set(commit, p);
    }
    return p;
  }
  /** the index side of every path some diff named so far (the same whichever commit it was against) */
  private readonly staged = new Map<string, RawChange>();
  /** Whether a diff resolved so far named this path with an index side it can answer for. */
  named(path: string): boolean {
    const c = this.staged.get(path);
    return !!c && !(c.newMode !== ABSENT_MODE && /^0+$/.test(c.newBlob));
  }
  /**
   * The git index's entry of a path some diff against it named: `null` when the index does not
   * list it, undefined when no diff named it (ask the index).
   */
  async stagedEntry(path: string): Promise<SnapshotEntry | null | undefined> {
    await this.headChanges.catch(() => undefined);
    const c = this.staged.get(path);
    if (!c) return undefined;
    // git names no blob for some entries (zeros): the index answers those
    if (c.newMode !== ABSENT_MODE && /^0+$/.test(c.newBlob)) return undefined;
    // gitlinks are not listed by the index snapshot
    return c.newMode === ABSENT_MODE || c.newMode === '160000' ? null : { path, mode: c.newMode, blob: c.newBlob };
  }
}

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
 * `GIT_CTX_STAGED_INDEX=0` turns it off.
 */
export async function partialStagedIndex(opts: StagedIndexOptions): Promise<CodeIndex | undefined> {
  const { staged, config } = opts;
  if (process.env.GIT_CTX_STAGED_INDEX === '0' || staged.kind !== 'index' || staged.backend !== 'git' || !staged.commit) return undefined;
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
  if (process.env.GIT_CTX_STAGED_INDEX === '0' || staged.kind !== 'index' || staged.backend !== 'git' || !staged.commit) return;
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
