#!/usr/bin/env node
// Benchmark: whole-repository work and start-up at monorepo scale (issue 19, items 2–4).
// Usage: npm run build && node bench/scale.mjs [--files 100000] [--runs 5] [--repo DIR] [--keep]
//
// Generates the repository with bench/lib/monorepo.mjs (git fast-import; 100,000 files in
// well under a minute) unless --repo names one already generated, then prints, each beside
// `node -e 0` measured in the same run (medians; wall time includes Node's start-up):
//   start-up   node -e 0, `git ctx --version`, with and without NODE_EXTRA_CA_CERTS
//   cold check caches deleted (`git ctx cache clean`), wall time and peak RSS
//   warm check the same command again, caches warm
//   cache reads each cache file's read time and size, from GIT_CTX_TIMINGS=1 of a warm run
//   phases     where a warm check spends its time (GIT_CTX_TIMINGS=1)
//   hook       `git ctx hook pre-commit` with 10 staged files: warm (the same staged state
//              again), and the first run after a commit and a new `git add` (what a real
//              commit pays). The repository gets one commit per run of the second kind.
// Peak RSS needs GNU time (/usr/bin/time); without it that column says "n/a".
import './lib/help.mjs';
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateMonorepo } from './lib/monorepo.mjs';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};
const FILES = Number(opt('--files', 100_000));
const RUNS = Number(opt('--runs', 5));
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin/git-ctx.js');
const GNU_TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;

let dir = opt('--repo');
let made = false;
if (!dir) {
  const t0 = performance.now();
  const r = generateMonorepo({ files: FILES });
  dir = r.dir;
  made = true;
  console.log(`generated ${r.files} files (${r.artifacts} artifacts, ${r.annotatedFiles.length} annotated) in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${dir}`);
}

const baseEnv = { ...process.env, NO_COLOR: '1', GIT_CONFIG_NOSYSTEM: '1' };
const noCa = { ...baseEnv };
delete noCa.NODE_EXTRA_CA_CERTS;

