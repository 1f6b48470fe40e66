// @spec SPEC-RETRIEVE-001

import { declarationInText, type TextDeclaration } from './text-declaration.js';

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
