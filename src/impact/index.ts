// @spec SPEC-IMPACT-001

import type { ArtifactSet } from '../artifacts/load.js';
import { annotationId, recordsByNumber, requireArtifact } from '../artifacts/lookup.js';
import { buildCodeIndex, type CodeIndex } from '../code/code-index.js';
import type { CodeNeighbours } from '../code/neighbours.js';
import { CtxError } from '../errors.js';
import { nearPaths } from '../snapshot/missing-path.js';
import type { Snapshot } from '../snapshot/types.js';
import { closeMatches } from '../util/close-match.js';
import { normalizeRepoPath } from '../util/paths.js';
import { mark } from '../util/timing.js';
import { openEdgeCache, type EdgeStore } from './edge-store.js';
import { codeOriginsOf, refreshFromOrigins, type RefreshStats } from './edges.js';
import { readCodeOrigins, writeCodeOrigins } from './code-origins.js';
import { journalMarkers } from './store-backend.js';
import type { ImpactNode, ImpactResult, ImpactStale } from './types.js';
import { projectedNeighbours } from './graph-projection.js';
import { walkImpact } from './walk.js';

export type * from './types.js';
export { openEdgeCache, type EdgeStore } from './edge-store.js';
export { openImpactBackend, ingestMarkerJournal, journalMarkers, type ImpactBackend } from './store-backend.js';
export { artifactEdges, annotationEdges, refreshEdges, type RefreshStats } from './edges.js';

export const DEFAULT_IMPACT_DEPTH = 3;
export const DEFAULT_IMPACT_LIMIT = 200;
/** `path:line`: the innermost symbol there. */
const LINE_TARGET = /^(.*):(\d+)$/;
/** Files of a directory taken as the start of a reverse walk, at most. */
const MAX_START_FILES = 2000;

export interface ImpactOptions {
  snapshot: Snapshot;
  set: ArtifactSet;
  /** an artifact id, a repository path (file or directory), or `path#Symbol` */
  target: string;
  /** from code to the records it touches (always, for a path); for an id: what the record relies on */
  reverse?: boolean;
  /** edges from the target (default 3) */
  depth?: number;
  /** most artifacts and most code nodes listed, each (default 200) */
  limit?: number;
  /** the code index (annotations); built when absent */
  index?: CodeIndex;
  /** the code graph; by default the repository's, opened only when a walk reaches code; false: none */
  neighbours?: CodeNeighbours | false;
  /** where edges are kept; by default the `impact-edges` cache (front ends pass the evidence store's, see openImpactBackend) */
  store?: EdgeStore;
  /** the latest staleness verdicts; by default the markers journal under `<git-dir>/ctx` */
  markers?: (ids: string[]) => Promise<Map<string, ImpactStale>> | Map<string, ImpactStale>;
}

/** What an impact target names: an artifact, a file, a directory's files, or a symbol. */
export async function resolveImpactTarget(snapshot: Snapshot, set: ArtifactSet, target: string, index?: CodeIndex): Promise<{ kind: ImpactNode['kind'] | 'directory'; id: string; start: ImpactNode[] }> {
  const t = target.trim();
  if (set.byId.has(t)) return { kind: 'artifact', id: t, start: [{ kind: 'artifact', id: t }] };
  // path:line is the innermost symbol there (the file when the line is outside every symbol)
  const at = LINE_TARGET.exec(t);
  if (at && !t.includes('#') && (await snapshot.blobOf(normalizeRepoPath(at[1]!))) !== undefined) {
    const file = normalizeRepoPath(at[1]!);
    const sym = index ? (await index.symbolAt(file, Number(at[2])))?.name : undefined;
    return sym ? { kind: 'symbol', id: `${file}#${sym}`, start: [{ kind: 'symbol', id: `${file}#${sym}` }] } : { kind: 'file', id: file, start: [{ kind: 'file', id: file }] };
  }
  const hash = t.indexOf('#');
  const file = normalizeRepoPath(hash > 0 ? t.slice(0, hash) : t);
  if (hash > 0) {
    if ((await snapshot.blobOf(file)) === undefined) throw await notFound(set, snapshot, t, file);
    const id = `${file}#${t.slice(hash + 1)}`;
    return { kind: 'symbol', id, start: [{ kind: 'symbol', id }] };
  }
  if (file && (await snapshot.blobOf(file)) !== undefined) return { kind: 'file', id: file, start: [{ kind: 'file', id: file }] };
  const under = file ? await snapshot.listUnder(file) : [];
  if (under.length) return { kind: 'directory', id: file, start: under.slice(0, MAX_START_FILES).map((e) => ({ kind: 'file', id: e.path })) };
  // an id as people type it (`5`, `adr-5`, `0005-use-coroutines` for ADR-0005), as show takes it:
  // one record is the answer; a number several records share says which (requireArtifact)
  const typed = recordsByNumber(set, t);
  if (typed.length > 1) requireArtifact(set, t);
  const id = annotationId(set, t);
  if (set.byId.has(id)) return { kind: 'artifact', id, start: [{ kind: 'artifact', id }] };
  throw await notFound(set, snapshot, t, file);
}

async function notFound(set: ArtifactSet, snapshot: Snapshot, target: string, file: string): Promise<CtxError> {
  const ids = closeMatches(target, [...set.byId.keys()]);
  const looksLikePath = /[/.]/.test(target) && !/^[A-Z][A-Z0-9]*-/.test(target);
  if (!looksLikePath || ids.length) {
    return new CtxError('UNKNOWN_ID', `no artifact ${target} and no such file or directory in the snapshot`, { hint: ids.length ? `did you mean ${ids.join(', ')}?` : 'run git ctx list for the ids' });
  }
  const near = await nearPaths(snapshot, file);
  return new CtxError('USAGE', `no such file or directory in the snapshot: ${file || '.'} (and no artifact with that id)`, { hint: near.length ? `did you mean ${near.join(', ')}?` : 'paths are relative to the repository root; use git ctx list for the ids' });
}

