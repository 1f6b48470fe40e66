// @spec SPEC-RETRIEVE-001

import type { ArtifactSet } from '../artifacts/load.js';
import { annotationId } from '../artifacts/lookup.js';
import type { CodeIndex } from '../code/code-index.js';
import { findSymbol, parseAnchor } from '../code/anchors.js';
import type { CodeNeighbours } from '../code/neighbours.js';
import { neighboursCanDeclare } from './neighbour-declarations.js';
import { traceLocation, type TraceResult, type TraceTarget } from './trace.js';
import { widenIndex } from '../place/index.js';
import type { Snapshot } from '../snapshot/types.js';
import { normalizeRepoPath } from '../util/paths.js';
import type { Why } from './types.js';

/**
 * Slot 1: what people declared on purpose, at the place and walking outward. Tiers, nearest
 * first: the symbol (and the symbols enclosing it), its callers and callees, the file, its
 * imports and importers, the directories upward, the package.
 */
export const TIERS = { symbol: 0, call: 1, file: 2, import: 3, directory: 4, package: 5 } as const;
export type Tier = keyof typeof TIERS;

export interface DeclaredHit {
  id: string;
  tier: Tier;
  /** hops within the tier (enclosing symbol, directory levels up) */
  distance: number;
  why: Why[];
}

/** Rank of a declared hit: lower is nearer. */
export const declaredRank = (h: Pick<DeclaredHit, 'tier' | 'distance'>) => TIERS[h.tier] * 100 + Math.min(h.distance, 99);

const LEVEL_TIER: Record<string, Tier> = { symbol: 'symbol', file: 'file', directory: 'directory', package: 'package' };

export interface DeclaredOptions {
  snapshot: Snapshot;
  set: ArtifactSet;
  index: CodeIndex;
  target: TraceTarget;
  neighbours?: CodeNeighbours;
  /** the symbol the walk starts from (given, or found at the line) */
  symbol?: string;
}

