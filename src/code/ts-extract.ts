import { createRequire } from 'node:module';
import path from 'node:path';
import type { ts as TsNamespace } from 'ts-morph';
import { sha256 } from '../util/hash.js';
import { findTags } from './tags.js';
import type { Annotation, CodeSymbol, FileRecord, SymbolKind } from './types.js';

type TS = typeof TsNamespace;
type Node = TsNamespace.Node;

let tsPromise: Promise<TS> | undefined;

/**
 * The TypeScript compiler bundled with ts-morph, loaded on first use: importing it costs
 * most of a second, and a warm run that parses nothing must not pay that.
 */
export function loadTypeScript(): Promise<TS> {
  // require, not import(): importing CommonJS from ESM runs a lexer over the 9 MB compiler
  // to find its named exports, which costs more than loading it
  tsPromise ??= Promise.resolve().then(() => compilerFromDisk() ?? (createRequire(import.meta.url)('ts-morph') as typeof import('ts-morph')).ts);
  return tsPromise;
}

/**
 * The compiler file that ts-morph ships (`@ts-morph/common/dist/typescript.js`), required
 * directly: ts-morph's own index would also load its 3 MB project layer, which parsing never
 * uses. Undefined where that file is not on disk (the Action bundle carries the compiler
 * inside itself), and the plain require above serves.
 */
function compilerFromDisk(): TS | undefined {
  const req = createRequire(import.meta.url);
  let file: string;
  try {
    file = req.resolve('@ts-morph/common/dist/typescript.js', { paths: [path.dirname(req.resolve('ts-morph'))] });
  } catch {
    return undefined;
  }
  return req(file) as TS;
}

function scriptKindFor(ts: TS, path: string): TsNamespace.ScriptKind {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  switch (ext) {
    case 'tsx':
      return ts.ScriptKind.TSX;
    case 'jsx':
      return ts.ScriptKind.JSX;
    case 'js':
    case 'mjs':
    case 'cjs':
      // JSX is legal in many .js code bases; the JSX kind still parses plain JS
      return ts.ScriptKind.JSX;
    default:
      return ts.ScriptKind.TS;
  }
}

interface Token {
  start: number;
  end: number;
  text: string;
}

/** A declaration while extracting; `nodes` holds several nodes for overloads. */
interface Decl {
  name: string;
  kind: SymbolKind;
  nodes: Node[];
  /** where the comments that annotate it may sit: [full start, head end) */
  headStart: number;
  headEnd: number;
  /** name tokens left out of the fingerprint */
  nameNodes: Node[];
  exported: boolean;
  isDefault: boolean;
  parent?: Decl;
  depth: number;
}

const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'del', 'head', 'options', 'all']);
const ROUTE_DECORATORS: Record<string, string> = {
  Get: 'GET', Post: 'POST', Put: 'PUT', Patch: 'PATCH', Delete: 'DELETE', Head: 'HEAD', Options: 'OPTIONS', All: 'ALL',
};

/** Join route segments the way frameworks do: one slash between, leading slash kept. */
export function joinRoute(prefix: string, path: string): string {
  const parts = [prefix, path].map((p) => p.replace(/^\/+|\/+$/g, '')).filter(Boolean);
  return '/' + parts.join('/');
}

/**
 * Parse one TypeScript/JavaScript file: its declarations (with fingerprints), the
 * annotations in its comments resolved to the declaration each one annotates, and the
 * HTTP routes it registers. Syntax errors are reported in the record, never thrown; the
 * parser recovers and whatever it recovered is still indexed.
 */
