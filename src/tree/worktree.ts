// @spec SPEC-SCALE-001

import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { runGit, splitZ } from '../git/exec.js';
import { parseStaged } from './listing.js';
import { indexFileOf, indexStamp, indexStill } from './state.js';
import { statScopedListing, type StatListingInfo } from './stat-listing.js';
import { statusUnder, worktreeState } from './status.js';
import type { TreeEntry } from './types.js';

/** A folder whose listing is the git index's own (see WorktreeTree.cleanListing). */
export interface CleanListing {
  /** the git index file, its stamp and the folder: equal tokens, equal listings */
  token: string;
  /** the folder lists nothing */
  empty: boolean;
  /** whether the index is still the one the token names (a listing taken since then is the token's) */
  current(): boolean;
}

/**
 * The whole listing as the git index at one stamp, but for a few paths: what a memo keyed by
 * the stamp (the code index's classification, DEC-070) holds for every other path, so a warm
 * run works on the differing paths only.
 */
export interface ListingDelta {
  /** the git index's stamp the listing was made from */
  stamp: string;
  /** paths where the listing is not the index's entry: deleted, changed on disk, untracked */
  differ: ReadonlySet<string>;
}

/** The text after the n-th space of a status line (the path, which may hold spaces). */
function nthField(line: string, n: number): string {
  let i = -1;
  for (let k = 0; k < n; k++) i = line.indexOf(' ', i + 1);
  return line.slice(i + 1);
}

/**
 * Whether a scoped `git status --porcelain=v2` says its paths are as the index records them:
 * nothing untracked, unmerged, deleted or changed in the work tree (a change staged against
 * HEAD is fine: the listing is the index's).
 */
function statusClean(out: string): boolean {
  for (const line of splitZ(out)) {
    if (!line) continue;
    if (!(line.startsWith('1 ') && line[3] === '.')) return false;
  }
  return true;
}

function sortedByPath(entries: TreeEntry[]): boolean {
  for (let i = 1; i < entries.length; i++) if (!(entries[i - 1]!.path < entries[i]!.path)) return false;
  return true;
}

/** The work of one scoped listing: its entries from the stat listing, or git's two answers. */
interface ScopedRun {
  /** the git index's stamp when the listing started */
  stamp: string | undefined;
  /** the stat listing's entries, when it answered */
  entries?: Promise<TreeEntry[]>;
  /** the stat listing found every file as the index records it */
  clean?: boolean;
  /** the index holds more than the stat listing takes under the (one) path: never an empty folder */
  large?: boolean;
  /** `git status` limited to the paths (porcelain v2) */
  status?: Promise<string>;
  /** `git ls-files -s` limited to the paths, started on first call */
  staged?: () => Promise<string>;
}

/**
 * The working tree of a git repository as one snapshot sees it: the whole listing (tracked
 * files with their staged blob ids where unchanged on disk, untracked files not ignored) or
 * the listing under some paths, and for a folder whose listing is the git index's own, a
 * token naming it. Every answer starts from the git index as src/tree/state.ts reads it once
 * per process; git is asked what the index's stat data cannot prove. One per snapshot: the
 * work started for a pathspec is shared by its listing and its token.
 */
export class WorktreeTree {
  /** per pathspec of a scoped listing, the work started for it (see startScoped) */
  private runs = new Map<string, ScopedRun>();
  /** the whole tree was listed (folder listings are then taken from it; no tokens) */
  private whole = false;
  /** how the whole listing differs from the index, when it was made from the index's state */
  private delta: ListingDelta | undefined;
  constructor(readonly root: string) {}

  /**
   * How the whole listing (load() without paths, already made) differs from the git index it
   * was made from; undefined when it was not made from one state of the index (no index,
   * caches off, GIT_CTX_TREE, the index changing meanwhile): nothing may be kept by stamp then.
   */
  listingDelta(): ListingDelta | undefined {
    return this.delta;
  }

