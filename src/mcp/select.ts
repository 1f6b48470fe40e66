import type { ArtifactSet } from '../artifacts/load.js';
import type { Artifact, Scope } from '../artifacts/types.js';
import type { Config } from '../config.js';

const SCOPE_RANK: Record<Scope, number> = { global: 0, domain: 1, project: 2 };

/** Plain code-unit comparison: the same order on every machine and locale (no localeCompare). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The canonical order: scope global → domain → project, then the configured type order
 * (types not in it after, by name), then id.
 */
export function compareArtifacts(config: Config): (a: Artifact, b: Artifact) => number {
  const rank = new Map(config.order.map((t, i) => [t, i]));
  const typeRank = (t: string) => rank.get(t) ?? config.order.length;
  return (a, b) =>
    SCOPE_RANK[a.scope] - SCOPE_RANK[b.scope] || typeRank(a.type) - typeRank(b.type) || compareStrings(a.type, b.type) || compareStrings(a.id, b.id) || compareStrings(a.file, b.file);
}

/** A sorted copy. */
export function sortArtifacts(list: Artifact[], config: Config): Artifact[] {
  return [...list].sort(compareArtifacts(config));
}

/** One phase-1 index line: frontmatter only. */
export interface IndexEntry {
  id: string;
  type: string;
  title: string;
  summary: string | null;
  scope: Scope;
  status: string | null;
}

/** Phase-1 filters. Every given filter must match. */
export interface IndexFilter {
  /** types (plural accepted: "decisions") */
  areas?: string[];
  scope?: Scope[];
  status?: string[];
  /** only ids named by a baseline manifest */
  baselineOnly?: boolean;
}

/** Map user-given area names onto configured types; unknown names are returned separately. */
export function resolveAreas(config: Config, areas: string[]): { types: string[]; unknown: string[] } {
  const types: string[] = [];
  const unknown: string[] = [];
  for (const raw of areas) {
    const a = raw.trim().toLowerCase();
    const hit = config.types[a] ? a : a.endsWith('s') && config.types[a.slice(0, -1)] ? a.slice(0, -1) : undefined;
    if (hit) types.push(hit);
    else unknown.push(raw);
  }
  return { types: [...new Set(types)], unknown };
}

/** The index entries that pass the filter, in canonical order (`ordered` is already sorted). */
export function indexEntries(ordered: Artifact[], filter: { types?: string[]; scope?: Scope[]; status?: string[]; only?: Set<string> }): IndexEntry[] {
  return ordered
    .filter((a) => !filter.types || filter.types.includes(a.type))
    .filter((a) => !filter.scope || filter.scope.includes(a.scope))
    .filter((a) => !filter.status || (a.status !== undefined && filter.status.includes(a.status)))
    .filter((a) => !filter.only || filter.only.has(a.id))
    .map((a) => ({ id: a.id, type: a.type, title: a.title, summary: a.summary ?? null, scope: a.scope, status: a.status ?? null }));
}

/** Why an artifact is in a phase-2 answer. */
export interface Selected {
  artifact: Artifact;
  /** asked for by id */
  requested: boolean;
  /** ids whose `requires` pulled it in (direct requirers only, sorted) */
  requiredBy: string[];
}

/** A `requires` entry that names no loaded artifact. */
export interface MissingRequire {
  from: string;
  id: string;
}

/**
 * The requested ids with `requires` expanded transitively. Each id appears once however
 * many artifacts require it; cycles terminate because an id is expanded only the first
 * time it is reached. Returned in canonical order (global → domain → project).
 */
export function expandRequires(set: Pick<ArtifactSet, 'byId' | 'config'>, ids: string[]): { selected: Selected[]; missing: MissingRequire[] } {
  const seen = new Map<string, Selected>();
  const missing: MissingRequire[] = [];
  const queue: string[] = [];
  for (const id of ids) {
    const a = set.byId.get(id);
    if (!a) continue;
    const prev = seen.get(a.id);
    if (prev) prev.requested = true;
    else {
      seen.set(a.id, { artifact: a, requested: true, requiredBy: [] });
      queue.push(a.id);
    }
  }
  while (queue.length) {
    const from = queue.shift()!;
    const a = seen.get(from)!.artifact;
    for (const r of a.requires) {
      const target = set.byId.get(r);
      if (!target) {
        missing.push({ from, id: r });
        continue;
      }
      const prev = seen.get(target.id);
      if (prev) {
        if (target.id !== from && !prev.requiredBy.includes(from)) prev.requiredBy.push(from);
        continue;
      }
      seen.set(target.id, { artifact: target, requested: false, requiredBy: [from] });
      queue.push(target.id);
    }
  }
  const cmp = compareArtifacts(set.config);
  const selected = [...seen.values()].sort((x, y) => cmp(x.artifact, y.artifact));
  for (const s of selected) s.requiredBy.sort(compareStrings);
  return { selected, missing };
}
