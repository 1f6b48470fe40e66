// @spec SPEC-RETRIEVE-001

/** A declaration found by its line: 1-based lines, as the code index and the code graph give them. */
export interface TextDeclaration {
  name: string;
  line: number;
  endLine: number;
  docLine: number;
}

/** Modifiers that may come before a declaring keyword, in the languages the code graph reads. */
const MODIFIERS = String.raw`(?:(?:export|default|public|private|protected|internal|static|final|readonly|declare|abstract|sealed|data|partial|pub(?:\([\w:]+\))?|unsafe|async|override|open|lateinit|const)\s+)*`;
const KEYWORDS = 'const|let|var|val|def|func|fn|fun|function|class|struct|enum|interface|type|namespace|module|trait|object|record|protocol|static|final';

/**
 * The 0-based line of `lines` that declares `name` by a keyword (`class Name`, `type Name
 * interface`, `export namespace Name`, `static final int NAME`), indented `indent` columns at
 * most; -1 when none does or `name` is no identifier.
 */
export function keywordDeclarationLine(lines: readonly string[], name: string, indent = Infinity): number {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return -1;
  const lead = Number.isFinite(indent) ? `[ \\t]{0,${indent}}` : String.raw`\s*`;
  const re = new RegExp(String.raw`^${lead}${MODIFIERS}(?:${KEYWORDS})\s+(?:[\w$<>\[\],.*&?]+\s+)?${name.replace(/\$/g, '\\$')}(?![\w$])`);
  return lines.findIndex((l) => re.test(l));
}

/** A line without its string literals and its `//` comment: what braces and semicolons are read on. */
const codeOf = (line: string): string => line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""').replace(/\/\/.*$/, '');
const count = (s: string, c: string): number => s.split(c).length - 1;
/** The longest body followed: a file past this is not one declaration. */
const MAX_BODY_LINES = 2000;

/**
 * Where a file declares `name` when neither the code index nor the code graph lists it: a
 * constant, a variable or a field (`TemplateSuffix = ".tmpl"` in a Go `const (…)` block,
 * `MAX_RETRIES = 3` in Python, `static final int TIMEOUT = 5;`, `export const limit = …`). The
 * first line that declares it by a keyword, else the first that assigns it at the start of a
 * line (not a comparison); that line only, its comments above being read as its doc by the
 * caller. A method or a class the code graph cannot parse (PHP's `public function process(…)`,
 * Kotlin's `fun`) runs to the brace closing the block its header opens — on the header's last
 * line or alone on the next, as PSR-12 places it — so that `path#Symbol` reads the symbol's
 * code, not its one line. Undefined when no line does, or when `name` is no identifier.
 */
export function declarationInText(text: string, name: string): TextDeclaration | undefined {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return undefined;
  const id = name.replace(/\$/g, '\\$');
  // `NAME = …`, `NAME := …`, `NAME: int = …`, Go's `NAME Type = …`, Java/C#'s `int NAME = …;`
  const byAssignment = new RegExp(String.raw`^\s*(?:${MODIFIERS}[\w$<>\[\],.*&?]+\s+)?${id}\s*(?:[\w$.*\[\]]+\s*)?(?::\s*[^=\n]+?)?:?=(?!=)`);
  const lines = text.split('\n');
  const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
  let i = keywordDeclarationLine(lines, name);
  if (i < 0) i = at(byAssignment);
  if (i < 0) return undefined;
  return { name, line: i + 1, endLine: blockEnd(lines, i) + 1, docLine: i + 1 };
}

/**
 * The 0-based last line of the block a declaration at `start` opens: its header runs until its
 * parentheses balance; a `{` on that line, or alone at the start of the next, opens the block;
 * a `;` or anything else first means no block (a field, a Python `def …:`, a Go constant), and
 * the declaration is its line. Braces in strings and `//` comments are not counted.
 */
function blockEnd(lines: readonly string[], start: number): number {
  let parens = 0;
  let open = -1;
  for (let j = start; j < lines.length && j < start + 20; j++) {
    const c = codeOf(lines[j]!);
    const brace = c.indexOf('{');
    const semi = c.indexOf(';');
    if (brace >= 0 && (semi < 0 || brace < semi)) {
      open = j;
      break;
    }
    if (semi >= 0) return start;
    parens += count(c, '(') - count(c, ')');
    if (parens > 0) continue;
    if (/^\s*\{/.test(codeOf(lines[j + 1] ?? ''))) open = j + 1;
    break;
  }
  if (open < 0) return start;
  let depth = 0;
  for (let j = open; j < lines.length && j < open + MAX_BODY_LINES; j++) {
    const c = codeOf(lines[j]!);
    depth += count(c, '{') - count(c, '}');
    if (depth <= 0) return j;
  }
  return start;
}