  /** Every file, or those at or below the given paths (literal, never patterns), sorted by path. */
  async load(prefix?: string | string[]): Promise<TreeEntry[]> {
    const ps = (prefix === undefined ? [] : Array.isArray(prefix) ? prefix : [prefix]).filter((p) => p !== '');
    if (ps.length) return this.loadScoped(['--', ...ps]);
    this.whole = true;
    const state = await worktreeState(this.root);
    if (state) {
      const { gone, changed } = state;
      this.delta = { stamp: state.stamp, differ: new Set([...gone, ...changed, ...state.untracked]) };
      const res: TreeEntry[] = [];
      for (const e of state.listing.entries()) {
        if (gone.has(e.path)) continue;
        res.push(changed.has(e.path) ? { path: e.path, mode: e.mode } : e);
      }
      return this.withUntracked(res, state.untracked);
    }
    // Two git processes, run side by side (two cores): `ls-files -t -s -o` lists the index
    // with blob ids, H (tracked), M (unmerged), S (skip-worktree), and ? (untracked, not
    // ignored); `diff-files` names what differs on disk by git's stat cache, M/T (changed),
    // D (deleted), U (unmerged).
    const [out, diff] = await Promise.all([
      runGit(['--literal-pathspecs', 'ls-files', '-z', '-t', '-s', '-o', '--exclude-standard'], { cwd: this.root }),
      runGit(['--literal-pathspecs', 'diff-files', '--name-status', '-z', '--no-renames', '--ignore-submodules=dirty'], { cwd: this.root }),
    ]);
    const staged: string[] = [];
    const gone = new Set<string>();
    const changed = new Set<string>();
    const untracked: string[] = [];
    for (const line of splitZ(out)) {
      const tag = line[0];
      const rest = line.slice(2);
      if (tag === 'H' || tag === 'M' || tag === 'S') staged.push(rest);
      else if (tag === '?') untracked.push(rest);
    }
    // `--name-status -z`: status, NUL, path, NUL
    const d = splitZ(diff);
    for (let i = 0; i + 1 < d.length; i += 2) (d[i] === 'D' ? gone : changed).add(d[i + 1]!);
    // an unmodified tracked file has its index blob id: no need to read and hash it
    const res: TreeEntry[] = parseStaged(staged.join('\0'), 'index')
      .filter((e) => !gone.has(e.path))
      .map((e) => (changed.has(e.path) ? { path: e.path, mode: e.mode } : e));
    return this.withUntracked(res, untracked);
  }

  /**
   * Files at or below some paths. `ls-files -m/-d` stat every file of the index whatever the
   * pathspec (100,000 lstat calls in a monorepo for one folder), while `git status` limits
   * its work to the pathspec (and uses fsmonitor and the untracked cache when configured):
   * the staged entries from the index, what differs on disk and what is untracked from status.
   */
  private async loadScoped(spec: string[]): Promise<TreeEntry[]> {
    const run = this.scopedRun(spec);
    if (run.entries) return run.entries;
    const [staged, status] = await Promise.all([run.staged!(), run.status!]);
    const gone = new Set<string>();
    const changed = new Set<string>();
    const untracked: string[] = [];
    for (const line of splitZ(status)) {
      if (line.startsWith('? ')) untracked.push(line.slice(2));
      else if (line.startsWith('1 ')) {
        // 1 XY sub mH mI mW hH hI path: Y is the work tree against the index
        const y = line[3];
        const p = nthField(line, 8);
        if (y === 'D') gone.add(p);
        else if (y !== '.') changed.add(p);
      } else if (line.startsWith('u ')) changed.add(nthField(line, 10)); // unmerged: read the file itself
    }
    const res: TreeEntry[] = parseStaged(staged, 'index')
      .filter((e) => !gone.has(e.path))
      .map((e) => (changed.has(e.path) ? { path: e.path, mode: e.mode } : e));
    return this.withUntracked(res, untracked);
  }

