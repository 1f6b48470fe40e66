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
export interface StructureFacts {
  /** calls (and `new`) by the chain of names they are written with: `Math.round`, `console.log` */
  calls: Place[];
  /** module specifiers imported: `import`, `export … from`, `require("x")`, `import("x")`, Python `import`/`from` */
  imports: Place[];
  /** `export default …` / `export =` (what is `default`) */
  exportDefault: Place[];
}

export type StructureLanguage = 'typescript' | TreeSitterLanguage;

const BY_EXT = new Map<string, StructureLanguage>([
  ['ts', 'typescript'], ['tsx', 'typescript'], ['mts', 'typescript'], ['cts', 'typescript'],
  ['js', 'typescript'], ['jsx', 'typescript'], ['mjs', 'typescript'], ['cjs', 'typescript'],
  ['py', 'python'], ['pyi', 'python'], ['go', 'go'], ['java', 'java'],
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

/** Facts of a TypeScript/JavaScript file through the TypeScript parser (no type checker, nothing run). */
export function tsStructure(ts: TS, path: string, text: string): StructureFacts {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, scriptKind(ts, path));
  const facts: StructureFacts = { calls: [], imports: [], exportDefault: [] };
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
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require' && n.arguments?.length === 1)) {
        if (arg && ts.isStringLiteralLike(arg)) facts.imports.push(at(n, arg.text));
      } else {
        const name = chainOf(ts, callee);
        if (name !== undefined) facts.calls.push(at(n, name));
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
      const name = c.callee.join('.');
      const last = c.callee[c.callee.length - 1] ?? '';
      return [name, c.line, Math.max(1, columnOf(lines, c.line, last) - (name.length - last.length))];
    }),
    imports: f.imports.map((i): Place => [i.spec, i.line, columnOf(lines, i.line, i.spec.split('.')[0] ?? i.spec)]),
    exportDefault: [],
  };
}