/** Records governing a place, nearest first, each with every way it was found (the trace says no `skipped`). */
export async function declaredFor(opts: DeclaredOptions): Promise<{ hits: DeclaredHit[]; trace: TraceResult; graphError?: string }> {
  const { set, index } = opts;
  // a symbol only the code graph knows (Python, Go, Java…): trace the file, walk from the symbol
  const known = opts.target.symbol === undefined || findSymbol(await index.symbolsOf(opts.target.path), opts.target.symbol) !== undefined;
  // who governs the place, not why its file was not parsed: asking that would parse the file (DEC-071)
  const trace = await traceLocation({ snapshot: opts.snapshot, set, index, target: known ? opts.target : { path: opts.target.path }, reportSkipped: false });
  const hits = new Map<string, DeclaredHit>();
  const add = (id: string, tier: Tier, distance: number, why: Why) => {
    if (!set.byId.has(id)) return; // an annotation naming no record is check's business, not an answer
    const h = hits.get(id);
    if (!h) hits.set(id, { id, tier, distance, why: [why] });
    else {
      if (declaredRank({ tier, distance }) < declaredRank(h)) {
        h.tier = tier;
        h.distance = distance;
        h.why.unshift(why);
      } else h.why.push(why);
    }
  };
  for (const e of trace.entries) {
    for (const m of [e.match, ...e.also]) add(e.id, LEVEL_TIER[m.level]!, m.distance, { kind: m.via, text: m.how });
  }

  const nb = opts.neighbours;
  const path = normalizeRepoPath(opts.target.path);
  let graphError: string | undefined;
  // a code graph that fails (a grammar that does not load, a broken cache) costs its hops, not what is declared here;
  // one with nothing declared on any file is not walked (DEC-121)
  if (nb && trace.target.kind === 'file' && (await neighboursCanDeclare(opts.snapshot, set))) {
    try {
      const here = `${path}${opts.symbol ? `#${opts.symbol}` : ''}`;
      // the neighbours first: a code index built for one place learns their annotations now
      const [calls, imports, importers] = await Promise.all([
        opts.symbol ? Promise.all([nb.callers(path, opts.symbol), nb.callees(path, opts.symbol)]) : Promise.resolve([[], []] as const),
        nb.imports(path),
        nb.importers(path),
      ]);
      const [callers, callees] = calls;
      const source = await widenIndex(index, [...new Set([...callers.map((c) => c.path), ...callees.map((c) => c.path), ...imports, ...importers])]);
      // what is declared on one neighbouring file (any of its symbols) or one symbol in it
      const declaredOn = (file: string, symbol: string | undefined): { id: string; how: string }[] => {
        const out: { id: string; how: string }[] = [];
        for (const a of source.annotationsIn(file)) {
          const onIt = symbol === undefined || a.symbol === undefined || a.symbol === symbol || symbol.startsWith(a.symbol + '.');
          if (onIt) for (const id of a.ids) out.push({ id: annotationId(set, id), how: `@${a.tag} ${a.symbol ? `on ${a.symbol} ` : ''}(${file}:${a.line})` });
        }
        for (const art of byAnchorFile(set).get(file) ?? []) {
          for (const raw of art.anchors) {
            const spec = parseAnchor(raw);
            if (spec.kind === 'file' && spec.path === file && symbol === undefined) out.push({ id: art.id, how: `anchor ${raw} (${art.file})` });
            if (spec.kind === 'symbol' && spec.path === file && (symbol === undefined || spec.symbol === symbol || symbol.startsWith(spec.symbol + '.'))) out.push({ id: art.id, how: `anchor ${raw} (${art.file})` });
          }
        }
        return out;
      };
      for (const c of callers) {
        for (const d of declaredOn(c.path, c.symbol)) add(d.id, 'call', 1, { kind: 'graph', text: `caller ${c.path}#${c.symbol} → ${here}: ${d.how}`, path: [`${c.path}#${c.symbol}`, here] });
      }
      for (const c of callees) {
        for (const d of declaredOn(c.path, c.symbol)) add(d.id, 'call', 1, { kind: 'graph', text: `callee ${here} → ${c.path}#${c.symbol}: ${d.how}`, path: [here, `${c.path}#${c.symbol}`] });
      }
      for (const f of imports) {
        for (const d of declaredOn(f, undefined)) add(d.id, 'import', 1, { kind: 'graph', text: `imports ${f}: ${d.how}`, path: [path, f] });
      }
      for (const f of importers) {
        for (const d of declaredOn(f, undefined)) add(d.id, 'import', 2, { kind: 'graph', text: `imported by ${f}: ${d.how}`, path: [f, path] });
      }
    } catch (e) {
      graphError = `code graph: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  const order = new Map(set.config.order.map((t, i) => [t, i] as const));
  const kind = (id: string) => order.get(set.byId.get(id)!.type) ?? order.size;
  const list = [...hits.values()].sort((a, b) => declaredRank(a) - declaredRank(b) || kind(a.id) - kind(b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { hits: list, trace, ...(graphError ? { graphError } : {}) };
}

const anchorFiles = new WeakMap<ArtifactSet, Map<string, ArtifactSet['artifacts']>>();
/** Records by the files their file and symbol anchors name (built once per set). */
function byAnchorFile(set: ArtifactSet): Map<string, ArtifactSet['artifacts']> {
  let m = anchorFiles.get(set);
  if (m) return m;
  m = new Map();
  for (const a of set.artifacts) {
    for (const raw of a.anchors) {
      const spec = parseAnchor(raw);
      if (spec.kind !== 'file' && spec.kind !== 'symbol') continue;
      const l = m.get(spec.path);
      if (!l) m.set(spec.path, [a]);
      else if (!l.includes(a)) l.push(a);
    }
  }
  anchorFiles.set(set, m);
  return m;
}
