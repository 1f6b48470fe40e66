// @spec SPEC-ARTIFACTS-001
// @spec SPEC-HOOK-001

import { parseDocument, type Document } from 'yaml';

/*
 * The one format-keeping YAML text editor (DEC-125). Record frontmatter (artifacts/write.ts)
 * and hook manager configurations (hooks/yaml-append.ts) are edited as text, so a person's
 * comments, indentation, quoting and line endings stay as written; both locate what they
 * change with the yaml package's node ranges, change whole lines here, and keep a text edit
 * only when it reads back as the data the edit meant (readsBackAs). What a new value looks
 * like stays with each caller: frontmatter writes flow lists and YAML 1.1-safe quoting, hook
 * entries are written as the manager's documentation writes them.
 */

/** Where the line holding `pos` starts; offsets are UTF-16 indices, like yaml's node ranges. */
export const lineStartAt = (s: string, pos: number): number => s.lastIndexOf('\n', pos - 1) + 1;

/** Where the line after the one holding `pos` starts (the text's end on its last line). */
export function nextLineStart(s: string, pos: number): number {
  const nl = s.indexOf('\n', pos);
  return nl < 0 ? s.length : nl + 1;
}

/** The indentation before `pos` when a node starts its line there (only whitespace before it); undefined otherwise. */
export function lineLead(s: string, pos: number): string | undefined {
  const lead = s.slice(lineStartAt(s, pos), pos);
  return /\S/.test(lead) ? undefined : lead;
}

/** Where a node's text ends: `end` moved back over trailing whitespace and newlines, never before `start`. */
export function textEnd(s: string, start: number, end: number): number {
  let at = end;
  while (at > start && /\s/.test(s[at - 1]!)) at--;
  return at;
}

/**
 * The line ending new lines get, so a CRLF file stays CRLF: a record's frontmatter follows
 * its first line (`first-line`), a hook configuration turns CRLF when any line is (`any-line`).
 */
export function eolOf(text: string, rule: 'first-line' | 'any-line'): '\r\n' | '\n' {
  if (rule === 'any-line') return text.includes('\r\n') ? '\r\n' : '\n';
  const nl = text.indexOf('\n');
  return nl > 0 && text[nl - 1] === '\r' ? '\r\n' : '\n';
}

/** `text` put in place of `s[from, to)`. */
export const splice = (s: string, from: number, to: number, text: string): string => s.slice(0, from) + text + s.slice(to);

/** `lines` inserted as lines of their own right after offset `at` (the end of a node's text), joined by `eol`. */
export function insertLinesAfter(s: string, at: number, lines: readonly string[], eol: string): string {
  return splice(s, at, at, `${eol}${lines.join(eol)}`);
}

/** Whole lines taken out: from `lineStart` (a line's start) through the end of the line holding `last`, its newline included. */
export function removeLines(s: string, lineStart: number, last: number): string {
  const nl = s.indexOf('\n', last);
  return s.slice(0, lineStart) + (nl < 0 ? '' : s.slice(nl + 1));
}

