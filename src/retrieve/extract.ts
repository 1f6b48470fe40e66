// @spec SPEC-RETRIEVE-001

import { HEREDOC, languageOf } from '../code/languages.js';
import { terms } from './text.js';

/** Terms read passively from the code at a place, by where they came from. */
export interface PlaceTerms {
  identifiers: string[];
  comments: string[];
  strings: string[];
  imports: string[];
  path: string[];
}

/** How much a term from each source counts in the query (words people wrote count most). */
const SOURCE_WEIGHT: Record<keyof PlaceTerms, number> = { comments: 1.5, strings: 1, identifiers: 1, imports: 0.8, path: 2 };
/**
 * Added to each path word's weight after dampening. Tuned on the dotcom-rendering dev set
 * (bench/retrieval.mjs): file queries' recall@5 rose monotonically with it, 0.59 at 0 → 0.69
 * at 4 → 0.76 at 10, symbol queries 0.73 → 0.80, the other kinds unchanged.
 */
const PATH_BONUS = 10;
/** A query longer than this is trimmed to its heaviest terms (bounded time, less noise). */
export const MAX_QUERY_TERMS = 60;

/**
 * `//`, `/* *\/`, `#` and docstrings; `#[…]` and `#![…]` are not comments but attributes (Rust's
 * `#[derive(Serialize)]`, `#[cfg(test)]` on most items, PHP 8's `#[Route]`): code, whose words
 * are the file's identifiers, not the weightier words of its prose.
 */
