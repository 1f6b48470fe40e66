// @spec SPEC-RETRIEVE-001

import type { ChangedFile } from '../git/diff.js';
import { extractTreeSitterFacts, graphLanguageOf } from '../code/graph/index.js';
import type { Snapshot } from '../snapshot/types.js';

/*
 * What a change's hunks sit in, beyond git's hunk header and the code index (which knows
 * TS/JS declarations only). Git names a hunk by the last line before it that starts with a
 * letter: in Python that is the enclosing class or top-level function, never the method the
 * hunk is in (its `def` is indented), so the code graph's parser (tree-sitter) names the
 * declarations of a Python, Go, Java or Ruby file. In an INI or TOML settings file that line
 * is a key (`ignore = [`, `line-length=80`), never the section header (`[tool.mypy]`,
 * `[flake8]`, `[testenv:lint]`), which names the tool the settings are for, as a record
 * about that tool does.
 */

/** Settings files read as INI or TOML: by extension, or an extensionless dotfile (`.flake8`, `.pylintrc`, `.coveragerc`). */
const SETTINGS_FILE = /\.(?:toml|ini|cfg|conf)$|(?:^|\/)\.[a-z0-9]+(?:rc)?$/i;
/** `[section]`, `[[array.of.tables]]`, `[testenv:lint]`, with an optional trailing comment. */
const SECTION = /^\s*\[\[?\s*([^[\]\n#;=]+?)\s*\]\]?\s*(?:[#;].*)?$/;
/** Settings files larger than this are not read for their sections. */
const MAX_BYTES = 512 * 1024;
/** Sections kept per file. */
const MAX_SECTIONS = 20;

/** Whether a path is a settings file whose sections name what its changes are about. */
export const isSettingsFile = (path: string): boolean => SETTINGS_FILE.test(path) && !/\.(?:lock|json|ya?ml|md)$/i.test(path);

/** The sections of one settings file's text that a hunk starting at head line `start` (1-based) and spanning `count` lines sits in or changes. */
export function sectionsAt(lines: readonly string[], hunks: readonly { start: number; count: number }[]): string[] {
  // the section each line is in: the last header at or before it
  const out = new Set<string>();
  const headerAt: (string | undefined)[] = [];
  let current: string | undefined;
  for (const l of lines) {
    const m = SECTION.exec(l);
    if (m) current = m[1];
    headerAt.push(current);
  }
  for (const h of hunks) {
    // a pure deletion (count 0) sits after line `start`; otherwise its lines are start … start + count - 1
    const first = Math.max(1, h.start);
    const last = h.count > 0 ? h.start + h.count - 1 : h.start;
    for (let n = first; n <= Math.min(last, lines.length); n++) {
      const s = headerAt[n - 1];
      if (s) out.add(s);
    }
    if (out.size >= MAX_SECTIONS) break;
  }
  return [...out].slice(0, MAX_SECTIONS);
}

/** Files parsed for their declarations per change, at most (bounded time on a wide change). */
const MAX_PARSED = 40;

/** A hunk's head lines: start … start + count - 1, or the line a pure deletion follows. */
const spanOf = (h: { newStart: number; newLines: number }): [number, number] => [h.newStart, h.newLines > 0 ? h.newStart + h.newLines - 1 : h.newStart];

/**
 * Per changed head path, what its hunks sit in that git's hunk header and the code index do
 * not say: a settings file's sections; the declarations (`Class.method`) of a Python, Go,
 * Java, Ruby or Rust file, innermost and enclosing, read at head by the code graph's parser.
 */
export async function hunkSymbols(files: readonly ChangedFile[], head: Snapshot): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  let parsed = 0;
  for (const f of files) {
    if (f.status === 'deleted' || f.binary || !f.hunks.length) continue;
    const lang = graphLanguageOf(f.path);
    const settings = isSettingsFile(f.path);
    if (!settings && (!lang || lang === 'typescript' || parsed >= MAX_PARSED)) continue;
    const buf = await head.read(f.path).catch(() => undefined);
    if (!buf || buf.length > MAX_BYTES) continue;
    const text = buf.toString('utf8');
    const hunks = f.hunks.slice(0, 50);
    if (settings) {
      const sections = sectionsAt(text.split('\n'), hunks.map((h) => ({ start: h.newStart, count: h.newLines })));
      if (sections.length) out.set(f.path, sections);
      continue;
    }
    parsed++;
    const facts = await extractTreeSitterFacts(lang as Exclude<typeof lang, 'typescript' | undefined>, text).catch(() => undefined);
    const names = new Set<string>();
    for (const h of hunks) {
      const [s, e] = spanOf(h);
      for (const d of facts?.decls ?? []) if (d.line <= e && d.end >= s) names.add(d.name);
    }
    if (names.size) out.set(f.path, [...names].slice(0, MAX_SECTIONS));
  }
  return out;
}
