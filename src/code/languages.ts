import type { CodeLanguage } from './types.js';

/**
 * The one list of which files are source code, by extension (lower case, no dot): the language
 * `git ctx init` reports (src/init/detect.ts) and the comment family tags are read with
 * (languageOf; none: no comment syntax known, the file's tags are not read). Code words
 * (src/retrieve/code-words.ts) count these files but SQL (CODE_WORDS_EXCLUDED). Data and
 * markup with comments of their own are in COMMENTED_DATA, not here.
 */
export const SOURCE_EXTENSIONS: Readonly<Record<string, { language: string; family?: CodeLanguage }>> = {
  ts: { language: 'TypeScript', family: 'ts' }, tsx: { language: 'TypeScript', family: 'ts' }, mts: { language: 'TypeScript', family: 'ts' }, cts: { language: 'TypeScript', family: 'ts' },
  js: { language: 'JavaScript', family: 'ts' }, jsx: { language: 'JavaScript', family: 'ts' }, mjs: { language: 'JavaScript', family: 'ts' }, cjs: { language: 'JavaScript', family: 'ts' },
  py: { language: 'Python', family: 'python' }, pyi: { language: 'Python', family: 'python' },
  go: { language: 'Go', family: 'go' },
  rs: { language: 'Rust', family: 'rust' },
  java: { language: 'Java', family: 'java' }, kt: { language: 'Kotlin', family: 'kotlin' }, kts: { language: 'Kotlin', family: 'kotlin' }, scala: { language: 'Scala', family: 'scala' },
  rb: { language: 'Ruby', family: 'ruby' }, php: { language: 'PHP', family: 'php' },
  cs: { language: 'C#', family: 'csharp' }, fs: { language: 'F#' },
  c: { language: 'C', family: 'c' }, h: { language: 'C', family: 'c' },
  cc: { language: 'C++', family: 'cpp' }, cpp: { language: 'C++', family: 'cpp' }, cxx: { language: 'C++', family: 'cpp' }, hpp: { language: 'C++', family: 'cpp' }, hh: { language: 'C++', family: 'cpp' }, hxx: { language: 'C++', family: 'cpp' },
  swift: { language: 'Swift', family: 'swift' }, m: { language: 'Objective-C' }, mm: { language: 'Objective-C++' },
  dart: { language: 'Dart' }, ex: { language: 'Elixir' }, exs: { language: 'Elixir' }, erl: { language: 'Erlang' },
  hs: { language: 'Haskell' }, clj: { language: 'Clojure' }, lua: { language: 'Lua', family: 'lua' }, r: { language: 'R' }, jl: { language: 'Julia' },
  sh: { language: 'Shell', family: 'shell' }, bash: { language: 'Shell', family: 'shell' }, zsh: { language: 'Shell', family: 'shell' }, ksh: { language: 'Shell', family: 'shell' },
  sql: { language: 'SQL', family: 'sql' }, vue: { language: 'Vue', family: 'html' }, svelte: { language: 'Svelte', family: 'html' },
  // Terraform and other HashiCorp configuration: the code of an infrastructure repository
  tf: { language: 'HCL', family: 'hcl' }, tfvars: { language: 'HCL', family: 'hcl' }, hcl: { language: 'HCL', family: 'hcl' },
};

/**
 * Source extensions code words do not count: SQL files are mostly migrations and schema
 * dumps, written or generated once, whose table and column names would swamp the words the
 * team's code uses. init still reports SQL, and tags in SQL are still read.
 */
export const CODE_WORDS_EXCLUDED: ReadonlySet<string> = new Set(['sql']);

/** Files that are not source code but carry comments tags can be written in (configuration, styles, markup). */
const COMMENTED_DATA: Record<string, CodeLanguage> = {
  yml: 'yaml', yaml: 'yaml',
  toml: 'toml',
  css: 'css', scss: 'css', less: 'css',
  html: 'html', htm: 'html', xml: 'html',
};

const BY_EXT_TABLE: Record<string, CodeLanguage> = {
  ...Object.fromEntries(Object.entries(SOURCE_EXTENSIONS).flatMap(([ext, s]) => (s.family ? [[ext, s.family]] : []))),
  ...COMMENTED_DATA,
};

const BY_NAME_TABLE: Record<string, CodeLanguage> = {
  Dockerfile: 'shell',
  Makefile: 'shell',
  Rakefile: 'ruby',
  Gemfile: 'ruby',
};

// Maps, not objects: a file named "constructor" or "__proto__" must not find Object.prototype
const BY_EXT = new Map(Object.entries(BY_EXT_TABLE));
const BY_NAME = new Map(Object.entries(BY_NAME_TABLE));

/** The language of a repository path, from its extension (or well-known file name). */
export function languageOf(path: string): CodeLanguage | undefined {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  if (dot > slash + 1) {
    const ext = path.slice(dot + 1);
    const lang = BY_EXT.get(ext) ?? BY_EXT.get(ext.toLowerCase());
    if (lang) return lang;
  }
  return BY_NAME.get(slash < 0 ? path : path.slice(slash + 1));
}

