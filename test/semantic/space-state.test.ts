import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DefaultEmbedder } from '../../src/semantic/embedder.js';
import { loadWordTable, wordTablePath } from '../../src/semantic/word-table.js';

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
