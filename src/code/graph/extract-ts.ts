// @spec SPEC-CODEGRAPH-001

import type { ts as TsNamespace } from 'ts-morph';
import type { FileFacts, GraphCall, GraphDecl, GraphImport } from './types.js';
import { MODULE_SYMBOL } from './types.js';

type TS = typeof TsNamespace;
type Node = TsNamespace.Node;

function scriptKind(ts: TS, path: string): TsNamespace.ScriptKind {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  if (ext === 'tsx') return ts.ScriptKind.TSX;
  if (ext === 'jsx') return ts.ScriptKind.JSX;
  if (ext === 'js' || ext === 'mjs' || ext === 'cjs') return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/**
 * Declarations, imports and calls of a TypeScript/JavaScript file, from the syntax tree
 * alone (no type checker): calls are kept as the chain of names they are written with and
 * resolved later through the file's imports.
 */
export function extractTsFacts(ts: TS, path: string, text: string): FileFacts {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, scriptKind(ts, path));
  const decls: GraphDecl[] = [];
  const imports: GraphImport[] = [];
  const calls: GraphCall[] = [];
  let defaultExport: string | undefined;
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const startLine = (n: Node) => lineOf(n.getStart(sf));
  const endLine = (n: Node) => lineOf(n.getEnd());
  const isExportDefault = (n: Node) => {
    const mods = ts.canHaveModifiers(n) ? ts.getModifiers(n) : undefined;
    return !!mods?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) && !!mods?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
  };
  const stringArg = (n: TsNamespace.CallExpression): string | undefined => {
    const a = n.arguments[0];
    return a && ts.isStringLiteralLike(a) ? a.text : undefined;
  };

  /** `a.b.c` / `this.m` / `fn` as a chain of names; undefined for anything else */
  const chainOf = (e: TsNamespace.Expression): string[] | undefined => {
    if (ts.isIdentifier(e)) return [e.text];
    if (e.kind === ts.SyntaxKind.ThisKeyword) return ['this'];
    if (ts.isPropertyAccessExpression(e) && ts.isIdentifier(e.name)) {
      const left = chainOf(e.expression);
      return left ? [...left, e.name.text] : undefined;
    }
    if (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e)) return chainOf(e.expression);
    // `new C(…).m()`: a method of C
    if (ts.isNewExpression(e) && ts.isIdentifier(e.expression)) return [e.expression.text];
    return undefined;
  };

  const visit = (n: Node, scope: string | undefined, cls: string | undefined): void => {
    let inner = scope;
    let innerCls = cls;
    const q = (name: string) => (scope ? `${scope}.${name}` : name);
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
      const names: [string, string][] = [];
      const c = n.importClause;
      if (c?.name) names.push([c.name.text, 'default']);
      if (c?.namedBindings) {
        if (ts.isNamespaceImport(c.namedBindings)) names.push([c.namedBindings.name.text, '*']);
        else for (const el of c.namedBindings.elements) names.push([el.name.text, (el.propertyName ?? el.name).text]);
      }
      imports.push({ spec: n.moduleSpecifier.text, line: startLine(n), names });
      return;
    }
    if (ts.isExportDeclaration(n) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
      const c = n.exportClause;
      const reexports: [string, string][] | '*' = !c ? '*' : ts.isNamespaceExport(c) ? [[c.name.text, '*']] : c.elements.map((el) => [el.name.text, (el.propertyName ?? el.name).text]);
      imports.push({ spec: n.moduleSpecifier.text, line: startLine(n), names: [], reexports });
      return;
    }
    if (ts.isImportEqualsDeclaration(n) && ts.isExternalModuleReference(n.moduleReference) && ts.isStringLiteral(n.moduleReference.expression)) {
      imports.push({ spec: n.moduleReference.expression.text, line: startLine(n), names: [[n.name.text, '*']] });
      return;
    }
    if (ts.isExportAssignment(n) && !n.isExportEquals && ts.isIdentifier(n.expression)) defaultExport = n.expression.text;
    if ((ts.isFunctionDeclaration(n) || ts.isClassDeclaration(n)) && (n.name || isExportDefault(n))) {
      const name = n.name ? n.name.text : 'default';
      if (isExportDefault(n)) defaultExport = name;
      const isClass = ts.isClassDeclaration(n);
      decls.push({ name: q(name), kind: isClass ? 'class' : 'function', line: startLine(n), end: endLine(n) });
      inner = q(name);
      innerCls = isClass ? q(name) : cls;
    } else if ((ts.isMethodDeclaration(n) || ts.isGetAccessorDeclaration(n) || ts.isSetAccessorDeclaration(n)) && cls && (ts.isIdentifier(n.name) || ts.isPrivateIdentifier(n.name) || ts.isStringLiteral(n.name))) {
      inner = `${cls}.${n.name.text}`;
      decls.push({ name: inner, kind: 'method', line: startLine(n), end: endLine(n) });
      innerCls = cls;
    } else if (ts.isConstructorDeclaration(n) && cls) {
      inner = `${cls}.constructor`;
      decls.push({ name: inner, kind: 'method', line: startLine(n), end: endLine(n) });
    } else if (ts.isPropertyDeclaration(n) && cls && ts.isIdentifier(n.name) && n.initializer && (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer))) {
      inner = `${cls}.${n.name.text}`;
      decls.push({ name: inner, kind: 'method', line: startLine(n), end: endLine(n) });
    } else if (ts.isVariableDeclaration(n) && ts.isObjectBindingPattern(n.name) && n.initializer && ts.isCallExpression(n.initializer) && ts.isIdentifier(n.initializer.expression) && n.initializer.expression.text === 'require') {
      // `const { a, b: c } = require('x')`
      const spec = stringArg(n.initializer);
      const names: [string, string][] = [];
      for (const el of n.name.elements) {
        const prop = el.propertyName && ts.isIdentifier(el.propertyName) ? el.propertyName.text : undefined;
        if (ts.isIdentifier(el.name)) names.push([el.name.text, prop ?? el.name.text]);
      }
      if (spec !== undefined) imports.push({ spec, line: startLine(n), names });
      return;
    } else if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer) {
      const init = n.initializer;
      if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) {
        const stmt = n.parent?.parent && ts.isVariableStatement(n.parent.parent) ? n.parent.parent : n;
        inner = q(n.name.text);
        decls.push({ name: inner, kind: 'function', line: startLine(stmt), end: endLine(stmt) });
      } else if (ts.isClassExpression(init)) {
        inner = q(n.name.text);
        innerCls = inner;
        decls.push({ name: inner, kind: 'class', line: startLine(n), end: endLine(n) });
      } else if (ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === 'require') {
        const spec = stringArg(init);
        if (spec !== undefined) imports.push({ spec, line: startLine(n), names: [[n.name.text, '*']] });
      }
    } else if (ts.isCallExpression(n) || ts.isNewExpression(n)) {
      const isCall = ts.isCallExpression(n);
      if (isCall && n.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const spec = stringArg(n);
        if (spec !== undefined) imports.push({ spec, line: startLine(n), names: [] });
      } else if (isCall && ts.isIdentifier(n.expression) && n.expression.text === 'require' && !(n.parent && ts.isVariableDeclaration(n.parent))) {
        const spec = stringArg(n);
        if (spec !== undefined) imports.push({ spec, line: startLine(n), names: [] });
      } else {
        const chain = chainOf(n.expression);
        if (chain && !(chain.length === 1 && chain[0] === 'this')) calls.push({ from: scope ?? MODULE_SYMBOL, callee: chain, line: lineOf(n.expression.getEnd()) });
      }
    }
    ts.forEachChild(n, (c) => visit(c, inner, innerCls));
  };
  ts.forEachChild(sf, (c) => visit(c, undefined, undefined));

  const facts: FileFacts = { lang: 'typescript', decls, imports, calls };
  if (defaultExport) facts.defaultExport = defaultExport;
  const diags = (sf as unknown as { parseDiagnostics?: TsNamespace.DiagnosticWithLocation[] }).parseDiagnostics;
  const first = diags?.[0];
  if (first) facts.error = `line ${lineOf(first.start)}: ${ts.flattenDiagnosticMessageText(first.messageText, ' ')}`;
  return facts;
}
