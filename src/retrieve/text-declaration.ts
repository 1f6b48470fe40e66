// @spec SPEC-RETRIEVE-001

/** A declaration found by its line: 1-based lines, as the code index and the code graph give them. */
export interface TextDeclaration {
  name: string;
  line: number;
  endLine: number;
  docLine: number;
}

/** Modifiers that may come before a declaring keyword, in the languages the code graph reads. */
const MODIFIERS = String.raw`(?:(?:export|public|private|protected|internal|static|final|readonly|declare|abstract|pub(?:\([\w:]+\))?|unsafe|async|override|open|lateinit|const)\s+)*`;
const KEYWORDS = 'const|let|var|val|def|func|fn|class|struct|enum|interface|type|module|trait|object|record|static|final';

/**
 * Where a file declares `name` when neither the code index nor the code graph lists it: a
 * constant, a variable or a field (`TemplateSuffix = ".tmpl"` in a Go `const (…)` block,
 * `MAX_RETRIES = 3` in Python, `static final int TIMEOUT = 5;`, `export const limit = …`). The
 * first line that declares it by a keyword, else the first that assigns it at the start of a
 * line (not a comparison); that line only, its comments above being read as its doc by the
 * caller. Undefined when no line does, or when `name` is no identifier.
 */
export function declarationInText(text: string, name: string): TextDeclaration | undefined {
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return undefined;
  const id = name.replace(/\$/g, '\\$');
  const byKeyword = new RegExp(String.raw`^\s*${MODIFIERS}(?:${KEYWORDS})\s+(?:[\w$<>\[\],.*&?]+\s+)?${id}(?![\w$])`);
  // `NAME = …`, `NAME := …`, `NAME: int = …`, Go's `NAME Type = …`, Java/C#'s `int NAME = …;`
  const byAssignment = new RegExp(String.raw`^\s*(?:${MODIFIERS}[\w$<>\[\],.*&?]+\s+)?${id}\s*(?:[\w$.*\[\]]+\s*)?(?::\s*[^=\n]+?)?:?=(?!=)`);
  const lines = text.split('\n');
  const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
  let i = at(byKeyword);
  if (i < 0) i = at(byAssignment);
  if (i < 0) return undefined;
  return { name, line: i + 1, endLine: i + 1, docLine: i + 1 };
}
