// @spec SPEC-ANCHORS-001

import { sha256 } from '../util/hash.js';
import { extractTreeSitterFacts, type TreeSitterLanguage } from './graph/extract-tree-sitter.js';
import { graphLanguageOf } from './graph/build.js';
import { COMMENT_SYNTAX, scanComments } from './languages.js';
import type { CodeLanguage, CodeSymbol } from './types.js';

/**
 * The declarations of a Python, Go, Java or Ruby file as the code index gives a TS/JS file's:
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

/** The languages whose declarations are read here (the code graph's, other than TS/JS). */
export function declarationLanguage(path: string): TreeSitterLanguage | undefined {
  const g = graphLanguageOf(path);
  return g === undefined || g === 'typescript' ? undefined : g;
}

const COMMENT_LINE: Record<TreeSitterLanguage, RegExp> = {
  python: /^\s*(?:#|@)/,
  ruby: /^\s*#/,
  go: /^\s*(?:\/\/|\/\*|\*)/,
  java: /^\s*(?:\/\/|\/\*|\*|@)/,
};

const SYNTAX: Record<TreeSitterLanguage, Exclude<CodeLanguage, 'ts'>> = { python: 'python', ruby: 'ruby', go: 'go', java: 'java' };

/** Whether a declaration is visible outside its file, by each language's own convention. */
function isExported(lang: TreeSitterLanguage, name: string, firstLine: string): boolean {
  const simple = name.split('.').pop() ?? name;
  if (lang === 'python') return !name.split('.').some((p) => p.startsWith('_') && !/^__\w+__$/.test(p));
  if (lang === 'go') return /^[A-Z]/.test(simple);
  if (lang === 'java') return /\bpublic\b/.test(firstLine);
  return true;
}

/**
 * The file's declarations, or undefined when its language has no parser here. A file the
 * parser reads with errors gives the declarations it could read.
 */
export async function declarationsOf(path: string, text: string): Promise<CodeSymbol[] | undefined> {
  const lang = declarationLanguage(path);
  if (!lang) return undefined;
  const facts = await extractTreeSitterFacts(lang, text);
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
  const names = new Set(facts.decls.map((d) => d.name));
  const out: CodeSymbol[] = [];
  for (const d of facts.decls) {
    let docLine = d.line;
    while (docLine > 1 && COMMENT_LINE[lang].test(lines[docLine - 2] ?? '') && (lines[docLine - 2] ?? '').trim() !== '') docLine--;
    const simple = d.name.split('.').pop() ?? d.name;
    const body = codeLines.slice(d.line - 1, d.end).join('\n');
    // the declaration's own name left out (its first occurrence), whitespace folded
    const nameless = body.replace(new RegExp(`(?<![\\w$])${simple.replace(/[$]/g, '\\$')}(?![\\w$])`), ' ');
    const fingerprint = sha256(foldSpace(nameless));
    const dot = d.name.lastIndexOf('.');
    const parent = dot > 0 && names.has(d.name.slice(0, dot)) ? d.name.slice(0, dot) : undefined;
    const sym: CodeSymbol = { name: d.name, kind: d.kind === 'class' ? 'class' : d.kind === 'method' || parent ? 'method' : 'function', line: d.line, endLine: d.end, docLine, exported: isExported(lang, d.name, lines[d.line - 1] ?? ''), fingerprint };
    if (parent) sym.parent = parent;
    out.push(sym);
  }
  return out;
}
