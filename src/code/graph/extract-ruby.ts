// @spec SPEC-CODEGRAPH-001

import type * as TreeSitter from '@vscode/tree-sitter-wasm';
import type { FileFacts, GraphCall, GraphDecl, GraphImport } from './types.js';
import { MODULE_SYMBOL } from './types.js';

type TsNode = TreeSitter.Node;

const line = (n: TsNode) => n.startPosition.row + 1;
const endLine = (n: TsNode) => n.endPosition.row + 1;
const field = (n: TsNode, f: string) => n.childForFieldName(f) ?? undefined;
const kids = (n: TsNode) => n.namedChildren.filter((c): c is TsNode => !!c);

/** `Foo::Bar` (a constant or a scope resolution) as names; undefined for anything computed. */
function constantPath(n: TsNode | undefined): string[] | undefined {
  if (!n) return undefined;
  if (n.type === 'constant') return [n.text];
  if (n.type === 'scope_resolution') {
    const name = field(n, 'name');
    const scope = field(n, 'scope');
    // `::Foo` names the top level: the leading `::` adds nothing to the path
    const left = scope ? constantPath(scope) : [];
    return left && name ? [...left, name.text] : undefined;
  }
  return undefined;
}

/**
 * A call's receiver chain as names: constants by their path, `self` → `this`, a local name,
 * and `a.b` calls without arguments (Ruby's attribute reads) followed through.
 */
function receiverChain(n: TsNode): string[] | undefined {
  switch (n.type) {
    case 'self':
      return ['this'];
    case 'identifier':
    case 'instance_variable':
      return [n.text];
    case 'constant':
    case 'scope_resolution':
      return constantPath(n);
    case 'call': {
      if (field(n, 'arguments') || field(n, 'block')) return undefined;
      const recv = field(n, 'receiver');
      const m = field(n, 'method');
      const left = recv ? receiverChain(recv) : undefined;
      return left && m ? [...left, m.text] : undefined;
    }
    case 'parenthesized_statements': {
      const inner = kids(n);
      return inner.length === 1 ? receiverChain(inner[0]!) : undefined;
    }
    default:
      return undefined;
  }
}

/** Names a method binds: its parameters, block parameters and assigned locals, wherever they are in it. */
function localNames(method: TsNode): Set<string> {
  const out = new Set<string>();
  const visit = (n: TsNode) => {
    if (n.type === 'method_parameters' || n.type === 'block_parameters' || n.type === 'lambda_parameters') {
      for (const id of n.descendantsOfType('identifier')) if (id) out.add(id.text);
      return;
    }
    if (n.type === 'assignment' || n.type === 'operator_assignment') {
      const left = field(n, 'left');
      if (left?.type === 'identifier') out.add(left.text);
      else if (left) for (const id of left.descendantsOfType('identifier')) if (id) out.add(id.text);
    }
    for (const c of kids(n)) visit(c);
  };
  visit(method);
  return out;
}

const stringArg = (call: TsNode): string | undefined => {
  const arg = kids(field(call, 'arguments') ?? call).find((c) => c.type === 'string');
  if (!arg || kids(arg).some((c) => c.type !== 'string_content')) return undefined;
  return kids(arg).map((c) => c.text).join('');
};

/**
 * Facts of a Ruby file. Modules and classes are `class` declarations named by their nesting
 * (`module BulkData; class Cache` → `BulkData.Cache`, `class Foo::Bar` → `Foo.Bar`); instance
 * methods, `def self.x` and methods of `class << self` are methods of the class they are in
 * (`BulkData.Cache.read`), top-level `def`s functions. `require` and `require_relative` with
 * a literal path are imports; calls keep their receiver chain (`Foo::Bar.baz` → `Foo.Bar.baz`,
 * `self.x` and a bare `x(…)` → `this.x`), resolved by constant in link.ts.
 */
export function ruby(root: TsNode): FileFacts {
  const decls: GraphDecl[] = [];
  const imports: GraphImport[] = [];
  const calls: GraphCall[] = [];
  const walk = (n: TsNode, scope: string[], from: string, locals?: Set<string>) => {
    switch (n.type) {
      case 'module':
      case 'class': {
        const name = constantPath(field(n, 'name'));
        if (!name) break;
        const full = [...scope, ...name];
        decls.push({ name: full.join('.'), kind: 'class', line: line(n), end: endLine(n) });
        const sup = field(n, 'superclass');
        if (sup) walk(sup, scope, from);
        const body = field(n, 'body');
        if (body) for (const c of kids(body)) walk(c, full, full.join('.'));
        return;
      }
      case 'singleton_class': {
        // `class << self`: its methods are the enclosing class's own
        const body = field(n, 'body');
        if (body) for (const c of kids(body)) walk(c, scope, from);
        return;
      }
      case 'method':
      case 'singleton_method': {
        const name = field(n, 'name')?.text;
        if (!name) break;
        const full = scope.length ? `${scope.join('.')}.${name}` : name;
        decls.push({ name: full, kind: scope.length ? 'method' : 'function', line: line(n), end: endLine(n) });
        const own = localNames(n);
        for (const c of kids(n)) if (c.id !== field(n, 'name')?.id) walk(c, scope, full, own);
        return;
      }
      case 'identifier':
        // a bare name in a method that no parameter or assignment binds is a call on self (`key: idempotency_key`)
        if (locals && !locals.has(n.text)) calls.push({ from, callee: ['this', n.text], line: line(n) });
        return;
      case 'call': {
        const m = field(n, 'method');
        const recv = field(n, 'receiver');
        if (m && !recv && (m.text === 'require' || m.text === 'require_relative')) {
          const spec = stringArg(n);
          if (spec) imports.push({ spec: m.text === 'require_relative' ? `./${spec.replace(/^\.\//, '')}` : spec, line: line(n), names: [] });
          return;
        }
        const left = recv ? receiverChain(recv) : scope.length ? ['this'] : [];
        if (m && left) calls.push({ from, callee: [...left, m.text], line: line(m) });
        for (const c of kids(n)) if (c.id !== m?.id) walk(c, scope, from, locals);
        return;
      }
    }
    for (const c of kids(n)) walk(c, scope, from, locals);
  };
  for (const c of kids(root)) walk(c, [], MODULE_SYMBOL);
  return { lang: 'ruby', decls, imports, calls };
}
