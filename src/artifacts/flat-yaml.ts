// @spec SPEC-ARTIFACTS-001

/**
 * A fast reader for the frontmatter shape nearly every record has: top-level `key: value`
 * lines whose values are single-line scalars (plain, or quoted without escapes), flow lists
 * of such scalars (`[a, b]`), block lists of them (`- a`), or one level of `key: value`
 * mapping (`links:` then `  specs: [SPEC-1]`). It gives exactly what js-yaml gives with the
 * read schema of parse.ts (failsafe plus implicit null and booleans): strings as written,
 * `null`/`~`/empty as null, `true`/`false` (three spellings each) as booleans.
 *
 * Anything it does not fully understand — a tab, a CR, a character outside plain printable
 * text, an indicator at the start of a scalar (`&`, `*`, `!`, `|`, `>`, `{`, `-`, `?`, `%`,
 * `@`, a backquote…), a `#` or a `: ` inside a value, a backslash in a quoted string, a
 * multi-line scalar, deeper nesting, a duplicate key, a key that js-yaml would resolve to
 * another string (`True`, `Null`) — returns undefined, and the caller parses the text with
 * js-yaml as before. So the shortcut can make a parse slower, never different (DEC-035;
 * test/artifacts/flat-yaml.test.ts compares both on every fixture and on generated text).
 */

/** A value this reader produced. */
type Value = string | boolean | null | Value[] | { [k: string]: Value };

const KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** characters plain YAML text may hold here: printable ASCII and BMP text above U+00A0 (no BOM, no line or paragraph separator, no surrogates) */
const UNSAFE_CHAR = /[^\n\x20-\x7E\u00A0-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD]/;
/** what a plain scalar may not start with here (YAML indicators, quotes, spaces) */
const BAD_FIRST = new Set('-?:,[]{}#&*!|>\'"%@` '.split(''));

/** js-yaml's implicit null and bool resolution of a plain scalar. */
function resolvePlain(s: string): string | boolean | null {
  switch (s) {
    case '':
    case '~':
    case 'null':
    case 'Null':
    case 'NULL':
      return null;
    case 'true':
    case 'True':
    case 'TRUE':
      return true;
    case 'false':
    case 'False':
    case 'FALSE':
      return false;
    default:
      return s;
  }
}

/**
 * One scalar filling the rest of a line in block context (after `key: ` or `- `); the
 * text is trimmed of spaces. Undefined when it is not a simple single-line scalar.
 */
function blockScalar(text: string): string | boolean | null | undefined {
  const c = text[0];
  if (c === undefined) return null;
  if (c === '"') {
    const end = text.indexOf('"', 1);
    if (end < 0 || end !== text.length - 1) return undefined;
    const inner = text.slice(1, end);
    return inner.includes('\\') ? undefined : inner;
  }
  if (c === "'") {
    // '' inside is one quote; the closing quote must end the text
    let i = 1;
    let out = '';
    for (;;) {
      const q = text.indexOf("'", i);
      if (q < 0) return undefined;
      out += text.slice(i, q);
      if (text[q + 1] === "'") {
        out += "'";
        i = q + 2;
        continue;
      }
      return q === text.length - 1 ? out : undefined;
    }
  }
  if (BAD_FIRST.has(c)) return undefined;
  // a comment, or a mapping indicator inside the value: not this reader's business
  if (text.includes('#') || text.includes(': ') || text.endsWith(':')) return undefined;
  return resolvePlain(text);
}

