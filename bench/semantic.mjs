#!/usr/bin/env node
// Benchmark of the semantic slot's default embedder on a generated repository of 5,000
// records. Run after `npm run build`:  node bench/semantic.mjs [--records 5000] [--runs 7] [--keep]
// Prints, beside `node -e 0` measured in the same run:
//   - embedding every record with the default embedder (in-process: word table load + embed + cache write)
//   - `git ctx vectors embed` wall time (cold: no vectors cached)
//   - a warm semantic query (vectors cached), after start-up: the semantic lane alone in a fresh
//     process (its first query: word table, vector file, cosine; the target), the slot's time as
//     `git ctx search --json` reports it (which also counts waiting for the keyword lane it runs
//     beside on the same thread), and the whole command's wall time
//   - the vectors file's size
// Targets (issue 17): embedding 5,000 records < 5 s; warm semantic query < 50 ms; file < 10 MB.
import './lib/help.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BIN, KEEP, ROOT, arg, requireBuild, seeded } from './lib/common.mjs';

requireBuild('dist/semantic/lane.js');
const N = arg('--records', 5000);
const RUNS = arg('--runs', 7);

// deterministic PRNG (mulberry32)
const { rand, pick } = seeded(17);
const WORDS = (
  'invoice currency rate ledger payment refund customer order tax rounding retry queue event schema migration cache index audit report export ' +
  'import webhook token session account balance settlement dispute fee discount coupon subscription plan trial usage meter quota limit region ' +
  'locale server client request response timeout failure backoff database table column query transaction lock replica shard backup restore ' +
  'deploy release version build test review security password secret key certificate encryption storage bucket upload image resize thumbnail ' +
  'email notification message delivery worker schedule cron job batch stream log metric trace alert dashboard latency throughput memory cpu ' +
  'we use keep store send reject accept fail retry prefer avoid require allow never always because when after before each every the a of to in'
).split(' ');
const sentence = () => {
  const n = 8 + Math.floor(rand() * 14);
  return Array.from({ length: n }, () => pick(WORDS)).join(' ') + '.';
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const wall = (cmd, args, cwd) => {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 1 << 26 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout };
};

const dir = mkdtempSync(path.join(os.tmpdir(), 'git-ctx-bench-semantic-'));
try {
  const recDir = path.join(dir, '.contextia/system/rationale');
  mkdirSync(recDir, { recursive: true });
  for (let i = 0; i < N; i++) {
    const id = `DEC-${String(i).padStart(5, '0')}`;
    const title = sentence().slice(0, 60).replace(/[.:"]/g, '');
    writeFileSync(path.join(recDir, `${id}.md`), `---\nid: ${id}\ntype: decision\ntitle: "${title}"\nstatus: accepted\nsummary: "${sentence()}"\n---\n\n# ${title}\n\n${sentence()} ${sentence()}\n\n${sentence()} ${sentence()} ${sentence()}\n`);
  }
  const git = (...a) => execFileSync('git', a, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.com', '-c', 'commit.gpgsign=false', 'commit', '-qm', 'records');

  const nodeStart = median(Array.from({ length: RUNS }, () => wall(process.execPath, ['-e', '0'], dir).ms));

  // in-process: load the set, then time the embedder on every record (no cache)
  const lib = await import(pathToFileURL(path.join(ROOT, 'dist/index.js')).href);
  const { DefaultEmbedder } = await import(pathToFileURL(path.join(ROOT, 'dist/semantic/embedder.js')).href);
  const { recordText } = await import(pathToFileURL(path.join(ROOT, 'dist/semantic/vectors.js')).href);
  const snapshot = await lib.openSnapshot({ cwd: dir, rev: 'HEAD' });
  const set = await lib.loadArtifactSet(snapshot, await lib.loadConfig(snapshot));
  snapshot.close();
  const texts = set.artifacts.map(recordText);
  const t0 = performance.now();
  const e = new DefaultEmbedder();
  await e.embed(texts);
  const inProcess = performance.now() - t0;

  const embedCli = wall(process.execPath, [BIN, 'vectors', 'embed', '--json'], dir);
  const embedded = JSON.parse(embedCli.stdout);
  const file = embedded.file;
  const size = statSync(file).size;

  const q = ['search', 'how', 'do', 'we', 'stop', 'a', 'retried', 'payment', 'from', 'charging', 'twice', '--json'];
  wall(process.execPath, [BIN, ...q], dir); // warm-up (config and keyword caches)
  const runs = Array.from({ length: RUNS }, () => {
    const r = wall(process.execPath, [BIN, ...q], dir);
    const j = JSON.parse(r.stdout);
    if (j.slots.semantic.status !== 'ok') throw new Error(`semantic slot: ${JSON.stringify(j.slots.semantic)}`);
    return { ms: r.ms, slot: j.slots.semantic.ms };
  });
  const offRuns = Array.from({ length: RUNS }, () => wall(process.execPath, [BIN, ...q], dir).ms);
  // the lane alone, in a fresh process after start-up and loading the records
  const probe = path.join(dir, 'lane-probe.mjs');
  writeFileSync(
    probe,
    `const lib = await import(${JSON.stringify(pathToFileURL(path.join(ROOT, 'dist/index.js')).href)});
const { semanticLaneFor } = await import(${JSON.stringify(pathToFileURL(path.join(ROOT, 'dist/semantic/lane.js')).href)});
const snapshot = await lib.openSnapshot({ cwd: process.cwd(), rev: 'HEAD' });
const set = await lib.loadArtifactSet(snapshot, await lib.loadConfig(snapshot));
const lane = semanticLaneFor(snapshot.root, set, {});
const ids = set.artifacts.map((a) => a.id);
const t0 = performance.now();
const hits = await lane.similar(${JSON.stringify(q.slice(1, -1).join(' '))}, ids, 5);
console.log(JSON.stringify({ ms: performance.now() - t0, hits: hits.length }));
`,
  );
  const laneRuns = Array.from({ length: RUNS }, () => JSON.parse(wall(process.execPath, [probe], dir).stdout).ms);
  const fmt = (ms) => `${ms.toFixed(1).padStart(8)} ms`;
  console.log(`semantic slot, ${N} records (${os.cpus().length} cores, node ${process.version}), median of ${RUNS}`);
  console.log(`  node -e 0                                  ${fmt(nodeStart)}`);
  console.log(`  embed ${N} records, in-process             ${fmt(inProcess)}   (target < 5000 ms; table load included)`);
  console.log(`  git ctx vectors embed (cold), wall         ${fmt(embedCli.ms)}   (${embedded.embedded} embedded in ${embedded.ms} ms inside)`);
  console.log(`  warm semantic query, lane alone            ${fmt(median(laneRuns))}   (target < 50 ms after start-up; fresh process)`);
  console.log(`  warm semantic query, slot time in search   ${fmt(median(runs.map((r) => r.slot)))}   (includes waiting for the keyword lane)`);
  console.log(`  git ctx search (warm), wall                ${fmt(median(runs.map((r) => r.ms)))}`);
  console.log(`  git ctx search (warm, again), wall         ${fmt(median(offRuns))}`);
  console.log(`  vectors file                               ${(size / 1e6).toFixed(2).padStart(8)} MB   (target < 10 MB)`);
} finally {
  if (KEEP) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
