import { pathMatches } from './glob.js';
import { scanGlob } from './picomatch.js';
import { normalizeRepoPath } from './paths.js';

/**
 * An artifact's `paths:` list as one set: an entry is a file, a directory (with or without
 * a trailing slash) or a glob; an entry starting with `!` excludes what it names. A file is
 * covered when some inclusion covers it and no exclusion does. A list of exclusions only
 * covers nothing (it never means "everything but").
 */
export interface PathSet {
  /** the inclusions as written */
  readonly includes: readonly string[];
  /** the exclusions, without their `!` */
  readonly excludes: readonly string[];
  /** whether the set covers one repository path */
  covers(file: string): boolean;
  /** the inclusion that covers a file (undefined when excluded or not covered) */
  coveringEntry(file: string): string | undefined;
}

/** Whether one entry (never `!`-prefixed) covers a file: exact, directory prefix, or glob. */
export function entryCovers(entry: string, file: string): boolean {
  const p = normalizeRepoPath(entry);
  // an empty entry ('.', './') covers the whole repository
  return !p || p === '.' || pathMatches(entry.endsWith('/') ? p + '/' : p, file);
}

/** The literal directory an entry starts from (`src/billing/**` → `src/billing`; a plain path is its own). */
export function entryBase(entry: string): string {
  const pattern = normalizeRepoPath(entry);
  const scan = scanGlob(pattern);
  return scan.isGlob ? scan.base : pattern;
}

/** How a `paths:` entry reaches a path, most specific first. */
export type EntryHow = 'exact' | 'directory' | 'glob' | 'contains';

/** How one entry relates to a path, with what ranks it against other entries. */
export interface EntryRelation {
  how: EntryHow;
  /** literal directory part of the entry (what "nearest" is measured by) */
  base: string;
  /** literal characters after the base (5 for "src/api/**" + "/*.ts"): more = narrower among equal bases */
  literal: number;
}

/**
 * How one inclusion (never `!`-prefixed) relates to a repository path: it covers it
 * (`exact` file, `directory` prefix, `glob` match: entryCovers, the one coverage rule), or
 * names something inside it (`contains`, when the path is a directory above the entry's
 * base), or neither. The single path matcher behind `trace`, the library's traceByPaths and
 * retrieval's declared slot.
 */
export function relateEntry(entry: string, path: string): EntryRelation | undefined {
  const pattern = normalizeRepoPath(entry);
  const p = normalizeRepoPath(path);
  const scan = scanGlob(pattern);
  const base = scan.isGlob ? scan.base : pattern;
  if (p !== '' && pattern !== '' && pattern !== '.' && !scan.isGlob && p !== pattern && !p.startsWith(pattern + '/') && !pattern.startsWith(p + '/')) return undefined; // fast path: unrelated literal
  const literal = pattern.slice(base.length).replace(/[*?[\]{}()!+@]/g, '').length;
  if (entryCovers(entry, p) && p !== '') {
    const how: EntryHow = scan.isGlob ? 'glob' : pattern === p && !entry.endsWith('/') ? 'exact' : 'directory';
    return { how, base, literal };
  }
  // the path is a directory above what the entry names: the artifact governs part of it
  if (p === '' || base.startsWith(p + '/') || (scan.isGlob && base === p)) return { how: 'contains', base, literal };
  return undefined;
}

const sets = new Map<string, PathSet>();

/** Compile a `paths:` list once; the same list (by content) gives the same object. */
export function compilePaths(entries: readonly string[]): PathSet {
  const key = entries.join('\0');
  const hit = sets.get(key);
  if (hit) return hit;
  const includes: string[] = [];
  const excludes: string[] = [];
  for (const e of entries) {
    const t = e.trim();
    if (t.startsWith('!')) {
      const x = t.slice(1).trim();
      if (x) excludes.push(x);
    } else if (t) includes.push(t);
  }
  const excluded = (f: string) => excludes.some((x) => entryCovers(x, f));
  const set: PathSet = {
    includes,
    excludes,
    covers: (f) => includes.some((i) => entryCovers(i, f)) && !excluded(f),
    coveringEntry: (f) => (excluded(f) ? undefined : includes.find((i) => entryCovers(i, f))),
  };
  if (sets.size > 10_000) sets.clear();
  sets.set(key, set);
  return set;
}
