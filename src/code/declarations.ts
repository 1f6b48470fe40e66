// @spec SPEC-ANCHORS-001

import { sha256 } from '../util/hash.js';
import type * as TreeSitter from '@vscode/tree-sitter-wasm';
import { extractTreeSitterFacts, parserForGrammar, type TreeSitterLanguage } from './graph/extract-tree-sitter.js';
import { graphLanguageOf } from './graph/build.js';
import { COMMENT_SYNTAX, scanComments } from './languages.js';
import type { CodeLanguage, CodeSymbol } from './types.js';

/**
 * The declarations of a Python, Go, Java, Ruby, C# or Rust file as the code index gives a TS/JS file's:
 * qualified names (`Payment.refund`), line spans, the comments attached above, and a
 * fingerprint. The code graph's parser (tree-sitter) finds them; a record's anchor
 * `app/pay.py#Payment.refund`, `trace path#Symbol` and the staleness judge then work on these
 * files as on TypeScript.
 *
 * The fingerprint folds whitespace and comments (docstrings included) away and leaves the
 * declaration's own name out, as the TypeScript one does: reformatting or re-documenting a
 * method is no drift, renaming it reads as a move, and changing its code is drift. It is a hash
 * of the declaration's text, not of parser tokens: `a+b` and `a + b` differ only in spaces and
 * fold alike, while `a b` and `ab` stay apart.
 */

/** Whitespace folded: none beside punctuation (`f( a )` is `f(a)`), one space between words. */
const foldSpace = (text: string): string =>
  text
    .replace(/\s+/g, ' ')
    .replace(/ ?([^\w$ ]) ?/g, '$1')
    .trim();

/** Languages whose declarations (only) are read here, beyond the code graph's. */
type DeclarationsOnly = 'csharp' | 'rust';
type DeclLanguage = TreeSitterLanguage | DeclarationsOnly;
const DECLARATIONS_ONLY: Record<string, DeclarationsOnly> = { cs: 'csharp', rs: 'rust' };
const GRAMMAR: Record<DeclarationsOnly, string> = { csharp: 'tree-sitter-c-sharp.wasm', rust: 'tree-sitter-rust.wasm' };

/** The languages whose declarations are read here: the code graph's other than TS/JS, C# and Rust. */
export function declarationLanguage(path: string): DeclLanguage | undefined {
  const g = graphLanguageOf(path);
  if (g !== undefined) return g === 'typescript' ? undefined : g;
  const dot = path.lastIndexOf('.');
  return dot > path.lastIndexOf('/') ? DECLARATIONS_ONLY[path.slice(dot + 1).toLowerCase()] : undefined;
}

