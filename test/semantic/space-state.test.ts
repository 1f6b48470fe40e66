import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DefaultEmbedder } from '../../src/semantic/embedder.js';
import { loadWordTable, wordTablePath } from '../../src/semantic/word-table.js';
import { WORD_MARKS } from '../../src/semantic/word-marks.js';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';

describe('warm-query shortcuts of the default embedder', () => {
  it('a word looked up in the word list (before the index exists) has the row the index gives', () => {
    const buf = readFileSync(wordTablePath());
    const words = buf.toString('utf8', 20, 20 + buf.readUInt32LE(16)).split('\n');
    // another spelling of the path: a fresh table, not the process-wide one, whose first
    // lookups search the word list
    const fresh = loadWordTable(`${path.dirname(wordTablePath())}/./${path.basename(wordTablePath())}`);
    const picks = [0, 1, 2, 17, 999, 12_345, words.length - 1];
    const scanned = picks.map((i) => fresh.row(words[i]!));
    expect(scanned).toEqual(picks);
    expect(fresh.row('qqqzzzxx')).toBeUndefined();
    expect(fresh.row('a\nb')).toBeUndefined();
    // and after many lookups (the index built) the same rows
    for (let i = 0; i < 100; i++) fresh.row(words[i * 7]!);
    expect(picks.map((i) => fresh.index.get(words[i]!))).toEqual(picks);
    expect(picks.map((i) => fresh.row(words[i]!))).toEqual(picks);
    // lookups far down the list first, then near the top (counted from remembered positions)
    const other = loadWordTable(`${path.dirname(wordTablePath())}/././${path.basename(wordTablePath())}`);
    const back = [words.length - 1, 30_000, 20_001, 1_024, 1_023, 512, 511, 0, 25_600, 3];
    expect(back.map((i) => other.row(words[i]!))).toEqual(back);
  });

  it('the shipped positions are those of the shipped word list; another list counts its own', () => {
    const buf = readFileSync(wordTablePath());
    const wordBytes = buf.readUInt32LE(16);
    const blob = '\n' + buf.toString('utf8', 20, 20 + wordBytes) + '\n';
    const marks = [0];
    let r = 0;
    for (let i = blob.indexOf('\n', 1); i !== -1; i = blob.indexOf('\n', i + 1)) if (++r % WORD_MARKS.every === 0) marks.push(i);
    const sha256 = createHash('sha256').update(buf.subarray(20, 20 + wordBytes)).digest('hex');
    // when the table is derived again, put these in src/semantic/word-marks.ts
    expect({ sha256, marks }, JSON.stringify({ sha256, marks })).toEqual({ sha256: WORD_MARKS.sha256, marks: [...WORD_MARKS.marks] });
    // a table whose 512th newline sits one place later (the 512th word one letter shorter, the
    // 511th one longer): the shipped positions do not hold for it, and its rows count its own
    const words = blob.slice(1, -1).split('\n');
    const other = Buffer.from(buf);
    const nl = 20 + WORD_MARKS.marks[1]! - 1; // blob position → byte (ASCII word list)
    expect(other[nl]).toBe(0x0a);
    [other[nl], other[nl + 1]] = [other[nl + 1]!, other[nl]!];
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'git-ctx-words-')), 'word-vectors.bin');
    writeFileSync(file, other);
    const t = loadWordTable(file);
    // a deep word first (the shipped positions would be considered), then one the moved line would miscount
    const picks = [30_000, 700, words.length - 1, 12_345, 3];
    expect(picks.map((i) => t.row(words[i]!))).toEqual(picks);
  });

  it('a row read alone is the row of the whole vector section', () => {
    const buf = readFileSync(wordTablePath());
    const count = buf.readUInt32LE(8);
    const dims = buf.readUInt32LE(12);
    const wordBytes = buf.readUInt32LE(16);
    const at = 20 + wordBytes + ((4 - ((20 + wordBytes) % 4)) % 4) + count * 8;
    const want = (r: number) => Array.from(new Int8Array(buf.buffer, buf.byteOffset + at + r * dims, dims));
    const fresh = loadWordTable(`${path.dirname(wordTablePath())}/.//${path.basename(wordTablePath())}`);
    // read one by one, then (past the limit) from the whole section, then the section itself
    const rows = Array.from({ length: 100 }, (_, i) => (i * 7919) % count);
    for (const r of rows) expect(Array.from(fresh.rowVector(r))).toEqual(want(r));
    expect(Array.from(fresh.vectors.subarray(5 * dims, 6 * dims))).toEqual(want(5));
    expect(fresh.vectors.length).toBe(count * dims);
    expect(Array.from(fresh.rank.subarray(0, 5))).toEqual(Array.from(new Uint32Array(buf.buffer.slice(buf.byteOffset + at - count * 8, buf.byteOffset + at - count * 8 + 20))));
  });

  it('a space rebuilt from its saved state scores exactly as the estimated one', async () => {
    const e = new DefaultEmbedder();
    const texts = Array.from({ length: 40 }, (_, i) => `record ${i} about invoices payments retries queues and emails number ${i % 7}`);
    const records = await e.embed(texts);
    const estimated = e.space(records);
    expect(estimated.state).toHaveLength(100);
    const restored = e.space(records, JSON.parse(JSON.stringify(estimated.state)) as number[]);
    const [q] = await e.embed(['how are letters to customers delivered']);
    const a = estimated.project(q!);
    const b = restored.project(q!);
    expect(Array.from(b)).toEqual(Array.from(a));
    expect(records.map((r) => restored.cosine(b, r))).toEqual(records.map((r) => estimated.cosine(a, r)));
    // too few records for a component: an empty state, restored as none
    const small = e.space(records.slice(0, 3));
    expect(small.state).toEqual([]);
    expect(Array.from(e.space(records.slice(0, 3), []).project(q!))).toEqual(Array.from(small.project(q!)));
  });
});
