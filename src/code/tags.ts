/**
 * Tag matching. Real code is full of near misses — `@special(true)` decorators, e-mail
 * addresses like `a@spec.com`, `@spec-ish` words — so a tag only counts with word
 * boundaries on both sides and whitespace (or a colon) before its first id.
 */

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The fast pre-filter over raw bytes: does the text mention any tag at all? Cheap and
 * permissive (it runs on every file); the exact matcher below decides.
 */
export function prefilterRegex(tags: string[]): RegExp {
  return new RegExp(`@(?:${tags.map(escapeRe).join('|')})\\b`);
}

/** Matches a tag where an annotation may start: `@spec SPEC-A`, `@spec: SPEC-A`. Group 1 is the tag. */
export function tagRegex(tags: string[]): RegExp {
  // not preceded by a word char, `@`, `.` or `$` (emails, `foo.@spec`, `$@spec`);
  // followed by optional colon then horizontal whitespace, so `@spec(`, `@spec.x`, `@spec-x` fail
  return new RegExp(`(?<![\\w@.$])@(${tags.map(escapeRe).join('|')})(?=:?[ \\t]+\\S)`, 'g');
}

/** One id: `DEC-BILLING-001`, `project/design/context-selection`, `spec.v2`. */
const ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.\-/]*$/;
/** Shapes an id may have: something beyond one plain lower-case word. */
const FIRST_ID_RE = /[-/_0-9]|^[A-Z]{2,}/;
/** Shapes that are clearly ids even without a comma: PREFIX-…, or path-like a/b. */
const STRONG_ID_RE = /^(?:[A-Z][A-Z0-9_]*(?:-[A-Za-z0-9_.]+)+|[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)+)$/;

/**
 * Parse the ids after a tag, up to the end of the line. The first word is always taken
 * (an unknown id is reported by check, not dropped here); later words are taken when a
 * comma separates them or when they are shaped like ids, so trailing prose
 * (`@spec SPEC-A keeps totals exact`) is not misread as more ids.
 */
export function parseIds(rest: string): string[] {
  const line = rest.split(/\r?\n/, 1)[0]!.replace(/\*\/.*$/, '').replace(/-->.*$/, '');
  const body = line.replace(/^:?\s+/, '');
  const ids: string[] = [];
  // tokens with the separator that came before each one
  const re = /(\s*,\s*|\s+)?([^\s,]+)/g;
  let m: RegExpExecArray | null;
  let first = true;
  while ((m = re.exec(body))) {
    const sep = m[1] ?? '';
    const raw = m[2]!.replace(/^[('"`[{]+/, '');
    // trailing sentence punctuation is not part of an id, and ends the list
    const tok = raw.replace(/[.;:)\]}'"`]+$/, '');
    if (!tok || !ID_RE.test(tok) || tok.length > 200) break;
    // the first id needs an id's shape too (a prefix, a path, a number), or `see @spec in
    // the docs` would read `in` as an id
    if (first ? FIRST_ID_RE.test(tok) : sep.includes(',') || STRONG_ID_RE.test(tok)) ids.push(tok);
    else break;
    first = false;
    if (tok !== raw) break;
  }
  return ids;
}

/** A tag occurrence in some text, with its offset. */
export interface TagMatch {
  tag: string;
  ids: string[];
  /** offset of `@` in the text */
  index: number;
}

/** Every well-formed tag in a piece of text (the caller decides whether it is in a comment). */
export function findTags(text: string, re: RegExp): TagMatch[] {
  const out: TagMatch[] = [];
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const tag = m[1]!;
    // a tag inside an inline code span (`@spec SPEC-A`) is an example in prose, not an
    // annotation: an odd number of backticks before it on its line means it is quoted
    const lineStart = text.lastIndexOf('\n', m.index - 1) + 1;
    let ticks = 0;
    for (let i = lineStart; i < m.index; i++) if (text.charCodeAt(i) === 96) ticks++;
    if (ticks % 2 === 1) continue;
    const ids = parseIds(text.slice(m.index + 1 + tag.length, m.index + 1 + tag.length + 2000));
    if (ids.length) out.push({ tag, ids, index: m.index });
  }
  return out;
}
