#!/usr/bin/env node
// Cold runs on a real repository (DEC-089): `git ctx for <file>` and `git ctx check` with no
// .git/ctx at all (a fresh clone), the next question (which builds the whole code graph) and
// warm runs, each beside `node -e 0` measured in the same run, with and without
// NODE_EXTRA_CA_CERTS. Run after `npm run build`:
//   node bench/cold.mjs --repo DIR --file PATH [--next PATH] [--runs 3] [--bin PATH]
// --repo     a checkout to measure in (its .git/ctx is removed before each cold run)
// --file     the file asked cold (repository-relative)
// --next     the file asked second (default: --file again)
// --bin      the git-ctx to measure (default this checkout's bin/git-ctx.js)
// Figures: CPU (user + system, /usr/bin/time, 10 ms steps), wall and peak RSS; the median of
// --runs runs and the best beside it. The checkout's .git/ctx is removed at the end.
import './lib/help.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argOf = (name, def) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : def;
};
const REPO = argOf('--repo');
const FILE = argOf('--file');
const NEXT = argOf('--next', FILE);
const RUNS = Number(argOf('--runs', 3));
const BIN = path.resolve(argOf('--bin', path.join(ROOT, 'bin/git-ctx.js')));
if (!REPO || !FILE) {
  console.error('usage: node bench/cold.mjs --repo DIR --file PATH [--next PATH] [--runs 3] [--bin PATH]');
  process.exit(2);
}
if (!existsSync(BIN)) {
  console.error(`${BIN} is missing: run npm run build first`);
  process.exit(2);
}
if (spawnSync('/usr/bin/time', ['-f', '%M', 'true']).status !== 0) {
  console.error('/usr/bin/time is needed to measure CPU and memory');
  process.exit(2);
}
const gitDir = path.resolve(REPO, execFileSync('git', ['rev-parse', '--git-dir'], { cwd: REPO, encoding: 'utf8' }).trim());
const cacheDir = path.join(gitDir, 'ctx');
const CA = process.env.NODE_EXTRA_CA_CERTS;

function envWith(ca) {
  const env = { ...process.env, NO_COLOR: '1' };
  if (ca) env.NODE_EXTRA_CA_CERTS = ca;
  else delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** One run: CPU ms (user + system), wall ms, peak RSS MB. */
function once(args, env, ok = [0, 1]) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '@@ %M %U %S', process.execPath, ...args], { cwd: REPO, env, encoding: 'utf8', maxBuffer: 1 << 28 });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (!ok.includes(r.status)) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const m = /@@ (\d+) ([\d.]+) ([\d.]+)/.exec(r.stderr);
  return { cpu: (Number(m[2]) + Number(m[3])) * 1000, wall, rss: Number(m[1]) / 1024 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary = (runs) => ({ cpu: median(runs.map((r) => r.cpu)), bestCpu: Math.min(...runs.map((r) => r.cpu)), wall: median(runs.map((r) => r.wall)), rss: Math.max(...runs.map((r) => r.rss)) });
const cold = () => rmSync(cacheDir, { recursive: true, force: true });

function measure(env) {
  const rows = [];
  const row = (what, runs) => rows.push([what, summary(runs)]);
  row('node -e 0', Array.from({ length: RUNS }, () => once(['-e', '0'], env)));
  const forCold = [];
  const forNext = [];
  const forWarm = [];
  for (let i = 0; i < RUNS; i++) {
    cold();
    forCold.push(once([BIN, 'for', FILE, '--json'], env));
    forNext.push(once([BIN, 'for', NEXT, '--json'], env));
    forWarm.push(once([BIN, 'for', NEXT, '--json'], env));
  }
  row('cold for <file>', forCold);
  row('next for <next> (builds the whole code graph)', forNext);
  row('warm for <next> (asked again)', forWarm);
  const checkCold = [];
  const checkWarm = [];
  for (let i = 0; i < RUNS; i++) {
    cold();
    checkCold.push(once([BIN, 'check'], env));
    checkWarm.push(once([BIN, 'check'], env));
  }
  row('cold check', checkCold);
  row('warm check', checkWarm);
  return rows;
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');
console.log(`file ${FILE}; next ${NEXT}`);
for (const [label, ca] of CA ? [['with NODE_EXTRA_CA_CERTS', CA], ['without NODE_EXTRA_CA_CERTS', undefined]] : [['without NODE_EXTRA_CA_CERTS', undefined]]) {
  const rows = measure(envWith(ca));
  const base = rows[0][1].cpu;
  console.log(`\n${path.basename(path.resolve(REPO))}, ${label}: CPU median (best) ms, + beyond node -e 0; wall median ms; peak RSS MB (${RUNS} runs)`);
  for (const [what, s] of rows) console.log(`  ${what.padEnd(48)} ${fmt(s.cpu).padStart(6)} (${fmt(s.bestCpu)})${what === 'node -e 0' ? '' : `  + ${fmt(s.cpu - base)}`}  wall ${fmt(s.wall)}  ${s.rss.toFixed(0)} MB`);
}
cold();
