// @spec SPEC-CONFIRM-001

import type { ts as TsNamespace } from 'ts-morph';
// direct imports, not the code/ barrels: a hook run must not load the graph's linker
import { extractTreeSitterFacts, type TreeSitterLanguage } from '../../code/graph/extract-tree-sitter.js';
import { loadTypeScript } from '../../code/ts-extract.js';

type TS = typeof TsNamespace;
type Node = TsNamespace.Node;

/** [what, line, column], both 1-based */
export type Place = [string, number, number];

/**
 * What confirmations read from one file's syntax tree; a pure function of the file's bytes
 * and language, so it is cached by blob id. Comments and string contents are never in it.
 */
/** [written, line, column, what the written name stands for through an alias (absent: itself)] */
export type CallPlace = [string, number, number, string?];

export interface StructureFacts {
  /**
   * calls (and `new`) by the chain of names they are written with (`Math.round`,
   * `console.log`), and what that chain stands for when it starts with an alias:
   * `import { round as r }` makes `r()` a call of `round`, `const { round: r } = Math` or
   * `const r = Math.round` a call of `Math.round`
   */
  calls: CallPlace[];
  /** module specifiers imported: `import`, `export … from`, `require("x")`, `import("x")`, Python `import`/`from` */
  imports: Place[];
  /** `export default …` / `export =` (what is `default`) */
  exportDefault: Place[];
}

export type StructureLanguage = 'typescript' | TreeSitterLanguage;

const BY_EXT = new Map<string, StructureLanguage>([
  ['ts', 'typescript'], ['tsx', 'typescript'], ['mts', 'typescript'], ['cts', 'typescript'],
  ['js', 'typescript'], ['jsx', 'typescript'], ['mjs', 'typescript'], ['cjs', 'typescript'],
  ['py', 'python'], ['pyi', 'python'], ['go', 'go'], ['java', 'java'], ['rb', 'ruby'], ['rake', 'ruby'],
]);

/** The language whose syntax tree confirmations can read for a path; undefined: none (structural kinds skip it). */
export function structureLanguage(path: string): StructureLanguage | undefined {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return dot > slash + 1 ? BY_EXT.get(path.slice(dot + 1).toLowerCase()) : undefined;
}

function scriptKind(ts: TS, path: string): TsNamespace.ScriptKind {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  if (ext === 'tsx') return ts.ScriptKind.TSX;
  if (ext === 'jsx') return ts.ScriptKind.JSX;
  if (ext === 'js' || ext === 'mjs' || ext === 'cjs') return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/** `a.b.c` of an identifier / property-access chain (optional chaining included); undefined for anything else */
function chainOf(ts: TS, n: Node): string | undefined {
  if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) return n.text;
  if (n.kind === ts.SyntaxKind.ThisKeyword) return 'this';
  if (n.kind === ts.SyntaxKind.SuperKeyword) return 'super';
  if (ts.isPropertyAccessExpression(n)) {
    const left = chainOf(ts, n.expression);
    return left === undefined ? undefined : `${left}.${n.name.text}`;
  }
  if (ts.isElementAccessExpression(n) && ts.isStringLiteralLike(n.argumentExpression)) {
    const left = chainOf(ts, n.expression);
    return left === undefined ? undefined : `${left}.${n.argumentExpression.text}`;
  }
  if (ts.isParenthesizedExpression(n) || ts.isNonNullExpression(n)) return chainOf(ts, n.expression);
  return undefined;
}

/** A parenthesized, `as`, `satisfies` or `!` expression's inside (what a `const` alias holds). */
function unwrap(ts: TS, n: Node): Node {
  while (ts.isParenthesizedExpression(n) || ts.isAsExpression(n) || ts.isSatisfiesExpression(n) || ts.isNonNullExpression(n) || ts.isTypeAssertionExpression(n)) n = n.expression;
  return n;
}

/**
 * The aliases of a file: each name bound once in the whole file (so no inner scope can
 * mean another thing by it) by an import that renames (`import { round as r }`), an
 * `import x = A.b`, or a `const` holding a chain of names (`const r = Math.round`,
 * `const { round: r } = Math`, `const req = require`, `const req = createRequire(…)`),
 * mapped to the chain it stands for. A name declared twice is left as written: missing a
 * call is better than blaming a parameter that happens to share an alias's name.
 */
