#!/usr/bin/env node
// Benchmark of `git ctx stale`: 1,000 stamped decisions over a generated 20,000-commit
// history (built with git fast-import). Prints cold (no caches under .git/ctx) and warm
// timings of the full command, as users run it (spawning bin/git-ctx.js), wall and CPU time.
// The warm report must equal the cold one (the results cache may only save time).
// Usage: npm run build && node bench/stale.mjs [--keep] [--decisions N] [--commits N]
import './lib/help.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin/git-ctx.js');
const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const DECISIONS = arg('--decisions', 1000);
const COMMITS = arg('--commits', 20000);
const DRIFTED = 20;
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', NO_COLOR: '1' };

const dir = mkdtempSync(path.join(tmpdir(), 'git-ctx-bench-'));
const git = (...a) => execFileSync('git', a, { cwd: dir, env, encoding: 'utf8', maxBuffer: 1 << 30 });
git('init', '-q', '-b', 'main');
git('config', 'user.name', 'Bench');
git('config', 'user.email', 'bench@example.com');
git('config', 'gc.auto', '0');

const part = (i) => `src/part${Math.floor(i / 100)}`;
const code = (i, variant = 0) => `// @decision DEC-B-${String(i).padStart(4, '0')}
export function handler${i}(input: number): number {
  const base = input * ${i + 1};
  return base + ${variant};
}

export function helper${i}(s: string): string {
  return s.trim();
}
`;
const dec = (i) => `---\nid: DEC-B-${String(i).padStart(4, '0')}\ntype: decision\ntitle: Decision ${i}\nstatus: accepted\n---\n# Decision ${i}\n\nBody of decision ${i}.\n`;

let t = 1_700_000_000;
function stream(commits, from) {
  const chunks = [];
  let mark = 1;
  let first = true;
  for (const c of commits) {
    const msg = Buffer.from(c.msg);
    chunks.push(`commit refs/heads/main\nmark :${mark++}\nauthor Bench <bench@example.com> ${t} +0000\ncommitter Bench <bench@example.com> ${t} +0000\ndata ${msg.length}\n${c.msg}\n`);
    t += 60;
    if (first && from) chunks.push(`from ${from}\n`);
    first = false;
    for (const [op, p, content, to] of c.ops) {
      if (op === 'M') chunks.push(`M 100644 inline ${p}\ndata ${Buffer.byteLength(content)}\n${content}\n`);
      else if (op === 'R') chunks.push(`R ${p} ${to}\n`);
      else if (op === 'D') chunks.push(`D ${p}\n`);
    }
    chunks.push('\n');
  }
  return chunks.join('');
}
function importCommits(commits, from) {
  execFileSync('git', ['fast-import', '--quiet', '--force'], { cwd: dir, env, input: stream(commits, from), maxBuffer: 1 << 30 });
}

const t0 = performance.now();
const half = Math.floor(COMMITS / 2);
const phase1 = [{ msg: 'initial', ops: [] }];
for (let i = 0; i < DECISIONS; i++) {
  phase1[0].ops.push(['M', `${part(i)}/mod${i}.ts`, code(i)]);
  phase1[0].ops.push(['M', `.contextia/system/rationale/DEC-B-${String(i).padStart(4, '0')}.md`, dec(i)]);
}
for (let k = 1; k < half - 1; k++) phase1.push({ msg: `churn ${k}`, ops: [['M', `churn/file${k % 300}.txt`, `revision ${k}\n`]] });
importCommits(phase1);
git('checkout', '-q', '-f', 'main');

// stamp everything at this point (not timed), commit the stamps
const s = spawnSync(process.execPath, [BIN, 'stamp', '--all'], { cwd: dir, env, encoding: 'utf8' });
if (s.status !== 0) throw new Error(`stamp failed: ${s.stderr}`);
git('add', '-A');
git('commit', '-q', '-m', 'stamp all decisions');

const phase2 = [];
const every = Math.floor(half / (DRIFTED + 1));
for (let k = 0; k < half; k++) {
  const ops = [['M', `churn/file${k % 300}.txt`, `late revision ${k}\n`]];
  if (k % every === every - 1 && k / every < DRIFTED) {
    const i = Math.floor(k / every) * 7;
    ops.push(['M', `${part(i)}/mod${i}.ts`, code(i, 42)]);
  }
  if (k === Math.floor(half / 2)) ops.push(['R', 'src/part9', 'lib/part9']);
  phase2.push({ msg: `late ${k}`, ops });
}
importCommits(phase2, 'refs/heads/main^0');
git('reset', '-q', '--hard', 'main');
const nCommits = git('rev-list', '--count', 'HEAD').trim();
const gen = performance.now() - t0;

