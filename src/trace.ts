import type { ArtifactSet } from './artifacts/load.js';
import type { Artifact } from './artifacts/types.js';
import { normalizeRepoPath } from './util/paths.js';
import { compilePaths, entryCovers, relateEntry, type EntryHow } from './util/path-set.js';

/** How a `paths` entry reached the traced path, most specific first. */
export type TraceHow = EntryHow;

/** One artifact governing a path, with the pattern that matched best and how. */
export interface TraceMatch {
  id: string;
  type: string;
  title: string;
  status?: string;
  file: string;
  /** the `paths` entry that matched best */
  pattern: string;
  how: TraceHow;
  /** literal directory part of the pattern (what "nearest" is measured by) */
  base: string;
  /** every pattern of this artifact that matched, best first */
  patterns: { pattern: string; how: TraceHow }[];
  /** one line for people: "glob src/billing/invoice/** (under src/billing/invoice)" */
  explanation: string;
}

export interface TraceOptions {
  /** artifact types considered (default: every type but task and identity) */
  types?: string[];
}

const HOW_RANK: Record<TraceHow, number> = { exact: 0, directory: 1, glob: 1, contains: 2 };
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const segments = (p: string) => (p ? p.split('/').length : 0);

interface Scored {
  pattern: string;
  how: TraceHow;
  base: string;
  /** literal characters after the base (5 for "src/api/**" + "/*.ts"): more = narrower among equal bases */
  literal: number;
}

/** How one pattern relates to a path (the shared matcher), or undefined when it does not. */
function matchPattern(raw: string, p: string): Scored | undefined {
  const r = relateEntry(raw, p);
  return r && { pattern: raw, ...r };
}

function better(a: Scored, b: Scored): number {
  return HOW_RANK[a.how] - HOW_RANK[b.how] || segments(b.base) - segments(a.base) || b.literal - a.literal || cmp(a.pattern, b.pattern);
}

function explain(s: Scored): string {
  switch (s.how) {
    case 'exact':
      return `exact path ${s.pattern}`;
    case 'directory':
      return `directory ${s.pattern} contains it`;
    case 'glob':
      return `glob ${s.pattern}${s.base ? ` (under ${s.base})` : ''}`;
    case 'contains':
      return `governs ${s.pattern}, inside it`;
  }
}

/**
 * The artifacts whose `paths` govern a repository path, nearest and most specific first:
 * exact file, then directory or glob by the depth of their literal base (deeper = nearer) and
 * literal length, then patterns that name something inside the path (when it is a directory).
 * Negated patterns (`!src/gen/**`) exclude. Ties: kind order from config, then id.
 */
export function traceByPaths(set: ArtifactSet, repoPath: string, opts: TraceOptions = {}): TraceMatch[] {
  const p = normalizeRepoPath(repoPath);
  const keep = (a: Artifact) => (opts.types ? opts.types.includes(a.type) : a.type !== 'task' && a.type !== 'identity');
  const order = new Map(set.config.order.map((t, i) => [t, i] as const));
  const found: { a: Artifact; best: Scored; all: Scored[] }[] = [];
  for (const a of set.byId.values()) {
    if (!keep(a) || !a.paths.length) continue;
    const pathSet = compilePaths(a.paths);
    if (pathSet.excludes.some((x) => entryCovers(x, p))) continue;
    const all = pathSet.includes
      .map((x) => matchPattern(x, p))
      .filter((x): x is Scored => x !== undefined)
      .sort(better);
    if (all.length) found.push({ a, best: all[0]!, all });
  }
  const kind = (t: string) => order.get(t) ?? order.size;
  found.sort(
    (x, y) =>
      HOW_RANK[x.best.how] - HOW_RANK[y.best.how] ||
      segments(y.best.base) - segments(x.best.base) ||
      y.best.literal - x.best.literal ||
      kind(x.a.type) - kind(y.a.type) ||
      cmp(x.a.id, y.a.id),
  );
  return found.map(({ a, best, all }) => ({
    id: a.id,
    type: a.type,
    title: a.title,
    ...(a.status !== undefined ? { status: a.status } : {}),
    file: a.file,
    pattern: best.pattern,
    how: best.how,
    base: best.base,
    patterns: all.map((s) => ({ pattern: s.pattern, how: s.how })),
    explanation: explain(best),
  }));
}