/** One process: wall ms, peak RSS in MB and CPU ms (user + sys, git children included; GNU time) and stderr. */
function run(argv, env = baseEnv) {
  const cmd = GNU_TIME ? GNU_TIME : process.execPath;
  const a = GNU_TIME ? ['-f', '%M %U %S', process.execPath, ...argv] : argv;
  const t0 = performance.now();
  const r = spawnSync(cmd, a, { cwd: dir, env, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = performance.now() - t0;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${argv.join(' ')} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  let stderr = r.stderr;
  let rss;
  let cpu;
  if (GNU_TIME) {
    const lines = stderr.trimEnd().split('\n');
    const [m, u, s] = lines.pop().split(' ').map(Number);
    rss = m / 1024;
    cpu = (u + s) * 1000;
    stderr = lines.join('\n');
  }
  return { ms, rss, cpu, stderr };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${ms.toFixed(0).padStart(6)} ms`;

/** Alternate each case with `node -e 0` so both see the same machine load. */
function measure(label, argv, env, before) {
  const own = [];
  const base = [];
  const rss = [];
  const cpu = [];
  for (let i = 0; i < RUNS; i++) {
    before?.();
    const r = run(argv, env);
    own.push(r.ms);
    if (r.rss) rss.push(r.rss);
    if (r.cpu !== undefined) cpu.push(r.cpu);
    base.push(run(['-e', '0'], env).ms);
  }
  const m = median(own);
  const b = median(base);
  console.log(`${label.padEnd(40)} ${fmt(m)}   node -e 0 ${fmt(b)}   ${(m / b).toFixed(1).padStart(5)}×   cpu ${cpu.length ? fmt(median(cpu)) : 'n/a'}   peak RSS ${rss.length ? `${Math.max(...rss).toFixed(0)} MB` : 'n/a'}`);
  return m;
}

console.log(`\n${RUNS} runs each, medians; the machine's load shows in node -e 0.\n`);
console.log('start-up');
measure('git ctx --version', [BIN, '--version'], baseEnv);
if (baseEnv.NODE_EXTRA_CA_CERTS) measure('git ctx --version (no EXTRA_CA)', [BIN, '--version'], noCa);
measure('git ctx check --help', [BIN, 'check', '--help'], baseEnv);

console.log(`\ncheck on ${dir}`);
const clean = () => spawnSync(process.execPath, [BIN, 'cache', 'clean'], { cwd: dir, env: baseEnv, stdio: 'ignore' });
measure('cold check (caches cleaned)', [BIN, 'check'], baseEnv, clean);
run([BIN, 'check']);
measure('warm check', [BIN, 'check'], baseEnv);
if (baseEnv.NODE_EXTRA_CA_CERTS) measure('warm check (no EXTRA_CA)', [BIN, 'check'], noCa);

const timed = run([BIN, 'check'], { ...baseEnv, GIT_CTX_TIMINGS: '1' }).stderr.split('\n');
console.log('\ncache reads of a warm check (GIT_CTX_TIMINGS=1)');
for (const l of timed) {
  const m = /· cache read (.*)$/.exec(l);
  if (m) console.log(`  ${m[1]}`);
}
console.log('\nphases of a warm check');
for (const l of timed) {
  const m = /^git-ctx timing: (\S+)\s+([\d.]+) ms(?: \+([\d.]+) ms)?/.exec(l);
  if (m) console.log(`  ${m[1].padEnd(10)} ${m[3] ? `${Number(m[3]).toFixed(0).padStart(6)} ms` : `${Number(m[2]).toFixed(0).padStart(6)} ms total`}`);
}

console.log(`\npre-commit hook, 10 staged files (${dir})`);
const git = (...a) => spawnSync('git', a, { cwd: dir, env: baseEnv, encoding: 'utf8', maxBuffer: 1 << 28 });
const sources = git('ls-files', '-z', '--', '*.ts').stdout.split('\0').filter(Boolean);
let round = 0;
/** Edit and stage 10 source files spread over the repository (different ones each round). */
const stageTen = () => {
  round++;
  const files = [...new Set(Array.from({ length: 10 }, (_, i) => sources[((round * 10 + i) * 7919) % sources.length]))];
  for (const f of files) appendFileSync(path.join(dir, f), `\nexport const benchTouched${Date.now()}_${round} = ${round};\n`);
  git('add', '--', ...files);
};
stageTen();
run([BIN, 'hook', 'pre-commit']);
measure('hook pre-commit (warm, same staged files)', [BIN, 'hook', 'pre-commit'], baseEnv);
if (baseEnv.NODE_EXTRA_CA_CERTS) measure('  the same without NODE_EXTRA_CA_CERTS', [BIN, 'hook', 'pre-commit'], noCa);
const commitAndStage = () => {
  git('commit', '-q', '--no-verify', '-m', `bench round ${round}`);
  stageTen();
};
measure('hook pre-commit (after a commit + git add)', [BIN, 'hook', 'pre-commit'], baseEnv, commitAndStage);
if (baseEnv.NODE_EXTRA_CA_CERTS) measure('  the same without NODE_EXTRA_CA_CERTS', [BIN, 'hook', 'pre-commit'], noCa, commitAndStage);
const hookTimed = run([BIN, 'hook', 'pre-commit'], { ...baseEnv, GIT_CTX_TIMINGS: '1' }).stderr.split('\n');
console.log('\nphases of a warm hook run');
for (const l of hookTimed) {
  const m = /^git-ctx timing: (\S+)\s+([\d.]+) ms(?: \+([\d.]+) ms)?/.exec(l);
  if (m) console.log(`  ${m[1].padEnd(10)} ${m[3] ? `${Number(m[3]).toFixed(0).padStart(6)} ms` : `${Number(m[2]).toFixed(0).padStart(6)} ms total`}`);
}

if (made && !args.includes('--keep')) rmSync(dir, { recursive: true, force: true });
else console.log(`\nrepository kept: ${dir}`);
