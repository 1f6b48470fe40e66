import { describe, expect, it } from 'vitest';
import { closeMatches } from '../../src/util/close-match.js';

describe('closeMatches', () => {
  it('counts a swap of two neighbouring letters as one edit', () => {
    expect(closeMatches('ture', ['true', 'false'])).toEqual(['true']);
    expect(closeMatches('DEC-0012', ['DEC-0021', 'DEC-0102', 'SPEC-0012'])).toEqual(['DEC-0021', 'DEC-0102']);
  });

  it('keeps insertions, deletions and substitutions, and leading zeros', () => {
    expect(closeMatches('DEC-MONY', ['DEC-MONEY', 'DEC-MANY', 'SPEC-MONEY'])).toEqual(['DEC-MANY', 'DEC-MONEY']);
    expect(closeMatches('ADR-32', ['ADR-0032', 'ADR-0033'])).toEqual(['ADR-0032']);
    expect(closeMatches('unrelated', ['true', 'false'])).toEqual([]);
  });
});