const COMMENT_RE = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|(?:^|[ \t])#(?!!?\[)[^\n]*|"""[\s\S]*?"""|'''[\s\S]*?'''/gm;
/** Markup's comments (XML, HTML, SVG, templates); in code, `<!-- -->` is part of a string. */
const MARKUP_COMMENT_RE = /<!--[\s\S]*?-->/g;
const MARKUP_PATH_RE = /\.(?:xml|xsd|xsl|xslt|html?|xhtml|svg|twig|vue|svelte|jsp|xaml|csproj|props|targets|plist)$/i;
const STRING_RE = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g;
/** A string literal's words, when it is short enough to be a name or a message rather than data. */
const STRING_MAX = 200;
const IMPORT_RE = /(?:\bfrom\s+|\bimport\s+|\brequire\(\s*)["']([^"'\n]+)["']|^\s*(?:from|import)\s+([\w.]+)/gm;
/** Folder and file names every repository has: no evidence of a topic. */
const PATH_NOISE = new Set(['src', 'lib', 'app', 'index', 'main', 'test', 'pkg', 'internal', 'cmd']);
const IDENT_RE = /[A-Za-z_$][A-Za-z0-9_$]*/g;
/**
 * A licence or copyright notice (DEC-069): the same boilerplate heads many files of a project,
 * and its words ("copyright", "contributors", a year, "apache") say nothing of what the code
 * does; a record that mentions a licence or a year in passing must not meet the file by them.
 * The Symfony family heads its files "This file is part of the X package. (c) Name", one `#`
 * line each in YAML: either line alone is the notice. A markup file's `<!-- -->` is a comment.
 */
const LICENCE_RE = /\bcopyright\b|\(c\)\s*\d{4}|^[\s#*/!<-]*\(c\)\s|\bthis file is part of\b|\bspdx-license-identifier\b|\blicen[cs]ed?\s+(?:under|to)\b|\bpermission is hereby granted\b/i;

/**
 * Documentation markup inside comments: C#'s XML doc tags (`/// <summary>`, `<see cref="X"/>`,
 * `<param name="x">`), and the HTML of Javadoc and JSDoc (`<p>`, `<code>`), with the entities that
 * escape brackets in them (`&lt;T&gt;`). The tag and attribute names head most documented
 * files of such a language and say nothing of any one of them, yet a record quoting a
 * documented snippet carries them too, so a file met records by `cref`, `summary` and `lt`
 * (DEC-091). The attribute values are the names referred to (`cref="IAIService"`), and stay.
 */
const DOC_TAG_RE =
  /<\/?(?:summary|remarks|returns|param|paramref|typeparam|typeparamref|see|seealso|exception|inheritdoc|value|example|code|c|para|list|listheader|item|term|description|include|permission|br|p|b|i|em|strong|ul|ol|li|a|pre|tt)\b((?:\s+[\w:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*\/?>/gi;
const DOC_ENTITY_RE = /&(?:lt|gt|amp|quot|apos|nbsp|#\d+|#x[0-9a-f]+);/gi;
/** A comment's prose without its documentation markup: the referred names kept, tags and entities gone. */
const docProse = (comment: string): string =>
  comment.replace(DOC_TAG_RE, (_m, attrs: string) => ` ${[...(attrs ?? '').matchAll(/=\s*(?:"([^"]*)"|'([^']*)')/g)].map((a) => a[1] ?? a[2]).join(' ')} `).replace(DOC_ENTITY_RE, ' ');

/**
 * An identifier's terms, remembered: a file names the same identifiers again and again, and a
 * cold run reads up to 1,500 files for the code's word shares (DEC-055). Bounded, cleared
 * when full. The arrays are shared: callers copy them (spread), never change them.
 */
const IDENTIFIER_TERMS = new Map<string, readonly string[]>();
const IDENTIFIER_TERMS_MAX = 50_000;
function identifierTerms(id: string): readonly string[] {
  let t = IDENTIFIER_TERMS.get(id);
  if (t === undefined) {
    if (IDENTIFIER_TERMS.size >= IDENTIFIER_TERMS_MAX) IDENTIFIER_TERMS.clear();
    t = terms(id);
    IDENTIFIER_TERMS.set(id, t);
  }
  return t;
}

/**
 * Identifiers, comments, string literals, imports of a piece of code (any language: the
 * patterns are the C/JS/Python/shell family's), and the words of its path. No parser: it
 * must be cheap on any file, and a stray match only adds a weak term.
 */
export function extractPlaceTerms(code: string, path: string, opts: { keepPathNoise?: boolean } = {}): PlaceTerms {
  const comments: string[] = [];
  const strings: string[] = [];
  const imports: string[] = [];
  const comment = (m: string) => {
    if (LICENCE_RE.test(m)) return ' ';
    comments.push(...terms(docProse(m)));
    return ' ';
  };
  const string = (m: string, body: string) => {
    // JavaScript's `'use strict'` heads many files and says nothing of any of them; "strict"
    // itself is a word records use (strict mode, strict validation), so it is no stop word
    if (m.length < STRING_MAX && body !== 'use strict') strings.push(...terms(body));
    return ' ';
  };
  // HCL's heredocs (a JSON policy, a shell script) are text: read as a string literal, before comments and strings
  let rest = languageOf(path) === 'hcl' ? code.replace(HEREDOC, (m, tag: string) => string(m, m.slice(m.indexOf('\n') + 1, m.lastIndexOf(tag)))) : code;
  rest = (MARKUP_PATH_RE.test(path) ? rest.replace(MARKUP_COMMENT_RE, comment) : rest).replace(COMMENT_RE, comment);
  for (const m of rest.matchAll(IMPORT_RE)) imports.push(...terms(m[1] ?? m[2] ?? ''));
  rest = rest.replace(STRING_RE, (m) => string(m, m.slice(1, -1)));
  const identifiers: string[] = [];
  for (const m of rest.matchAll(IDENT_RE)) identifiers.push(...identifierTerms(m[0]));
  return { identifiers, comments, strings, imports, path: terms(path.replace(/\.[A-Za-z0-9]+$/, '')).filter((w) => opts.keepPathNoise || !PATH_NOISE.has(w)) };
}

/**
 * A weighted query from a place's terms: each source's terms weighted, repeated terms
 * dampened (log), capped at the heaviest MAX_QUERY_TERMS. `distinct` says how much a word says
 * in this repository's code (code-words.ts): among the code's words and among the path's
 * words, each side's weight is shared out by it (the side's total stays, so the path keeps
 * its strength against the code, but a folder word every file has gives way to the file's
 * own name, and `handler` to `idempotencyKey`).
 */
export function placeQuery(t: PlaceTerms, distinct: DistinctWords = NOT_KNOWN): Map<string, number> {
  const raw = new Map<string, number>();
  for (const src of Object.keys(SOURCE_WEIGHT) as (keyof PlaceTerms)[]) {
    for (const term of t[src]) raw.set(term, (raw.get(term) ?? 0) + SOURCE_WEIGHT[src]);
  }
  const code = shareOut([...raw.keys()], distinct.code);
  const q = new Map<string, number>();
  for (const [term, w] of raw) q.set(term, (1 + Math.log(w)) * code(term));
  // the path names what the place is about: its words keep a strong weight however much code surrounds them
  const pathWords = [...new Set(t.path)];
  const path = shareOut(pathWords, distinct.path);
  for (const term of t.path) q.set(term, (q.get(term) ?? 0) + PATH_BONUS * path(term));
  if (q.size <= MAX_QUERY_TERMS) return q;
  return new Map([...q].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_QUERY_TERMS));
}

/** How much a word says in the repository's code, in (0, 1], for the code's words and the path's. */
export interface DistinctWords {
  code: (term: string) => number;
  path: (term: string) => number;
}
const NOT_KNOWN: DistinctWords = { code: () => 1, path: () => 1 };

/** Each word's factor relative to the mean over the words: the words' total weight is unchanged. */
function shareOut(words: string[], f: (term: string) => number): (term: string) => number {
  if (!words.length) return () => 1;
  let sum = 0;
  for (const w of words) sum += f(w);
  const mean = sum / words.length;
  return (term) => f(term) / mean;
}