/** A line that belongs to the declaration below it: a comment, a decorator, an attribute. */
const COMMENT_LINE: Record<DeclLanguage, RegExp> = {
  python: /^\s*(?:#|@)/,
  ruby: /^\s*#/,
  go: /^\s*(?:\/\/|\/\*|\*)/,
  java: /^\s*(?:\/\/|\/\*|\*|@)/,
  csharp: /^\s*(?:\/\/|\/\*|\*|\[)/,
  rust: /^\s*(?:\/\/|\/\*|\*|#!?\[)/,
};

const SYNTAX: Record<DeclLanguage, Exclude<CodeLanguage, 'ts'>> = { python: 'python', ruby: 'ruby', go: 'go', java: 'java', csharp: 'csharp', rust: 'rust' };

/** A declaration's lines up to the one naming it: its modifiers, past attributes and decorators. */
function header(lines: readonly string[], from: number, to: number, name: string): string {
  const out: string[] = [];
  for (let i = from; i <= to && i <= lines.length; i++) {
    out.push(lines[i - 1]!);
    if (lines[i - 1]!.includes(name)) break;
  }
  return out.join(' ');
}

/** Whether a declaration is visible outside its file, by each language's own convention. */
function isExported(lang: DeclLanguage, name: string, head: string): boolean {
  const simple = name.split('.').pop() ?? name;
  if (lang === 'python') return !name.split('.').some((p) => p.startsWith('_') && !/^__\w+__$/.test(p));
  if (lang === 'go') return /^[A-Z]/.test(simple);
  if (lang === 'java' || lang === 'csharp') return /\bpublic\b/.test(head);
  // a `macro_rules!` is never `pub`: `#[macro_export]` above it exports it from the crate
  if (lang === 'rust') return /\bpub\b/.test(head) || /#\[\s*macro_export\b/.test(head);
  return true;
}

interface Decl {
  name: string;
  /** `variable` and `type`: Rust `const`/`static`, `type` aliases and `macro_rules!` (not in the code graph) */
  kind: 'function' | 'method' | 'class' | 'variable' | 'type';
  line: number;
  end: number;
}

const CS_TYPES = new Set(['class_declaration', 'struct_declaration', 'interface_declaration', 'record_declaration', 'record_struct_declaration', 'enum_declaration']);
const CS_MEMBERS = new Set(['method_declaration', 'constructor_declaration', 'destructor_declaration', 'property_declaration', 'event_declaration']);
const RS_TYPES = new Set(['struct_item', 'enum_item', 'union_item', 'trait_item', 'mod_item']);
// items a record names as often as a function: `const MAX_PEERS`, `static GENESIS`, `type Result<T>`, `macro_rules! bail`
const RS_VALUES = new Set(['const_item', 'static_item']);
const RS_ALIASES = new Set(['type_item', 'macro_definition']);

/** C# and Rust declarations: types (a namespace is not part of the name), their members, `impl` blocks' functions. */
function declarationsOnly(lang: DeclarationsOnly, root: TreeSitter.Node): Decl[] {
  const out: Decl[] = [];
  const walk = (n: TreeSitter.Node, scope: string | undefined) => {
    const q = (name: string) => (scope ? `${scope}.${name}` : name);
    const name = n.childForFieldName('name')?.text;
    const at = { line: n.startPosition.row + 1, end: n.endPosition.row + 1 };
    let inner = scope;
    if (lang === 'csharp' && name && CS_TYPES.has(n.type)) {
      inner = q(name);
      out.push({ name: inner, kind: 'class', ...at });
    } else if (lang === 'csharp' && name && CS_MEMBERS.has(n.type)) {
      out.push({ name: q(name), kind: 'method', ...at });
      return;
    } else if (lang === 'rust' && name && RS_TYPES.has(n.type)) {
      inner = q(name);
      out.push({ name: inner, kind: 'class', ...at });
    } else if (lang === 'rust' && n.type === 'impl_item') {
      // `impl<T> Trait for Type<T>`: the functions are the type's
      const type = n.childForFieldName('type')?.text.replace(/<[\s\S]*$/, '').split('::').pop();
      if (type) inner = q(type);
    } else if (lang === 'rust' && name && (n.type === 'function_item' || n.type === 'function_signature_item')) {
      out.push({ name: q(name), kind: scope ? 'method' : 'function', ...at });
      return;
    } else if (lang === 'rust' && name && (RS_VALUES.has(n.type) || RS_ALIASES.has(n.type))) {
      out.push({ name: q(name), kind: RS_VALUES.has(n.type) ? 'variable' : 'type', ...at });
      return;
    }
    for (const c of n.namedChildren) if (c) walk(c, inner);
  };
  walk(root, undefined);
  return out;
}

/** The declarations of a file through its language's grammar. */
async function declsOf(lang: DeclLanguage, text: string): Promise<Decl[]> {
  if (lang !== 'csharp' && lang !== 'rust') return (await extractTreeSitterFacts(lang, text)).decls;
  const parser = await parserForGrammar(GRAMMAR[lang]);
  const tree = parser.parse(text);
  if (!tree) return [];
  try {
    return declarationsOnly(lang, tree.rootNode);
  } finally {
    tree.delete();
  }
}

/**
 * The file's declarations, or undefined when its language has no parser here. A file the
 * parser reads with errors gives the declarations it could read.
 */
export async function declarationsOf(path: string, text: string): Promise<CodeSymbol[] | undefined> {
  const lang = declarationLanguage(path);
  if (!lang) return undefined;
  const decls = await declsOf(lang, text);
  // comments (docstrings too) blanked out, offsets kept: a declaration's text without them
  const syntax = COMMENT_SYNTAX[SYNTAX[lang]];
  let code = text;
  if (syntax) {
    const parts: string[] = [];
    let at = 0;
    for (const [s, e] of scanComments(text, syntax)) {
      parts.push(text.slice(at, s), text.slice(s, e).replace(/[^\n]/g, ' '));
      at = e;
    }
    parts.push(text.slice(at));
    code = parts.join('');
  }
  const lines = text.split('\n');
  const codeLines = code.split('\n');
  const names = new Set(decls.map((d) => d.name));
  const out: CodeSymbol[] = [];
  for (const d of decls) {
    let docLine = d.line;
    while (docLine > 1 && COMMENT_LINE[lang].test(lines[docLine - 2] ?? '') && (lines[docLine - 2] ?? '').trim() !== '') docLine--;
    const simple = d.name.split('.').pop() ?? d.name;
    const body = codeLines.slice(d.line - 1, d.end).join('\n');
    // the declaration's own name left out (its first occurrence), whitespace folded
    const nameless = body.replace(new RegExp(`(?<![\\w$])${simple.replace(/[$]/g, '\\$')}(?![\\w$])`), ' ');
    const fingerprint = sha256(foldSpace(nameless));
    const dot = d.name.lastIndexOf('.');
    const parent = dot > 0 && names.has(d.name.slice(0, dot)) ? d.name.slice(0, dot) : undefined;
    const sym: CodeSymbol = { name: d.name, kind: d.kind === 'class' || d.kind === 'variable' || d.kind === 'type' ? d.kind : d.kind === 'method' || parent ? 'method' : 'function', line: d.line, endLine: d.end, docLine, exported: isExported(lang, d.name, header(codeLines, lang === 'rust' ? docLine : d.line, d.end, simple)), fingerprint };
    if (parent) sym.parent = parent;
    out.push(sym);
  }
  return out;
}
