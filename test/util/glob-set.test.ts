import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { globSetMatcher } from '../../src/util/glob.js';
import { languageOf } from '../../src/code/languages.js';

describe('globSetMatcher', () => {
  it('matches exactly what picomatch matches for the same list', () => {
    const patterns = ['node_modules/**', 'dist/**', 'vendor/**', '.contextia/**', 'src/**/*.gen.ts', '**/{a,b}/*.js', 'lib/[ab]x?.ts', '*.min.js'];
    const files = ['node_modules/x/y.js', 'src/a.ts', 'src/x/y.gen.ts', 'src/y.gen.ts', '.contextia/a.md', 'dist', 'dist/a', 'q/a/z.js', 'a/z.js', 'lib/axq.ts', 'lib/cxq.ts', 'x/.hidden/node_modules/a', 'vendor', 'a/vendor/b', 'app.min.js', 'web/app.min.js', 'ünï/cödé.ts'];
    const m = globSetMatcher(patterns);
    const ref = picomatch(patterns, { dot: true });
    for (const f of files) expect(m(f), f).toBe(ref(f));
    expect(globSetMatcher([])('anything')).toBe(false);
  });
});

describe('languageOf', () => {
  it('maps extensions and well-known names, and nothing from Object.prototype', () => {
    expect(languageOf('src/a.ts')).toBe('ts');
    expect(languageOf('src/A.TSX')).toBe('ts');
    expect(languageOf('deploy/Dockerfile')).toBe('shell');
    expect(languageOf('Makefile')).toBe('shell');
    expect(languageOf('src/constructor')).toBeUndefined();
    expect(languageOf('src/__proto__')).toBeUndefined();
    expect(languageOf('x.toString')).toBeUndefined();
    expect(languageOf('.bashrc')).toBeUndefined();
    expect(languageOf('dir.d/README')).toBeUndefined();
  });
});
