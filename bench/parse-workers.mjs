#!/usr/bin/env node
// Benchmark: does a worker thread pay for the cold parse of a monorepo's annotated files?
// (issue 19 item 2; the answer is recorded in DEC-027.)
// Usage: npm run build && node bench/parse-workers.mjs --repo DIR [--runs 3] [--share 0.3]
//
// DIR is a repository from bench/lib/monorepo.mjs (`--files 100000` gives 2,000 annotated
// files). Each run is a fresh process, as a cold `check` is, alternating: the main thread
// parses every tagged TS file alone (what check does), then the main thread and one worker
// split them (the worker takes --share of the files, as it starts later: it loads the
// TypeScript compiler again). Prints wall and CPU time beside `node -e 0` of the same run.
import './lib/help.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ROOT, requireBuild } from './lib/common.mjs';

const i = process.argv.indexOf('--repo');
const repo = i > 0 ? path.resolve(process.argv[i + 1]) : undefined;
const num = (name, def) => {
  const k = process.argv.indexOf(name);
  return k > 0 ? Number(process.argv[k + 1]) : def;
};
const RUNS = num('--runs', 3);
const SHARE = num('--share', 0.3);
const EXTRACT = path.join(ROOT, 'dist/code/extract.js');
const TAGS = path.join(ROOT, 'dist/code/tags.js');
const TAG_LIST = ['spec', 'decision', 'norm', 'task', 'implements'];

if (process.argv[2] === '--child') {
  // one measured process: `--child seq|par DIR SHARE`
  const [, , , mode, dir, share] = process.argv;
  const { extractFile } = await import(EXTRACT);
  const { tagRegex } = await import(TAGS);
  const re = tagRegex(TAG_LIST);
  const list = execFileSync('git', ['grep', '-l', '-E', '@(spec|decision|norm|task|implements)', '--', '*.ts'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 26 }).trim().split('\n');
  const items = list.map((p) => ({ path: p, text: readFileSync(path.join(dir, p), 'utf8'), language: 'ts' }));
  const t0 = performance.now();
  if (mode === 'seq') {
    for (const it of items) await extractFile(it.path, it.text, it.language, re);
  } else {
    const cut = Math.round(items.length * (1 - Number(share)));
    const w = new Worker(new URL('./lib/parse-worker.mjs', import.meta.url), { workerData: { extract: EXTRACT, tags: TAGS, tagList: TAG_LIST } });
    const done = new Promise((r) => w.once('message', r));
    w.postMessage(items.slice(cut));
    for (const it of items.slice(0, cut)) await extractFile(it.path, it.text, it.language, re);
    await done;
    await w.terminate();
  }
  console.log(JSON.stringify({ files: items.length, ms: performance.now() - t0 }));
  process.exit(0);
}

requireBuild(EXTRACT.slice(ROOT.length + 1));
if (!repo) {
  console.error('usage: node bench/parse-workers.mjs --repo DIR  (generate DIR with node bench/lib/monorepo.mjs --files 100000 --out DIR)');
  process.exit(2);
}
const GNU_TIME = '/usr/bin/time';
function timed(argv) {
  const t0 = performance.now();
  const r = spawnSync(GNU_TIME, ['-f', '%U %S', process.execPath, ...argv], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const wall = performance.now() - t0;
  if (r.status !== 0) throw new Error(r.stderr);
  const [u, s] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  const out = r.stdout.trim() ? JSON.parse(r.stdout.trim().split('\n').pop()) : {};
  return { wall, cpu: (u + s) * 1000, ...out };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = { seq: [], par: [], base: [] };
for (let k = 0; k < RUNS; k++) {
  rows.seq.push(timed([process.argv[1], '--child', 'seq', repo, String(SHARE)]));
  rows.par.push(timed([process.argv[1], '--child', 'par', repo, String(SHARE)]));
  rows.base.push(timed(['-e', '0']));
}
const base = median(rows.base.map((r) => r.wall));
const show = (label, rs) => console.log(`${label.padEnd(40)} parse ${median(rs.map((r) => r.ms)).toFixed(0).padStart(6)} ms   process cpu ${median(rs.map((r) => r.cpu)).toFixed(0).padStart(6)} ms   node -e 0 ${base.toFixed(0)} ms`);
console.log(`${rows.seq[0].files} annotated TS files, ${RUNS} runs each, medians`);
show('main thread alone (what check does)', rows.seq);
show(`main + 1 worker (worker share ${SHARE})`, rows.par);
