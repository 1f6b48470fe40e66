// @spec SPEC-SCALE-001

import { memo as cacheMemo } from '../cache/memo.js';
import { GlobIndex, matchEdges, type PathLookup } from '../util/glob.js';
import { mark } from '../util/timing.js';

/** Bump when what is stored changes. */
const MEMO_VERSION = 2;
/** Patterns remembered at most (a bound on the file; the oldest answers go first). */
const MAX_PATTERNS = 20_000;

/**
 * Which paths and globs that records mention exist, remembered for one state of the tree
 * (`key`: the git index stamp and what the working tree adds to it), so that loading the
 * records of a 100,000-file repository does not read its listing to resolve their mentions.
 * Each pattern keeps its first two matches and its last: all resolveMentions looks at. When a pattern
 * is missing, the full listing is read once (`listing`) and the memo is completed.
 */
export async function mentionLookup(root: string, key: string, patterns: string[], listing: () => Promise<string[]>): Promise<PathLookup> {
  const mentions = cacheMemo<Record<string, string[]>>(root, 'place-mentions');
  const k = `v${MEMO_VERSION}:${key}`;
  const stored = mentions.get(k);
  const memo = new Map<string, string[]>(stored && typeof stored === 'object' ? Object.entries(stored as Record<string, string[]>).filter(([, v]) => Array.isArray(v)) : []);
  const wanted = [...new Set(patterns)];
  if (wanted.every((p) => memo.has(p))) {
    mark(`place index: ${wanted.length} mentioned paths from memo`);
    return { match: (p) => memo.get(p) ?? [] };
  }
  const index = new GlobIndex(await listing());
  for (const p of wanted) if (!memo.has(p)) memo.set(p, matchEdges(index.match(p)));
  const entries = [...memo].slice(-MAX_PATTERNS);
  mentions.set(k, Object.fromEntries(entries));
  mark(`place index: ${wanted.length} mentioned paths resolved from the listing`);
  return index;
}
