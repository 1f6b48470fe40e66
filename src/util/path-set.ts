import { pathMatches } from './glob.js';
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
