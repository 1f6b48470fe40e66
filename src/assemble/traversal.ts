import type { ArtifactSet } from '../artifacts/load.js';
import type { Artifact, Scope } from '../artifacts/types.js';
import type { BundleWarning, EntryRole } from './types.js';

/** One artifact reached by the traversal, before depth and budget are applied. */
export interface Reached {
  artifact: Artifact;
  role: EntryRole;
  distance: number | null;
  chain: string[];
  via: string[];
  /** hops left out of `chain` right after the root (chains are kept at most MAX_CHAIN ids long) */
  elided?: number;
}

/**
 * Ids kept per chain: the root and the last hops. Copying whole chains makes a 5,000-long
 * requires chain quadratic in time, memory and output (hundreds of MB of "why" lines).
 */
export const MAX_CHAIN = 16;

export interface TraversalResult {
  /** in bundle order: identity, root, then by kind order, scope, id */
  reached: Reached[];
  warnings: BundleWarning[];
}

export interface TraverseOptions {
  /** hops to follow from the root; undefined = unlimited */
  maxDepth?: number;
  /** kind order (config.order); kinds not listed come after, by name */
  order: string[];
  /** statuses per type that count as no longer in force (config.types[t].inactive) */
  inactive?: (type: string) => string[];
}

const SCOPE_RANK: Record<Scope, number> = { global: 0, domain: 1, project: 2 };

/** Plain code-unit comparison: never localeCompare, so order is the same under every locale. */
export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Compare two id chains: shorter first, then element by element. */
function cmpChain(a: string[], b: string[]): number {
  if (a.length !== b.length) return a.length - b.length;
  for (let i = 0; i < a.length; i++) {
    const c = cmp(a[i]!, b[i]!);
    if (c) return c;
  }
  return 0;
}

/** Outgoing edges followed by assembly (links and requires), sorted by target then label. */
function followed(a: Artifact): { to: string; label: string }[] {
  const es = [
    ...a.links.map((l) => ({ to: l.id, label: l.kind === 'links' ? 'links' : `links.${l.kind}` })),
    ...a.requires.map((r) => ({ to: r, label: 'requires' })),
  ];
  es.sort((x, y) => cmp(x.to, y.to) || cmp(x.label, y.label));
  return es;
}

/** "TASK-042 → SPEC-BILLING-001 (links.specs) → NORM-ERROR-001 (links.norms)" */
export function formatChain(chain: string[], via: string[], elided = 0): string {
  const parts = chain.map((id, i) => (i === 0 ? id : `${id} (${via[i - 1]})`));
  if (elided > 0) parts.splice(1, 0, `… ${elided} more …`);
  return parts.join(' → ');
}

/**
 * Breadth-first walk from the root along `links` and `requires`. Level by level, nodes are
 * expanded in order of their chain, so the first parent that reaches a node gives the
 * shortest chain with ties broken by id — the same answer on every run. Cycle-safe because
 * a node is settled the first time it is reached.
 */
export function traverse(set: ArtifactSet, root: Artifact, opts: TraverseOptions): TraversalResult {
  const warnings: BundleWarning[] = [];
  const settled = new Map<string, Reached>();
  settled.set(root.id, { artifact: root, role: 'root', distance: 0, chain: [root.id], via: [] });
  let level: Reached[] = [settled.get(root.id)!];
  let dist = 0;
  const missingSeen = new Set<string>();
  while (level.length && (opts.maxDepth === undefined || dist < opts.maxDepth)) {
    dist++;
    const next: Reached[] = [];
    for (const from of level) {
      for (const e of followed(from.artifact)) {
        if (settled.has(e.to)) continue;
        const target = set.byId.get(e.to);
        if (!target) {
          const key = `${from.artifact.id}\0${e.to}`;
          if (!missingSeen.has(key)) {
            missingSeen.add(key);
            warnings.push({
              code: 'missing-link',
              id: e.to,
              message: `${from.artifact.id} links ${e.to} (${e.label}), but no artifact has that id; left out`,
            });
          }
          continue;
        }
        const chain = [...from.chain, target.id];
        const via = [...from.via, e.label];
        let elided = from.elided ?? 0;
        if (chain.length > MAX_CHAIN) {
          chain.splice(1, 1);
          via.splice(0, 1);
          elided++;
        }
        const r: Reached = { artifact: target, role: 'linked', distance: dist, chain, via, ...(elided ? { elided } : {}) };
        settled.set(target.id, r);
        next.push(r);
      }
    }
    next.sort((a, b) => cmpChain(a.chain, b.chain));
    level = next;
  }

  // the identity is always included, whether or not anything links it
  const identities = [...set.byId.values()].filter((a) => a.type === 'identity');
  if (!identities.length) warnings.push({ code: 'no-identity', id: '', message: 'no artifact of type identity; the bundle has no project identity (git ctx init writes one)' });
  for (const a of identities) {
    const prev = settled.get(a.id);
    if (prev) {
      if (prev.role !== 'root') prev.role = 'identity';
    } else settled.set(a.id, { artifact: a, role: 'identity', distance: null, chain: [a.id], via: [] });
  }

  const reached = [...settled.values()];
  const rank = kindRank(opts.order);
  reached.sort((a, b) => {
    const ra = roleRank(a.role);
    const rb = roleRank(b.role);
    if (ra !== rb) return ra - rb;
    return rank(a.artifact.type) - rank(b.artifact.type) || cmp(a.artifact.type, b.artifact.type) || SCOPE_RANK[a.artifact.scope] - SCOPE_RANK[b.artifact.scope] || cmp(a.artifact.id, b.artifact.id);
  });

  for (const r of reached) {
    const inactive = opts.inactive?.(r.artifact.type) ?? [];
    if (r.role === 'linked' && r.artifact.status && inactive.includes(r.artifact.status)) {
      warnings.push({ code: 'inactive', id: r.artifact.id, message: `${r.artifact.id} is ${r.artifact.status} but still linked (${formatChain(r.chain, r.via)})` });
    }
    if (set.duplicates.has(r.artifact.id)) {
      warnings.push({ code: 'duplicate-id', id: r.artifact.id, message: `${r.artifact.id} is declared in several files (${set.duplicates.get(r.artifact.id)!.join(', ')}); used ${r.artifact.file}` });
    }
  }
  warnings.sort((a, b) => cmp(a.code, b.code) || cmp(a.id, b.id) || cmp(a.message, b.message));
  return { reached, warnings };
}

/** identity first, then the root, then everything linked. */
function roleRank(r: EntryRole): number {
  return r === 'identity' ? 0 : r === 'root' ? 1 : 2;
}

/** Position of a type in the configured kind order; unlisted types after all listed ones. */
export function kindRank(order: string[]): (type: string) => number {
  const pos = new Map(order.map((t, i) => [t, i] as const));
  return (t) => pos.get(t) ?? order.length;
}
