import { createRequire } from 'node:module';
import type PicomatchT from 'picomatch';

/**
 * picomatch, loaded with require: importing a CommonJS package from ESM first runs a lexer
 * over it to find its named exports (~20 ms here, against ~6 ms for require), and the hook
 * pays every millisecond of start-up. The Action bundle turns this into a bundled require.
 */
export const picomatch = createRequire(import.meta.url)('picomatch') as typeof PicomatchT;

/** Characters without which picomatch.scan sees no glob (a plain path is its own base). */
const GLOB_CHARS = /[*?[\]{}()!+@\\]/;
/** Globs whose only special characters are `*` and `?`, not starting with `.` or `/` (no prefix for scan to strip). */
const STARS_ONLY = /^(?![./])[^[\]{}()!+@\\]*$/;
const scans = new Map<string, { isGlob: boolean; base: string }>();

/**
 * picomatch.scan's `isGlob` and `base`, remembered per pattern, with plain paths answered
 * without a scan: `paths:` entries are scanned for every place asked about and every record,
 * and picomatch.scan builds a token object each time (DEC-038).
 */
export function scanGlob(pattern: string): { readonly isGlob: boolean; readonly base: string } {
  let s = scans.get(pattern);
  if (!s) {
    if (!GLOB_CHARS.test(pattern)) s = { isGlob: false, base: pattern };
    else if (STARS_ONLY.test(pattern)) {
      // `*` and `?` only (`packages/x/src/**`, `src/*.ts`): the base is what precedes the
      // last '/' before the first of them, as picomatch.scan says (test/util/scan-glob.test.ts)
      const first = pattern.search(/[*?]/);
      const slash = pattern.lastIndexOf('/', first);
      s = { isGlob: true, base: slash > 0 ? pattern.slice(0, slash) : '' };
    } else {
      const r = picomatch.scan(pattern);
      s = { isGlob: r.isGlob, base: r.base };
    }
    if (scans.size > 10_000) scans.clear();
    scans.set(pattern, s);
  }
  return s;
}
