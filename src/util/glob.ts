import { picomatch, scanGlob } from './picomatch.js';

/**
 * What resolving mentions needs of a file listing: the files a path or glob matches, in
 * path order. A GlobIndex answers in full; the memos of the place index and the hook answer
 * with the first two and the last (matchEdges: the first two tell a file from a directory and
 * a match from none; the last whether every match lies in one folder).
 */
export interface PathLookup {
  match(pattern: string): string[];
}

/** What a memo keeps of a pattern's matches (in path order): the first two and the last. */
export const matchEdges = (hits: readonly string[]): string[] => (hits.length <= 3 ? [...hits] : [hits[0]!, hits[1]!, hits[hits.length - 1]!]);

/**
 * Match globs against a fixed, sorted file list quickly: each distinct glob is compiled
 * once, and only files under the glob's static base (found by binary search) are tested.
 * A paths: entry may be a glob, a file, or a directory (with or without a trailing slash).
 */
export class GlobIndex {
  private readonly files: string[];
  private readonly cache = new Map<string, string[]>();
  constructor(files: Iterable<string>) {
    const list = [...files];
    // listings usually come sorted (git's order): checking is linear, sorting 100k is not
    let sorted = true;
    for (let i = 1; i < list.length && sorted; i++) if (!(list[i - 1]! < list[i]!)) sorted = false;
    this.files = sorted ? list : list.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  private lowerBound(prefix: string): number {
    let lo = 0;
    let hi = this.files.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.files[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Files under a directory prefix ('' = all). */
  under(dir: string): string[] {
    if (!dir) return this.files;
    const prefix = dir.endsWith('/') ? dir : dir + '/';
    const out: string[] = [];
    for (let i = this.lowerBound(prefix); i < this.files.length && this.files[i]!.startsWith(prefix); i++) out.push(this.files[i]!);
    return out;
  }

  /** Every file a paths: entry matches. */
  match(pattern: string): string[] {
    const hit = this.cache.get(pattern);
    if (hit) return hit;
    let p = pattern.replace(/^\.\//, '');
    if (p.endsWith('/')) p += '**';
    // plain paths (most entries) need no scan: without these characters picomatch sees no glob
    const scan = scanGlob(p);
    let res: string[];
    if (!scan.isGlob) {
      // a plain path: the file itself, or everything below it when it is a directory
      const i = this.lowerBound(p);
      res = this.files[i] === p ? [p] : this.under(p);
    } else {
      const isMatch = picomatch(p, { dot: true });
      res = this.under(scan.base).filter((f) => isMatch(f));
    }
    this.cache.set(pattern, res);
    return res;
  }

  /** Whether a paths: entry covers one file. */
  covers(pattern: string, file: string): boolean {
    return this.match(pattern).includes(file);
  }
}

const matchers = new Map<string, (file: string) => boolean>();

/**
 * Whether one file matches a paths: entry (a glob, a file, or a directory with or without
 * a trailing slash). Matchers are compiled once per pattern: callers test thousands of files.
 */
export function pathMatches(pattern: string, file: string): boolean {
  let m = matchers.get(pattern);
  if (!m) {
    let p = pattern.replace(/^\.\//, '');
    if (p.endsWith('/')) p += '**';
    const scan = scanGlob(p);
    if (!scan.isGlob) {
      const dir = p.replace(/\/+$/, '') + '/';
      m = (f) => f === p || f.startsWith(dir);
    } else {
      // a glob matches only below its literal base (as GlobIndex.match assumes): most files
      // are rejected by a prefix test, and the pattern is compiled only when one is not
      const base = scan.base;
      let full: ((f: string) => boolean) | undefined;
      const test = (f: string) => (full ??= picomatch(p, { dot: true }))(f);
      m = base && !p.startsWith('!') ? (f) => (f === base || f.startsWith(base + '/')) && test(f) : test;
    }
    if (matchers.size > 10_000) matchers.clear();
    matchers.set(pattern, m);
  }
  return m(file);
}

const indexes = new WeakMap<object, Promise<GlobIndex>>();

/** One GlobIndex per snapshot (its file list never changes), shared by every caller. */
export function globIndexFor(snapshot: { list(): Promise<{ path: string }[]>; listPaths?(): Promise<string[]> }): Promise<GlobIndex> {
  let g = indexes.get(snapshot);
  if (!g) {
    g = snapshot.listPaths ? snapshot.listPaths().then((ps) => new GlobIndex(ps)) : snapshot.list().then((es) => new GlobIndex(es.map((e) => e.path)));
    indexes.set(snapshot, g);
  }
  return g;
}

/**
 * One matcher for a set of globs (include or exclude lists), compiled to a single regular
 * expression: tested against every file of a 100k-file listing, a plain `RegExp.test` costs
 * a fraction of picomatch's matcher functions, which return objects and call hooks.
 */
export function globSetMatcher(patterns: string[]): (file: string) => boolean {
  if (!patterns.length) return () => false;
  const res = patterns.map((p) => picomatch.makeRe(p, { dot: true }));
  if (res.some((r) => r.flags !== res[0]!.flags)) {
    const each = picomatch(patterns, { dot: true });
    return (f) => each(f);
  }
  const re = new RegExp(res.map((r) => `(?:${r.source})`).join('|'), res[0]!.flags);
  return (f) => re.test(f);
}
