#!/usr/bin/env node
// Benchmark of the code graph (src/code/graph): a generated repository of 10,000 source
// files (TypeScript, Python, Go, Java, importing and calling each other), committed for
// real; then, each in a fresh process so that module loading counts: a cold build (no
// cache), a warm `importers` question, a warm `callers` question, and a question after one
// file was edited in the work tree. Every figure is printed beside `node -e 0` measured in
// the same run.
//
//   npm run build && node bench/code-graph.mjs [--files 10000] [--keep]
//
// Targets (issue 13): cold build < 3 s; warm question ≤ 2× `node -e 0` and < 150 ms beyond it.
import './lib/help.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, realpathSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const arg = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : def;
};

if (args[0] === '--run') {
  // child: open the graph over an existing repository, ask one question, figures as JSON
  const [, repo, question, target, symbol] = args;
  const t0 = performance.now();
  const { openSnapshot } = await import('../dist/snapshot/open.js');
  const { openCodeNeighbours } = await import('../dist/code/graph/index.js');
  const snapshot = await openSnapshot({ cwd: repo });
  const t1 = performance.now();
  const g = await openCodeNeighbours(snapshot);
  const t2 = performance.now();
  const answer = question === 'importers' ? await g.importers(target) : question === 'callers' ? await g.callers(target, symbol) : [];
  const t3 = performance.now();
  snapshot.close();
  const rss = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(JSON.stringify({ total: t3 - t0, open: t2 - t1, question: t3 - t2, answers: answer.length, stats: g.stats, problems: g.problems.length, rssMB: rss }));
  process.exit(0);
}

const N = Number(arg('--files', '10000'));
const keep = args.includes('--keep');
const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'git-ctx-bench-graph-')));
const env = { ...process.env, GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'b@example.com', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'b@example.com', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const git = (...a) => execFileSync('git', a, { cwd: dir, env, stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 28 });

// deterministic pseudo-random numbers, so every run generates the same repository
let seed = 42;
const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const pick = (n) => Math.floor(rnd() * n);

// per language, files are numbered within their own sequence; each imports up to three
// earlier files of the same language and calls one function of each
const lang = (i) => (i % 20 < 10 ? 'ts' : i % 20 < 14 ? 'py' : i % 20 < 17 ? 'go' : 'java');
const seq = { ts: [], py: [], go: [], java: [] };
for (let i = 0; i < N; i++) seq[lang(i)].push(i);
const pos = (i) => seq[lang(i)].indexOf(i);
const earlier = (i) => {
  const k = pos(i);
  if (k === 0) return [];
  const out = new Set();
  for (let j = 0; j < 3; j++) out.add(seq[lang(i)][pick(k)]);
  return [...out];
};
const tsPath = (i) => `web/src/m${i % 50}/file${i}.ts`;
const pyPath = (i) => `py/app/p${i % 40}/mod${i}.py`;
const goDir = (i) => `go/internal/pkg${i}`;
const javaPath = (i) => `java/src/main/java/com/acme/p${i % 30}/C${i}.java`;

function tsFile(i) {
  const deps = earlier(i);
  const imports = deps.map((d) => `import { work${d} } from '@/m${d % 50}/file${d}';`).join('\n');
  const calls = deps.map((d) => `    total += work${d}([total]);`).join('\n');
  return `${imports}\nimport { readFileSync } from 'node:fs';\n\nexport function work${i}(input: number[]): number {\n  let total = 0;\n  for (const v of input) total += v * ${i % 7};\n  return total;\n}\n\nexport class Service${i} {\n  run(x: number): number {\n    let total = this.prepare(x);\n${calls}\n    return total + work${i}([x]);\n  }\n\n  private prepare(x: number): number {\n    return x + readFileSync.length;\n  }\n}\n`;
}
function pyFile(i) {
  const deps = earlier(i);
  const imports = deps.map((d) => `from app.p${d % 40}.mod${d} import handle_${d}`).join('\n');
  const calls = deps.map((d) => `        handle_${d}(event)`).join('\n');
  return `import json\n${imports}\n\n\ndef handle_${i}(event):\n    return json.dumps({"n": ${i}, "event": event})\n\n\nclass Worker${i}:\n    def run(self, event):\n${calls || '        pass'}\n        return self.finish(event)\n\n    def finish(self, event):\n        return handle_${i}(event)\n`;
}
function goFile(i) {
  const deps = earlier(i);
  const imports = deps.map((d) => `\t"example.com/bench/internal/pkg${d}"`).join('\n');
  const calls = deps.map((d) => `\tpkg${d}.Do${d}(n)`).join('\n');
  return `package pkg${i}\n\nimport (\n\t"fmt"\n${imports}\n)\n\ntype Svc${i} struct{ n int }\n\nfunc Do${i}(n int) string {\n\treturn fmt.Sprint(n + ${i})\n}\n\nfunc (s *Svc${i}) Run(n int) string {\n${calls}\n\treturn s.helper(n)\n}\n\nfunc (s *Svc${i}) helper(n int) string {\n\treturn Do${i}(n + s.n)\n}\n`;
}
function javaFile(i) {
  const deps = earlier(i);
  const imports = deps.map((d) => `import com.acme.p${d % 30}.C${d};`).join('\n');
  const calls = deps.map((d) => `        C${d}.compute(x);`).join('\n');
  return `package com.acme.p${i % 30};\n\n${imports}\nimport java.util.List;\n\npublic class C${i} {\n    public static int compute(int x) {\n        return x * ${i % 11};\n    }\n\n    public int run(int x) {\n${calls}\n        return this.helper(x);\n    }\n\n    private int helper(int x) {\n        return compute(x) + List.of(x).size();\n    }\n}\n`;
}

console.log(`generating ${N} files in ${dir} …`);
const tg = performance.now();
git('init', '-q', '-b', 'main');
const write = (rel, content) => {
  mkdirSync(path.join(dir, path.dirname(rel)), { recursive: true });
  writeFileSync(path.join(dir, rel), content);
};
write('web/tsconfig.json', JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'bundler', baseUrl: '.', paths: { '@/*': ['src/*'] } } }));
write('web/package.json', JSON.stringify({ name: '@bench/web', type: 'module' }));
write('go/go.mod', 'module example.com/bench\n\ngo 1.22\n');
for (let i = 0; i < N; i++) {
  const l = lang(i);
  if (l === 'ts') write(tsPath(i), tsFile(i));
  else if (l === 'py') write(pyPath(i), pyFile(i));
  else if (l === 'go') write(`${goDir(i)}/svc.go`, goFile(i));
  else write(javaPath(i), javaFile(i));
}
for (let k = 0; k < 40; k++) write(`py/app/p${k}/__init__.py`, '');
write('py/app/__init__.py', '');
git('add', '-A');
git('commit', '-q', '-m', 'generated');
console.log(`generated and committed in ${((performance.now() - tg) / 1000).toFixed(1)} s`);

