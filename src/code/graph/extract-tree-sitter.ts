// @spec SPEC-CODEGRAPH-001

import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TreeSitter from '@vscode/tree-sitter-wasm';
import type { FileFacts, GraphCall, GraphDecl, GraphImport, GraphLanguage } from './types.js';
import { MODULE_SYMBOL } from './types.js';
import { ruby } from './extract-ruby.js';
import { rust } from './extract-rust.js';

type TsNode = TreeSitter.Node;
type Runtime = typeof TreeSitter;
export type TreeSitterLanguage = Exclude<GraphLanguage, 'typescript'>;

const GRAMMAR: Record<TreeSitterLanguage, string> = { python: 'tree-sitter-python.wasm', go: 'tree-sitter-go.wasm', java: 'tree-sitter-java.wasm', ruby: 'tree-sitter-ruby.wasm', rust: 'tree-sitter-rust.wasm' };

let runtime: Promise<{ rt: Runtime; dir: string }> | undefined;
const languages = new Map<string, Promise<TreeSitter.Language>>();

/** A parser of a language graph facts are read for. */
const parserFor = (lang: TreeSitterLanguage): Promise<TreeSitter.Parser> => parserForGrammar(GRAMMAR[lang]);

/**
 * A parser for one of the grammars shipped as WebAssembly in `@vscode/tree-sitter-wasm`
 * (`tree-sitter-c-sharp.wasm`; read from the installed package, never downloaded): the runtime
 * and each grammar are loaded on first use.
 */
