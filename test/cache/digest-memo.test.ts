import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoLookup, memoRemember, memoSha256 } from '../../src/cache/digest-memo.js';
import { sha256 } from '../../src/util/hash.js';
import { tempDir } from '../helpers/git-repo.js';

const key = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `records/DEC-${i}.md\u0000100644\u0000${tag}${i}`).join('\n');

describe('memoSha256 (a long key remembered with its digest, DEC-041)', () => {
  it('gives sha256 of the key, from the memo or not, for the last four keys', () => {
    const file = path.join(tempDir('git-ctx-digest-'), 'artifacts.keys');
    const keys = ['a', 'b', 'c', 'd', 'e'].map((t) => key(400, t));
    for (const k of keys) expect(memoSha256(file, k)).toBe(sha256(k));
    // the memo answers the last four without hashing: shown by a memo whose digest was altered
    const bytes = readFileSync(file);
    const at = bytes.indexOf(Buffer.from(keys[4]!, 'utf8'));
    expect(at).toBeGreaterThan(0);
    const altered = Buffer.from(bytes);
    altered.write('0'.repeat(64), at - 64, 'latin1');
    writeFileSync(file, altered);
    expect(memoSha256(file, keys[4]!)).toBe('0'.repeat(64));
    writeFileSync(file, bytes);
    for (const k of keys.slice(1)) expect(memoSha256(file, k)).toBe(sha256(k));
    expect(readFileSync(file).indexOf(Buffer.from(keys[0]!, 'utf8'))).toBe(-1);
  });

  it('never answers for a key that differs, even by one byte of the same length', () => {
    const file = path.join(tempDir('git-ctx-digest-'), 'artifacts.keys');
    const k = key(300, 'x');
    memoSha256(file, k);
    const other = k.slice(0, -1) + 'y';
    expect(memoSha256(file, other)).toBe(sha256(other));
    expect(memoSha256(file, k + 'é')).toBe(sha256(k + 'é'));
  });

  it('treats a damaged or foreign memo as a miss, and replaces it', () => {
    const dir = tempDir('git-ctx-digest-');
    const file = path.join(dir, 'artifacts.keys');
    const k = key(50, 'z');
    for (const junk of [Buffer.from('not a memo'), Buffer.from('GCDM1\n\xff\xff\xff\xff', 'latin1'), Buffer.alloc(0)]) {
      writeFileSync(file, junk);
      expect(memoSha256(file, k)).toBe(sha256(k));
      expect(memoSha256(file, k)).toBe(sha256(k));
    }
    // a memo cut short in the middle of an entry
    const full = readFileSync(file);
    writeFileSync(file, full.subarray(0, full.length - 10));
    expect(memoSha256(file, k)).toBe(sha256(k));
    // no cache file (GIT_CTX_NO_CACHE=1): hashed each time
    expect(memoSha256(undefined, k)).toBe(sha256(k));
  });

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