export function extractTypeScript(ts: TS, path: string, text: string, tagRe: RegExp): FileRecord {
  // JSDoc is a comment to us: skipping its parse saves a good part of the parse time
  const sf = ts.createSourceFile(path, text, { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, true, scriptKindFor(ts, path));
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const record: FileRecord = { annotations: [], symbols: [], routes: [], lines: sf.getLineStarts().length - (text.endsWith('\n') ? 1 : 0) };
  const diags = (sf as unknown as { parseDiagnostics?: TsNamespace.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
  if (diags.length) {
    const d = diags[0]!;
    record.problem = {
      kind: 'syntax-error',
      message: ts.flattenDiagnosticMessageText(d.messageText, ' '),
      line: d.start === undefined ? undefined : lineOf(d.start),
    };
  }

  // Tokens in source order, comments left out. They give the fingerprints and tell
  // comments apart from strings/JSX text that merely contain "@spec". One scanner pass over
  // the file; the only places where a scanner alone cannot know what a token is (regular
  // expressions, template continuations, JSX text) are taken from the parse tree whole.
  const atomics: Node[] = [];
  const findAtomics = (n: Node): void => {
    const k = n.kind;
    if (k === ts.SyntaxKind.RegularExpressionLiteral || k === ts.SyntaxKind.TemplateMiddle || k === ts.SyntaxKind.TemplateTail || k === ts.SyntaxKind.JsxText) atomics.push(n);
    else n.forEachChild(findAtomics);
  };
  sf.forEachChild(findAtomics);
  const tokens: Token[] = [];
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, text);
  let ai = 0;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    const start = scanner.getTokenStart();
    while (ai < atomics.length && atomics[ai]!.end <= start) ai++;
    const a = atomics[ai];
    if (a && start >= a.pos && start < a.end) {
      const aStart = a.getStart(sf);
      let t = text.slice(aStart, a.end);
      // whitespace inside JSX text is folded by JSX itself, so it is formatting
      if (a.kind === ts.SyntaxKind.JsxText) t = t.replace(/\s+/g, ' ').trim();
      if (t) tokens.push({ start: aStart, end: a.end, text: t });
      scanner.resetTokenState(a.end);
      ai++;
      continue;
    }
    const end = scanner.getTokenEnd();
    if (end > start) tokens.push({ start, end, text: text.slice(start, end) });
  }
  // the whole file's normalized text, as symbols are fingerprinted: what glob and directory
  // anchors compare, so that comment-only and formatting-only edits are not drift
  record.fingerprint = sha256(tokens.map((t) => t.text).join(' '));

  // --- declarations -------------------------------------------------------------------
  const decls: Decl[] = [];
  const hasModifier = (node: Node, kind: TsNamespace.SyntaxKind) =>
    ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);
  const qualify = (parent: Decl | undefined, name: string) => (parent ? `${parent.name}.${name}` : name);
  const nameText = (n: TsNamespace.PropertyName | TsNamespace.BindingName | undefined): string | undefined => {
    if (!n) return undefined;
    if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) return n.text;
    if (ts.isStringLiteral(n) || ts.isNumericLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) return n.text;
    if (ts.isComputedPropertyName(n)) return `[${n.expression.getText(sf)}]`;
    return undefined;
  };
  const addDecl = (
    node: Node,
    name: string,
    kind: SymbolKind,
    parent: Decl | undefined,
    headEnd: number,
    nameNode: Node | undefined,
    flags: { exported?: boolean; isDefault?: boolean; headNode?: Node } = {},
  ): Decl => {
    const full = qualify(parent, name);
    // overloads: signatures and the implementation that follow each other are one symbol
    const prev = decls[decls.length - 1];
    const prevNode = prev?.nodes[prev.nodes.length - 1];
    if (
      prev &&
      prevNode &&
      prev.name === full &&
      prev.kind === kind &&
      (kind === 'function' || kind === 'method' || kind === 'constructor') &&
      !(prevNode as { body?: Node }).body
    ) {
      prev.nodes.push(node);
      if (nameNode) prev.nameNodes.push(nameNode);
      return prev;
    }
    const headNode = flags.headNode ?? node;
    const d: Decl = {
      name: full,
      kind,
      nodes: [node],
      headStart: headNode.pos,
      headEnd: Math.max(headEnd, headNode.getStart(sf)),
      nameNodes: nameNode ? [nameNode] : [],
      exported: flags.exported ?? hasModifier(node, ts.SyntaxKind.ExportKeyword),
      isDefault: flags.isDefault ?? hasModifier(node, ts.SyntaxKind.DefaultKeyword),
      parent,
      depth: parent ? parent.depth + 1 : 0,
    };
    decls.push(d);
    return d;
  };
  const isFunctionValue = (n: Node | undefined): boolean =>
    !!n && (ts.isArrowFunction(n) || ts.isFunctionExpression(n));
  const startOf = (n: Node | undefined, fallback: number) => (n ? n.getStart(sf) : fallback);

  // routes: controller prefixes from class decorators, applied to method decorators
  const decoratorCall = (d: TsNamespace.Decorator): { name: string; arg?: string } | undefined => {
    const e = d.expression;
    if (ts.isCallExpression(e) && ts.isIdentifier(e.expression)) {
      const a = e.arguments[0];
      const arg = a && (ts.isStringLiteral(a) || ts.isNoSubstitutionTemplateLiteral(a)) ? a.text : undefined;
      return { name: e.expression.text, arg };
    }
    return undefined;
  };
  const controllerPrefix = (cls: Node): string => {
    for (const d of (ts.canHaveDecorators(cls) && ts.getDecorators(cls)) || []) {
      const c = decoratorCall(d);
      if (c && (c.name === 'Controller' || c.name === 'Route' || c.name === 'RequestMapping')) return c.arg ?? '';
    }
    return '';
  };

  const decoratedRoutes: { decl: Decl; method: string; path: string; line: number }[] = [];
  const callRoutes: { method: string; path: string; node: Node; line: number; symbol?: string }[] = [];

  /** Visit a subtree; `objOwner` is set while inside an object literal that is a symbol's value. */
  const K = ts.SyntaxKind;
  const INTERESTING = new Set<number>([
    K.FunctionDeclaration, K.ClassDeclaration, K.InterfaceDeclaration, K.TypeAliasDeclaration, K.EnumDeclaration,
    K.ModuleDeclaration, K.MethodDeclaration, K.GetAccessor, K.SetAccessor, K.Constructor, K.PropertyDeclaration,
    K.PropertyAssignment, K.VariableStatement, K.ExportAssignment, K.CallExpression, K.ObjectLiteralExpression,
  ]);
  const visit = (node: Node, parent: Decl | undefined, objOwner: Decl | undefined): void => {
    const kind = node.kind;
    // types never hold declarations or calls we name; most nodes need only their children
    if (kind >= K.FirstTypeNode && kind <= K.LastTypeNode) return;
    if (!INTERESTING.has(kind)) {
      node.forEachChild((c) => visit(c, parent, undefined));
      return;
    }
    let here: Decl | undefined;
    let childObjOwner: Decl | undefined;
    if (ts.isFunctionDeclaration(node)) {
      const isDefault = hasModifier(node, ts.SyntaxKind.DefaultKeyword);
      const name = node.name?.text ?? (isDefault ? 'default' : undefined);
      if (name) here = addDecl(node, name, 'function', parent, startOf(node.body, node.end), node.name);
    } else if (ts.isClassDeclaration(node)) {
      const isDefault = hasModifier(node, ts.SyntaxKind.DefaultKeyword);
      const name = node.name?.text ?? (isDefault ? 'default' : undefined);
      if (name) here = addDecl(node, name, 'class', parent, node.members.pos, node.name);
    } else if (ts.isInterfaceDeclaration(node)) {
      here = addDecl(node, node.name.text, 'interface', parent, node.members.pos, node.name);
    } else if (ts.isTypeAliasDeclaration(node)) {
      here = addDecl(node, node.name.text, 'type', parent, node.type.getStart(sf), node.name);
    } else if (ts.isEnumDeclaration(node)) {
      here = addDecl(node, node.name.text, 'enum', parent, node.members.pos, node.name);
    } else if (ts.isModuleDeclaration(node) && !ts.isModuleDeclaration(node.parent)) {
      // `namespace A.B {}` nests ModuleDeclarations; name it once, as written
      let name = nameText(node.name) ?? '';
      let body = node.body;
      while (body && ts.isModuleDeclaration(body)) {
        name += '.' + (nameText(body.name) ?? '');
        body = body.body;
      }
      here = addDecl(node, name, 'namespace', parent, startOf(body, node.end), node.name);
    } else if (ts.isMethodDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) {
      const inClass = ts.isClassLike(node.parent);
      const owner = inClass ? parent : objOwner;
      const name = nameText(node.name);
      if (name && (inClass || objOwner)) {
        const kind: SymbolKind = ts.isMethodDeclaration(node) ? 'method' : 'accessor';
        here = addDecl(node, name, kind, owner, startOf(node.body, node.end), node.name, { exported: owner?.exported ?? false });
      }
      if (inClass && ts.isMethodDeclaration(node)) {
        const prefix = controllerPrefix(node.parent);
        for (const d of (ts.canHaveDecorators(node) && ts.getDecorators(node)) || []) {
          const c = decoratorCall(d);
          const method = c && ROUTE_DECORATORS[c.name];
          if (c && method && here) decoratedRoutes.push({ decl: here, method, path: joinRoute(prefix, c.arg ?? ''), line: lineOf(d.getStart(sf)) });
        }
      }
    } else if (ts.isConstructorDeclaration(node)) {
      here = addDecl(node, 'constructor', 'constructor', parent, startOf(node.body, node.end), undefined, { exported: parent?.exported ?? false });
    } else if (ts.isPropertyDeclaration(node) && ts.isClassLike(node.parent)) {
      const name = nameText(node.name);
      if (name) {
        here = addDecl(node, name, 'property', parent, startOf(node.initializer, node.end), node.name, { exported: parent?.exported ?? false });
        if (node.initializer && ts.isObjectLiteralExpression(node.initializer)) childObjOwner = here;
      }
    } else if (ts.isPropertyAssignment(node) && objOwner && ts.isObjectLiteralExpression(node.parent)) {
      const name = nameText(node.name);
      if (name && isFunctionValue(node.initializer)) {
        here = addDecl(node, name, 'method', objOwner, node.initializer.getStart(sf), node.name, { exported: objOwner.exported });
      } else if (name && ts.isObjectLiteralExpression(node.initializer)) {
        // nested object: its methods are named through it (`api.users.list`)
        const ghost: Decl = { ...objOwner, name: `${objOwner.name}.${name}`, depth: objOwner.depth };
        for (const p of node.initializer.properties) visit(p, parent, ghost);
        return;
      }
    } else if (ts.isVariableStatement(node) && (ts.isSourceFile(node.parent) || ts.isModuleBlock(node.parent))) {
      const exported = hasModifier(node, ts.SyntaxKind.ExportKeyword);
      const list = node.declarationList.declarations;
      for (const [i, v] of list.entries()) {
        const name = nameText(v.name);
        if (!name || !ts.isIdentifier(v.name)) {
          visit(v, parent, undefined);
          continue;
        }
        const init = v.initializer;
        const kind: SymbolKind = isFunctionValue(init) ? 'function' : init && ts.isClassExpression(init) ? 'class' : 'variable';
        const single = list.length === 1;
        const headEnd = init ? (ts.isArrowFunction(init) || ts.isFunctionExpression(init) ? startOf(init.body, init.end) : init.getStart(sf)) : v.end;
        // comments before the statement annotate its first declarator
        const d = addDecl(single ? node : v, name, kind, parent, headEnd, v.name, {
          exported,
          headNode: i === 0 ? node : v,
        });
        if (init) visit(init, d, init && ts.isObjectLiteralExpression(init) ? d : undefined);
      }
      return;
    } else if (ts.isExportAssignment(node) && !node.isExportEquals) {
      here = addDecl(node, 'default', 'default', parent, node.expression.getStart(sf), undefined, { exported: true, isDefault: true });
      if (ts.isObjectLiteralExpression(node.expression)) childObjOwner = here;
    } else if (ts.isCallExpression(node)) {
      const route = routeOfCall(ts, node);
      if (route) callRoutes.push({ ...route, node, line: lineOf(node.getStart(sf)), symbol: parent?.name });
    }
    if (ts.isObjectLiteralExpression(node)) {
      for (const p of node.properties) visit(p, here ?? parent, objOwner);
      return;
    }
    const nextParent = here ?? parent;
    node.forEachChild((c) => visit(c, nextParent, c.parent && ts.isObjectLiteralExpression(c) ? childObjOwner : undefined));
  };
  sf.forEachChild((c) => visit(c, undefined, undefined));

  // --- fingerprints -------------------------------------------------------------------
  const firstTokenAt = (pos: number) => {
    let lo = 0;
    let hi = tokens.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tokens[mid]!.start < pos) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const fingerprintOf = (d: Pick<Decl, 'nodes' | 'nameNodes'>): string => {
    const skip = new Set(d.nameNodes.map((n) => n.getStart(sf)));
    const parts: string[] = [];
    for (const n of d.nodes) {
      const end = n.end;
      for (let i = firstTokenAt(n.getStart(sf)); i < tokens.length && tokens[i]!.start < end; i++) {
        const t = tokens[i]!;
        if (!skip.has(t.start)) parts.push(t.text);
      }
    }
    return sha256(parts.join(' '));
  };

  /** First line of the comments directly attached (no blank line between) above `pos`. */
  const docLineOf = (node: Node): number => {
    const start = node.getStart(sf);
    const ranges = ts.getLeadingCommentRanges(text, node.pos) ?? [];
    let first = start;
    for (let i = ranges.length - 1; i >= 0; i--) {
      const r = ranges[i]!;
      if (blankLineBetween(text, r.end, first)) break;
      first = r.pos;
    }
    return lineOf(first);
  };

  for (const d of decls) {
    const first = d.nodes[0]!;
    const last = d.nodes[d.nodes.length - 1]!;
    const sym: CodeSymbol = {
      name: d.name,
      kind: d.kind,
      line: lineOf(first.getStart(sf)),
      endLine: lineOf(Math.max(first.getStart(sf), last.end - 1)),
      docLine: docLineOf(first),
      exported: d.exported,
      fingerprint: fingerprintOf(d),
    };
    if (d.isDefault) sym.isDefault = true;
    if (d.parent) sym.parent = d.parent.name;
    record.symbols.push(sym);
  }

  const fpByDecl = new Map(decls.map((d, i) => [d, record.symbols[i]!.fingerprint]));
  for (const r of decoratedRoutes) record.routes.push({ method: r.method, path: r.path, line: r.line, symbol: r.decl.name, fingerprint: fpByDecl.get(r.decl)! });
  for (const r of callRoutes) record.routes.push({ method: r.method, path: r.path, line: r.line, symbol: r.symbol, fingerprint: fingerprintOf({ nodes: [r.node], nameNodes: [] }) });
  record.routes.sort((a, b) => a.line - b.line);

  // --- annotations --------------------------------------------------------------------
  const matches = findTags(text, tagRe);
  if (matches.length) {
    const symbolOf = new Map<Decl, CodeSymbol>(decls.map((d, i) => [d, record.symbols[i]!]));
    for (const m of matches) {
      const ti = firstTokenAt(m.index + 1) - 1; // last token starting at or before m
      const prevTok = ti >= 0 ? tokens[ti] : undefined;
      if (prevTok && m.index < prevTok.end) continue; // inside a string, template, JSX text…
      const from = prevTok ? prevTok.end : 0;
      const comments = [...(ts.getTrailingCommentRanges(text, from) ?? []), ...(ts.getLeadingCommentRanges(text, from) ?? [])];
      const c = comments.find((r) => r.pos <= m.index && m.index < r.end);
      if (!c) continue;
      const target = attach(c.pos, c.end, from);
      const sym = target && symbolOf.get(target);
      const a: Omit<Annotation, 'file'> = {
        tag: m.tag,
        ids: m.ids,
        line: lineOf(m.index),
        startLine: sym ? Math.min(sym.docLine, lineOf(c.pos)) : 1,
        endLine: sym ? sym.endLine : record.lines,
      };
      if (sym) a.symbol = sym.name;
      record.annotations.push(a);
    }
  }
  return record;

  /** The declaration a comment [cs, ce) annotates, or undefined for the file. */
  function attach(cs: number, ce: number, prevEnd: number): Decl | undefined {
    let best: Decl | undefined;
    // 0. a trailing comment on the line where a declaration ends is about that declaration
    //    (`export const f = () => 1; // @spec X`)
    if (prevEnd > 0 && !/[\r\n]/.test(text.slice(prevEnd, cs))) {
      for (const d of decls) {
        if (d.nodes[d.nodes.length - 1]!.end === prevEnd && (!best || d.depth < best.depth)) best = d;
      }
      if (best) return best;
    }
    // 1. in a declaration's head (leading comments, between decorators and name…)
    for (const d of decls) {
      if (cs >= d.headStart && ce <= d.headEnd) {
        const start = d.nodes[0]!.getStart(sf);
        // a comment standing apart (blank line before the declaration) is not its doc
        if (ce <= start && blankLineBetween(text, ce, start)) continue;
        if (!best || d.depth >= best.depth) best = d;
      }
    }
    if (best) return best;
    // 2. inside a declaration's body: the innermost enclosing one
    for (const d of decls) {
      const start = d.nodes[0]!.getStart(sf);
      const end = d.nodes[d.nodes.length - 1]!.end;
      if (cs >= start && ce <= end && (!best || d.depth >= best.depth)) best = d;
    }
    return best;
  }
}

