#!/usr/bin/env node
// Benchmark: `git ctx check` on a generated repository with 2,000 artifacts.
// Usage: npm run build && node bench/check.mjs [--artifacts N] [--runs N]
// Prints wall-clock figures that include Node start-up, as a user would see them.
import './lib/help.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const N = opt('--artifacts', 2000);
const RUNS = opt('--runs', 7);
const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/git-ctx.js');

const dir = mkdtempSync(path.join(tmpdir(), 'git-ctx-bench-check-'));
const git = (...a) => execFileSync('git', a, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
git('init', '-q', '-b', 'main');
git('config', 'user.email', 'bench@example.com');
git('config', 'user.name', 'bench');

// realistic shape: 10% specs, 55% decisions, 15% norms, 20% tasks, linked to each other, with code paths
const kinds = [['spec', 'SPEC', 'system/specs', 0.1], ['decision', 'DEC', 'system/rationale', 0.55], ['norm', 'NORM', 'system/norms', 0.15], ['task', 'TASK', 'work/tasks', 0.2]];
const ids = { spec: [], decision: [], norm: [], task: [] };
let k = 0;
for (const [type, prefix, , share] of kinds) for (let i = 0; i < Math.round(N * share); i++) ids[type].push(`${prefix}-${String(++k).padStart(5, '0')}`);
const pick = (arr, i, n) => Array.from({ length: Math.min(n, arr.length) }, (_, j) => arr[(i * 7 + j * 13) % arr.length]);
const para = 'The service validates input at the boundary and keeps money in integer minor units. '.repeat(6);
mkdirSync(path.join(dir, 'src'), { recursive: true });
for (let m = 0; m < 50; m++) {
  mkdirSync(path.join(dir, `src/module${m}`), { recursive: true });
  writeFileSync(path.join(dir, `src/module${m}/index.ts`), `export const m${m} = ${m};\n`);
}
for (const [type, , folder] of kinds) {
  mkdirSync(path.join(dir, '.contextia', folder), { recursive: true });
  ids[type].forEach((id, i) => {
    const status = type === 'task' ? 'active' : type === 'decision' ? (i % 10 === 0 ? 'superseded' : 'accepted') : 'active';
    const links = type === 'task' ? { specs: pick(ids.spec, i, 2) } : type === 'spec' ? { decisions: pick(ids.decision, i, 3), norms: pick(ids.norm, i, 2) } : {};
    const rel = type === 'decision' && i > 0 && i % 10 === 1 ? `relations:\n  supersedes: [${ids.decision[i - 1]}]\n` : '';
    const fm = [
      `id: ${id}`,
      `type: ${type}`,
      `title: ${type} number ${i} about module ${i % 50}`,
      `status: ${status}`,
      `summary: One line summary of ${id}.`,
      `keywords: [module${i % 50}, billing]`,
      Object.keys(links).length ? `links:\n${Object.entries(links).map(([kk, v]) => `  ${kk}: [${v.join(', ')}]`).join('\n')}` : '',
      rel.trimEnd(),
      type !== 'task' ? `paths: [src/module${i % 50}/**]` : '',
      `created: 2026-0${1 + (i % 9)}-1${i % 10}`,
    ].filter(Boolean);
    writeFileSync(path.join(dir, '.contextia', folder, `${id}.md`), `---\n${fm.join('\n')}\n---\n# ${id}\n\n${para}\n\n## Context\n\n${para}\n`);
  });
}
git('add', '-A');
git('commit', '-q', '-m', 'generated');

function time(argv, extraEnv = {}) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BIN, ...argv], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...extraEnv } });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0 && r.status !== 1) throw new Error(`git ctx ${argv.join(' ')} failed (${r.status}): ${r.stderr}`);
  return { ms, out: r.stdout };
}
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0], median: s[Math.floor(s.length / 2)], max: s[s.length - 1] };
};
const fmt = (x) => `${x.toFixed(0)} ms`;
function report(label, argv, extraEnv) {
  time(argv, extraEnv); // warm the OS file cache (and, unless disabled, git-ctx's caches) once
  const runs = Array.from({ length: RUNS }, () => time(argv, extraEnv).ms);
  const s = stats(runs);
  console.log(`${label.padEnd(34)} median ${fmt(s.median)}  min ${fmt(s.min)}  max ${fmt(s.max)}  (${RUNS} runs)`);
}
const nodeOnly = stats(Array.from({ length: 5 }, () => {
  const t = process.hrtime.bigint();
  spawnSync(process.execPath, ['-e', '0']);
  return Number(process.hrtime.bigint() - t) / 1e6;
}));
console.log(`repository: ${N} artifacts, ${path.basename(dir)}; node start-up alone: ${fmt(nodeOnly.median)}`);
console.log(time(['check']).out.trim().split('\n').pop());
report('git ctx check, no parse cache', ['check'], { GIT_CTX_NO_CACHE: '1' });
report('git ctx check (worktree)', ['check']);
report('git ctx check --staged', ['check', '--staged']);
report('git ctx check --at HEAD', ['check', '--at', 'HEAD']);
report('git ctx list --json', ['list', '--json']);
if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true }); else console.log(dir);
