/**
 * Escaping for text quoted from the repository into GitHub-flavoured markdown (PR comments,
 * job summaries). The repository is not trusted: a title can hold `@org/team` (a ping to
 * hundreds of people), `#123` (a cross-reference written into another issue's timeline),
 * raw HTML, `|` and newlines that break a table, or link syntax that hides a URL.
 */

const ZWJ = '\u200d';

/** Characters with a markdown meaning; a backslash makes each one literal (GFM: any ASCII punctuation may be escaped). */
const MD_SPECIAL = /[\\`*_{}[\]()#+\-.!|~>:]/g;

/** Break things GitHub turns into notifications or references: `@user`, `@org/team`, `#123`, `GH-123`. */
function defuse(s: string): string {
  return s
    .replace(/@(?=[A-Za-z0-9])/g, `@${ZWJ}`)
    .replace(/#(?=\d)/g, `#${ZWJ}`)
    .replace(/\b(GH)-(?=\d)/gi, `$1-${ZWJ}`);
}

/** Collapse newlines and control characters, so one value stays on one line of a table. */
function oneLine(s: string): string {
  // eslint-disable-next-line no-control-regex
  return visibleFormatChars(s.replace(/\r\n?|\n|\u2028|\u2029/g, ' ').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ''));
}

/**
 * Invisible format characters, shown as `<U+202E>`: bidirectional controls (U+202A–U+202E,
 * U+2066–U+2069, U+200E/U+200F, U+061C) can make a reviewer read a path or title in another
 * order than GitHub stores it ("Trojan Source"), and zero-width ones hide text. Applied
 * before the pings are defused, whose own zero-width joiner must stay.
 */
const FORMAT_CHARS = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;
export function visibleFormatChars(s: string): string {
  return s.replace(FORMAT_CHARS, (c) => `<U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}>`);
}

/**
 * Plain text from the repository as inline markdown: no HTML, no formatting, no pings,
 * no line breaks. Safe in table cells.
 */
export function escapeText(s: string): string {
  const t = oneLine(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(MD_SPECIAL, (c) => (c === '>' ? c : `\\${c}`));
  return defuse(t);
}

/**
 * A value (path, id, symbol) as an inline code span. Code spans never render HTML or
 * mentions; the fence grows past any backtick run inside, and `|` is escaped because GFM
 * splits table cells before it parses code spans.
 */
export function code(s: string): string {
  const t = oneLine(s);
  let longest = 0;
  for (const m of t.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = '`'.repeat(longest + 1);
  const pad = t.startsWith('`') || t.endsWith('`') || t === '' ? ' ' : '';
  return `${fence}${pad}${t.replace(/\|/g, '\\|')}${pad}${fence}`;
}

/** Shorten to at most `max` characters (counted in UTF-16 units, as GitHub's limit is), marking the cut. */
export function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  return s.slice(0, Math.max(0, max - 1)).replace(/[\ud800-\udbff]$/, '') + '…';
}

/** Text for workflow-command annotations: one line, bounded. @actions/core escapes `%`, CR, LF itself. */
export function annotationText(s: string, max = 500): string {
  return truncate(oneLine(s), max);
}
