import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { gitBlobHash, randomHex, sha1, sha256 } from '../../src/util/hash.js';
import { seeded } from '../helpers/seeded.js';

const ref = (alg: string, ...parts: (string | Uint8Array)[]) => {
  const h = createHash(alg);
  for (const p of parts) h.update(p);
  return h.digest('hex');
};

describe('digests (src/util/hash.ts)', () => {
  it('equal node:crypto at every length around the block boundaries and the threshold', () => {
    const rand = seeded(7);
    const lengths = [...Array.from({ length: 200 }, (_, i) => i), 4095, 4096, 4097, 9000];
    for (const n of lengths) {
      const bytes = Uint8Array.from({ length: n }, () => Math.floor(rand() * 256));
      expect(sha256(bytes), `sha256 of ${n} bytes`).toBe(ref('sha256', bytes));
      expect(sha1(bytes), `sha1 of ${n} bytes`).toBe(ref('sha1', bytes));
      expect(gitBlobHash(bytes), `blob of ${n} bytes`).toBe(ref('sha1', `blob ${n}\0`, bytes));
    }
  });

  it('hash strings as UTF-8, and several parts as one message', () => {
    for (const s of ['', 'a', 'é', '日本語のパス/ファイル.md', '\u{1F600} emoji', 'x'.repeat(5000) + 'ü']) {
      expect(sha256(s)).toBe(ref('sha256', s));
      expect(sha1(s)).toBe(ref('sha1', s));
    }
    expect(sha256('ab', Buffer.from('cd'), 'é')).toBe(ref('sha256', 'abcdé'));
    expect(sha1('git-ctx/', 'key')).toBe(ref('sha1', 'git-ctx/key'));
    // a git blob id, as `git hash-object` gives it for "hello\n"
    expect(gitBlobHash(Buffer.from('hello\n'))).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });

  it('randomHex gives the number of bytes asked for, and different names each time', () => {
    const seen = new Set(Array.from({ length: 1000 }, () => randomHex(6)));
    expect(seen.size).toBe(1000);
    for (const s of seen) expect(s).toMatch(/^[0-9a-f]{12}$/);
    expect(randomHex(0)).toBe('');
  });
});
