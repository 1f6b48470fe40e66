import type { CodeLanguage } from './types.js';

const BY_EXT_TABLE: Record<string, CodeLanguage> = {
  ts: 'ts', tsx: 'ts', mts: 'ts', cts: 'ts', js: 'ts', jsx: 'ts', mjs: 'ts', cjs: 'ts',
  py: 'python', pyi: 'python',
  sh: 'shell', bash: 'shell', zsh: 'shell', ksh: 'shell',
  rb: 'ruby',
  yml: 'yaml', yaml: 'yaml',
  toml: 'toml',
  tf: 'hcl', tfvars: 'hcl', hcl: 'hcl',
  go: 'go',
  rs: 'rust',
  java: 'java',
  kt: 'kotlin', kts: 'kotlin',
  c: 'c', h: 'c',
  cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp', hh: 'cpp', hxx: 'cpp',
  cs: 'csharp',
  swift: 'swift',
  scala: 'scala',
  php: 'php',
  sql: 'sql',
  lua: 'lua',
  css: 'css', scss: 'css', less: 'css',
  html: 'html', htm: 'html', vue: 'html', svelte: 'html', xml: 'html',
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
}

const C_LIKE: CommentSyntax = { line: ['//'], block: [['/*', '*/']], strings: ['"', "'", '`'] };

export const COMMENT_SYNTAX: Record<Exclude<CodeLanguage, 'ts'>, CommentSyntax> = {
  python: { line: ['#'], block: [], strings: ['"', "'"], docBlocks: ['"""', "'''"] },
  shell: { line: ['#'], block: [], strings: ['"', "'"] },
  ruby: { line: ['#'], block: [['=begin', '=end']], strings: ['"', "'"] },
  yaml: { line: ['#'], block: [], strings: ['"', "'"] },
  toml: { line: ['#'], block: [], strings: ['"', "'"] },
  // Terraform and HCL: `#` and `//` line comments, `/* */` blocks; strings in double quotes only
  hcl: { line: ['#', '//'], block: [['/*', '*/']], strings: ['"'] },
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
