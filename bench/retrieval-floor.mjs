#!/usr/bin/env node
// The relevance floor's trade-off (DEC-057, DEC-068): every query of the retrieval dev sets is
// asked once through the library (results and the weak band, each with its relevance), then
// re-cut at each floor: off-topic questions and ungoverned files answered with nothing, against
// right answers (a right record in the top 5 without a floor) that leave the top 5.
//
// Usage: npm run build && node bench/retrieval.mjs --data bench/retrieval/<set>.json (once per
// set: it prepares the clones in .bench-work/retrieval/), then
//   node bench/retrieval-floor.mjs [--sets git-en-boite,dotcom-rendering,content-publisher] [--floors 0,0.15,0.17,0.21] [--list 0.17]
// --list F names, at floor F, each off-topic question answered and each right answer lost.
// Last, per set: questions with a right record in the top 3 of the answer as given.
// Exit: 0 done, 2 bad usage or a set whose clone is missing.
import './lib/help.mjs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { flagValue, isPlaceKind, preparedDevSet } from './retrieval/lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => flagValue(process.argv, name, fallback);
const sets = arg('--sets', 'git-en-boite,dotcom-rendering,content-publisher').split(',');
const floors = arg('--floors', '0,0.13,0.15,0.17,0.19,0.21,0.24,0.27,0.3').split(',').map(Number);
const list = arg('--list', undefined);
if (floors.some((f) => !(f >= 0 && f <= 1))) {
  console.error('bench/retrieval-floor.mjs: --floors takes numbers in [0, 1], comma-separated');
  process.exit(2);
}
const lib = await import(pathToFileURL(path.join(ROOT, 'dist/index.js')).href);
const place = isPlaceKind;
const group = (kind) => (kind === 'file' || kind === 'symbol' ? 'place' : kind === 'offtopic' || kind === 'ungoverned' ? kind : 'text');

const answers = {};
for (const name of sets) {
  const { data, cwd } = await preparedDevSet(ROOT, name, 'bench/retrieval-floor.mjs');
  const snapshot = await lib.openSnapshot({ cwd, rev: 'HEAD' });
  try {
    const set = await lib.loadArtifactSet(snapshot, await lib.loadConfig(snapshot));
    const base = { snapshot, set, index: await lib.buildCodeIndex(snapshot, set.config), semantic: lib.semanticLaneFor(snapshot.root, set) };
    answers[name] = [];
    for (const q of data.queries) {
      const r = place(q.kind) ? await lib.retrieveForPlace({ ...base, target: lib.parseTraceTarget(q.input, snapshot.root, cwd), place: q.input }) : await lib.retrieveForText({ ...base, text: q.input });
      // declared records are never floored; the fused band (answers and weak matches) best first
      const declared = r.results.filter((x) => x.slot === 'declared').map((x) => ({ file: x.file, relevance: 1 }));
      const fused = [...r.results.filter((x) => x.slot === 'fused'), ...r.weak].sort((a, b) => b.score - a.score).map((x) => ({ file: x.file, relevance: x.relevance }));
      answers[name].push({ q, declared, fused, shown: r.results.map((x) => x.file) });
    }
  } finally {
    snapshot.close();
  }
}

const top5 = (a, floor) => [...a.declared, ...a.fused.filter((x) => x.relevance >= floor - 1e-9)].slice(0, 5).map((x) => x.file);
const hit = (a, files) => files.some((f) => a.q.relevant.includes(f));
const count = (name, floor) => {
  const c = { offtopic: [0, 0], ungoverned: [0, 0], text: 0, place: 0 };
  for (const a of answers[name]) {
    const g = group(a.q.kind);
    const now = top5(a, floor);
    if (g === 'offtopic' || g === 'ungoverned') {
      c[g][1]++;
      if (!now.length) c[g][0]++;
    } else if (hit(a, top5(a, 0)) && !hit(a, now)) c[g]++;
  }
  return c;
};
const cell = (c) => `off ${c.offtopic.join('/')} lost ${c.text}+${c.place} ung ${c.ungoverned.join('/')}`;
console.log(`per floor and set: off-topic answered with nothing, right answers lost (questions+places), ungoverned files answered with nothing\n`);
console.log(['floor', ...sets, 'all'].map((s, i) => (i ? s.padEnd(30) : s.padEnd(6))).join(' '));
for (const f of floors) {
  const cs = sets.map((s) => count(s, f));
  const all = cs.reduce((t, c) => ({ offtopic: [t.offtopic[0] + c.offtopic[0], t.offtopic[1] + c.offtopic[1]], ungoverned: [t.ungoverned[0] + c.ungoverned[0], t.ungoverned[1] + c.ungoverned[1]], text: t.text + c.text, place: t.place + c.place }));
  console.log([f.toFixed(2).padEnd(6), ...cs.map((c) => cell(c).padEnd(30)), cell(all)].join(' '));
}
// issue 30's question goal is read in the top 3: per set, text queries (question, paraphrase,
// keyword) with a right record in the first 3 of the answer as given (the engine's floor, linked
// records included)
console.log(`\nquestions with a right record in the top 3 of the answer as given (its floor and linked records):`);
for (const name of sets) {
  const c = {};
  for (const a of answers[name]) {
    if (group(a.q.kind) !== 'text') continue;
    const k = (c[a.q.kind] ??= [0, 0]);
    k[1]++;
    if (hit(a, a.shown.slice(0, 3))) k[0]++;
  }
  console.log(`  ${name.padEnd(20)} ${Object.entries(c).map(([k, [h, n]]) => `${k} ${h}/${n}`).join('  ')}`);
}
if (list !== undefined) {
  const f = Number(list);
  console.log(`\nat ${f}:`);
  for (const name of sets) {
    for (const a of answers[name]) {
      const g = group(a.q.kind);
      const now = top5(a, f);
      if ((g === 'offtopic' || g === 'ungoverned') && now.length) console.log(`  ${name} ${a.q.id} answered: ${a.q.input} → ${now[0]} (${a.fused[0]?.relevance ?? 'declared'})`);
      if ((g === 'text' || g === 'place') && hit(a, top5(a, 0)) && !hit(a, now)) console.log(`  ${name} ${a.q.id} lost: ${a.q.input}`);
    }
  }
}
