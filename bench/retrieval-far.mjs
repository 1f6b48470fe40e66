#!/usr/bin/env node
// Everyday questions nobody asks a code base ("where can I adopt a puppy", "why is the sky
// blue"), and software questions off each dev set's domain ("How is the Terraform state locked
// during concurrent applies?"): the right answer to each, on every repository, is nothing. Each question is asked of
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

/**
 * Written for this bench too: software questions off every dev set's domain (a technology, a
 * practice or a product concern none of its records decides), each with the sets it is left out
 * of because a record there comes near enough to argue about.
 */
export const SOFTWARE = [
  ['How do we shard the database across several regions?', []],
  ['Which feature flag service toggles experiments for mobile users?', []],
  ['How are push notifications delivered to iOS devices?', []],
  ['How do we train the recommendation model on user history?', []],
  ['What is our on-call rotation and paging policy?', []],
  ['How are invoices generated and emailed to customers every month?', []],
  ['Which CDN caches static images and for how long?', ['dotcom-rendering']],
  ['How do we rotate TLS certificates on the load balancer?', []],
  ['How is personal data deleted when a user closes their account?', ['content-publisher']],
  ['Which A/B testing framework picks the winning variant?', []],
  ['How do we compress video uploads before storing them?', []],
  ['Which password hashing algorithm protects user accounts?', []],
  ['How are Kafka consumer offsets committed after processing a message?', []],
  ['How does the mobile app keep working offline and sync later?', []],
  ['Which GraphQL gateway joins the federated subgraphs?', []],
  ['How is the Elasticsearch index rebuilt after a schema change?', []],
  ['How are prices converted into local currencies with sales tax?', ['sylius']],
  ['What is the disaster recovery plan if the primary data centre fails?', []],
  ['How is the Terraform state locked during concurrent applies?', []],
  ['How do we detect fraudulent card payments?', ['sylius']],
  ['Which machine learning model ranks search results?', ['semantic-kernel']],
  ['How do we schedule nightly batch jobs with cron?', ['git-en-boite']],
  ['How are customer support tickets routed to the right team?', []],
  ['What accessibility standard must our colour contrast meet?', ['dotcom-rendering']],
];

const lib = await import(pathToFileURL(path.join(ROOT, 'dist/index.js')).href);
const rows = [];
let total = [0, 0, 0, 0, 0, 0];
const add = (acc, [ours, base]) => {
  acc[0] += ours;
  acc[1] += base;
};
for (const name of sets) {
  const { cwd } = await preparedDevSet(ROOT, name, 'bench/retrieval-far.mjs');
  const snapshot = await lib.openSnapshot({ cwd, rev: 'HEAD' });
  try {
    const set = await lib.loadArtifactSet(snapshot, await lib.loadConfig(snapshot));
    const semantic = lib.semanticLaneFor(snapshot.root, set);
    // the baseline reads the records' files as the dev-set bench does (whole text, frontmatter included)
    const files = [...new Set(set.artifacts.map((a) => a.file).filter(Boolean))];
    const bm25 = new Bm25(files.map((f) => ({ id: f, text: readFileSync(path.join(cwd, f), 'utf8') })));
    const ask = async (q) => {
      const r = await lib.retrieveForText({ snapshot, set, semantic, text: q });
      if (r.results.length && list) console.log(`${name}: "${q}" -> ${r.results[0].id} (relevance ${r.results[0].relevance}; ${r.results[0].why.map((w) => w.text).join('; ')})`);
      return [r.results.length ? 1 : 0, bm25Answer(bm25.search(tokenize(q))).length ? 1 : 0];
    };
    const everyday = [0, 0];
    for (const q of FAR) add(everyday, await ask(q));
    const software = [0, 0];
    const asked = SOFTWARE.filter(([, not]) => !not.includes(name)).map(([q]) => q);
    for (const q of asked) add(software, await ask(q));
    rows.push({ set: name, everyday: FAR.length, 'git-ctx answered': everyday[0], 'BM25 (floor) answered': everyday[1], software: asked.length, 'git-ctx answered ': software[0], 'BM25 (floor) answered ': software[1] });
    total = total.map((t, i) => t + [FAR.length, everyday[0], everyday[1], asked.length, software[0], software[1]][i]);
  } finally {
    snapshot.close();
  }
}
rows.push({ set: 'all', everyday: total[0], 'git-ctx answered': total[1], 'BM25 (floor) answered': total[2], software: total[3], 'git-ctx answered ': total[4], 'BM25 (floor) answered ': total[5] });
console.table(rows);
const head = execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
console.log(`git ${head}: everyday questions answered with nothing ${total[0] - total[1]}/${total[0]} (BM25 with its floor ${total[0] - total[2]}/${total[0]}); software questions off the domain ${total[3] - total[4]}/${total[3]} (BM25 with its floor ${total[3] - total[5]}/${total[3]})`);