function aliasesOf(ts: TS, sf: TsNamespace.SourceFile): (chain: string) => string | undefined {
  const declared = new Map<string, number>();
  const bound = new Map<string, string>();
  const declare = (name: string) => declared.set(name, (declared.get(name) ?? 0) + 1);
  const declareBinding = (b: TsNamespace.BindingName): void => {
    if (ts.isIdentifier(b)) declare(b.text);
    else for (const e of b.elements) if (!ts.isOmittedExpression(e)) declareBinding(e.name);
  };
  // the tree is parsed without parent links: a declaration learns it is `const` from its list
  const constant = new Set<Node>();
  const visit = (n: Node): void => {
    if (ts.isVariableDeclarationList(n) && n.flags & ts.NodeFlags.Const) for (const d of n.declarations) constant.add(d);
    if (ts.isImportSpecifier(n)) {
      declare(n.name.text);
      if (n.propertyName && n.propertyName.text !== 'default') bound.set(n.name.text, n.propertyName.text);
    } else if (ts.isImportClause(n) && n.name) declare(n.name.text);
    else if (ts.isNamespaceImport(n)) declare(n.name.text);
    else if (ts.isImportEqualsDeclaration(n)) {
      declare(n.name.text);
      const ref = n.moduleReference;
      if (!ts.isExternalModuleReference(ref)) bound.set(n.name.text, ref.getText(sf).replace(/\s+/g, ''));
    } else if (ts.isVariableDeclaration(n)) {
      declareBinding(n.name);
      const init = n.initializer && unwrap(ts, n.initializer);
      if (init && constant.has(n)) {
        let chain = chainOf(ts, init);
        // a require made by createRequire(import.meta.url) is require
        if (chain === undefined && ts.isCallExpression(init) && /^(?:module\.)?createRequire$/.test(chainOf(ts, init.expression) ?? '')) chain = 'require';
        if (chain !== undefined && ts.isIdentifier(n.name)) bound.set(n.name.text, chain);
        else if (chain !== undefined && ts.isObjectBindingPattern(n.name))
          for (const e of n.name.elements) {
            if (e.dotDotDotToken || !ts.isIdentifier(e.name)) continue;
            const prop = e.propertyName ? (ts.isIdentifier(e.propertyName) || ts.isStringLiteral(e.propertyName) ? e.propertyName.text : undefined) : e.name.text;
            if (prop !== undefined) bound.set(e.name.text, `${chain}.${prop}`);
          }
      }
    } else if (ts.isParameter(n) || ts.isBindingElement(n)) {
      if (ts.isParameter(n)) declareBinding(n.name);
    } else if ((ts.isFunctionDeclaration(n) || ts.isFunctionExpression(n) || ts.isClassDeclaration(n) || ts.isClassExpression(n) || ts.isEnumDeclaration(n)) && n.name) declare(n.name.text);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return (chain) => {
    let out = chain;
    // an alias of an alias (`const M = Math; const r = M.round`), never round in a circle
    for (let hop = 0; hop < 8; hop++) {
      const dot = out.indexOf('.');
      const head = dot < 0 ? out : out.slice(0, dot);
      const to = declared.get(head) === 1 ? bound.get(head) : undefined;
      if (to === undefined || to === head) break;
      out = to + (dot < 0 ? '' : out.slice(dot));
    }
    return out === chain ? undefined : out;
  };
}

/** Facts of a TypeScript/JavaScript file through the TypeScript parser (no type checker, nothing run). */
export function tsStructure(ts: TS, path: string, text: string): StructureFacts {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, scriptKind(ts, path));
  const facts: StructureFacts = { calls: [], imports: [], exportDefault: [] };
  const alias = aliasesOf(ts, sf);
  const at = (n: Node, what: string): Place => {
    const p = sf.getLineAndCharacterOfPosition(n.getStart(sf));
    return [what, p.line + 1, p.character + 1];
  };
  const visit = (n: Node): void => {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) {
      const spec = n.moduleSpecifier;
      if (spec && ts.isStringLiteralLike(spec)) facts.imports.push(at(n, spec.text));
      if (ts.isExportDeclaration(n) || !n.importClause) return;
    } else if (ts.isImportEqualsDeclaration(n)) {
      const ref = n.moduleReference;
      if (ts.isExternalModuleReference(ref) && ts.isStringLiteralLike(ref.expression)) facts.imports.push(at(n, ref.expression.text));
      return;
    } else if (ts.isExportAssignment(n)) {
      facts.exportDefault.push(at(n, n.isExportEquals ? 'export =' : 'export default'));
    } else if (ts.isCallExpression(n) || ts.isNewExpression(n)) {
      const callee = n.expression;
      const arg = n.arguments?.[0];
      const name = chainOf(ts, callee);
      const via = name === undefined ? undefined : alias(name);
      const meant = via ?? name;
      // require, module.require, and a name standing for require (`const req = createRequire(…)`)
      if (callee.kind === ts.SyntaxKind.ImportKeyword || ((meant === 'require' || meant === 'module.require') && ts.isCallExpression(n) && n.arguments.length === 1)) {
        if (arg && ts.isStringLiteralLike(arg)) facts.imports.push(at(n, arg.text));
      } else if (name !== undefined) {
        const p: CallPlace = at(n, name);
        if (via !== undefined) p.push(via);
        facts.calls.push(p);
      }
    } else if (ts.canHaveModifiers(n)) {
      const mods = ts.getModifiers(n);
      if (mods?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) && mods.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) facts.exportDefault.push(at(n, 'export default'));
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return facts;
}

/** The 1-based column of `word` on a line, or 1 (tree-sitter facts carry lines only). */
function columnOf(lines: string[], line: number, word: string): number {
  const i = lines[line - 1]?.indexOf(word) ?? -1;
  return i < 0 ? 1 : i + 1;
}

/** Facts of a file in one of the languages confirmations read; undefined for others. */
export async function extractStructure(lang: StructureLanguage, path: string, text: string): Promise<StructureFacts> {
  if (lang === 'typescript') return tsStructure(await loadTypeScript(), path, text);
  const f = await extractTreeSitterFacts(lang, text);
  const lines = text.split('\n');
  return {
    // the graph writes Python's `self` / a Go receiver as `this`: a confirmation names them as written
    calls: f.calls.map((c): Place => {
      const last = c.callee[c.callee.length - 1] ?? '';
      const col = columnOf(lines, c.line, last);
      // Ruby's graph writes `self.x` and a bare `x` (a call on self too) alike as `this.x`;
      // a confirmation names the bare one as written (`forbid-call: puts`), `self.x` as `this.x` like Python's
      const bare = lang === 'ruby' && c.callee[0] === 'this' && !lines[c.line - 1]?.slice(0, col - 1).endsWith('self.');
      const callee = bare ? c.callee.slice(1) : c.callee;
      const name = callee.join('.');
      return [name, c.line, Math.max(1, col - (name.length - last.length))];
    }),
    imports: f.imports.map((i): Place => [i.spec, i.line, columnOf(lines, i.line, i.spec.split('.')[0] ?? i.spec)]),
    exportDefault: [],
  };
}
