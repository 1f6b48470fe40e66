// @spec SPEC-IMPACT-001

import type { ArtifactSet } from '../artifacts/load.js';
import { RELATION_KINDS, type Artifact } from '../artifacts/types.js';
import { parseAnchor } from '../code/anchors.js';
import type { CodeIndex } from '../code/code-index.js';
import type { Annotation } from '../code/types.js';
import { normalizeRepoPath } from '../util/paths.js';
import type { EdgeStore } from './edge-store.js';
import type { ImpactEdge } from './types.js';

/** What a refresh did: origins seen, recomputed (new or changed content), and forgotten. */
export interface RefreshStats {
  origins: number;
  recomputed: number;
  removed: number;
}

/** Origins of global artifacts have no repository path: they are keyed by id. */
const originOf = (a: Artifact) => (a.origin === 'global' || !a.file ? `global:${a.id}` : a.file);
/** The edges of an artifact depend on its bytes and on the edge schema only. */
const artifactHash = (a: Artifact) => `a1:${a.blob}`;

/** The edges written in one artifact: its anchors, `paths`, mentions, links, requires and relations. */
export function artifactEdges(a: Artifact): ImpactEdge[] {
  const origin = originOf(a);
  const out: ImpactEdge[] = [];
  const add = (dstKind: ImpactEdge['dstKind'], dst: string, kind: ImpactEdge['kind']) => out.push({ srcKind: 'artifact', src: a.id, dstKind, dst, kind, origin });
  for (const raw of a.anchors) {
    const s = parseAnchor(raw);
    if (s.kind === 'symbol') add('symbol', `${s.path}#${s.symbol}`, 'anchor');
    else if (s.kind === 'lines' || s.kind === 'file') add('path', s.path, 'anchor');
    else if (s.kind === 'glob') add('path', s.pattern, 'anchor');
    // endpoints (`POST /x`) name no file until resolved; staleness resolves them, impact does not
  }
  for (const p of a.paths) {
    const t = p.trim();
    // exclusions are applied when a path entry is matched (through the artifact's whole `paths:` set)
    if (t && !t.startsWith('!')) add('path', normalizeRepoPath(t), 'paths');
  }
  for (const m of a.mentions ?? []) {
    const hash = m.target.indexOf('#');
    if (hash > 0) add('symbol', `${normalizeRepoPath(m.target.slice(0, hash))}#${m.target.slice(hash + 1)}`, 'mentioned');
    else add('path', normalizeRepoPath(m.target), 'mentioned');
  }
  for (const l of a.links) add('artifact', l.id, 'link');
  for (const r of a.requires) add('artifact', r, 'requires');
  for (const k of RELATION_KINDS) for (const t of a.relations[k] ?? []) add('artifact', t, k);
  // one edge per (target, kind): a record that links and requires the same id keeps both, not duplicates
  const seen = new Set<string>();
  return out.filter((e) => {
    const k = `${e.dstKind}\0${e.dst}\0${e.kind}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The edges one code file declares: each annotation ties the ids it names to its symbol (or the file). */
export function annotationEdges(file: string, annotations: readonly Annotation[]): ImpactEdge[] {
  const out: ImpactEdge[] = [];
  const seen = new Set<string>();
  for (const an of annotations) {
    for (const id of an.ids) {
      const dst = an.symbol ? `${file}#${an.symbol}` : file;
      const k = `${id}\0${dst}`;
      if (seen.has(k)) continue;
      seen.add(k);
      out.push({ srcKind: 'artifact', src: id, dstKind: an.symbol ? 'symbol' : 'path', dst, kind: 'annotation', origin: file });
    }
  }
  return out;
}

/** A code file with annotations: an origin of edges, with the hash its edges are computed from. */
export interface CodeOrigin {
  file: string;
  hash: string;
  /** its edges; absent when only the hash is known (see refreshFromOrigins) */
  edges?: () => ImpactEdge[];
}

/** The code origins of an index: every file with annotations, with its hash and edges. */
export async function codeOriginsOf(index: CodeIndex): Promise<CodeOrigin[]> {
  const byFile = new Map<string, Annotation[]>();
  for (const an of index.annotations) {
    const l = byFile.get(an.file);
    if (l) l.push(an);
    else byFile.set(an.file, [an]);
  }
  const out: CodeOrigin[] = [];
  for (const [file, list] of byFile) {
    const blob = index.file(file)?.blob ?? (await index.snapshot.blobOf(file));
    out.push({ file, hash: `c1:${blob ?? 'absent'}`, edges: () => annotationEdges(file, list) });
  }
  return out;
}

/**
 * Bring the store up to date with a snapshot: each artifact file and each code file with
 * annotations is an origin; an origin whose content hash is unchanged keeps its stored
 * edges, a changed or new one is recomputed, and a vanished one is forgotten.
 */
export async function refreshEdges(store: EdgeStore, set: ArtifactSet, index: CodeIndex): Promise<RefreshStats> {
  return refreshFromOrigins(store, set, await codeOriginsOf(index))!;
}

/**
 * refreshEdges from the code origins alone. undefined, with nothing changed, when a code
 * origin given without its edges has to be recomputed (the caller then asks the code index).
 */
export function refreshFromOrigins(store: EdgeStore, set: ArtifactSet, code: CodeOrigin[]): RefreshStats | undefined {
  if (code.some((c) => !c.edges && store.edgeSourceHash(c.file) !== c.hash)) return undefined;
  const stats: RefreshStats = { origins: 0, recomputed: 0, removed: 0 };
  const live = new Set<string>();
  for (const a of set.artifacts) {
    const origin = originOf(a);
    // two artifacts in one file would share an origin; the first wins, as the id check reports the rest
    if (live.has(origin)) continue;
    live.add(origin);
    stats.origins++;
    const hash = artifactHash(a);
    if (store.edgeSourceHash(origin) === hash) continue;
    store.replaceEdges(origin, hash, artifactEdges(a));
    stats.recomputed++;
  }
  for (const c of code) {
    live.add(c.file);
    stats.origins++;
    if (store.edgeSourceHash(c.file) === c.hash) continue;
    store.replaceEdges(c.file, c.hash, c.edges!());
    stats.recomputed++;
  }
  for (const origin of store.origins()) {
    if (live.has(origin)) continue;
    store.removeOrigin(origin);
    stats.removed++;
  }
  return stats;
}
