// @spec SPEC-SOURCES-001
//
// The code an ADR's own YAML frontmatter says it governs: `paths:` as a .contextia record
// writes it, or the team's own `codeRefs:` (HubEvolution/EvolutionHub), as a list or one
// comma-separated string. Apart from adr.ts, which reads the rest of the record. @decision DEC-137

import { normalizeRepoPath } from '../../util/paths.js';

/** Frontmatter keys that name the code a record governs: `paths`, and `codeRefs`/`code_refs`/`code-refs`. */
const PATH_KEYS = /^(?:paths|code[-_]?refs)$/i;

/** A value that names no path: a template's `N/A`, `none`, `-`, `TBD`. */
const NO_PATH = /^(?:n\/?a|none|-+|tbd|tbc|todo|\?+)$/i;

/** The frontmatter keys, in the order written, that name the record's code. */
export function pathKeys(data: Record<string, unknown>): string[] {
  return Object.keys(data).filter((k) => PATH_KEYS.test(k));
}

/**
 * One code reference as a repository path, or undefined when it names none: an address
 * (`https://…`), an absolute path (`/etc/x`, `C:\x`, `~/x`), a path climbing out (`../x`), a
 * placeholder (`N/A`). `./` is dropped; a remark around the path is too (`legacy: src/auth/**`,
 * `src/auth/** (legacy)`, `legacy migrations/**`: the one word that looks like a path).
 */
export function repoPathOf(raw: string): string | undefined {
  let v = raw.trim().replace(/^['"`]+|['"`]+$/g, '').trim();
  const bang = v.startsWith('!') ? '!' : '';
  v = v.slice(bang.length).trim();
  if (!v || NO_PATH.test(v) || /^[a-z][a-z+.-]*:\/\//i.test(v) || /^[a-z]:[\\/]/i.test(v)) return undefined;
  v = v.replace(/\s*\([^)]*\)\s*$/, '').replace(/^\p{L}[\p{L} -]{0,30}:\s+/u, '').trim();
  if (/\s/.test(v)) {
    const pathy = v.split(/\s+/).filter((w) => /[/*]|\.\w+$/.test(w));
    if (pathy.length === 1) v = pathy[0]!;
  }
  if (!v || /^[~/\\]/.test(v)) return undefined;
  const p = normalizeRepoPath(v);
  // '.' would cover the whole repository
  if (!p || p === '.' || p.split('/').includes('..') || NO_PATH.test(p)) return undefined;
  return bang + (v.endsWith('/') ? p + '/' : p);
}

/**
 * The repository paths a record's frontmatter names (`paths:`, `codeRefs:`, …), each value
 * apart, in written order, without repeats; what names no path is left out. `keyLines.paths`
 * becomes the first such key's line, where check points at an entry that matches no file.
 */
export function frontmatterPaths(data: Record<string, unknown>, keyLines?: Record<string, number>): string[] {
  const out: string[] = [];
  for (const key of pathKeys(data)) {
    if (keyLines && keyLines[key] !== undefined) keyLines.paths ??= keyLines[key];
    const v = data[key];
    const values = Array.isArray(v) ? v.map(String) : typeof v === 'string' ? v.split(',') : [];
    for (const value of values) {
      const p = repoPathOf(value);
      if (p && !out.includes(p)) out.push(p);
    }
  }
  return out;
}
