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
const scans = new Map<string, { isGlob: boolean; base: string }>();

/**
 * picomatch.scan's `isGlob` and `base`, remembered per pattern, with plain paths answered
 * without a scan: `paths:` entries are scanned for every place asked about and every record,
 * and picomatch.scan builds a token object each time (DEC-038).
 */
export function scanGlob(pattern: string): { readonly isGlob: boolean; readonly base: string } {
  let s = scans.get(pattern);
  if (!s) {
    if (GLOB_CHARS.test(pattern)) {
      const r = picomatch.scan(pattern);
      s = { isGlob: r.isGlob, base: r.base };
    } else s = { isGlob: false, base: pattern };
    if (scans.size > 10_000) scans.clear();
    scans.set(pattern, s);
  }
  return s;
}
