// @spec SPEC-SCALE-001

import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { GitIndexEntry, GitIndexFile } from './index-file.js';
import { gitIndex, treeShortcuts } from './state.js';
import type { TreeEntry } from './types.js';
import { mark } from '../util/timing.js';

/** Past this many tracked files under the paths asked for, git (fsmonitor, untracked cache) does better. */
const MAX_ENTRIES = 2000;
/** Files seen on disk when looking for untracked ones under a directory; past it, ask git. */
const MAX_WALK = 4000;

/** What statScopedListing found besides the listing. */
export interface StatListingInfo {
  /** every listed file is as the index records it (same stat data), none deleted: the listing is the index's */
  clean?: boolean;
  /** a path holds more tracked files than this shortcut takes: git lists it */
  large?: boolean;
}

/**
 * The working-tree entries at or below `paths` (literal paths, never patterns) as git would
 * list them — staged blob id for a file whose stat data matches what the index recorded,
 * no blob id (read and hash it) for one that differs, nothing for one deleted — computed
 * from the index file and one lstat per file, without a git process. undefined whenever
 * git must decide: a path on disk the index does not know (untracked, or ignored), a merge
 * conflict, a symbolic link, assume-unchanged / skip-worktree / intent-to-add entries, an
 * index this reader cannot parse, or more files than is worth it. The answer then comes
 * from `git ls-files` + `git status` as before, so this is a shortcut, never a second truth.
 */
export function statScopedListing(root: string, paths: string[], info?: StatListingInfo): TreeEntry[] | undefined {
  if (!treeShortcuts()) return undefined;
  const index = gitIndex(root);
  if (!index) return undefined;
  const seen = new Set<string>();
  const out: TreeEntry[] = [];
  let clean = true;
  for (const p of paths) {
    // counted before any path is decoded: a folder of 5,000 records goes to git at once
    if (index.countUnder(p) > MAX_ENTRIES) {
      if (info) info.large = true;
      return undefined;
    }
    const under = index.under(p);
    const tracked = new Set<string>();
    for (const e of under) {
      tracked.add(e.path);
      if (seen.has(e.path)) continue;
      seen.add(e.path);
      const r = entryOf(root, index, e);
      if (r === 'git') return undefined;
      if (r) out.push(r);
      // a file changed or deleted on disk: the listing is no longer the index's own
      if (r ? !r.blob : index.mode(e) !== '160000') clean = false;
    }
    if (!untrackedAbsent(root, p, tracked)) return undefined;
  }
  out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  mark(`${seen.size} files compared with the index`);
  if (info) info.clean = clean;
  return out;
}

/** One tracked entry compared with the disk: the entry, null when deleted, 'git' when git must judge. */
function entryOf(root: string, index: GitIndexFile, e: GitIndexEntry): TreeEntry | null | 'git' {
  const mode = index.mode(e);
  if (mode === '160000') return null; // submodules are not listed (as `git ls-files -s` parsing skips them)
  if (mode === '120000' || index.stage(e) !== 0 || index.special(e)) return 'git';
  let st;
  try {
    // index paths are relative, '/'-separated and never hold `.` or `..` (git refuses them):
    // no path.join, whose normalisation of every name cost more than the lstat calls
    st = lstatSync(`${root}/${e.path}`, { bigint: true, throwIfNoEntry: false });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOTDIR' ? null : 'git';
  }
  if (!st) return null; // deleted
  if (!st.isFile()) return 'git';
  const same = ((Number(st.mode) & 0o100) !== 0) === (mode === '100755') && index.statMatches(e, st);
  return same ? { path: e.path, mode, blob: index.blob(e) } : { path: e.path, mode };
}

/**
 * Whether nothing at or below `p` on disk is missing from `tracked` (so nothing untracked
 * or ignored could be there for git to judge). Bounded: a larger folder answers false.
 */
function untrackedAbsent(root: string, p: string, tracked: Set<string>): boolean {
  const abs = path.join(root, p);
  let st;
  try {
    st = lstatSync(abs);
  } catch {
    return true;
  }
  if (st.isFile() || st.isSymbolicLink()) return tracked.has(p);
  if (!st.isDirectory()) return false;
  let budget = MAX_WALK;
  const walk = (dir: string, rel: string): boolean => {
    let names;
    try {
      names = readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    for (const d of names) {
      const r = `${rel}/${d.name}`;
      if (--budget < 0) return false;
      if (d.isDirectory()) {
        if (!walk(path.join(dir, d.name), r)) return false;
      } else if (!tracked.has(r)) return false;
    }
    return true;
  };
  return walk(abs, p);
}
