#!/usr/bin/env node
// What a place's answer rests on (issue 30 items 2 and 3, DEC-073): for each file and symbol
// query of the retrieval dev sets (governed and ungoverned), the first fused record with its
// relevance, the gap to the second, the lanes that found it (keywords, mention, nearness,
// semantic; declared records listed apart), and the words it matched: each word's share of the
// place query's weight, where the record says it (title/keywords/summary, decision,
// consequences, context, options, other, quoted) and how many records have it.
//
// Usage: npm run build && node bench/retrieval.mjs --data bench/retrieval/<set>.json (once per
// set: it prepares the clones in .bench-work/retrieval/), then
//   node bench/place-evidence.mjs [--sets git-en-boite,dotcom-rendering,content-publisher] [--kind ungoverned]
// Exit: 0 done, 2 a set whose clone is missing.
import './lib/help.mjs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { flagValue, preparedDevSet } from './retrieval/lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => flagValue(process.argv, name, fallback);
const sets = arg('--sets', 'git-en-boite,dotcom-rendering,content-publisher').split(',');
const only = arg('--kind', undefined);
const load = (p) => import(pathToFileURL(path.join(ROOT, 'dist', p)).href);
const lib = await load('index.js');
const { extractPlaceTerms, placeQuery } = await load('retrieve/extract.js');
const { codeWordsOf, distinctWords } = await load('retrieve/code-words.js');
const { recordParts } = await load('artifacts/sources/parts.js');
const { terms } = await load('retrieve/text.js');

for (const name of sets) {
  const { data, cwd } = await preparedDevSet(ROOT, name, 'bench/place-evidence.mjs');
  const snapshot = await lib.openSnapshot({ cwd, rev: 'HEAD' });
  try {
    const set = await lib.loadArtifactSet(snapshot, await lib.loadConfig(snapshot));
    const cw = await codeWordsOf(snapshot);
    // each record's terms → the parts that say them; each term → how many records have it
    const where = new Map();
    const df = new Map();
    for (const a of set.artifacts) {
      const m = new Map();
      const add = (text, kind) => {
        for (const t of terms(text ?? '')) (m.get(t) ?? m.set(t, new Set()).get(t)).add(kind);
      };
      add(`${a.title} ${a.keywords.join(' ')} ${a.summary ?? ''}`, 'title');
      for (const p of recordParts(a.body, /\.rst$/i.test(a.file))) add(p.text, p.kind);
      where.set(a.id, m);
      for (const t of m.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    }
    const base = { snapshot, set, index: await lib.buildCodeIndex(snapshot, set.config), semantic: lib.semanticLaneFor(snapshot.root, set) };
    console.log(`\n${name}: ${set.artifacts.length} records, ${cw?.files ?? 0} code files read`);
    for (const q of data.queries) {
      if (!['file', 'symbol', 'ungoverned'].includes(q.kind) || (only && q.kind !== only)) continue;
      const r = await lib.retrieveForPlace({ ...base, target: lib.parseTraceTarget(q.input, snapshot.root, cwd), place: q.input });
      const declared = r.results.filter((x) => x.slot === 'declared').map((x) => x.id);
      const fused = [...r.results.filter((x) => x.slot === 'fused'), ...(r.weak ?? [])].sort((a, b) => b.score - a.score);
      const file = q.input.replace(/[#:].*$/, '');
      const code = (await snapshot.readMany([file]))[0]?.toString('utf8') ?? '';
      const query = placeQuery(extractPlaceTerms(code, file), distinctWords(cw));
      const total = [...query.values()].reduce((x, y) => x + y, 0) || 1;
      const first = fused[0];
      const right = first ? (q.relevant.includes(first.file) ? 'right' : 'WRONG') : '-';
      const gap = first ? first.relevance - (fused[1]?.relevance ?? 0) : 0;
      console.log(`  ${q.kind.padEnd(10)} ${q.input}${declared.length ? `  declared: ${declared.join(', ')}` : ''}`);
      if (!first) continue;
      const lanes = [...new Set(first.why.map((w) => w.kind))].join('+');
      console.log(`    ${right} ${first.id} relevance ${first.relevance.toFixed(3)} (gap ${gap.toFixed(3)}, ${lanes}${r.results.some((x) => x.id === first.id) ? '' : ', weak'})`);
      // the explanation's words as written; a compound ("git-en-boite-core") shows each stem once
      const seen = new Set();
      const words = (first.why.find((w) => w.kind === 'keywords')?.terms ?? []).flatMap((form) => {
        const t = terms(form)[0] ?? form;
        if (seen.has(t)) return [];
        seen.add(t);
        const parts = [...(where.get(first.id)?.get(t) ?? [])].join('+');
        return [`${form} ${((query.get(t) ?? 0) / total).toFixed(3)} ${parts} r${df.get(t) ?? 0}`];
      });
      console.log(`    words: ${words.join(' | ')}`);
    }
  } finally {
    snapshot.close();
  }
}
