import { createHash } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BlobIdSet } from '../../src/cache/blob-set.js';
import { CodeCache } from '../../src/cache/code-index.js';
import { tempDir } from '../helpers/git-repo.js';

const id = (n: number) => createHash('sha1').update(String(n)).digest('hex');

describe('BlobIdSet', () => {
  it('finds every stored id, and no other, without decoding the records', () => {
    const ids = Array.from({ length: 5000 }, (_, i) => id(i));
    const head = Buffer.from('header\n');
    const set = new BlobIdSet(Buffer.concat([head, ...ids.map((h) => Buffer.from(h, 'hex'))]), head.length);
    expect(set.count).toBe(5000);
    for (const h of ids) expect(set.has(h)).toBe(true);
    for (let i = 5000; i < 6000; i++) expect(set.has(id(i))).toBe(false);
    // same first four bytes, different rest: a probe collision, not a hit
    const twin = ids[7]!.slice(0, 8) + 'f'.repeat(32);
    expect(set.has(twin)).toBe(false);
    // not an id at all
    expect(set.has('XYZ')).toBe(false);
    expect(set.has(ids[0]!.toUpperCase())).toBe(false);
    expect(set.used.reduce((a, b) => a + b, 0)).toBe(5000);
    expect(set.record(3).toString('hex')).toBe(ids[3]);
  });

  it('an empty or ragged buffer is an empty set', () => {
    expect(new BlobIdSet(Buffer.alloc(0), 0).has(id(1))).toBe(false);
    expect(new BlobIdSet(Buffer.alloc(30), 0).count).toBe(1);
  });

  it('the code cache keeps used tag-free blobs first when it folds, and all of them below the bound', async () => {
    const dir = tempDir('git-ctx-blobset-');
    const file = path.join(dir, 'code-index.json');
    const a = await CodeCache.open(file, ['spec']);
    for (let i = 0; i < 3000; i++) a.addClean(id(i));
    // force a fold by having no base yet
    await a.save();
    const b = await CodeCache.open(file, ['spec']);
    for (let i = 0; i < 3000; i++) expect(b.isClean(id(i))).toBe(true);
    expect(b.isClean(id(3001))).toBe(false);
    b.addClean(id(3001));
    expect(b.isClean(id(3001))).toBe(true);
  });
});
