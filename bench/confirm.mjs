#!/usr/bin/env node
// Benchmark of confirmations (DEC-052) on a generated repository: N TypeScript files, 50
// confirmations (forbid-call, forbid-import, forbid-export-default, forbid, require) with
// `in:` globs over its folders. Run after `npm run build`:
//   node bench/confirm.mjs [--files 20000] [--runs 5] [--keep]
// Prints wall and CPU times (user + sys, git included) of the real CLI (node start-up
// included) beside `node -e 0`: a cold `check` (no facts cache), warm `check` runs, and the
// pre-commit hook with 10 staged files. On a shared machine the CPU figure is the steadier one.
import './lib/help.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, KEEP, arg, childCpuMs, requireBuild } from './lib/common.mjs';

requireBuild();
const N = arg('--files', 20000);
const RUNS = arg('--runs', 5);
const DIRS = 100;

const dir = mkdtempSync(path.join(os.tmpdir(), 'git-ctx-bench-confirm-'));
const git = (...a) => execFileSync('git', a, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x' } }).toString();
const w = (rel, text) => {
  const p = path.join(dir, rel);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, text);
};

git('init', '-q', '-b', 'main');
for (let i = 0; i < N; i++) {
  const d = `src/m${String(i % DIRS).padStart(3, '0')}`;
  w(`${d}/f${i}.ts`, `import { helper } from '../lib/helper';\n// Math.round is mentioned in a comment only\nexport function f${i}(x: number): number {\n  const s = "moment";\n  return helper(x) + Math.floor(x * ${i});\n}\n`);
}
// 50 confirmations over 10 decisions, each scoped to a few folders
for (let k = 0; k < 10; k++) {
  const dirs = [0, 1, 2, 3, 4].map((j) => `src/m${String((k * 10 + j) % DIRS).padStart(3, '0')}/**`);
  const entry = (kind, value, j) => `  - ${kind}: ${JSON.stringify(value)}\n    in: [${dirs[j]}]\n`;
  const confirm = [entry('forbid-call', 'Math.round', 0), entry('forbid-import', 'moment*', 1), entry('forbid-export-default', true, 2), entry('forbid', 'parseFloat\\(', 3), entry('require', '^export', 4)].join('');
  w(`.contextia/system/rationale/DEC-${String(k).padStart(3, '0')}.md`, `---\nid: DEC-${String(k).padStart(3, '0')}\ntype: decision\nstatus: accepted\nconfirm:\n${confirm}---\n# Decision ${k}\n`);
}
git('add', '-A');
git('commit', '-q', '-m', 'generated');

function time(args, opts = {}, expect) {
  const c0 = childCpuMs();
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', ...opts });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = childCpuMs() - c0;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  // a run that says nothing measured nothing: each must report what it found
  if (expect && !expect.test(r.stdout + r.stderr)) throw new Error(`${args.join(' ')}: output lacks ${expect}: ${r.stdout}${r.stderr}`);
  return { ms, cpu };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const runs = (f) => {
  const all = Array.from({ length: RUNS }, f);
  return { ms: median(all.map((r) => r.ms)), cpu: median(all.map((r) => r.cpu)) };
};
const fmt = (r) => `${r.ms.toFixed(0).padStart(6)} ms  cpu ${r.cpu.toFixed(0).padStart(6)} ms`;

const base = runs(() => time(['-e', '0']));
const checked = /artifacts? checked/;
const cold = time([BIN, 'check', '--rule', 'confirmation-violated'], {}, checked);
const warm = runs(() => time([BIN, 'check', '--rule', 'confirmation-violated'], {}, checked));
const fullWarm = runs(() => time([BIN, 'check'], {}, checked));
// the hook: 10 staged files, one new call of Math.round among them
for (let i = 0; i < 10; i++) w(`src/m000/f${i * DIRS}.ts`, `export const g${i} = (x: number) => Math.round(x) + ${i};\n`);
git('add', '-A');
const hook = runs(() => time([BIN, 'hook', 'pre-commit'], {}, /forbidden by DEC-000/));

console.log(`confirmations: ${N} files, 50 confirmations in 10 decisions (${RUNS} runs, median; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')})`);
console.log(`  node -e 0                                   ${fmt(base)}`);
console.log(`  check --rule confirmation-violated, cold    ${fmt(cold)}`);
console.log(`  check --rule confirmation-violated, warm    ${fmt(warm)}`);
console.log(`  check (every rule), warm                    ${fmt(fullWarm)}`);
console.log(`  hook pre-commit, 10 staged files            ${fmt(hook)}`);
if (KEEP) console.log(`kept ${dir}`);
else rmSync(dir, { recursive: true, force: true });