/** The indentation unit used by nested entries (2 spaces when there are none). */
export function indentUnit(yaml: string): string {
  const m = /^(?:[^\s#][^\n]*)\n((?: )+)[^\s#]/m.exec(yaml);
  return m ? m[1]! : '  ';
}

/** Whether the text writes a nested list's dashes deeper than its key (`hooks:` ⏎ `  - id:`); undefined when it has none. */
export function nestedSeqIndented(yaml: string): boolean | undefined {
  const lines = yaml.split(/\r?\n/);
  for (let i = 0; i + 1 < lines.length; i++) {
    const key = /^(\s*)(?:-\s+)?[\w.-]+:\s*$/.exec(lines[i]!);
    if (!key) continue;
    const keyCol = lines[i]!.search(/[\w.]/);
    const dash = /^(\s*)-\s/.exec(lines[i + 1]!);
    if (dash && keyCol > 0) return dash[1]!.length > keyCol;
  }
  return undefined;
}

/**
 * How deep the file nests inside its entries: the most common step from a nested `key:` line
 * to the deeper line under it (`hooks:` ⏎ `    - id:`). Top-level keys are left out, since
 * where a top-level list starts (`repos:` ⏎ `    - repo:`) is the placement `lead` keeps, not
 * the nesting; without nested keys, the file's indentation unit.
 */
export function nestingStep(orig: string): number {
  const lines = orig.split(/\r?\n/).filter((l) => l.trim() && !/^\s*#/.test(l));
  const counts = new Map<number, number>();
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!/^\s+(?:-\s+)?[\w.-]+:\s*$/.test(lines[i]!)) continue;
    const step = lines[i + 1]!.search(/\S/) - lines[i]!.search(/[\w.]/);
    if (step >= 2 && step <= 8) counts.set(step, (counts.get(step) ?? 0) + 1);
  }
  let best: number | undefined;
  for (const [step, n] of counts) if (best === undefined || n > counts.get(best)!) best = step;
  return best ?? Math.max(2, indentUnit(orig).length);
}

/**
 * The end of a key's region in a block mapping: its value's lines, without trailing blank
 * lines and without trailing comment lines indented at or left of the key (those introduce
 * the next key). `keyLineEnd` is where the key's line ends, `end` where the next key's begins.
 */
export function regionEnd(src: string, keyLineEnd: number, end: number, keyCol: number): number {
  let e = end;
  while (e > keyLineEnd) {
    const ls = lineStartAt(src, e - 1 >= 0 && src[e - 1] === '\n' ? e - 1 : e);
    const line = src.slice(ls, e).replace(/\r?\n$/, '');
    const trimmed = line.trimStart();
    const col = line.length - trimmed.length;
    if (trimmed === '' || (trimmed.startsWith('#') && col <= keyCol)) e = ls;
    else break;
  }
  return e;
}

/** The trailing comment on a line (with the whitespace before it), quote-aware: `a: "x # y"  # z` → `  # z`. */
export function trailingComment(line: string, from: number): string {
  let q: '"' | "'" | undefined;
  for (let i = from; i < line.length; i++) {
    const c = line[i];
    if (q === '"') {
      if (c === '\\') i++;
      else if (c === '"') q = undefined;
    } else if (q === "'") {
      if (c === "'") {
        if (line[i + 1] === "'") i++;
        else q = undefined;
      }
    } else if (c === '"' || c === "'") {
      // a quote only opens a scalar at its start, not inside a plain scalar like it's
      const prev = line[i - 1];
      if (prev === undefined || /[\s:[{,]/.test(prev)) q = c;
    } else if (c === '#' && (line[i - 1] === ' ' || line[i - 1] === '\t')) {
      let ws = i;
      while (ws > from && (line[ws - 1] === ' ' || line[ws - 1] === '\t')) ws--;
      return line.slice(ws).replace(/\r$/, '');
    }
  }
  return '';
}

export interface ReadBackOptions {
  /** how the caller reads its YAML (default: the yaml package's parseDocument) */
  parse?: (text: string) => Document;
  /** what a document without content stands for (default null; frontmatter reads it as {}) */
  empty?: unknown;
}

/**
 * Whether `text` parses without error and reads as `want`, key order included. A text edit
 * is kept only when it does: a layout the edit did not foresee then never reaches a file as
 * other data. What happens instead is the caller's (the hooks serialise the document, a
 * frontmatter write refuses).
 */
export function readsBackAs(text: string, want: unknown, opts: ReadBackOptions = {}): boolean {
  const doc = (opts.parse ?? ((t: string) => parseDocument(t)))(text);
  if (doc.errors.length) return false;
  const data: unknown = doc.toJS();
  return sameData(opts.empty === undefined ? data : (data ?? opts.empty), want);
}

/** The same data, as JSON says it (key order counts; a read-back keeps the order it was written in). */
export const sameData = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