/** Comment and string syntax of a language family, enough to find comments reliably. */
export interface CommentSyntax {
  line: string[];
  block: [string, string][];
  /** string delimiters whose content is never a comment */
  strings: string[];
  /** string-like blocks that act as documentation (Python docstrings): treated as comments */
  docBlocks?: string[];
  /** HCL's heredocs (`<<EOF` … `EOF`, `<<-EOT` … an indented `EOT`): text (a JSON policy, a shell script) whose `#` lines are no comments */
  heredocs?: boolean;
}

/**
 * An HCL heredoc, opener to closing tag (`<<EOF` … `EOF`, `<<-EOT` … an indented `EOT`); one
 * never closed does not match. The tag scanner skips it (scanComments), place queries read its
 * body as a string (src/retrieve/extract.ts).
 */
export const HEREDOC = /<<-?([A-Za-z_][A-Za-z0-9_]*)[ \t]*\r?\n[\s\S]*?^[ \t]*\1[ \t]*\r?$/gm;
/** HEREDOC at the scan position only. */
const HEREDOC_AT = new RegExp(HEREDOC.source, 'my');

const C_LIKE: CommentSyntax = { line: ['//'], block: [['/*', '*/']], strings: ['"', "'", '`'] };

export const COMMENT_SYNTAX: Record<Exclude<CodeLanguage, 'ts'>, CommentSyntax> = {
  python: { line: ['#'], block: [], strings: ['"', "'"], docBlocks: ['"""', "'''"] },
  shell: { line: ['#'], block: [], strings: ['"', "'"] },
  ruby: { line: ['#'], block: [['=begin', '=end']], strings: ['"', "'"] },
  yaml: { line: ['#'], block: [], strings: ['"', "'"] },
  toml: { line: ['#'], block: [], strings: ['"', "'"] },
  // Terraform and HCL: `#` and `//` line comments, `/* */` blocks; strings in double quotes only
  hcl: { line: ['#', '//'], block: [['/*', '*/']], strings: ['"'], heredocs: true },
  go: C_LIKE,
  rust: { line: ['//'], block: [['/*', '*/']], strings: ['"'] },
  java: C_LIKE,
  kotlin: C_LIKE,
  c: C_LIKE,
  cpp: C_LIKE,
  csharp: C_LIKE,
  swift: C_LIKE,
  scala: C_LIKE,
  php: { line: ['//', '#'], block: [['/*', '*/']], strings: ['"', "'"] },
  sql: { line: ['--'], block: [['/*', '*/']], strings: ["'", '"'] },
  lua: { line: ['--'], block: [['--[[', ']]']], strings: ['"', "'"] },
  css: { line: [], block: [['/*', '*/']], strings: ['"', "'"] },
  html: { line: [], block: [['<!--', '-->']], strings: [] },
};

/**
 * Comment ranges [start, end) of a file in a language other than TS/JS. A small lexer:
 * it knows strings (so `"# not a comment"` is skipped), line and block comments; that is
 * all a file + line anchor needs.
 */
export function scanComments(text: string, syntax: CommentSyntax): [number, number][] {
  const out: [number, number][] = [];
  const n = text.length;
  let i = 0;
  // block and doc openers are tried before line and string openers, so `--[[` wins over
  // `--` and `"""` over `"`
  const starts = (tok: string) => text.startsWith(tok, i);
  while (i < n) {
    const c = text[i]!;
    if (c === '\n' || c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    let matched = false;
    for (const [open, close] of syntax.block) {
      if (starts(open)) {
        const end = text.indexOf(close, i + open.length);
        const stop = end < 0 ? n : end + close.length;
        out.push([i, stop]);
        i = stop;
        matched = true;
        break;
      }
    }
    if (matched) continue;
    for (const doc of syntax.docBlocks ?? []) {
      if (starts(doc)) {
        const end = text.indexOf(doc, i + doc.length);
        const stop = end < 0 ? n : end + doc.length;
        out.push([i, stop]);
        i = stop;
        matched = true;
        break;
      }
    }
    if (matched) continue;
    for (const lc of syntax.line) {
      // `#` opens a comment only at a word start (`$#`, `url#frag`, `key: a#b` are not comments)
      if (starts(lc) && !(lc === '#' && i > 0 && !/\s/.test(text[i - 1]!))) {
        const end = text.indexOf('\n', i);
        const stop = end < 0 ? n : end;
        out.push([i, stop]);
        i = stop;
        matched = true;
        break;
      }
    }
    if (matched) continue;
    if (syntax.heredocs && c === '<' && text[i + 1] === '<') {
      HEREDOC_AT.lastIndex = i;
      if (HEREDOC_AT.exec(text)) {
        i = HEREDOC_AT.lastIndex;
        continue;
      }
    }
    if (syntax.strings.includes(c)) {
      // a string ends at its closing quote or, unterminated, at the end of the line (Rust
      // lifetimes, shell apostrophes in heredocs…) so one stray quote cannot swallow the file
      let j = i + 1;
      while (j < n) {
        const d = text[j]!;
        if (d === '\\') {
          j += 2;
          continue;
        }
        if (d === c) {
          j++;
          break;
        }
        if (d === '\n' && c !== '`') break;
        j++;
      }
      i = j;
      continue;
    }
    i++;
  }
  return out;
}
