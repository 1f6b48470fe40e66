// @spec SPEC-RETRIEVE-001

import type { ArtifactSet } from '../artifacts/load.js';
import type { Artifact } from '../artifacts/types.js';
import { isGlob, parseAnchor } from '../code/anchors.js';
import { buildCodeIndex } from '../code/code-index.js';
import { compilePaths } from '../util/path-set.js';
import { normalizeRepoPath } from '../util/paths.js';
import { retrieveForPlace } from './engine.js';

/** Places a record is about: its `paths` (a glob by its literal folder) and anchored files, at most `max`. */
export function placesOf(a: Artifact, max = 8): string[] {
  const out = new Set<string>();
  const literal = (p: string) => {
    const parts = normalizeRepoPath(p).split('/');
    const i = parts.findIndex((s) => isGlob(s));
    return (i < 0 ? parts : parts.slice(0, i)).join('/');
  };
  for (const p of compilePaths(a.paths).includes) out.add(literal(p));
  for (const raw of a.anchors) {
    const s = parseAnchor(raw);
    if (s.kind === 'file' || s.kind === 'symbol' || s.kind === 'lines') out.add(s.path);
    else if (s.kind === 'glob') out.add(literal(s.pattern));
  }
  return [...out].filter((p) => p !== '').slice(0, max);
}

/**
 * Records retrieval finds for a record's paths and anchors (bundles' `--related N`):
 * declared hits before fused ones, best score first, leaving out `exclude`.
 */
export async function relatedForPaths(set: ArtifactSet, root: Artifact, n: number, exclude: ReadonlySet<string>): Promise<{ id: string; why: string }[]> {
  const places = placesOf(root);
  if (!places.length || n <= 0) return [];
  const index = await buildCodeIndex(set.snapshot, set.config);
  const best = new Map<string, { rank: number; why: string }>();
  for (const place of places) {
    let r;
    try {
      r = await retrieveForPlace({ snapshot: set.snapshot, set, index, target: { path: place }, neighbours: false, staleness: false, caps: { declared: n + exclude.size, fused: n + exclude.size, links: 0 } });
    } catch {
      continue; // a path that no longer exists names nothing to retrieve for
    }
    for (const x of r.results) {
      if (exclude.has(x.id) || x.id === root.id) continue;
      const rank = (x.slot === 'declared' ? 1e6 : 0) + x.score;
      const prev = best.get(x.id);
      if (!prev || rank > prev.rank) best.set(x.id, { rank, why: `retrieved for ${place} (${x.why[0]?.text ?? x.slot})` });
    }
  }
  return [...best]
    .sort((a, b) => b[1].rank - a[1].rank || (a[0] < b[0] ? -1 : 1))
    .slice(0, n)
    .map(([id, v]) => ({ id, why: v.why }));
}
