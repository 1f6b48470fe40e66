// @spec SPEC-CODEGRAPH-001

import type * as TreeSitter from '@vscode/tree-sitter-wasm';
import type { FileFacts, GraphCall, GraphDecl, GraphImport } from './types.js';
import { MODULE_SYMBOL } from './types.js';

type TsNode = TreeSitter.Node;

const line = (n: TsNode) => n.startPosition.row + 1;
const endLine = (n: TsNode) => n.endPosition.row + 1;
const field = (n: TsNode, f: string) => n.childForFieldName(f) ?? undefined;
const kids = (n: TsNode) => n.namedChildren.filter((c): c is TsNode => !!c);

const TYPES = new Set(['struct_item', 'enum_item', 'union_item', 'trait_item']);

/** `a::b::c` (with `crate`, `self`, `super`, `Self` as written) as segments; undefined for anything computed. */
function pathOf(n: TsNode | undefined): string[] | undefined {
  if (!n) return undefined;
  switch (n.type) {
    case 'identifier':
    case 'type_identifier':
    case 'crate':
    case 'self':
    case 'super':
      return [n.text];
    case 'scoped_identifier':
    case 'scoped_type_identifier': {
      const name = field(n, 'name');
      const left = field(n, 'path');
      // `::std::x`: the leading `::` names the extern prelude, nothing in this repository
      const head = left ? pathOf(left) : [];
      return head && name ? [...head, name.text] : undefined;
    }
    case 'generic_type':
      return pathOf(field(n, 'type'));
    default:
      return undefined;
  }
}

/**
 * The bindings of one `use` tree: each a full path (`crate::rpc::Client`) and the local name
 * it binds (`Client`, an alias, `*` for a glob). `use a::{b, c::d as e, self}` gives one per leaf.
 */
function useLeaves(n: TsNode, prefix: string[], out: { path: string[]; local: string }[]): void {
  switch (n.type) {
    case 'use_as_clause': {
      const p = pathOf(field(n, 'path'));
      const alias = field(n, 'alias');
      if (p && alias) out.push({ path: [...prefix, ...p], local: alias.text });
      return;
    }
    case 'scoped_use_list': {
      const p = field(n, 'path') ? pathOf(field(n, 'path')) : [];
      const list = field(n, 'list');
      if (p && list) for (const c of kids(list)) useLeaves(c, [...prefix, ...p], out);
      return;
    }
    case 'use_list':
      for (const c of kids(n)) useLeaves(c, prefix, out);
      return;
    case 'use_wildcard': {
      const inner = kids(n)[0];
      const p = inner ? pathOf(inner) : [];
      if (p) out.push({ path: [...prefix, ...p], local: '*' });
      return;
    }
    default: {
      const p = pathOf(n);
      if (!p) return;
      // `use a::{self}` binds the module `a` itself
      if (p.length === 1 && p[0] === 'self' && prefix.length) out.push({ path: prefix, local: prefix[prefix.length - 1]! });
      else out.push({ path: [...prefix, ...p], local: p[p.length - 1]! });
    }
  }
}

/** A call's callee as names: `f`, `a::b::f`, `Type::new`, `self.m` / `Self::m` as `this`; a local's method by name. */
function calleeOf(fn: TsNode | undefined): string[] | undefined {
  if (!fn) return undefined;
  if (fn.type === 'generic_function') return calleeOf(field(fn, 'function'));
  if (fn.type === 'field_expression') {
    const value = field(fn, 'value');
    const name = field(fn, 'field');
    if (!value || !name) return undefined;
    if (value.type === 'self') return ['this', name.text];
    const left = value.type === 'identifier' ? [value.text] : undefined;
    return left ? [...left, name.text] : undefined;
  }
  const p = pathOf(fn);
  if (!p) return undefined;
  if (p[0] === 'Self') return ['this', ...p.slice(1)];
  return p;
}

/**
 * Facts of a Rust file: declarations (types, traits and modules as classes; an `impl` block's
 * and a trait's functions under the type's name, as the declarations reader names them), `use`
 * trees and out-of-line `mod x;` items as imports, and calls. An import's spec is the path as
 * written, `::`-joined (`crate::client::Client`, `super::io`, `tendermint_rpc::Client`, and
 * `self::x` for `mod x;`); which part is a module and which an item is the linker's to decide,
 * since Rust spells both alike.
 */
export function rust(root: TsNode): FileFacts {
  const decls: GraphDecl[] = [];
  const imports: GraphImport[] = [];
  const calls: GraphCall[] = [];
  const walk = (n: TsNode, scope: string | undefined, inType: boolean, from: string, depth = 0) => {
    const q = (name: string) => (scope ? `${scope}.${name}` : name);
    const name = field(n, 'name')?.text;
    if (n.type === 'use_declaration') {
      const arg = field(n, 'argument');
      const leaves: { path: string[]; local: string }[] = [];
      if (arg) useLeaves(arg, [], leaves);
      for (const l of leaves) {
        // inside `mod tests { … }` the first `super` is this file: only the ones past it leave it
        let ups = 0;
        while (l.path[ups] === 'super') ups++;
        if (depth && (l.path[0] === 'self' || ups && ups <= depth)) continue;
        if (depth && ups) l.path.splice(0, depth);
        if (l.local === '*') imports.push({ spec: l.path.join('::'), line: line(n), names: [['*', '*']] });
        else imports.push({ spec: l.path.join('::'), line: line(n), names: [[l.local, l.path[l.path.length - 1]!]] });
      }
      return;
    }
    if (n.type === 'mod_item' && name) {
      const body = field(n, 'body');
      // `mod io;` is the file io.rs (or io/mod.rs) beside this module: an import of it
      if (!body) {
        if (!scope) imports.push({ spec: `self::${name}`, line: line(n), names: [[name, '*']] });
        return;
      }
      decls.push({ name: q(name), kind: 'class', line: line(n), end: endLine(n) });
      for (const c of kids(body)) walk(c, q(name), false, from, depth + 1);
      return;
    }
    if (TYPES.has(n.type) && name) {
      decls.push({ name: q(name), kind: 'class', line: line(n), end: endLine(n) });
      if (n.type === 'trait_item') {
        const body = field(n, 'body');
        if (body) for (const c of kids(body)) walk(c, q(name), true, from, depth);
      }
      return;
    }
    if (n.type === 'impl_item') {
      // `impl<T> Trait for Type<T>`: the functions are the type's
      const type = pathOf(field(n, 'type'));
      const body = field(n, 'body');
      const inner = type ? q(type[type.length - 1]!) : scope;
      if (body) for (const c of kids(body)) walk(c, inner, true, from, depth);
      return;
    }
    if ((n.type === 'function_item' || n.type === 'function_signature_item') && name) {
      const full = q(name);
      decls.push({ name: full, kind: inType ? 'method' : 'function', line: line(n), end: endLine(n) });
      const body = field(n, 'body');
      if (body) walk(body, scope, inType, full, depth);
      return;
    }
    if (n.type === 'call_expression') {
      const c = calleeOf(field(n, 'function'));
      if (c) calls.push({ from, callee: c, line: line(n) });
    }
    for (const c of kids(n)) walk(c, scope, inType, from, depth);
  };
  walk(root, undefined, false, MODULE_SYMBOL);
  return { lang: 'rust', decls, imports, calls };
}
