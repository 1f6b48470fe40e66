// @spec SPEC-SCALE-001

import { runGit, splitZ } from '../git/exec.js';
import { textMemo } from '../cache/container.js';
import { mark } from '../util/timing.js';
import { indexStamp } from './state.js';
import type { TreeEntry } from './types.js';

/** Bump when what is stored changes: an old listing is then ignored, never half-trusted. */
const LISTING_VERSION = 1;
const HEADER = 'git-ctx/place-listing';

/**
 * The tracked files as the git index records them, one `<mode> <blob> <path>` line each in
 * git's (byte) order. Paths alone are what most questions need (mentions, package folders),
 * so entries are built only when asked for.
 */
export class TrackedListing {
  private pathList: string[] | undefined;
  private entryList: TreeEntry[] | undefined;
  constructor(
    private readonly lines: string[],
    /** whether it came from the cache (no git process) */
    readonly fromCache: boolean,
    /** paths left out because they hold a newline (never cached: such a listing is partial) */
    readonly skipped = 0,
    /** the git index's stamp the listing is known to hold for (undefined: not known) */
    readonly stamp?: string,
  ) {}
  get size(): number {
    return this.lines.length;
  }
  paths(): string[] {
    // mode (6) + space + blob (40, or 64 for sha256 repositories) + space: the path follows
    this.pathList ??= this.lines.map((l) => l.slice(l.indexOf(' ', 7) + 1));
    return this.pathList;
  }
  entries(): TreeEntry[] {
    this.entryList ??= this.lines.map((l) => {
      const sp = l.indexOf(' ', 7);
      return { path: l.slice(sp + 1), mode: l.slice(0, 6), blob: l.slice(7, sp) };
    });
    return this.entryList;
  }
}

/** `git ls-files -s -z` output as listing lines: stage 0 (or the first conflict stage), no submodules. */
function linesOf(out: string): { lines: string[]; skipped: number } {
  const lines: string[] = [];
  let skipped = 0;
  let last = '';
  for (const rec of splitZ(out)) {
    const tab = rec.indexOf('\t');
    if (tab < 0) continue;
    const sp1 = rec.indexOf(' ');
    const sp2 = rec.indexOf(' ', sp1 + 1);
    const mode = rec.slice(0, sp1);
    const p = rec.slice(tab + 1);
    if (mode === '160000' || p === last) continue;
    // a path with a newline cannot be stored one per line (nor named in a record's text)
    if (p.includes('\n')) {
      skipped++;
      continue;
    }
    last = p;
    lines.push(`${mode} ${rec.slice(sp1 + 1, sp2)} ${p}`);
  }
  return { lines, skipped };
}

/**
 * The tracked files of a work tree as the git index records them (path, mode, staged blob
 * id), without looking at the working tree: no stat of 100,000 files, no directory scan for
 * untracked ones. Remembered in the place-listing cache under the index file's
 * stamp, so an unchanged index costs one file read and no process; a changed one (after
 * `git add`, a commit, a checkout) one `git ls-files -s`.
 */
export async function trackedListing(root: string): Promise<TrackedListing> {
  const memo = textMemo(root, 'place-listing');
  const stamp = indexStamp(root);
  const header = stamp ? `${HEADER} ${LISTING_VERSION} ${stamp}` : undefined;
  if (header && memo.on) {
    const body = memo.get(header);
    if (body !== undefined) {
      const listing = new TrackedListing(body ? body.split('\n') : [], true, 0, stamp);
      mark(`place index: ${listing.size} tracked files from cache`);
      return listing;
    }
  }
  const { lines, skipped } = linesOf(await runGit(['ls-files', '-s', '-z'], { cwd: root }));
  // the index may have changed while git read it: remember only a listing whose stamp held
  const held = stamp !== undefined && indexStamp(root) === stamp;
  if (header && !skipped && held) memo.set(header, lines.join('\n'));
  mark(`place index: ${lines.length} tracked files listed by git`);
  return new TrackedListing(lines, false, skipped, held ? stamp : undefined);
}

/** Parse `git ls-tree -r -z` / `git ls-files -s -z` lines (a monorepo lists 100k: no split() per line). */
export function parseStaged(out: string, kind: 'tree' | 'index'): TreeEntry[] {
  const res: TreeEntry[] = [];
  let sorted = true;
  for (const line of splitZ(out)) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const sp1 = line.indexOf(' ');
    const sp2 = line.indexOf(' ', sp1 + 1);
    const mode = line.slice(0, sp1);
    const p = line.slice(tab + 1);
    let blob: string;
    if (kind === 'tree') {
      // <mode> SP <type> SP <object> TAB <file>
      if (line.slice(sp1 + 1, sp2) !== 'blob') continue;
      blob = line.slice(sp2 + 1, tab);
    } else {
      // <mode> SP <object> SP <stage> TAB <file>; keep stage 0 (or first conflict stage)
      if (mode === '160000') continue;
      blob = line.slice(sp1 + 1, sp2);
    }
    if (sorted && res.length && !(res[res.length - 1]!.path < p)) sorted = false;
    res.push({ path: p, mode, blob });
  }
  // git lists in byte order, which is also UTF-16 order for ASCII paths; sort only when needed
  if (!sorted) res.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  // during a merge conflict the index holds several stages of one path; keep one
  return sorted ? res : res.filter((e, i) => i === 0 || res[i - 1]!.path !== e.path);
}
