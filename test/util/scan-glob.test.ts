import { describe, expect, it } from 'vitest';
import { picomatch, scanGlob } from '../../src/util/picomatch.js';

describe('scanGlob (DEC-038)', () => {
  it("gives picomatch.scan's isGlob and base for every pattern, shortcuts included", () => {
    const pieces = ['a', 'bc', '/', '//', '*', '**', '?', '.', '..', '-', '_', ' ', 'é', '~', '#', '$', '%', '=', ',', ';', ':', "'", '"', '^', 'x.ts'];
    const rare = ['[', ']', '{', '}', '(', ')', '!', '+', '@', '\\', './', '/'];
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    const patterns = ['packages/index-016/src/api/**', 'src/*.ts', '**', '*', 'a/b?c/d', 'a/**/b', './src/*', 'src/', 'src/**/', '/abs/*', 'a//b/*', 'a/b*/c', '?', 'a/?/b', 'a/b/c*', 'src/{a,b}/*', 'src/[ab]/*', '!src/*', 'src/@(a|b)/*', 'a\\*b/*'];
    for (let i = 0; i < 20_000; i++) {
      let p = '';
      const n = 1 + Math.floor(rand() * 8);
      for (let k = 0; k < n; k++) p += rand() < 0.1 ? rare[Math.floor(rand() * rare.length)] : pieces[Math.floor(rand() * pieces.length)];
      patterns.push(p);
    }
    let shortcut = 0;
    for (const p of patterns) {
      const r = picomatch.scan(p);
      const s = scanGlob(p);
      expect({ p, isGlob: s.isGlob, base: s.isGlob ? s.base : p }).toEqual({ p, isGlob: r.isGlob, base: r.isGlob ? r.base : p });
      if (/[*?]/.test(p) && !/^[./]/.test(p) && !/[[\]{}()!+@\\]/.test(p)) shortcut++;
    }
    // the shortcut was exercised, not only the fallback
    expect(shortcut).toBeGreaterThan(5000);
  });
});
