#!/usr/bin/env node
// Benchmark of `git ctx rules export` into the path-scoped formats (Cursor, Copilot, Claude Code
// rules, Kiro, Windsurf) and `git ctx rules verify` on a generated repository of 2,000 records
// (scripts/synthetic-artifacts.mjs), run as users run them (spawning bin/git-ctx.js), beside
// `node -e 0` measured in the same run. Target: each under 1 s. "cold" removes .git/ctx (no
// artifact or token-count cache); "warm" keeps it, as every run after the first does.
// Usage: npm run build && node bench/rules-verify.mjs [--records N] [--runs N] [--keep]
import './lib/help.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { writeSyntheticRepo } from '../scripts/synthetic-artifacts.mjs';
import { BIN, KEEP, arg, childCpuMs, requireBuild } from './lib/common.mjs';

requireBuild();
const RECORDS = arg('--records', 2000);
const RUNS = arg('--runs', 3);
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', NO_COLOR: '1' };

const dir = mkdtempSync(path.join(tmpdir(), 'git-ctx-bench-'));
const git = (...a) => execFileSync('git', a, { cwd: dir, env, encoding: 'utf8' });
git('init', '-q', '-b', 'main');
git('config', 'user.name', 'Bench');
git('config', 'user.email', 'bench@example.com');
git('config', 'gc.auto', '0');
writeSyntheticRepo(dir, RECORDS);
git('add', '-A');
git('commit', '-q', '-m', 'records');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(args, { prep } = {}) {
  const walls = [];
  const cpus = [];
  let out = '';
  for (let i = 0; i < RUNS; i++) {
    prep?.();
    const c0 = childCpuMs();
    const t0 = process.hrtime.bigint();
    const r = spawnSync(args[0], args.slice(1), { cwd: dir, env, encoding: 'utf8', maxBuffer: 1 << 28 });
    walls.push(Number(process.hrtime.bigint() - t0) / 1e6);
    cpus.push(childCpuMs() - c0);
    if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    out = r.stdout;
  }
  return { wall: median(walls), cpu: median(cpus), bestWall: Math.min(...walls), bestCpu: Math.min(...cpus), out };
}
const fmt = (ms) => `${ms.toFixed(0).padStart(6)} ms`;
const rows = [];
const row = (label, r) => rows.push(`${label.padEnd(56)} ${fmt(r.wall)}  cpu ${fmt(r.cpu)}   best: ${fmt(r.bestWall)}  cpu ${fmt(r.bestCpu)}`);
const cold = () => {
  rmSync(path.join(dir, '.git/ctx'), { recursive: true, force: true });
  if (existsSync(path.join(dir, '.git/ctx'))) throw new Error('.git/ctx still there: the cold run would not be cold');
};
const formats = ['cursor', 'copilot', 'claude-rules', 'kiro', 'windsurf'].flatMap((f) => ['--format', f]);

row('node -e 0', time([process.execPath, '-e', '0']));
const exp = time([process.execPath, BIN, 'rules', 'export', ...formats], { prep: cold });
row(`rules export, ${RECORDS} records, 5 scoped formats, cold`, exp);
row(`rules export, ${RECORDS} records, 5 scoped formats, warm`, time([process.execPath, BIN, 'rules', 'export', ...formats]));
row(`rules verify, ${RECORDS} records, 5 scoped formats, cold`, time([process.execPath, BIN, 'rules', 'verify'], { prep: cold }));
const ver = time([process.execPath, BIN, 'rules', 'verify', '--json']);
row(`rules verify, ${RECORDS} records, 5 scoped formats, warm`, ver);
const report = JSON.parse(ver.out);

console.log(`git-ctx rules export / verify — ${RECORDS} records, median and best of ${RUNS} runs (wall time, Node start-up included; cpu: user + sys, git included); NODE_EXTRA_CA_CERTS ${process.env.NODE_EXTRA_CA_CERTS ? 'set' : 'unset'}`);
console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.log(rows.join('\n'));
console.log(`verified ${report.rules.length} scoped rules against ${report.files} files: ${report.errors} errors, ${report.findings.length - report.errors} warnings`);
if (KEEP) console.log(`repository kept at ${dir}`);
else rmSync(dir, { recursive: true, force: true });