export async function parserForGrammar(grammar: string): Promise<TreeSitter.Parser> {
  runtime ??= (async () => {
    const req = createRequire(import.meta.url);
    const dir = path.join(path.dirname(req.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');
    const rt = req(path.join(dir, 'tree-sitter.js')) as Runtime;
    await rt.Parser.init({ locateFile: (f: string) => path.join(dir, f) });
    return { rt, dir };
  })();
  const { rt, dir } = await runtime;
  let l = languages.get(grammar);
  if (!l) {
    l = rt.Language.load(path.join(dir, grammar));
    languages.set(grammar, l);
  }
  const parser = new rt.Parser();
  parser.setLanguage(await l);
  return parser;
}

const parsers = new Map<TreeSitterLanguage, Promise<TreeSitter.Parser>>();

/** Facts of a Python, Go, Java, Ruby or Rust file through its tree-sitter grammar. */
export async function extractTreeSitterFacts(lang: TreeSitterLanguage, text: string): Promise<FileFacts> {
  let p = parsers.get(lang);
  if (!p) {
    p = parserFor(lang);
    parsers.set(lang, p);
  }
  const parser = await p;
  const tree = parser.parse(text);
  if (!tree) return { lang, decls: [], imports: [], calls: [], error: 'the parser gave no tree' };
  try {
    const facts = lang === 'python' ? python(tree.rootNode) : lang === 'go' ? go(tree.rootNode) : lang === 'ruby' ? ruby(tree.rootNode) : lang === 'rust' ? rust(tree.rootNode) : java(tree.rootNode);
    if (tree.rootNode.hasError) {
      const bad = firstError(tree.rootNode);
      facts.error = `line ${bad ? bad.startPosition.row + 1 : 1}: syntax error`;
    }
    return facts;
  } finally {
    tree.delete();
  }
}

function firstError(n: TsNode): TsNode | undefined {
  if (n.isError || n.isMissing) return n;
  for (const c of n.children) if (c && c.hasError) return firstError(c) ?? c;
  return undefined;
}

const line = (n: TsNode) => n.startPosition.row + 1;
const endLine = (n: TsNode) => n.endPosition.row + 1;
const field = (n: TsNode, f: string) => n.childForFieldName(f) ?? undefined;
const kids = (n: TsNode) => n.namedChildren.filter((c): c is TsNode => !!c);

/** `a.b.c` (attribute / selector / field access chains) as names; `self`/`cls`/receiver → `this` */
function chain(n: TsNode | undefined, self: Set<string>): string[] | undefined {
  if (!n) return undefined;
  switch (n.type) {
    case 'identifier':
    case 'field_identifier':
    case 'package_identifier':
    case 'type_identifier':
      return [self.has(n.text) ? 'this' : n.text];
    case 'this':
      return ['this'];
    case 'attribute': {
      const left = chain(field(n, 'object'), self);
      const right = field(n, 'attribute');
      return left && right ? [...left, right.text] : undefined;
    }
    case 'selector_expression': {
      const left = chain(field(n, 'operand'), self);
      const right = field(n, 'field');
      return left && right ? [...left, right.text] : undefined;
    }
    case 'field_access': {
      const left = chain(field(n, 'object'), self);
      const right = field(n, 'field');
      return left && right ? [...left, right.text] : undefined;
    }
    case 'scoped_identifier': {
      const left = chain(field(n, 'scope'), self);
      const right = field(n, 'name');
      return left && right ? [...left, right.text] : undefined;
    }
    case 'object_creation_expression': {
      // `new T(…).m()`: a method of T
      const t = field(n, 'type')?.text;
      const name = t ? /([A-Za-z_$][\w$]*)\s*(?:<.*)?$/.exec(t)?.[1] : undefined;
      return name ? [name] : undefined;
    }
    case 'parenthesized_expression': {
      const inner = kids(n)[0];
      return chain(inner, self);
    }
    default:
      return undefined;
  }
}

function python(root: TsNode): FileFacts {
  const decls: GraphDecl[] = [];
  const imports: GraphImport[] = [];
  const calls: GraphCall[] = [];
  const SELF = new Set(['self', 'cls']);
  const NONE = new Set<string>();
  const walk = (n: TsNode, scope: string | undefined, inClass: boolean) => {
    const q = (name: string) => (scope ? `${scope}.${name}` : name);
    switch (n.type) {
      case 'import_statement':
        for (const c of kids(n)) {
          if (c.type === 'dotted_name') imports.push({ spec: c.text, line: line(n), names: [[c.text, '*']] });
          else if (c.type === 'aliased_import') {
            const name = field(c, 'name');
            const alias = field(c, 'alias');
            if (name && alias) imports.push({ spec: name.text, line: line(n), names: [[alias.text, '*']] });
          }
        }
        return;
      case 'import_from_statement': {
        const mod = field(n, 'module_name');
        if (!mod) return;
        const names: [string, string][] = [];
        for (const c of n.childrenForFieldName('name')) {
          if (!c) continue;
          if (c.type === 'dotted_name') names.push([c.text, c.text]);
          else if (c.type === 'aliased_import') {
            const name = field(c, 'name');
            const alias = field(c, 'alias');
            if (name && alias) names.push([alias.text, name.text]);
          }
        }
        if (kids(n).some((c) => c.type === 'wildcard_import')) names.push(['*', '*']);
        imports.push({ spec: mod.text.replace(/\s+/g, ''), line: line(n), names });
        return;
      }
      case 'function_definition':
      case 'class_definition': {
        const name = field(n, 'name');
        if (!name) break;
        const isClass = n.type === 'class_definition';
        const full = q(name.text);
        const at = n.parent?.type === 'decorated_definition' ? n.parent : n;
        decls.push({ name: full, kind: isClass ? 'class' : inClass ? 'method' : 'function', line: line(at), end: endLine(at) });
        const body = field(n, 'body');
        if (body) walk(body, full, isClass);
        for (const c of kids(n)) if (!body || c.id !== body.id) walk(c, scope, inClass);
        return;
      }
      case 'call': {
        const fn = field(n, 'function');
        // `self.x` is `this` only inside a method; at module level `self` is a plain name
        const c = chain(fn, scope ? SELF : NONE);
        if (c) calls.push({ from: scope ?? MODULE_SYMBOL, callee: c, line: line(fn ?? n) });
        break;
      }
    }
    for (const c of kids(n)) walk(c, scope, n.type === 'block' ? inClass : false);
  };
  for (const c of kids(root)) walk(c, undefined, false);
  return { lang: 'python', decls, imports, calls };
}

function go(root: TsNode): FileFacts {
  const decls: GraphDecl[] = [];
  const imports: GraphImport[] = [];
  const calls: GraphCall[] = [];
  let pkg: string | undefined;
  const importSpec = (s: TsNode) => {
    const p = field(s, 'path');
    if (!p) return;
    const spec = p.text.replace(/^["`]|["`]$/g, '');
    const alias = field(s, 'name');
    imports.push({ spec, line: line(s), names: [[alias ? alias.text : '', '*']] });
  };
  const walkCalls = (n: TsNode, from: string, self: Set<string>) => {
    if (n.type === 'call_expression') {
      const fn = field(n, 'function');
      const c = chain(fn, self);
      if (c) calls.push({ from, callee: c, line: line(fn ?? n) });
    }
    for (const c of kids(n)) walkCalls(c, from, self);
  };
  for (const n of kids(root)) {
    switch (n.type) {
      case 'package_clause':
        pkg = kids(n)[0]?.text;
        break;
      case 'import_declaration':
        for (const s of n.descendantsOfType('import_spec')) if (s) importSpec(s);
        break;
      case 'function_declaration': {
        const name = field(n, 'name')?.text;
        if (!name) break;
        decls.push({ name, kind: 'function', line: line(n), end: endLine(n) });
        walkCalls(n, name, new Set());
        break;
      }
      case 'method_declaration': {
        const name = field(n, 'name')?.text;
        const recv = field(n, 'receiver');
        const param = recv ? kids(recv).find((c) => c.type === 'parameter_declaration') : undefined;
        const type = param ? field(param, 'type') : undefined;
        const typeName = type ? /([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[.*)?$/.exec(type.text.replace(/^\*/, ''))?.[1] : undefined;
        if (!name || !typeName) break;
        const full = `${typeName}.${name}`;
        decls.push({ name: full, kind: 'method', line: line(n), end: endLine(n) });
        const self = new Set<string>();
        const rv = param ? field(param, 'name')?.text : undefined;
        if (rv && rv !== '_') self.add(rv);
        walkCalls(n, full, self);
        break;
      }
      case 'type_declaration':
        for (const s of kids(n)) {
          const name = s.type === 'type_spec' ? field(s, 'name')?.text : undefined;
          if (name) decls.push({ name, kind: 'class', line: line(s), end: endLine(s) });
        }
        break;
      default:
        walkCalls(n, MODULE_SYMBOL, new Set());
    }
  }
  const facts: FileFacts = { lang: 'go', decls, imports, calls };
  if (pkg) facts.pkg = pkg;
  return facts;
}

const JAVA_TYPES = new Set(['class_declaration', 'interface_declaration', 'enum_declaration', 'record_declaration', 'annotation_type_declaration']);

function java(root: TsNode): FileFacts {
  const decls: GraphDecl[] = [];
  const imports: GraphImport[] = [];
  const calls: GraphCall[] = [];
  let pkg: string | undefined;
  const NONE = new Set<string>();
  const walk = (n: TsNode, cls: string | undefined, from: string) => {
    if (n.type === 'package_declaration') {
      pkg = kids(n).find((c) => c.type === 'scoped_identifier' || c.type === 'identifier')?.text;
      return;
    }
    if (n.type === 'import_declaration') {
      const target = kids(n).find((c) => c.type === 'scoped_identifier' || c.type === 'identifier');
      if (!target) return;
      const wildcard = kids(n).some((c) => c.type === 'asterisk');
      const isStatic = n.children.some((c) => c?.type === 'static');
      const spec = wildcard ? `${target.text}.*` : target.text;
      const last = target.text.slice(target.text.lastIndexOf('.') + 1);
      const imp: GraphImport = { spec, line: line(n), names: wildcard ? [['*', '*']] : [[last, isStatic ? last : '*']] };
      if (isStatic) imp.static = true;
      imports.push(imp);
      return;
    }
    if (JAVA_TYPES.has(n.type)) {
      const name = field(n, 'name')?.text;
      if (name) {
        const full = cls ? `${cls}.${name}` : name;
        decls.push({ name: full, kind: 'class', line: line(n), end: endLine(n) });
        for (const c of kids(n)) walk(c, full, full);
        return;
      }
    }
    if ((n.type === 'method_declaration' || n.type === 'constructor_declaration') && cls) {
      const name = n.type === 'constructor_declaration' ? 'constructor' : field(n, 'name')?.text;
      if (name) {
        const full = `${cls}.${name}`;
        decls.push({ name: full, kind: 'method', line: line(n), end: endLine(n) });
        for (const c of kids(n)) walk(c, cls, full);
        return;
      }
    }
    if (n.type === 'method_invocation') {
      const name = field(n, 'name');
      const obj = field(n, 'object');
      const left = obj ? chain(obj, NONE) : ['this'];
      if (name && left) calls.push({ from, callee: [...left, name.text], line: line(name) });
    } else if (n.type === 'object_creation_expression') {
      const type = field(n, 'type');
      const t = type ? /([A-Za-z_$][\w$]*)\s*(?:<.*)?$/.exec(type.text)?.[1] : undefined;
      if (t) calls.push({ from, callee: [t], line: line(n) });
    }
    for (const c of kids(n)) walk(c, cls, from);
  };
  for (const c of kids(root)) walk(c, undefined, MODULE_SYMBOL);
  const facts: FileFacts = { lang: 'java', decls, imports, calls };
  if (pkg) facts.pkg = pkg;
  return facts;
}