/** A flow list on one line: `[a, b, "c d"]`. Undefined when not a simple one. */
function flowList(text: string): Value[] | undefined {
  if (text[text.length - 1] !== ']') return undefined;
  const inner = text.slice(1, -1);
  const out: Value[] = [];
  if (isBlank(inner)) return out;
  for (const raw of inner.split(',')) {
    const item = trimSpaces(raw);
    if (!item) return undefined;
    const c = item[0]!;
    if (c === '"' || c === "'") {
      // quoted items only without a comma, quote or backslash inside
      if (item.length < 2 || item[item.length - 1] !== c) return undefined;
      const body = item.slice(1, -1);
      if (body.includes('"') || body.includes("'") || body.includes('\\')) return undefined;
      out.push(body);
      continue;
    }
    if (BAD_FIRST.has(c) || /[[\]{}#:"']/.test(item)) return undefined;
    out.push(resolvePlain(item));
  }
  return out;
}

/** The value after `key:` on its line (no nested block). */
function inlineValue(text: string): Value | undefined {
  return text[0] === '[' ? flowList(text) : blockScalar(text);
}

/** `key: rest` → [key, rest trimmed]; undefined when the line is not that. */
function keyLine(line: string): [string, string] | undefined {
  const colon = line.indexOf(':');
  if (colon <= 0) return undefined;
  const key = line.slice(0, colon);
  if (!KEY.test(key)) return undefined;
  // js-yaml resolves a key as a scalar: `True:` becomes "true", `Null:` "null"; __proto__ is special
  const lower = key.toLowerCase();
  if (lower === 'null' || lower === 'true' || lower === 'false' || key === '__proto__') return undefined;
  const after = line[colon + 1];
  if (after !== undefined && after !== ' ') return undefined;
  return [key, trimSpaces(line.slice(colon + 1))];
}

/** YAML trims only spaces (and tabs, refused here) around a scalar; String#trim would take U+00A0 and others too */
const trimSpaces = (s: string): string => {
  let a = 0;
  let b = s.length;
  while (s.charCodeAt(a) === 32) a++;
  while (b > a && s.charCodeAt(b - 1) === 32) b--;
  return s.slice(a, b);
};
const isBlank = (l: string): boolean => {
  for (let i = 0; i < l.length; i++) if (l.charCodeAt(i) !== 32) return false;
  return true;
};

const indentOf = (line: string): number => {
  let i = 0;
  while (line.charCodeAt(i) === 32) i++;
  return i;
};

/**
 * Parse `src` if it is in the flat shape described above; undefined otherwise (parse it with
 * js-yaml then). A result is a plain object, as js-yaml's is. `keyLines`, when given, gets
 * the 1-based line of each top-level key, as parse.ts's topLevelKeyLines would find them.
 */
export function parseFlatYaml(src: string, keyLines?: Record<string, number>): Record<string, Value> | undefined {
  if (UNSAFE_CHAR.test(src)) return undefined;
  const lines = src.split('\n');
  const out: Record<string, Value> = {};
  let any = false;
  let i = 0;
  const n = lines.length;
  const blank = isBlank;
  while (i < n) {
    const line = lines[i]!;
    if (blank(line) || line[0] === '#') {
      i++;
      continue;
    }
    // a document marker or directive, or anything indented where a key should be
    if (line[0] === ' ' || line.startsWith('---') || line.startsWith('...')) return undefined;
    const kv = keyLine(line);
    if (!kv) return undefined;
    const [key, rest] = kv;
    if (Object.prototype.hasOwnProperty.call(out, key)) return undefined;
    // (`in`, as topLevelKeyLines has it: a key named like an Object.prototype member gets no line)
    if (keyLines && !(key in keyLines)) keyLines[key] = i + 1;
    i++;
    // the lines that belong to this key: indented ones, or `- ` items at column 0
    let j = i;
    while (j < n && (blank(lines[j]!) || lines[j]![0] === ' ' || lines[j]!.startsWith('- ') || lines[j] === '-')) j++;
    // trailing blank lines belong to nobody
    let end = j;
    while (end > i && blank(lines[end - 1]!)) end--;
    const block = lines.slice(i, end);
    i = j;
    if (rest !== '') {
      // a value on the key's line: nothing may follow it (a continuation line, a comment line)
      if (block.length) return undefined;
      const v = inlineValue(rest);
      if (v === undefined) return undefined;
      out[key] = v;
      any = true;
      continue;
    }
    if (!block.length) {
      out[key] = null;
      any = true;
      continue;
    }
    const v = nestedBlock(block);
    if (v === undefined) return undefined;
    out[key] = v;
    any = true;
  }
  return any ? out : undefined;
}

/** The block under a key with an empty value: a list of `- scalar` or a mapping of `key: value`, one indent. */
function nestedBlock(block: string[]): Value | undefined {
  const first = block[0]!;
  if (isBlank(first)) return undefined;
  const indent = indentOf(first);
  const isItem = (l: string) => l.slice(indent, indent + 2) === '- ';
  if (isItem(first)) {
    const items: Value[] = [];
    for (const l of block) {
      if (isBlank(l) || indentOf(l) !== indent || !isItem(l)) return undefined;
      const v = blockScalar(trimSpaces(l.slice(indent + 2)));
      if (v === undefined) return undefined;
      items.push(v);
    }
    return items;
  }
  if (indent === 0) return undefined;
  const map: Record<string, Value> = {};
  for (const l of block) {
    if (isBlank(l) || indentOf(l) !== indent) return undefined;
    const kv = keyLine(l.slice(indent));
    if (!kv || kv[1] === '' || Object.prototype.hasOwnProperty.call(map, kv[0])) return undefined;
    const v = inlineValue(kv[1]);
    if (v === undefined) return undefined;
    map[kv[0]] = v;
  }
  return map;
}
