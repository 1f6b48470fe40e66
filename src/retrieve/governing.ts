import type { ArtifactSet } from '../artifacts/load.js';
import { PartialIndexError, type CodeIndex } from '../code/code-index.js';
import type { Snapshot } from '../snapshot/types.js';
import { entryCovers } from '../util/path-set.js';
import { mentionSignals } from './signals.js';
import { aboveFloor, RELEVANCE_FLOOR } from './floor.js';
import type { RetrievalLane } from './types.js';

/**
 * The records governing a commit, as the pre-commit hook says them: declared anchors, then
 * the related band, gathered over the commit's paths and kept only above a relevance floor.
 * A commit waits for it, so it reads paths only; retrieval over the change's own lines (the
 * pull request, `for --diff`) is change.ts.
 */
export interface GoverningRecord {
  id: string;
  type: string;
  title: string;
  status?: string;
  /** declared (anchors, annotations, paths) or related (keywords and mentions above the floor) */
  strength: 'declared' | 'related';
  /** best score over the change's paths */
  score: number;
  /** the change's paths it governs, sorted */
  paths: string[];
}

export interface GoverningOptions {
  snapshot: Snapshot;
  set: ArtifactSet;
  /** the change's paths (repository-relative); deleted ones and records themselves are skipped */
  paths: readonly string[];
  /** records returned at most (default 3) */
  max?: number;
  /** paths looked at, at most (default 10): a commit of hundreds of files still answers quickly */
  maxPaths?: number;
  /** the code index of the snapshot; built once when absent */
  index?: CodeIndex;
}

/**
 * The relevance floor of the related band: retrieval's calibrated floor (floor.ts, DEC-057), on
 * each result's calibrated `relevance`. A related record also needs evidence beyond keywords
 * (the record names the file or its folder): a commit's one line names what governs it, not
 * every record that shares its words. Declared records always count.
 */
export const RELATED_FLOOR = RELEVANCE_FLOOR;
const related = (x: { relevance?: number; why: readonly { kind: string }[] }) => aboveFloor(x.relevance ?? 0) && x.why.some((w) => w.kind === 'mention');

const NO_KEYWORDS: RetrievalLane = { name: 'keywords', run: () => Promise.resolve([]) };

/** Types that describe the project or the work rather than govern code. */
const NOT_GOVERNING = new Set(['identity', 'task']);

/**
 * The strongest records governing a change, strongest first: declared before related, then
 * by score, then by how many of the change's paths they govern. Empty when nothing reaches the
 * floor. Reads only; never throws for a path it cannot answer for (that path is skipped).
 */
export async function governingRecords(opts: GoverningOptions): Promise<GoverningRecord[]> {
  const { snapshot, set } = opts;
  const recordDirs = [set.config.dir, ...set.config.sources.map((s) => s.dir)].map((d) => `${d}/`);
  const paths = [...new Set(opts.paths)].filter((p) => !recordDirs.some((d) => p.startsWith(d))).sort().slice(0, opts.maxPaths ?? 10);
  const found = new Map<string, GoverningRecord>();
  const governing = set.artifacts.filter((a) => !NOT_GOVERNING.has(a.type));
  if (!paths.length || !governing.length) return [];
  // a path can reach the floor only through a declaration (a paths glob, an anchor, an
  // annotation in the file) or a record naming it: without either, it is not worth the
  // retrieval (reading the code, the code index), which a commit would wait for. The
  // retrieval of a whole file reads file-level facts: no parse unless a record anchors a
  // symbol or an endpoint there, no listing of the tree (DEC-071)
  const tags = new RegExp(`@(?:${set.config.tags.map((t) => t.replace(/[^\w-]/g, '')).join('|')})\\b`);
  const candidates: { path: string; mentioned: boolean }[] = [];
  for (const path of paths) {
    const blob = await snapshot.read(path).catch(() => undefined);
    if (!blob) continue;
    const declared = governing.some((a) => a.paths.some((e) => !e.trim().startsWith('!') && entryCovers(e, path)) || a.anchors.some((e) => e.split('#')[0] === path || entryCovers(e.split('#')[0]!, path)));
    const mentioned = mentionSignals(set, path).size > 0;
    if (declared || mentioned || tags.test(blob.toString('latin1'))) candidates.push({ path, mentioned });
  }
  if (!candidates.length) return [];
  // one code index for every path (retrieval would build one per place otherwise); a caller's
  // index of only the changed files serves until a question needs more of the tree
  let index = opts.index;
  const wholeIndex = async () => (await import('../place/index.js')).placeCodeIndex(snapshot, set);
  // retrieval's modules load only when a path may be governed: most commits never need them
  const { retrieveForPlace } = await import('./engine.js');
  const retrieve = async (path: string, mentioned: boolean) => {
    index ??= await wholeIndex();
    // unnamed by any record, a path's related band cannot reach the floor (keywords and
    // nearness stay below it): only its declared records count, and its code is not read
    const lanes = mentioned ? {} : { lanes: { keywords: NO_KEYWORDS } };
    const q = { snapshot, set, target: { path }, neighbours: false as const, staleness: false, feedback: false as const, caps: { declared: 5, fused: 3, links: 0 }, ...lanes };
    try {
      return await retrieveForPlace({ ...q, index });
    } catch (e) {
      if (!(e instanceof PartialIndexError)) return undefined;
      index = await wholeIndex();
      return retrieveForPlace({ ...q, index }).catch(() => undefined);
    }
  };
  for (const { path, mentioned } of candidates) {
    const r = await retrieve(path, mentioned);
    for (const x of r?.results ?? []) {
      if (x.inactive || NOT_GOVERNING.has(x.type)) continue;
      const strength = x.slot === 'declared' ? 'declared' : x.slot === 'fused' && related(x) ? 'related' : undefined;
      if (!strength) continue;
      const had = found.get(x.id);
      if (!had) found.set(x.id, { id: x.id, type: x.type, title: x.title, ...(x.status != null ? { status: x.status } : {}), strength, score: x.score, paths: [path] });
      else {
        if (strength === 'declared') had.strength = 'declared';
        had.score = Math.max(had.score, x.score);
        if (!had.paths.includes(path)) had.paths.push(path);
      }
    }
  }
  const rank = (g: GoverningRecord) => (g.strength === 'declared' ? 0 : 1);
  return [...found.values()]
    .sort((a, b) => rank(a) - rank(b) || b.score - a.score || b.paths.length - a.paths.length || (a.id < b.id ? -1 : 1))
    .slice(0, opts.max ?? 3);
}
