// @spec SPEC-RETRIEVE-001

import type { ArtifactSet } from '../artifacts/load.js';
import { extraOf } from '../artifacts/sources/extra.js';
import { isCodePath } from './code-words.js';
import type { Signal } from './signals.js';
import { keywordDeclarationLine } from './text-declaration.js';

/**
 * How strongly a record whose title writes a name as code (`` Use `Option<T>` to model optional
 * values ``, `` Decoupled Script Coordination via `Registrar` Interface ``) speaks of the code
 * file that declares that name, or is named after it: the name is the record's subject, as a
 * type's name in a title is (TYPE_IN_TITLE, signals.ts). Written as code, one word is a name,
 * where one word of prose is not (DEC-095); written as prose, "option" is in most files.
 */
const CODE_NAME_IN_TITLE = 0.9;

/** How far in a declaration may be: a type or a namespace (four spaces: in a C# namespace block), not a method deep in a class. */
const NEAR_START = 4;

const flat = (s: string) => s.replace(/[_-]/g, '').toLowerCase();

/**
 * Records whose title writes, as code, a name the code file at `path` declares near the
 * start of a line (a class, an interface, a type, a namespace, a function; not a method deep
 * in a class) or its file is named after (`option.ts`, `Registrar.java`, `base_project.py`).
 * A file that only uses the name gets nothing: `Option` is imported by hundreds.
 */
// @decision DEC-116
export function codeTitleSignals(set: ArtifactSet, path: string, code: string): Map<string, Signal> {
  const out = new Map<string, Signal>();
  if (!isCodePath(path)) return out;
  const base = path.slice(path.lastIndexOf('/') + 1);
  const own = flat(base.split('.')[0] ?? '');
  let lines: string[] | undefined;
  for (const a of set.artifacts) {
    const names = extraOf(a)?.tc;
    if (!names) continue;
    for (const name of names) {
      const named = own !== '' && flat(name) === own;
      if (!named && keywordDeclarationLine((lines ??= code.split('\n')), name, NEAR_START) < 0) continue;
      out.set(a.id, { score: CODE_NAME_IN_TITLE, why: { kind: 'mention', text: named ? `its title names ${name}, the name of ${base} (${a.file})` : `its title names ${name}, which ${base} declares (${a.file})` } });
      break;
    }
  }
  return out;
}
