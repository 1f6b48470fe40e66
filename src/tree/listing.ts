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
 *
 * The lines are kept as the one string they are stored as (the cache entry's body), not as
 * 100,000 strings: a cold `check` on 100,000 files lists them while it is parsing records, and
 * every small string that survives a young-generation collection then makes V8 grow that
 * generation (DEC-062, bench/README.md). Only the entries asked for become objects, each
 * holding slices of the one string.
 */
export class TrackedListing {
  private pathList: string[] | undefined;
  private entryList: TreeEntry[] | undefined;
  private count: number | undefined;
  constructor(
    /** the lines joined by newlines, no trailing newline ('' for none) */
    readonly body: string,
    /** whether it came from the cache (no git process) */
    readonly fromCache: boolean,
    /** paths left out because they hold a newline (never cached: such a listing is partial) */
    readonly skipped = 0,
    /** the git index's stamp the listing is known to hold for (undefined: not known) */
    readonly stamp?: string,
  ) {}
  get size(): number {
    if (this.count === undefined) {
      let n = 0;
      for (let i = this.body.indexOf('\n'); i >= 0; i = this.body.indexOf('\n', i + 1)) n++;
      this.count = this.body ? n + 1 : 0;
    }
    return this.count;
  }
  /** Calls `f` with each line's mode, blob and path, as slices of the body. */
  private each(f: (mode: string, blob: string, path: string) => void): void {
    const b = this.body;
    if (!b) return;
    for (let at = 0; at < b.length; ) {
      let nl = b.indexOf('\n', at);
      if (nl < 0) nl = b.length;
      // mode (6) + space + blob (40, or 64 for sha256 repositories) + space: the path follows
      const sp = b.indexOf(' ', at + 7);
      f(modeOf(b, at), b.slice(at + 7, sp), b.slice(sp + 1, nl));
      at = nl + 1;
    }
  }
  paths(): string[] {
    if (!this.pathList) {
      const out: string[] = [];
      this.each((_m, _b, p) => out.push(p));
      this.pathList = out;
    }
    return this.pathList;
  }
  entries(): TreeEntry[] {
    if (!this.entryList) {
      const out: TreeEntry[] = [];
      this.each((mode, blob, p) => out.push({ path: p, mode, blob }));
      this.entryList = out;
    }
    return this.entryList;
  }
}

/** The mode at `at`, as one shared string for the common modes (not one string per entry). */
function modeOf(b: string, at: number): string {
  if (b.startsWith('100644', at)) return '100644';
  if (b.startsWith('100755', at)) return '100755';
  if (b.startsWith('120000', at)) return '120000';
  return b.slice(at, at + 6);
}

/**
 * `git ls-files -s -z` output as the listing's body: stage 0 (or the first conflict stage), no
 * submodules. The usual index (stage 0 only, no submodule, no path with a newline) is
 * rewritten as one string by two replacements; the others go line by line.
 */
function bodyOf(out: string): { body: string; skipped: number } {
  // `<mode> <blob> <stage>\t<path>\0`: any stage but 0, a submodule, a path with a tab or a newline goes the slow way
  if (!/ [1-3]\t|\n|\t[^\0]*\t|(?:^|\0)160000 /.test(out)) {
    const body = out.replace(/ 0\t/g, ' ').replace(/\0/g, '\n');
    return { body: body.endsWith('\n') ? body.slice(0, -1) : body, skipped: 0 };
  }
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
  return { body: lines.join('\n'), skipped };
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
      const listing = new TrackedListing(body, true, 0, stamp);
      mark(`place index: ${listing.size} tracked files from cache`);
      return listing;
    }
  }
  const { body, skipped } = bodyOf(await runGit(['ls-files', '-s', '-z'], { cwd: root }));
  // the index may have changed while git read it: remember only a listing whose stamp held
  const held = stamp !== undefined && indexStamp(root) === stamp;
  if (header && !skipped && held) memo.set(header, body);
  const listing = new TrackedListing(body, false, skipped, held ? stamp : undefined);
  mark(`place index: ${listing.size} tracked files listed by git`);
  return listing;
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
