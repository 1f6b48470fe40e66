// @spec SPEC-CODEGRAPH-001

import { createRequire } from 'node:module';
import type * as TsMorph from 'ts-morph';
import { CtxError } from '../../errors.js';
import { findSymbol } from '../anchors.js';
import { innermostSymbol, type CodeIndex } from '../code-index.js';
import { gitGrepFiles } from '../grep.js';
import type { CodeSymbol } from '../types.js';
import { governingIds, graphOf, MODULE, type CodeGraph, type CodeGraphOptions, type GraphEdge, type GraphNode } from './walk.js';

const TS_EXT = /\.(?:[cm]?[jt]sx?)$/;

/**
 * The precise strategy: callers and callees of a symbol through the TypeScript checker
 * (ts-morph). Nothing is loaded up front: the project starts with the symbol's file, adds the
 * files a text search says mention a caller's name, and the files a callee is imported from,
 * one level at a time.
 */
export async function preciseGraph(opts: CodeGraphOptions): Promise<CodeGraph> {
  if (!TS_EXT.test(opts.path)) throw new CtxError('USAGE', `the precise strategy reads TypeScript/JavaScript through the type checker, not ${opts.path}: use the index strategy`);
  const { index } = opts;
  const depth = opts.depth ?? 1;
  const wantCallers = opts.callers ?? !opts.callees;
  const wantCallees = opts.callees ?? !opts.callers;
  const rootSym = findSymbol(await index.symbolsOf(opts.path), opts.symbol);
  const skipped = rootSym ? undefined : await index.skippedReason(opts.path);
  if (skipped) throw new CtxError('USAGE', `${opts.path} was not parsed (${skipped}), so its symbols are unknown`, { file: opts.path });
  if (!rootSym) throw new CtxError('USAGE', `no symbol ${opts.symbol} in ${opts.path}`);

  const tm = createRequire(import.meta.url)('ts-morph') as typeof TsMorph;
  const { Node, SyntaxKind } = tm;
  const project = new tm.Project({
    useInMemoryFileSystem: true,
    skipAddingFilesFromTsConfig: true,
    compilerOptions: { allowJs: true, checkJs: false, target: tm.ts.ScriptTarget.ES2022, module: tm.ts.ModuleKind.NodeNext, moduleResolution: tm.ts.ModuleResolutionKind.NodeNext, jsx: tm.ts.JsxEmit.Preserve, noLib: true },
  });
  const loaded = new Set<string>();
  const tsPaths = new Set(index.files.filter((f) => f.language === 'ts').map((f) => f.path));
  const load = async (paths: string[]) => {
    const todo = paths.filter((p) => !loaded.has(p) && tsPaths.has(p));
    const bufs = await index.snapshot.readMany(todo);
    for (const [i, p] of todo.entries()) {
      loaded.add(p);
      const b = bufs[i];
      if (b) project.createSourceFile('/' + p, b.toString('utf8'), { overwrite: true });
    }
  };
  // the files a file imports from, resolved against the snapshot's paths
  const importsOf = (p: string): string[] => {
    const sf = project.getSourceFile('/' + p);
    if (!sf) return [];
    const out: string[] = [];
    const dir = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '';
    for (const d of [...sf.getImportDeclarations(), ...sf.getExportDeclarations()]) {
      const spec = d.getModuleSpecifierValue();
      if (!spec || !spec.startsWith('.')) continue;
      const base = normalizeJoin(dir, spec);
      const stem = base.replace(TS_EXT, '');
      for (const c of [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.js`, `${stem}.jsx`, `${stem}.mts`, `${base}/index.ts`, `${base}/index.js`]) {
        if (tsPaths.has(c)) {
          out.push(c);
          break;
        }
      }
    }
    return out;
  };

  const nodes = new Map<string, GraphNode>();
  const edges = new Map<string, GraphEdge>();
  const nodeFor = async (path: string, sym: CodeSymbol | undefined, distance: number): Promise<GraphNode> => {
    const id = `${path}#${sym ? sym.name : MODULE}`;
    let n = nodes.get(id);
    if (!n) {
      const ann = index.annotationsIn(path).filter((a) => (sym ? a.symbol === sym.name || (a.symbol !== undefined && sym.name.startsWith(a.symbol + '.')) : false) || a.symbol === undefined);
      n = { id, path, symbol: sym ? sym.name : MODULE, governedBy: governingIds(opts, ann), distance };
      if (sym) n.line = sym.line;
      nodes.set(id, n);
    } else if (Math.abs(distance) < Math.abs(n.distance)) n.distance = distance;
    return n;
  };
  const addEdge = (from: string, to: string, file: string, line: number) => {
    edges.set(`${from}\0${to}\0${file}:${line}`, { from, to, file, line });
  };

  /** The ts-morph declaration node of one of our symbols. */
  const declarationOf = (path: string, sym: CodeSymbol): TsMorph.Node | undefined => {
    const sf = project.getSourceFile('/' + path);
    if (!sf) return undefined;
    const last = sym.name.split('.').pop()!;
    let found: TsMorph.Node | undefined;
    sf.forEachDescendant((n, trav) => {
      if (found) return trav.stop();
      const line = (Node.isVariableDeclaration(n) ? (n.getVariableStatement() ?? n) : n).getStartLineNumber();
      if (line !== sym.line) return;
      const named = Node.hasName(n) ? n.getName() : undefined;
      if (named === last || (Node.isConstructorDeclaration(n) && last === 'constructor') || (last === 'default' && (Node.isFunctionDeclaration(n) || Node.isClassDeclaration(n) || Node.isExportAssignment(n)))) found = n;
      return undefined;
    });
    return found;
  };

  /** Our symbol for a ts-morph node (the innermost declaration around it). */
  const symbolAround = async (n: TsMorph.Node): Promise<{ path: string; sym: CodeSymbol | undefined } | undefined> => {
    const p = n.getSourceFile().getFilePath().slice(1);
    if (!tsPaths.has(p)) return undefined;
    return { path: p, sym: innermostSymbol(await index.symbolsOf(p), n.getStartLineNumber()) };
  };

  const root = await nodeFor(opts.path, rootSym, 0);
  await load([opts.path]);

  // callers: who references the symbol in a call (or `new`) position
  if (wantCallers) {
    let frontier: { path: string; sym: CodeSymbol; id: string }[] = [{ path: opts.path, sym: rootSym, id: root.id }];
    for (let level = 1; level <= depth && frontier.length; level++) {
      const names = [...new Set(frontier.map((f) => f.sym.name.split('.').pop()!))];
      const files = new Set<string>(frontier.map((f) => f.path));
      for (const name of names) for (const f of await filesMentioning(index, name, tsPaths)) files.add(f);
      await load([...files]);
      const next: typeof frontier = [];
      for (const f of frontier) {
        const decl = declarationOf(f.path, f.sym);
        if (!decl || !Node.isReferenceFindable(decl)) continue;
        for (const ref of decl.findReferencesAsNodes()) {
          const parent = ref.getParent();
          const callee = parent && Node.isPropertyAccessExpression(parent) && parent.getNameNode() === ref ? parent : ref;
          const call = callee.getParent();
          if (!call || !(Node.isCallExpression(call) || Node.isNewExpression(call)) || call.getExpression() !== callee) continue;
          const at = await symbolAround(ref);
          if (!at) continue;
          const caller = await nodeFor(at.path, at.sym, -level);
          addEdge(caller.id, f.id, at.path, ref.getStartLineNumber());
          if (at.sym && caller.distance === -level) next.push({ path: at.path, sym: at.sym, id: caller.id });
        }
      }
      frontier = next;
    }
  }

  // callees: what the symbol's body calls, resolved to declarations in the repository
  if (wantCallees) {
    let frontier: { path: string; sym: CodeSymbol; id: string }[] = [{ path: opts.path, sym: rootSym, id: root.id }];
    for (let level = 1; level <= depth && frontier.length; level++) {
      await load(frontier.flatMap((f) => importsOf(f.path)));
      const next: typeof frontier = [];
      for (const f of frontier) {
        const decl = declarationOf(f.path, f.sym);
        if (!decl) continue;
        for (const call of [...decl.getDescendantsOfKind(SyntaxKind.CallExpression), ...decl.getDescendantsOfKind(SyntaxKind.NewExpression)]) {
          const expr = call.getExpression();
          let s = expr.getSymbol();
          if (s?.isAlias()) s = s.getAliasedSymbol() ?? s;
          const target = s?.getDeclarations()[0];
          if (!target) continue;
          const at = await symbolAround(target);
          if (!at?.sym) continue;
          const callee = await nodeFor(at.path, at.sym, level);
          if (callee.id === f.id) continue;
          addEdge(f.id, callee.id, f.path, call.getStartLineNumber());
          if (callee.distance === level) next.push({ path: at.path, sym: at.sym, id: callee.id });
        }
      }
      frontier = next;
    }
  }

  return graphOf(root.id, nodes, edges, loaded.size);
}

/** TS/JS files whose text contains a name: git grep, or a read of the files without git. */
async function filesMentioning(index: CodeIndex, name: string, tsPaths: Set<string>): Promise<string[]> {
  const grepped = await gitGrepFiles(index.snapshot, name, { fixed: true });
  if (grepped) return [...grepped].filter((p) => tsPaths.has(p));
  const all = [...tsPaths];
  const bufs = await index.snapshot.readMany(all);
  return all.filter((_, i) => bufs[i]?.includes(name));
}

function normalizeJoin(dir: string, rel: string): string {
  const parts = dir ? dir.split('/') : [];
  for (const seg of rel.split('/')) {
    if (seg === '.' || seg === '') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return parts.join('/');
}
