// @spec SPEC-RETRIEVE-001

import type { ArtifactSet } from '../artifacts/load.js';
import { isCodePath, type CodeWords } from './code-words.js';
import { titleWords, type Signal } from './signals.js';
import { splitWords, terms } from './text.js';

/**
 * The modules a file imports, as written (`dugite`, `@emotion/react`, `assertk.assertThat`,
 * `github.com/x/y`), in the import forms of the common languages: JavaScript and TypeScript,
 * Python, Java, Kotlin and Scala, Go, C#, Rust, PHP and Ruby. Relative imports are the
 * team's own files and are left out.
 */
export function importedModules(code: string): string[] {
  const out = new Set<string>();
  const add = (m: string | undefined) => {
    if (m && !m.startsWith('.') && !m.startsWith('/')) out.add(m);
  };
  for (const m of code.matchAll(/\bfrom\s+["']([^"'\n]+)["']|\bimport\s+["']([^"'\n]+)["']|\brequire(?:_relative)?\(?\s*["']([^"'\n]+)["']/g)) add(m[1] ?? m[2] ?? m[3]);
  for (const m of code.matchAll(/^[ \t]*(?:from\s+([\w.]+)\s+import\b|import\s+(?:static\s+)?([\w.]+)[ \t]*(?:;|$|as\s)|using\s+(?:static\s+)?([\w.]+)\s*;|(?:pub\s+)?use\s+([\w:\\]+)|extern\s+crate\s+(\w+))/gm)) add(m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5]);
  // Go's grouped imports: one quoted path per line inside `import ( … )`
  for (const g of code.matchAll(/^import\s*\(([^)]*)\)/gm)) for (const m of g[1]!.matchAll(/"([^"\n]+)"/g)) add(m[1]);
  return [...out];
}

/** The first part of a reversed domain (`com.google.truth`, `org.junit`): the vendor comes after it. */
const DOMAIN_ROOT = /^(?:com|org|net|io|dev|app|me|co|edu|gov|uk|de|fr|nl|ch|eu)$/;

/**
 * The words of the library a module names: its package, not the path inside it (`dugite`;
 * `@emotion/react` → emotion, react; `github.com/redis/go-redis/v9` → redis, go, redis;
 * `com.google.truth.Truth` → google, truth; `Predis\Client` → predis). A namespace's deeper
 * parts (`java.util.concurrent.atomic`) name what the code is about, and a title's common
 * words ("atomic") would meet them.
 */
export function libraryWords(mod: string): string[] {
  const parts = mod.split(/[/.:\\]+/).filter(Boolean);
  const first = parts[0] ?? '';
  let root: string[];
  if (first.startsWith('@')) root = [first.slice(1), parts[1] ?? ''];
  else if (/\.[a-z]{2,}$/.test(mod.split('/')[0] ?? '') && mod.includes('/')) root = mod.split('/').slice(1, 3);
  else if (DOMAIN_ROOT.test(first)) root = parts.slice(1, 3);
  else root = [first];
  return [...new Set(root.flatMap((p) => splitWords(p)))];
}

/** Per record set: each title word (signals.ts's titleWords: lower case, not stemmed) → the records whose title writes it. */
const titleWordIndexBySet = new WeakMap<ArtifactSet, Map<string, string[]>>();
function titleWordIndex(set: ArtifactSet): Map<string, string[]> {
  let idx = titleWordIndexBySet.get(set);
  if (!idx) {
    idx = new Map();
    for (const a of set.artifacts) for (const w of new Set(titleWords(set, a.id))) idx.set(w, [...(idx.get(w) ?? []), a.id]);
    titleWordIndexBySet.set(set, idx);
  }
  return idx;
}

/**
 * How strongly a record whose title names a library the file imports speaks of the file: half
 * of a title naming the file's type (TYPE_IN_TITLE 0.9), as a library is shared by many files
 * and a record on one part of its use may be the primary one. From 0.45 to 0.9 the development
 * sets rank alike (DEC-111).
 */
export const IMPORT_IN_TITLE = 0.45;
/** A library name much of the code imports or uses (`react` in a React site) tells no file apart. */
const MAX_CODE_SHARE = 0.1;

// @decision DEC-111
/**
 * Records whose title names a library the file imports ("Prefer dugite over raw git commands"
 * for a file that imports `dugite`, "Use Redis and Bull" for one that imports `ioredis`): a
 * record choosing a library governs the code that uses it. A word counts when it has three
 * letters or more, is no common English word, is used by few of the repository's code files,
 * and names no folder or file of the team's code (`ownWords`: its own namespaces and classes,
 * `Sylius\Bundle\...`, `Microsoft.SemanticKernel...`, are imported the same way).
 */
export async function importTitleSignals(set: ArtifactSet, code: string, cw: CodeWords | undefined, ownWords: () => Promise<ReadonlySet<string>>): Promise<Map<string, Signal>> {
  const out = new Map<string, Signal>();
  const idx = titleWordIndex(set);
  const rare = (w: string) => {
    if (!cw || cw.files < 20) return true;
    const [t] = terms(w);
    return t !== undefined && (cw.df[t] ?? 0) <= MAX_CODE_SHARE * cw.files;
  };
  const found: { w: string; mod: string; ids: string[] }[] = [];
  for (const mod of importedModules(code)) {
    for (const w of libraryWords(mod)) {
      const ids = w.length >= 3 ? idx.get(w) : undefined;
      if (ids && rare(w)) found.push({ w, mod, ids });
    }
  }
  if (!found.length) return out;
  const own = await ownWords();
  for (const { w, mod, ids } of found) {
    if (own.has(w)) continue;
    for (const id of ids) if (!out.has(id)) out.set(id, { score: IMPORT_IN_TITLE, why: { kind: 'mention', text: `its title names ${w}, a library the file imports (${mod})` } });
  }
  return out;
}

/** Per listing: every word of the paths of the tree's code (lower case): the team's own namespaces and class names, which are no library. */
const pathWordsByList = new WeakMap<object, Set<string>>();
export function codePathWords(list: readonly { path: string }[]): Set<string> {
  let words = pathWordsByList.get(list);
  if (!words) {
    words = new Set();
    const seen = new Set<string>();
    for (const e of list) {
      if (!isCodePath(e.path)) continue;
      for (const seg of e.path.split('/')) {
        if (seen.has(seg)) continue;
        seen.add(seg);
        for (const w of splitWords(seg.replace(/\.[A-Za-z0-9]+$/, ''))) words.add(w);
      }
    }
    pathWordsByList.set(list, words);
  }
  return words;
}
