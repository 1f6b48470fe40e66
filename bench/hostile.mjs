#!/usr/bin/env node
// Benchmark of the hostile-input bounds (SPEC-HOSTILE-001). Run after `npm run build`:
//   node bench/hostile.mjs [--runs 3] [--chain 5000] [--big-mb 200] [--keep]
// Prints wall times of the real CLI (node start-up included), each beside `node -e 0`
// measured in the same run: `check` with a billion-laughs artifact, a bundle over a
// 5,000-long requires chain, the pre-commit hook with a 200 MB staged source file, a task
// bundle over a 2,000-long requires cycle, and `pr` over 1,500 added decisions (70 KB of titles).
import './lib/help.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin/git-ctx.js');
if (!existsSync(path.join(ROOT, 'dist/cli/main.js'))) {
  console.error('dist/ is missing: run npm run build first');
  process.exit(2);
}
const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const RUNS = arg('--runs', 3);
const CHAIN = arg('--chain', 5000);
const BIG_MB = arg('--big-mb', 200);
const KEEP = process.argv.includes('--keep');
const env = { ...process.env, NO_COLOR: '1', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@example.com', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@example.com' };

function repo(name) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `git-ctx-bench-${name}-`));
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir, env });
  return dir;
}
const write = (dir, rel, text) => {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  writeFileSync(path.join(dir, rel), text);
};
function timeOnce(cmd, args, cwd) {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 1 << 30 });
  return { ms: performance.now() - t0, code: r.status };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${ms.toFixed(0)} ms`;
const dirs = [];

// 1. a billion-laughs artifact beside a sound one
const bomb = repo('bomb');
dirs.push(bomb);
write(bomb, '.contextia/system/rationale/DEC-OK-001.md', '---\nid: DEC-OK-001\ntype: decision\ntitle: ok\nstatus: accepted\n---\nx\n');
const lines = ['---', 'id: DEC-BOMB-001', 'type: decision', 'l0: &l0 [x, x, x, x, x, x, x, x, x]'];
for (let i = 1; i <= 9; i++) lines.push(`l${i}: &l${i} [${Array(9).fill(`*l${i - 1}`).join(', ')}]`);
write(bomb, '.contextia/system/rationale/DEC-BOMB-001.md', `${lines.join('\n')}\n---\nx\n`);
execFileSync('git', ['add', '-A'], { cwd: bomb, env });

// 2. a requires chain
const chain = repo('chain');
dirs.push(chain);
const id = (i) => `SPEC-C${String(i).padStart(5, '0')}`;
for (let i = 0; i < CHAIN; i++) write(chain, `.contextia/system/specs/${id(i)}.md`, `---\nid: ${id(i)}\ntype: spec\ntitle: Link ${i}\nstatus: active\n${i + 1 < CHAIN ? `requires: [${id(i + 1)}]\n` : ''}---\nPart ${i}.\n`);
execFileSync('git', ['add', '-A'], { cwd: chain, env });
execFileSync('git', ['commit', '-qm', 'chain'], { cwd: chain, env });

// 3. a large staged source file
const big = repo('big');
dirs.push(big);
write(big, '.contextia/system/specs/SPEC-1.md', '---\nid: SPEC-1\ntype: spec\ntitle: t\nstatus: active\npaths: [src/**]\n---\nb\n');
write(big, 'src/a.ts', '// @spec SPEC-1\nexport const a = 1;\n');
execFileSync('git', ['add', '-A'], { cwd: big, env });
execFileSync('git', ['commit', '-qm', 'base'], { cwd: big, env });
const line = Buffer.from('export const x = 1; // @spec SPEC-1 padding padding padding padding\n');
const fd = openSync(path.join(big, 'src/big.ts'), 'w');
const block = Buffer.concat(Array(16384).fill(line));
for (let n = 0; n < BIG_MB * 1024 * 1024; n += block.length) writeSync(fd, block);
closeSync(fd);
execFileSync('git', ['add', 'src/big.ts'], { cwd: big, env });

// 4. a requires cycle of 2,000 records under a task
const cycle = repo('cycle');
dirs.push(cycle);
write(cycle, '.contextia/tasks/TASK-001.md', `---\nid: TASK-001\ntype: task\ntitle: t\nstatus: active\nlinks:\n  specs: [${id(0)}]\n---\nx\n`);
for (let i = 0; i < 2000; i++) write(cycle, `.contextia/system/specs/${id(i)}.md`, `---\nid: ${id(i)}\ntype: spec\ntitle: Link ${i}\nstatus: active\nrequires: [${id((i + 1) % 2000)}]\n---\nPart ${i}.\n`);
execFileSync('git', ['add', '-A'], { cwd: cycle, env });
execFileSync('git', ['commit', '-qm', 'cycle'], { cwd: cycle, env });

// 5. a pull request adding 1,500 decisions whose titles total 70 KB (words the embedder does not know)
const pr = repo('pr');
dirs.push(pr);
write(pr, 'src/a.ts', 'export const a = 1;\n');
execFileSync('git', ['add', '-A'], { cwd: pr, env });
execFileSync('git', ['commit', '-qm', 'base'], { cwd: pr, env });
execFileSync('git', ['checkout', '-qb', 'pr'], { cwd: pr, env });
const SYL = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'zi', 'be', 'do'];
const word = (n) => `${SYL[n % 10]}${SYL[Math.floor(n / 10) % 10]}${SYL[Math.floor(n / 100) % 10]}r`;
for (let i = 0; i < 1500; i++) {
  const title = Array.from({ length: 7 }, (_, k) => word((i * 7 + k * 131) % 1000)).join(' ');
  write(pr, `.contextia/system/rationale/DEC-T${i}.md`, `---\nid: DEC-T${i}\ntype: decision\ntitle: ${title}\nstatus: accepted\n---\n## Decision\n\n${title}.\n`);
}
write(pr, 'src/a.ts', 'export const a = 2;\n');
execFileSync('git', ['add', '-A'], { cwd: pr, env });
execFileSync('git', ['commit', '-qm', 'records'], { cwd: pr, env });

const cases = [
  ['check, billion-laughs artifact', ['check'], bomb, true],
  [`bundle over a ${CHAIN}-long requires chain`, [id(0), '--depth', 'meta'], chain, false],
  [`pre-commit hook, ${BIG_MB} MB staged file (cold cache)`, ['hook', 'pre-commit'], big, true],
  ['task bundle over a 2,000-long requires cycle', ['TASK-001'], cycle, false],
  ['pr adding 1,500 decisions, 70 KB of titles (cold cache)', ['pr', '--base', 'main', '--head', 'pr'], pr, true],
];
console.log(`git-ctx hostile-input bench (${RUNS} runs each; provisional on a shared machine)`);
for (const [name, args, cwd, cold] of cases) {
  const ms = [];
  for (let i = 0; i < RUNS; i++) {
    if (cold) rmSync(path.join(cwd, '.git/ctx'), { recursive: true, force: true });
    const r = timeOnce(process.execPath, [BIN, ...args], cwd);
    ms.push(r.ms);
  }
  console.log(`  ${name.padEnd(52)}: median ${fmt(median(ms))}  max ${fmt(Math.max(...ms))}`);
}
const node = Array.from({ length: RUNS }, () => timeOnce(process.execPath, ['-e', '0'], ROOT).ms);
console.log(`baseline: node -e 0 median ${fmt(median(node))}`);
if (!KEEP) for (const d of dirs) rmSync(d, { recursive: true, force: true });
else console.log(`kept: ${dirs.join(' ')}`);
