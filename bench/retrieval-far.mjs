#!/usr/bin/env node
// Everyday questions nobody asks a code base ("where can I adopt a puppy", "why is the sky
// blue"): the right answer to each, on every repository, is nothing. Each question is asked of
// each retrieval dev set's clone through the library (`git ctx search` as configured: the
// default embedder on), and beside it of the dev sets' BM25 baseline with its floor
// (bench/retrieval/lib.mjs, BM25_FLOOR) over the same records. A far question answered says
// which record and by which evidence. DEC-106 reads it.
//
// Usage: npm run build && node bench/retrieval.mjs --data bench/retrieval/<set>.json (once per
// set: it prepares the clones in .bench-work/retrieval/), then
//   node bench/retrieval-far.mjs [--sets goboot,git-en-boite,...] [--list]
// --list names each question answered. Exit: 0 done, 2 bad usage or a set whose clone is missing.
import './lib/help.mjs';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Bm25, bm25Answer, flagValue, preparedDevSet, tokenize } from './retrieval/lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEV = 'goboot,git-en-boite,dotcom-rendering,content-publisher,sylius,tendermint-rs,semantic-kernel,thunderbird-android';
const sets = flagValue(process.argv, '--sets', DEV).split(',').filter(Boolean);
const list = process.argv.includes('--list');

/** Written for this bench: questions of daily life, a few typed as keywords. */
export const FAR = [
  'who won the world cup in 2018',
  'what is the best pizza topping',
  'how do I bake sourdough bread',
  'what is the capital of France',
  'how to train for a marathon',
  'recommend a good science fiction novel',
  'what time does the pharmacy close on sunday',
  'how many calories are in an avocado',
  'who painted the mona lisa',
  'how do I fix a leaking kitchen tap',
  'what should I plant in my garden in spring',
  'how long should I boil an egg',
  'which football team has the most fans',
  'what is the weather like in Lisbon in May',
  'how do I learn to play the guitar',
  'where can I adopt a puppy',
  'what are good names for a cat',
  'how do airplanes stay in the air',
  'why is the sky blue',
  'what is the plot of hamlet',
  'how do I knit a scarf',
  'which wine goes with salmon',
  'how tall is mount everest',
  'what year did the berlin wall fall',
  'how do I get rid of hiccups',
];

const lib = await import(pathToFileURL(path.join(ROOT, 'dist/index.js')).href);
const rows = [];
let total = [0, 0, 0];
for (const name of sets) {
  const { cwd } = await preparedDevSet(ROOT, name, 'bench/retrieval-far.mjs');
  const snapshot = await lib.openSnapshot({ cwd, rev: 'HEAD' });
  try {
    const set = await lib.loadArtifactSet(snapshot, await lib.loadConfig(snapshot));
    const semantic = lib.semanticLaneFor(snapshot.root, set);
    // the baseline reads the records' files as the dev-set bench does (whole text, frontmatter included)
    const files = [...new Set(set.artifacts.map((a) => a.file).filter(Boolean))];
    const bm25 = new Bm25(files.map((f) => ({ id: f, text: readFileSync(path.join(cwd, f), 'utf8') })));
    let ours = 0;
    let base = 0;
    for (const q of FAR) {
      const r = await lib.retrieveForText({ snapshot, set, semantic, text: q });
      const b = bm25Answer(bm25.search(tokenize(q)));
      if (r.results.length) {
        ours++;
        if (list) console.log(`${name}: "${q}" -> ${r.results[0].id} (relevance ${r.results[0].relevance}; ${r.results[0].why.map((w) => w.text).join('; ')})`);
      }
      if (b.length) base++;
    }
    rows.push({ set: name, questions: FAR.length, 'git-ctx answered': ours, 'BM25 (floor) answered': base });
    total = [total[0] + FAR.length, total[1] + ours, total[2] + base];
  } finally {
    snapshot.close();
  }
}
rows.push({ set: 'all', questions: total[0], 'git-ctx answered': total[1], 'BM25 (floor) answered': total[2] });
console.table(rows);
console.log(`git ${execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()}: far questions answered with nothing ${total[0] - total[1]}/${total[0]} (BM25 with its floor ${total[0] - total[2]}/${total[0]})`);
