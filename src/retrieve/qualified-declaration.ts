// @spec SPEC-RETRIEVE-001

import type { Snapshot } from '../snapshot/types.js';
import { declarationInText, type TextDeclaration } from './text-declaration.js';

/** How much of a file a declaration is looked for in: the place queries' bound. */
const MAX_FILE_BYTES = 200_000;

/**
 * `declarationInText` for a name as people write it in `path#Symbol`: `Class.method` (or
 * `Class#method`) finds the class's block first, then the member inside it, so that the method
 * of one class is not taken for a same-named method of another in the file. A plain name is
 * looked up as it is. Undefined when a part is not declared where it should be.
 */
export function qualifiedDeclarationInText(text: string, name: string): TextDeclaration | undefined {
  const parts = name.split(/[.#]/);
  if (parts.length === 1 || parts.some((p) => !p)) return declarationInText(text, name);
  const lines = text.split('\n');
  let from = 0;
  let to = lines.length;
  let found: TextDeclaration | undefined;
  for (const part of parts) {
    const d = declarationInText(lines.slice(from, to).join('\n'), part);
    if (!d) return undefined;
    found = { name, line: d.line + from, endLine: d.endLine + from, docLine: d.docLine + from };
    // the next part is a member: it is declared after the outer header, inside its block
    from = found.line;
    to = found.endLine;
    if (to <= from && part !== parts.at(-1)) return undefined;
  }
  return found;
}

/**
 * Where a file's text declares `name` (`Class.method` too), for a language the code index does
 * not parse (Kotlin, PHP, C#, …) or a constant neither index lists: `trace` and `for` read
 * `path#Symbol` alike. Undefined for a missing or binary file.
 */
export async function declarationInFile(snapshot: Snapshot, path: string, name: string): Promise<TextDeclaration | undefined> {
  const buf = await snapshot.read(path);
  if (!buf || buf.subarray(0, 8000).includes(0)) return undefined;
  return qualifiedDeclarationInText(buf.subarray(0, MAX_FILE_BYTES).toString('utf8'), name);
}
