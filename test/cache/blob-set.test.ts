import { createHash } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BlobIdSet, SCAN_LOOKUPS } from '../../src/cache/blob-set.js';
import { CodeCache } from '../../src/code/code-cache.js';
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

  it('answers the same before the table is built (native search) and after, duplicates and straddling bytes included', () => {
    const ids = Array.from({ length: 200 }, (_, i) => id(i));
    // an id whose bytes appear across two records (the tail of one, the head of the next) but not as a record
    const straddle = ids[10]!.slice(20) + ids[11]!.slice(0, 20);
    const head = Buffer.from('header\n');
    const records = [...ids, ids[5]!].map((h) => Buffer.from(h, 'hex'));
    const ragged = Buffer.from(ids[150]!, 'hex').subarray(0, 12);
    const bytes = Buffer.concat([head, ...records, ragged]);
    const queries = [...ids.slice(0, 40), straddle, id(999), ids[5]!.toUpperCase(), 'not hex at all, forty characters long!!', ...ids.slice(40)];
    // one set answers every query from the start with the table, the other starts by searching
    const table = new BlobIdSet(bytes, head.length);
    for (let i = 0; i < SCAN_LOOKUPS; i++) table.has(id(100000 + i));
    const scanning = new BlobIdSet(bytes, head.length);
    for (const q of queries) expect(scanning.indexOf(q), q).toBe(table.indexOf(q));
    expect(scanning.indexOf(straddle)).toBe(-1);
    expect(scanning.indexOf(ids[5]!)).toBe(5);
    expect(scanning.count).toBe(201);
    const fresh = new BlobIdSet(bytes, head.length);
    expect(fresh.has(ids[150]!)).toBe(true);
    expect(fresh.has(straddle)).toBe(false);
    expect([...fresh.used.keys()].filter((i) => fresh.used[i])).toEqual([150]);
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