// CPU time of the child (git processes included) comes from GNU time when it is there: on a
// shared machine wall time alone says more about the neighbours than about git ctx
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
// the per-user V8 code cache of the TypeScript compiler lives here, so that "first run
// after install" (no code cache either) can be measured apart from "no repository caches"
const codeCacheHome = mkdtempSync(path.join(tmpdir(), 'git-ctx-bench-xdg-'));
const runEnv = { ...env, XDG_CACHE_HOME: codeCacheHome };
function run() {
  const a = performance.now();
  const argv = [process.execPath, BIN, 'stale', '--json'];
  const r = TIME ? spawnSync(TIME, ['-f', '\n@@time %e %U %S', ...argv], { cwd: dir, env: runEnv, encoding: 'utf8', maxBuffer: 1 << 30 }) : spawnSync(argv[0], argv.slice(1), { cwd: dir, env: runEnv, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - a;
  const m = /@@time ([\d.]+) ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr ?? '');
  const stderr = m ? r.stderr.slice(0, m.index) : r.stderr;
  // GNU time reports the command's exit status as its own
  if (r.status !== 0 && r.status !== 1) throw new Error(`stale failed (${r.status}): ${stderr}`);
  return { ms, userMs: m ? Number(m[2]) * 1000 : undefined, sysMs: m ? Number(m[3]) * 1000 : undefined, report: JSON.parse(r.stdout) };
}
const cpu = (x) => (x.userMs === undefined ? '' : ` (user ${x.userMs.toFixed(0)} ms, sys ${x.sysMs.toFixed(0)} ms)`);
const gitDir = path.join(dir, '.git');
rmSync(path.join(gitDir, 'ctx'), { recursive: true, force: true });
const first = run();
// cold = no caches under .git/ctx, with the compiler's code cache that any earlier run on
// the machine leaves (as after a fresh clone on a developer machine); best of 3
const colds = [0, 1, 2].map(() => {
  rmSync(path.join(gitDir, 'ctx'), { recursive: true, force: true });
  return run();
});
const cold = colds.reduce((x, y) => (y.ms < x.ms ? y : x));
const warm = [run(), run(), run()];
const best = warm.reduce((x, y) => (y.ms < x.ms ? y : x));
const c = cold.report.counts;
console.log(`repository: ${nCommits} commits, ${DECISIONS} stamped decisions (generated in ${(gen / 1000).toFixed(1)} s) at ${dir}`);
console.log(`machine:    ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.log(`verdicts:   ${c.stale} stale, ${c.moved} moved, ${c.fresh} fresh, ${c.unstamped} unstamped, ${c.unanchored} unanchored`);
console.log(`git ctx stale  first run after install (no caches at all): ${first.ms.toFixed(0)} ms${cpu(first)}`);
console.log(`git ctx stale  cold: ${cold.ms.toFixed(0)} ms${cpu(cold)} (no repository caches; best of 3: ${colds.map((w) => w.ms.toFixed(0)).join(', ')} ms)`);
console.log(`git ctx stale  warm: ${best.ms.toFixed(0)} ms${cpu(best)} (best of 3: ${warm.map((w) => w.ms.toFixed(0)).join(', ')} ms)`);
if (JSON.stringify(warm[0].report.artifacts) !== JSON.stringify(cold.report.artifacts)) throw new Error('the warm report differs from the cold one');
writeFileSync(
  path.join(ROOT, 'bench', '.stale-last.json'),
  JSON.stringify({ commits: Number(nCommits), decisions: DECISIONS, firstMs: Math.round(first.ms), coldMs: Math.round(cold.ms), coldUserMs: cold.userMs, warmMs: Math.round(best.ms), warmUserMs: best.userMs, loadavg: os.loadavg(), counts: c }, null, 2) + '\n',
);
rmSync(codeCacheHome, { recursive: true, force: true });
if (!process.argv.includes('--keep')) rmSync(dir, { recursive: true, force: true });