/** True when the text between two offsets, comments aside, holds an empty line. */
function blankLineBetween(text: string, from: number, to: number): boolean {
  let newlines = 0;
  for (let i = from; i < to; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10) {
      if (++newlines >= 2) return true;
    } else if (ch !== 32 && ch !== 9 && ch !== 13) {
      // another comment (or token) starts: the blank line must be before it
      if (text.startsWith('//', i)) {
        const nl = text.indexOf('\n', i);
        i = (nl < 0 ? to : nl) - 1;
        newlines = 0;
      } else if (text.startsWith('/*', i)) {
        const e = text.indexOf('*/', i + 2);
        i = (e < 0 ? to : e + 2) - 1;
        newlines = 0;
      } else return false;
    }
  }
  return false;
}

/** `app.post('/x', h)`, `router.route('/x').get(h)` → method and path. */
function routeOfCall(ts: TS, call: TsNamespace.CallExpression): { method: string; path: string } | undefined {
  const callee = call.expression;
  if (!ts.isPropertyAccessExpression(callee)) return undefined;
  const method = callee.name.text.toLowerCase();
  if (!HTTP_METHODS.has(method) || callee.name.text !== method) return undefined;
  const lit = (n: Node | undefined) => (n && (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) ? n.text : undefined);
  const first = lit(call.arguments[0]);
  // a handler must follow the path, or `cache.get('/x')` would read as a route
  if (first !== undefined && first.startsWith('/') && call.arguments.length >= 2) {
    return { method: method === 'del' ? 'DELETE' : method.toUpperCase(), path: first };
  }
  const recv = callee.expression;
  if (call.arguments.length >= 1 && ts.isCallExpression(recv) && ts.isPropertyAccessExpression(recv.expression) && recv.expression.name.text === 'route') {
    const p = lit(recv.arguments[0]);
    if (p !== undefined && p.startsWith('/')) return { method: method === 'del' ? 'DELETE' : method.toUpperCase(), path: p };
  }
  return undefined;
}