  private scopedRun(spec: string[]): ScopedRun {
    const k = spec.join('\0');
    let run = this.runs.get(k);
    if (!run) this.runs.set(k, (run = this.startScoped(spec)));
    return run;
  }

  /**
   * Start a scoped listing: answered from the index's stat data when it can be (no git
   * process), else `git status` at once and `git ls-files -s` when the entries are asked
   * for. Whether a folder of more files than the stat listing takes is clean (cleanListing)
   * needs status only, so a warm run over a large records folder, unchanged, runs one git
   * process; the count comes from the index read once, never from listing the folder.
   */
  private startScoped(spec: string[]): ScopedRun {
    const paths = spec.slice(1);
    const stamp = indexStamp(this.root);
    const info: StatListingInfo = {};
    // nothing changed on disk since git indexed these paths: the index's stat data says so, no process
    const fast = statScopedListing(this.root, paths, info);
    if (fast) return { stamp, entries: Promise.resolve(fast), clean: info.clean === true };
    const large = info.large === true && paths.length === 1;
    let staged: Promise<string> | undefined;
    const run: ScopedRun = {
      stamp,
      large,
      status: statusUnder(this.root, spec),
      staged: () => (staged ??= runGit(['--literal-pathspecs', 'ls-files', '-s', '-z', ...spec], { cwd: this.root })),
    };
    run.status!.catch(() => undefined); // awaited where used
    if (!large) run.staged!().catch(() => undefined);
    return run;
  }

  /** Whether a file is better looked up alone than by listing its folder: inside a large folder git is asked about without listing it. */
  preferExact(p: string): boolean {
    for (const [k, run] of this.runs) if (run.large && !run.entries && k.startsWith('--\0') && p.startsWith(k.slice(3) + '/')) return true;
    return false;
  }

  /**
   * A token for the listing of `dir` when that listing is what the git index records
   * (nothing under it changed or deleted on disk, nothing untracked there), so a key computed
   * from the listing can be remembered by the token instead of rebuilt from every entry
   * (DEC-045): from the stat listing, or from a `git status` of the folder that reports
   * nothing changed, deleted or untracked there, the index unchanged around it. undefined when
   * it is not known to be so, and once the whole tree was listed (its folders come from that
   * listing, which this token does not name).
   */
  async cleanListing(dir: string): Promise<CleanListing | undefined> {
    dir = dir.replace(/\/+$/, '');
    const indexFile = indexFileOf(this.root);
    if (!dir || !indexFile || this.whole) return undefined;
    const run = this.scopedRun(['--', dir]);
    const stamp = run.stamp;
    if (!stamp) return undefined;
    let empty = false;
    if (run.entries) {
      if (!run.clean) return undefined;
      // the entries of the folder itself (a listing of `dir` may name the path `dir` alone: a file)
      empty = !(await run.entries).some((e) => e.path.startsWith(dir + '/'));
    } else if (!run.large || !statusClean(await run.status!)) return undefined;
    const current = () => indexStill(this.root, stamp);
    if (!current()) return undefined;
    return { token: `${indexFile}\0${stamp}\0${dir}`, empty, current };
  }

  private async withUntracked(res: TreeEntry[], untracked: string[]): Promise<TreeEntry[]> {
    const extra = await Promise.all(
      untracked.map(async (p): Promise<TreeEntry | undefined> => {
        try {
          const st = await lstat(path.join(this.root, p));
          if (st.isSymbolicLink()) return { path: p, mode: '120000' };
          return st.isFile() ? { path: p, mode: '100644' } : undefined;
        } catch {
          return undefined;
        }
      }),
    );
    let added = false;
    for (const e of extra) {
      if (!e) continue;
      res.push(e);
      added = true;
    }
    // git lists in byte order, the same as UTF-16 order for most paths: sort only when needed
    if (added || !sortedByPath(res)) res.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return res;
  }
}
