import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoLookup, memoRemember } from '../../src/cache/digest-memo.js';
import { tempDir } from '../helpers/git-repo.js';

describe('the digest memo', () => {
  it('remembers a digest under a short key (a clean listing token, DEC-042): exact keys only, the last four, nothing but 64 hex digits', () => {
    const file = path.join(tempDir('git-ctx-digest-'), 'artifacts.tokens');
    const d = (c: string) => c.repeat(64);
    expect(memoLookup(file, 'token a')).toBeUndefined();
    memoRemember(file, 'token a', d('a'));
    expect(memoLookup(file, 'token a')).toBe(d('a'));
    expect(memoLookup(file, 'token a ')).toBeUndefined();
    expect(memoLookup(file, 'token')).toBeUndefined();
    // a new digest for the same key replaces the old one
    memoRemember(file, 'token a', d('b'));
    expect(memoLookup(file, 'token a')).toBe(d('b'));
    for (const k of ['c', 'd', 'e', 'f']) memoRemember(file, `token ${k}`, d(k));
    expect(memoLookup(file, 'token a')).toBeUndefined();
    for (const k of ['c', 'd', 'e', 'f']) expect(memoLookup(file, `token ${k}`)).toBe(d(k));
    // not a digest: never remembered
    memoRemember(file, 'token g', 'not a digest');
    expect(memoLookup(file, 'token g')).toBeUndefined();
    // no cache file: nothing remembered, nothing found
    memoRemember(undefined, 'token h', d('1'));
    expect(memoLookup(undefined, 'token h')).toBeUndefined();
    // damaged: a miss
    writeFileSync(file, 'GCDM1\n\x00\x00');
    expect(memoLookup(file, 'token c')).toBeUndefined();
  });
});