function wallOf(argv) {
  const t = performance.now();
  const r = spawnSync(process.execPath, argv, { encoding: 'utf8', maxBuffer: 1 << 24 });
  const wall = performance.now() - t;
  if (r.status !== 0) {
    console.error(r.stderr);
    throw new Error(`run failed: ${argv.join(' ')}`);
  }
  return { wall, out: r.stdout };
}
const nodeBaseline = () => Math.min(...[0, 1, 2].map(() => wallOf(['-e', '0']).wall));

function run(label, question, target, symbol = '') {
  const base = nodeBaseline();
  const { wall, out } = wallOf([fileURLToPath(import.meta.url), '--run', dir, question, target, symbol]);
  const f = JSON.parse(out);
  console.log(
    `${label.padEnd(26)} process ${wall.toFixed(0).padStart(5)} ms   node -e 0 ${base.toFixed(0).padStart(4)} ms   beyond start-up ${(wall - base).toFixed(0).padStart(5)} ms (${(wall / base).toFixed(2)}×)   open ${f.open.toFixed(0).padStart(5)} ms   question ${f.question.toFixed(1)} ms   answers ${f.answers}   parsed ${f.stats.parsed} cached ${f.stats.cached}${f.stats.indexCached ? ' (index cached)' : ''}   RSS ${f.rssMB.toFixed(0)} MB`,
  );
  return { ...f, wall, base };
}

const tc = performance.now();
let acc = 0;
for (let i = 0; i < 1e8; i++) acc += i;
console.log(`calibration: 1e8-iteration loop ${(performance.now() - tc).toFixed(0)} ms (${acc > 0 ? 'ok' : ''}; ~100 ms on an idle modern core)`);

const hubTs = seq.ts[0];
const hubJava = seq.java[1];
try {
  rmSync(path.join(dir, '.git', 'ctx'), { recursive: true, force: true });
  const cold = run('cold build + importers', 'importers', tsPath(hubTs));
  const warmI = run('warm importers', 'importers', tsPath(hubTs));
  const warmC = run('warm callers', 'callers', javaPath(hubJava), `C${hubJava}.compute`);
  appendFileSync(path.join(dir, tsPath(seq.ts[seq.ts.length - 1])), '\nexport const edited = 1;\n');
  const edited = run('one file edited, importers', 'importers', tsPath(hubTs));
  const ok = (v, lim) => (v <= lim ? 'ok' : 'OVER');
  console.log('');
  console.log(`cold build      ${cold.wall.toFixed(0)} ms wall (target < 3000: ${ok(cold.wall, 3000)}), ${cold.stats.files} files, ${cold.problems} problems`);
  for (const [name, r] of [['warm importers', warmI], ['warm callers', warmC]]) console.log(`${name.padEnd(15)} ${(r.wall - r.base).toFixed(0)} ms beyond start-up (target < 150: ${ok(r.wall - r.base, 150)}), ${(r.wall / r.base).toFixed(2)}× node -e 0 (target ≤ 2: ${ok(r.wall / r.base, 2)})`);
  console.log(`after one edit  ${edited.wall.toFixed(0)} ms wall, parsed ${edited.stats.parsed}`);
} finally {
  if (!keep) rmSync(dir, { recursive: true, force: true });
  else console.log(`kept ${dir}`);
}
