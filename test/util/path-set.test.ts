import { describe, expect, it } from 'vitest';
import { compilePaths, entryCovers } from '../../src/util/path-set.js';

describe('compilePaths', () => {
  it('treats ! entries as exclusions, never as "everything"', () => {
    const s = compilePaths(['src/billing/**', '!src/billing/gen/**']);
    expect(s.covers('src/billing/invoice.ts')).toBe(true);
    expect(s.covers('src/billing/gen/types.ts')).toBe(false);
    expect(s.covers('README.md')).toBe(false);
    expect(s.coveringEntry('src/billing/invoice.ts')).toBe('src/billing/**');
    expect(s.coveringEntry('src/billing/gen/types.ts')).toBeUndefined();
    expect(s.excludes).toEqual(['src/billing/gen/**']);
  });
  it('a list of exclusions only covers nothing', () => {
    const s = compilePaths(['!src/gen/**']);
    expect(s.covers('src/a.ts')).toBe(false);
    expect(s.covers('src/gen/a.ts')).toBe(false);
  });
  it('entries are files, directories (slash or not) or globs', () => {
    expect(entryCovers('src/api', 'src/api/x.ts')).toBe(true);
    expect(entryCovers('src/api/', 'src/api/x.ts')).toBe(true);
    expect(entryCovers('src/api', 'src/apix/x.ts')).toBe(false);
    expect(entryCovers('./src/a.ts', 'src/a.ts')).toBe(true);
    expect(entryCovers('src/**/*.ts', 'src/a/b.ts')).toBe(true);
    expect(entryCovers('.', 'anything/at/all')).toBe(true);
  });
});
