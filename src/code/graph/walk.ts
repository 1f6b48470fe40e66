// @spec SPEC-CODEGRAPH-001

/*
 * The call graph around a symbol (`git ctx graph`). One graph, two strategies for finding
 * callers and callees: the code graph index for every language it reads, and the TypeScript
 * checker's precise walk (precise.ts) for TypeScript and JavaScript.
 */

import { CtxError } from '../../errors.js';
import type { CodeIndex } from '../code-index.js';

/** A symbol in the call graph. `id` is `path#Symbol.name` (`path#<module>` for top-level code). */
export interface GraphNode {
  id: string;
  path: string;
  symbol: string;
  line?: number;
  /** ids annotating the symbol (and its file), so the graph leads to the governing artifacts */
  governedBy: string[];
  /** distance from the root: negative for callers, positive for callees */
  distance: number;
}

/** A call: `from` calls `to` at `file:line`. */
export interface GraphEdge {
  from: string;
  to: string;
  file: string;
  line: number;
}

export interface CodeGraph {
  root: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** how many files were loaded into the type checker (the rest of the repository was not) */
  loadedFiles: number;
}

export interface CodeGraphOptions {
  index: CodeIndex;
  path: string;
  symbol: string;
  callers?: boolean;
  callees?: boolean;
  /** levels to follow in each direction (default 1) */
  depth?: number;
  /**
   * How callers and callees are found: `precise` asks the TypeScript checker (TS/JS only: it
   * resolves what a call refers to, loading only the files a level needs); `index` walks the
   * code graph index (every language it reads: imports and calls linked by name, cached).
   * Default: precise for TS/JS files, index for the others.
   */
  strategy?: CallGraphStrategy;
  /**
   * The id an annotation names, as the artifact set reads it (`@adr 5` names ADR-0005:
   * annotationId, DEC-096); default: as written.
   */
  idOf?: (written: string) => string;
}

/** The ids a node's annotations name, each as the artifact set reads it, once and sorted. @decision DEC-096 */
export function governingIds(opts: CodeGraphOptions, ann: readonly { ids: readonly string[] }[]): string[] {
  const idOf = opts.idOf ?? ((w: string) => w);
  return [...new Set(ann.flatMap((a) => a.ids.map(idOf)))].sort();
}

export type CallGraphStrategy = 'precise' | 'index';

/** Top-level code of a file, as a node's symbol. */
export const MODULE = '<module>';
const TS_EXT = /\.(?:[cm]?[jt]sx?)$/;

/**
 * The call graph around a symbol: callers and callees level by level, each node with the
 * records annotating it, through the strategy asked (or the one that fits the file).
 */
export async function codeGraph(opts: CodeGraphOptions): Promise<CodeGraph> {
  const strategy = opts.strategy ?? (TS_EXT.test(opts.path) ? 'precise' : 'index');
  if (strategy === 'index') return indexGraph(opts);
  const { preciseGraph } = await import('./precise.js');
  return preciseGraph(opts);
}

/** The graph as returned: nodes nearest first, edges in a stable order. */
export function graphOf(root: string, nodes: Map<string, GraphNode>, edges: Map<string, GraphEdge>, loadedFiles: number): CodeGraph {
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return {
    root,
    nodes: [...nodes.values()].sort((a, b) => a.distance - b.distance || byId(a, b)),
    edges: [...edges.values()].sort((a, b) => (a.from + a.to < b.from + b.to ? -1 : a.from + a.to > b.from + b.to ? 1 : a.line - b.line)),
    loadedFiles,
  };
}

/**
 * The index strategy: callers and callees from the code graph index (this folder), facts
 * linked through imports and packages, walked level by level. Python, Go, Java and Ruby always
 * take it; TypeScript and JavaScript when asked.
 */
async function indexGraph(opts: CodeGraphOptions): Promise<CodeGraph> {
  const { index } = opts;
  const depth = opts.depth ?? 1;
  const wantCallers = opts.callers ?? !opts.callees;
  const wantCallees = opts.callees ?? !opts.callers;
  const { graphLanguageOf, openCodeNeighbours } = await import('./index.js');
  if (!graphLanguageOf(opts.path)) throw new CtxError('USAGE', `graph reads TypeScript/JavaScript, Python, Go, Java and Ruby files, not ${opts.path}`);
  const g = await openCodeNeighbours(index.snapshot);
  const { findDeclaration } = await import('./symbols.js');
  const decls = await g.declarations(opts.path);
  if (!decls.length) {
    const { othersCodeOf } = await import('../others-code.js');
    if ((await othersCodeOf(index.snapshot))(opts.path)) throw new CtxError('USAGE', `${opts.path} is vendored or generated code (a vendor folder or .gitattributes linguist-vendored/linguist-generated): the code graph leaves it out; mark it linguist-vendored=false in .gitattributes to read it`);
  }
  const found = findDeclaration(decls.map(([name, line, end]) => ({ name, line, end })), opts.symbol);
  if (!found) throw new CtxError('USAGE', `no symbol ${opts.symbol} in ${opts.path}`);

  const nodes = new Map<string, GraphNode>();
  const edges = new Map<string, GraphEdge>();
  const nodeFor = async (path: string, symbol: string, distance: number): Promise<GraphNode> => {
    const id = `${path}#${symbol}`;
    let n = nodes.get(id);
    if (!n) {
      const line = (await g.declarations(path)).find(([name]) => name === symbol)?.[1];
      const ann = index.annotationsIn(path).filter((a) => a.symbol === undefined || a.symbol === symbol || symbol.startsWith(a.symbol + '.') || (line !== undefined && a.startLine <= line && line <= a.endLine));
      n = { id, path, symbol, governedBy: governingIds(opts, ann), distance };
      if (line !== undefined) n.line = line;
      nodes.set(id, n);
    } else if (Math.abs(distance) < Math.abs(n.distance)) n.distance = distance;
    return n;
  };
  const root = await nodeFor(opts.path, found.name, 0);
  for (const dir of [wantCallers ? -1 : 0, wantCallees ? 1 : 0]) {
    if (!dir) continue;
    let frontier = [root];
    for (let level = 1; level <= depth && frontier.length; level++) {
      const next: GraphNode[] = [];
      for (const f of frontier) {
        const sites = dir < 0 ? await g.callers(f.path, f.symbol) : await g.callees(f.path, f.symbol);
        for (const s of sites) {
          const other = await nodeFor(s.path, s.symbol, dir * level);
          if (dir < 0) edges.set(`${other.id}\0${f.id}\0${s.line}`, { from: other.id, to: f.id, file: s.path, line: s.line });
          else edges.set(`${f.id}\0${other.id}\0${s.line}`, { from: f.id, to: other.id, file: f.path, line: s.line });
          if (other.distance === dir * level && other.symbol !== MODULE) next.push(other);
        }
      }
      frontier = [...new Set(next)];
    }
  }
  return graphOf(root.id, nodes, edges, 0);
}