/**
 * What a change touches. Forward from an artifact: the code it governs and the records that
 * rely on it (requires, depends on, amends, links to it; conflicts and relates both ways),
 * transitively. Reverse from code (`path`, a directory, `path#Symbol`): the records
 * declared on it (anchors, annotations, `paths`; mentions as weaker evidence), then the
 * code that imports or calls it and their records, and the records relying on those.
 * Reverse from an artifact: what it relies on. Every result carries its path of edges.
 */
export async function analyzeImpact(opts: ImpactOptions): Promise<ImpactResult> {
  const { snapshot, set } = opts;
  const depth = opts.depth ?? DEFAULT_IMPACT_DEPTH;
  if (!Number.isInteger(depth) || depth < 1 || depth > 20) throw new CtxError('USAGE', `--depth must be an integer from 1 to 20 (got ${depth})`);
  // the code index only when something needs it: a warm run whose stored edges match the
  // code origins remembered for this listing (code-origins.ts) walks without it
  let built: Promise<CodeIndex> | undefined;
  const codeIndex = () =>
    (built ??= opts.index
      ? Promise.resolve(opts.index)
      : buildCodeIndex(snapshot, set.config).then((ix) => {
          mark('impact: code index');
          return ix;
        }));
  const target = await resolveImpactTarget(snapshot, set, opts.target, LINE_TARGET.test(opts.target.trim()) ? await codeIndex() : undefined);
  const store = opts.store ?? openEdgeCache(snapshot.root);
  const refresh = await refreshCode(store, set, snapshot, opts.index, codeIndex);
  store.flush();
  mark(`impact: edges (${refresh.recomputed} of ${refresh.origins} origins recomputed)`);
  const reverse = target.kind !== 'artifact' || !!opts.reverse;
  // the repository's graph: importers and callers through their projection (a few hundred KB, not every shard)
  const neighbours = opts.neighbours === false ? undefined : (opts.neighbours ?? projectedNeighbours(opts.index?.snapshot ?? snapshot, codeIndex));
  if (target.kind === 'symbol') await requireSymbol(target.id, codeIndex, neighbours, !opts.neighbours);
  const markers = opts.markers ?? journalMarkers(snapshot.root);
  const walk = await walkImpact({
    snapshot,
    set,
    store,
    neighbours,
    mode: target.kind === 'artifact' && reverse ? 'affected-by' : 'affects',
    start: target.start,
    depth,
    limit: opts.limit ?? DEFAULT_IMPACT_LIMIT,
    markers,
  });
  mark('impact: walked');
  if (!opts.index && built) await (await built).flush();
  return {
    query: { kind: target.kind, id: target.id, direction: reverse ? 'reverse' : 'forward', depth },
    artifacts: walk.artifacts,
    code: walk.code,
    truncated: walk.truncated,
    edges: { ...refresh, count: edgeCount(store) },
  };
}

/**
 * The edges brought up to date. The code side (files with annotations) comes from the code
 * origins remembered for this listing when the store holds every one of them as it is;
 * otherwise from the code index, whose origins are then remembered. A given index is used as it is.
 */
async function refreshCode(store: EdgeStore, set: ArtifactSet, snapshot: Snapshot, given: CodeIndex | undefined, codeIndex: () => Promise<CodeIndex>): Promise<RefreshStats> {
  if (!given) {
    const known = await readCodeOrigins(snapshot, set.config).catch(() => undefined);
    const done = known && refreshFromOrigins(store, set, known);
    if (done) {
      mark('impact: code origins from the memo');
      return done;
    }
  }
  const index = await codeIndex();
  const origins = await codeOriginsOf(index);
  const stats = refreshFromOrigins(store, set, origins)!;
  // a file that could not be read is not remembered as carrying nothing
  if (!given && !index.problems.some((p) => p.kind === 'unreadable')) await writeCodeOrigins(snapshot, set.config, origins).catch(() => undefined);
  return stats;
}

/** A symbol the code graph or the code index declares; else a usage error listing some that exist. */
async function requireSymbol(id: string, codeIndex: () => Promise<CodeIndex>, neighbours: CodeNeighbours | undefined, ourGraph: boolean): Promise<void> {
  const hash = id.indexOf('#');
  const file = id.slice(0, hash);
  const name = id.slice(hash + 1);
  // a symbol the repository's graph lists callers of is one it declares (call targets resolve to declarations)
  if (ourGraph && neighbours && (await neighbours.callers(file, name).catch(() => [])).length) return;
  const known = (await (await codeIndex()).symbolsOf(file)).map((s) => s.name);
  if (known.includes(name)) return;
  const graph = ((await neighbours?.declarations?.(file).catch(() => [])) ?? []).map((d) => d[0]);
  if (graph.includes(name)) return;
  const names = [...new Set([...known, ...graph])];
  const near = closeMatches(name, names);
  throw new CtxError('USAGE', `no symbol ${name} in ${file}`, names.length ? { hint: near.length ? `did you mean ${near.join(', ')}?` : `symbols: ${names.slice(0, 8).join(', ')}` } : {});
}

function edgeCount(store: EdgeStore): number {
  return store.edgesToKind('artifact').length + store.edgesToKind('path').length + store.edgesToKind('symbol').length;
}
