#!/usr/bin/env node
// Benchmark: `git ctx pr` on a 1,000-file pull request in a 10,000-file repository.
// Builds the repository in a temp dir (deterministic content), then runs the CLI as a real
// process: once cold (no code-index cache) and twice warm. Prints figures; asserts nothing.
// Usage: npm run build && node bench/pr.mjs [--files 10000] [--changed 1000]
import './lib/help.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const FILES = arg('--files', 10_000);
const CHANGED = arg('--changed', 1_000);
const DIRS = 100;
const ARTIFACTS = 200;

const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  NO_COLOR: '1',
};
const dir = mkdtempSync(path.join(tmpdir(), 'git-ctx-bench-pr-'));
const git = (...a) => execFileSync('git', a, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] }).toString().trim();
const write = (p, c) => {
  mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
  writeFileSync(path.join(dir, p), c);
};

function source(i, variant) {
  // one file in ten carries an annotation on a function; every file has two declarations
  const tag = i % 10 === 0 ? `/** @spec SPEC-${String(i % ARTIFACTS).padStart(3, '0')} */\n` : '';
  return `${tag}export function f${i}(x: number): number {\n  return x + ${i + variant};\n}\n\nexport class C${i} {\n  run(): number {\n    return f${i}(${i});\n  }\n}\n`;
}

const t0 = performance.now();
git('init', '-q', '-b', 'main');
for (let a = 0; a < ARTIFACTS; a++) {
  const id = `SPEC-${String(a).padStart(3, '0')}`;
  const d = a % DIRS;
  write(
    `.contextia/system/specs/${id}.md`,
    `---\nid: ${id}\ntype: spec\ntitle: Spec ${a} for module ${d}\nstatus: active\npaths: [src/m${d}/**]\nanchors: ["src/m${d}/f${d}.ts#C${d}.run"]\n${a % 10 ? `requires: [SPEC-${String(a - (a % 10)).padStart(3, '0')}]\n` : ''}---\n# Spec ${a}\n`,
  );
}
for (let i = 0; i < FILES; i++) write(`src/m${i % DIRS}/f${i}.ts`, source(i, 0));
git('add', '-A');
git('commit', '-q', '-m', 'base');
git('checkout', '-q', '-b', 'pr');
// change CHANGED files spread over every module (k-th change: a different module each time)
const step = Math.max(1, Math.floor(FILES / CHANGED));
let changed = 0;
for (let k = 0; k < CHANGED && k * step < FILES; k++, changed++) {
  const i = Math.min(FILES - 1, k * step + (Math.floor(k / step) % step));
  write(`src/m${i % DIRS}/f${i}.ts`, source(i, 1));
}
git('add', '-A');
git('commit', '-q', '-m', 'pr');
const setupMs = performance.now() - t0;

const bin = path.join(root, 'bin/git-ctx.js');
function runPr(label) {
  const s = performance.now();
  const r = spawnSync(process.execPath, [bin, 'pr', '--base', 'main', '--head', 'pr', '--format', 'json', '--fail-on', 'never'], { cwd: dir, env, maxBuffer: 256 * 1024 * 1024 });
  const ms = performance.now() - s;
  if (r.status !== 0) {
    console.error(r.stderr.toString());
    process.exit(1);
  }
  const data = JSON.parse(r.stdout.toString());
  return { label, ms, data };
}

const runs = [];
try {
  runs.push(runPr('cold (no cache)'));
  runs.push(runPr('warm 1'));
  runs.push(runPr('warm 2'));
  const md = spawnSync(process.execPath, [bin, 'pr', '--base', 'main', '--head', 'pr', '--fail-on', 'never'], { cwd: dir, env, maxBuffer: 256 * 1024 * 1024 }).stdout.toString();
  const d = runs[0].data;
  console.log(`git ctx pr benchmark: ${FILES} files, ${changed} changed, ${ARTIFACTS} artifacts (setup ${(setupMs / 1000).toFixed(1)} s)`);
  for (const r of runs) console.log(`  ${r.label.padEnd(16)} ${(r.ms / 1000).toFixed(2)} s`);
  console.log(`  files in diff ${d.counts.files}, governed ${d.counts.governed}, artifacts listed ${d.artifacts.length} (direct ${d.counts.direct}), locations ${d.locations.length}`);
  console.log(`  markdown comment ${md.length} chars (cap 50000)`);
} finally {
  if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
  else console.log(dir);
}
