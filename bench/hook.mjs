#!/usr/bin/env node
// Benchmark: the pre-commit hook on a generated repository of 10,000 files with a 10-file commit.
// Usage: npm run build && node bench/hook.mjs [--files N] [--runs N] [--first-rounds N] [--keep]
// Wall-clock figures include Node start-up and the hook script, as `git commit` pays them.
//
// Scenarios (each with the code-index cache warm from earlier commits, as in daily use):
//   plain     10 staged files: unanchored code, docs and one artifact edit
//   anchored  10 staged files, 3 of them change anchored (stamped) methods → drift warnings;
//             their new blobs are not in the cache, so the TypeScript parser has to load
// For each: the first run after staging (new blobs parsed), then repeated runs (all cached).
// With hyperfine on PATH (apt-get install hyperfine) it is used for the repeated runs too.
import './lib/help.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const FILES = opt('--files', 10_000);
const RUNS = opt('--runs', 10);
const FIRST_ROUNDS = opt('--first-rounds', 7);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin/git-ctx.js');

const dir = mkdtempSync(path.join(tmpdir(), 'git-ctx-bench-hook-'));
const env = { ...process.env, NO_COLOR: '1', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@example.com' };
const git = (...a) => execFileSync('git', a, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 }).toString();
const ctx = (...a) => {
  const r = spawnSync(process.execPath, [BIN, ...a], { cwd: dir, env, encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 1) throw new Error(`git-ctx ${a.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r;
};
const write = (p, s) => {
  mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
  writeFileSync(path.join(dir, p), s);
};

// --- generate: 100 artifacts, ~3% annotated TS files, the rest plain code and docs -----------
git('init', '-q', '-b', 'main');
const SPECS = 60;
const DECS = 40;
const docs = Math.round(FILES * 0.05);
const code = FILES - SPECS - DECS - docs - 1;
const file = (i) => `src/pkg${i % 40}/mod${Math.floor(i / 40) % 25}/file${i}.ts`;
const anchoredFile = (s) => file(s * 97 + 11);
for (let i = 0; i < code; i++) {
  const spec = [...Array(SPECS).keys()].find((s) => anchoredFile(s) === file(i));
  const ann = spec !== undefined ? `/** @spec SPEC-${String(spec).padStart(3, '0')} */\n` : i % 31 === 0 ? `// @spec SPEC-${String(i % SPECS).padStart(3, '0')}\n` : '';
  write(
    file(i),
    `import { helper${i % 7} } from '../../shared.js';\n\n${ann}export class Service${i} {\n  run(input: number): number {\n    const x = helper${i % 7}(input) + ${i};\n    return x * 2;\n  }\n\n  describe(): string {\n    return 'service ${i}';\n  }\n}\n`,
  );
}
for (let i = 0; i < docs; i++) write(`docs/section${i % 20}/page${i}.md`, `# Page ${i}\n\nSome prose about part ${i} of the system.\n`);
write('README.md', '# bench\n');
for (let s = 0; s < SPECS; s++) {
  const id = `SPEC-${String(s).padStart(3, '0')}`;
  const idx = s * 97 + 11;
  write(
    `.contextia/system/specs/${id}.md`,
    `---\nid: ${id}\ntype: spec\ntitle: Spec ${s}\nstatus: active\nsummary: Behaviour of service ${idx}.\nanchors: ["${anchoredFile(s)}#Service${idx}.run"]\n---\n# Spec ${s}\n\nService ${idx} doubles its input.\n`,
  );
}
for (let d = 0; d < DECS; d++) {
  const id = `DEC-${String(d).padStart(3, '0')}`;
  write(`.contextia/system/rationale/${id}.md`, `---\nid: ${id}\ntype: decision\ntitle: Decision ${d}\nstatus: accepted\nlinks: { specs: [SPEC-${String(d).padStart(3, '0')}] }\n---\n# Decision ${d}\n\nBecause.\n`);
}
git('add', '-A');
git('commit', '-q', '-m', 'generated');
ctx('stamp', '--all');
git('add', '-A');
git('commit', '-q', '-m', 'stamp');
const total = git('ls-files').split('\n').filter(Boolean).length;

// install the hook, calling this checkout's CLI through a `git-ctx` on PATH
const shim = path.join(dir, '.git', 'bench-bin');
mkdirSync(shim);
writeFileSync(path.join(shim, 'git-ctx'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
chmodSync(path.join(shim, 'git-ctx'), 0o755);
env.PATH = `${shim}${path.delimiter}${env.PATH}`;
ctx('hooks', 'install');
const hook = path.join(dir, '.git/hooks/pre-commit');

// warm the caches the way earlier commits would
ctx('hook', 'pre-commit');

function timeOnce(cmd, cmdArgs) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, cmdArgs, { cwd: dir, env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  return { ms, r };
}
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0], median: s[Math.floor(s.length / 2)], max: s[s.length - 1] };
};
const fmt = (x) => `${x.toFixed(0).padStart(5)} ms`;
const hasHyperfine = spawnSync('hyperfine', ['--version']).status === 0;

// round > 0 writes different content, so that every round's blobs are new to the caches
function stage(scenario, round = 0) {
  git('reset', '-q', '--hard', 'HEAD');
  const edits = [];
  const plainIdx = [5, 6, 7, 8, 9, 10];
  if (scenario === 'anchored') {
    for (const s of [3, 17, 42]) edits.push([anchoredFile(s), (t) => t.replace('return x * 2;', `return x * ${3 + round};`)]);
  } else {
    for (const i of [1, 2, 3]) plainIdx.push(i + 100);
  }
  for (const i of plainIdx) edits.push([file(i), (t) => t.replace("return 'service", `return 'the service (${round})`)]);
  edits.push(['.contextia/system/rationale/DEC-001.md', (t) => t.replace('Because.', `Because it is simpler (${round}).`)]);
  edits.push(['README.md', (t) => t + `\nMore (${round}).\n`]);
  for (const [p, f] of edits.slice(0, 10)) {
    write(p, f(readFileSync(path.join(dir, p), 'utf8')));
    git('add', '--', p);
  }
  return git('diff', '--cached', '--name-only').split('\n').filter(Boolean).length;
}

console.log(`repository: ${total} files (${SPECS + DECS} artifacts, ${SPECS} stamped symbol anchors), ${dir}`);
console.log(`node ${process.version}, ${RUNS} repeated runs per scenario\n`);
for (const scenario of ['plain', 'anchored']) {
  const staged = stage(scenario);
  // the first run sees this commit's blobs for the first time (as every real commit does)
  const first = timeOnce(hook, []);
  const out = first.r.stdout + first.r.stderr;
  const summary = out.trim().split('\n').filter((l) => l.includes('git-ctx:')).pop() ?? out.trim();
  const repeated = [];
  for (let i = 0; i < RUNS; i++) repeated.push(timeOnce(hook, []).ms);
  const direct = [];
  for (let i = 0; i < RUNS; i++) direct.push(timeOnce(process.execPath, [BIN, 'hook', 'pre-commit']).ms);
  const rs = stats(repeated);
  const ds = stats(direct);
  // what every real commit pays: the first run over blobs no cache has seen, several rounds
  const firsts = [first.ms];
  for (let round = 1; round < FIRST_ROUNDS; round++) {
    stage(scenario, round);
    firsts.push(timeOnce(hook, []).ms);
  }
  const fs1 = stats(firsts);
  console.log(`${scenario}: ${staged} staged files, exit ${first.r.status}; ${summary}`);
  console.log(`  hook script, first run after staging : min ${fmt(fs1.min)}  median ${fmt(fs1.median)}  max ${fmt(fs1.max)}  (${firsts.length} rounds of new content)`);
  console.log(`  hook script, repeated                : min ${fmt(rs.min)}  median ${fmt(rs.median)}  max ${fmt(rs.max)}`);
  console.log(`  git ctx hook pre-commit, repeated    : min ${fmt(ds.min)}  median ${fmt(ds.median)}  max ${fmt(ds.max)}`);
  if (hasHyperfine) {
    const h = spawnSync('hyperfine', ['-N', '--warmup', '1', '--runs', String(RUNS), '-i', '--style', 'basic', hook], { cwd: dir, env, encoding: 'utf8' });
    const line = h.stdout.split('\n').find((l) => l.includes('Time (mean'));
    if (line) console.log(`  hyperfine (hook script)              : ${line.trim()}`);
  }
  console.log('');
}
const node = stats(Array.from({ length: RUNS }, () => timeOnce(process.execPath, ['-e', '0']).ms));
const version = stats(Array.from({ length: RUNS }, () => timeOnce(process.execPath, [BIN, '--version']).ms));
console.log(`baseline: node -e 0 median ${fmt(node.median)}; git-ctx --version median ${fmt(version.median)}`);
if (!args.includes('--keep')) rmSync(dir, { recursive: true, force: true });
