#!/usr/bin/env node
// Benchmark of `git ctx impact` on a generated repository: 10,000 TypeScript files importing
// and calling each other, 2,000 records with symbol anchors, `paths` globs, annotations in the
// code, `requires` and relations. Each figure is printed beside `node -e 0` measured in the
// same run, with and without NODE_EXTRA_CA_CERTS (which this VM sets). Run after `npm run build`:
//   node bench/impact.mjs [--files 10000] [--records 2000] [--runs 7] [--keep]
// Cold = no .git/ctx (code index, code graph, edges computed); warm = median of --runs.
// Each row gives wall time and CPU time (user + system, git children included): on a busy
// machine the wall measures the neighbours too.
// Backends: the evidence store (SQLite, the default) and the file fallback (SQLite not loaded).
import './lib/help.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, KEEP, arg, childCpuMs, requireBuild, seeded } from './lib/common.mjs';

requireBuild();
const FILES = arg('--files', 10000);
const RECORDS = arg('--records', 2000);
const RUNS = arg('--runs', 7);

const { rand, pick } = seeded(11);
const WORDS = 'invoice currency rate ledger payment refund customer order tax rounding retry queue event schema migration cache index audit report export'.split(' ');
const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
const id = (i) => `DEC-${String(i).padStart(4, '0')}`;
const fn = (i) => `f${i}`;

const files = {};
const paths = Array.from({ length: FILES }, (_, i) => `src/m${String(i % 100).padStart(2, '0')}/f${i}.ts`);
paths.forEach((p, i) => {
  const deps = [1, 2, 3].map(() => Math.floor(rand() * FILES)).filter((j) => j !== i);
  const rel = (q) => {
    const r = path.posix.relative(path.posix.dirname(p), q).replace(/\.ts$/, '');
    return r.startsWith('.') ? r : `./${r}`;
  };
  files[p] =
    deps.map((j) => `import { ${fn(j)} } from '${rel(paths[j])}';`).join('\n') +
    `\n${i % 10 === 0 ? `// @decision ${id(i % RECORDS)}\n` : ''}export function ${fn(i)}(x: number): number {\n  return ${deps.map((j) => `${fn(j)}(x)`).join(' + ') || 'x'};\n}\n`;
});
for (let i = 0; i < RECORDS; i++) {
  const fm = [];
  if (i % 2 === 0) fm.push(`anchors: ["${paths[(i * 5) % FILES]}#${fn((i * 5) % FILES)}"]`);
  if (i % 5 === 0) fm.push(`paths: [src/m${String(i % 100).padStart(2, '0')}/**, "!src/m${String(i % 100).padStart(2, '0')}/f1*.ts"]`);
  if (i > 0 && i % 3 === 0) fm.push(`requires: [${id(i - 1)}]`);
  if (i > 10 && i % 7 === 0) fm.push(`relations:\n  depends_on: [${id(i - 10)}]`);
  files[`.contextia/system/rationale/${id(i)}.md`] = `---\nid: ${id(i)}\ntype: decision\ntitle: ${words(5)}\nstatus: accepted\nsummary: ${words(12)}\n${fm.map((l) => l + '\n').join('')}---\n\n# Title\n\n${words(60)}\n`;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'git-ctx-bench-impact-'));
const git = (...a) => execFileSync('git', a, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
git('init', '-q', '-b', 'main');
git('config', 'user.name', 'Bench');
git('config', 'user.email', 'bench@example.com');
git('config', 'commit.gpgsign', 'false');
for (const [p, c] of Object.entries(files)) {
  mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
  writeFileSync(path.join(dir, p), c);
}
git('add', '-A');
git('commit', '-q', '-m', 'bench');

const noCerts = { ...process.env };
delete noCerts.NODE_EXTRA_CA_CERTS;
function time(args, env = process.env) {
  const c0 = childCpuMs();
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', env: { ...env, NO_COLOR: '1' } });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, cpu: childCpuMs() - c0 };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const warm = (args, env) => {
  const runs = Array.from({ length: RUNS }, () => time(args, env));
  return { ms: median(runs.map((r) => r.ms)), cpu: median(runs.map((r) => r.cpu)) };
};
const noSqlite = { ...process.env, GIT_CTX_SQLITE_MODULE: 'git-ctx-bench-no-sqlite' };

const forward = [BIN, 'impact', id(30), '--json'];
const reverseFile = [BIN, 'impact', paths[4242 % FILES], '--json'];
const reverseSymbol = [BIN, 'impact', `${paths[1234 % FILES]}#${fn(1234 % FILES)}`, '--depth', '3', '--json'];
const rows = [];
const base = warm(['-e', '0']);
rows.push(['node -e 0', base, base]);
rows.push([`cold git ctx impact <id> (${FILES} files, ${RECORDS} records: code index, edges)`, time(forward), base]);
rows.push([`warm git ctx impact <id> (forward, depth 3)`, warm(forward), base]);
rows.push([`warm git ctx impact <file> (reverse, depth 3, first walk builds the code graph)`, time(reverseFile), base]);
rows.push([`warm git ctx impact <file> (reverse, depth 3)`, warm(reverseFile), base]);
rows.push([`warm git ctx impact <file#symbol> (reverse, depth 3)`, warm(reverseSymbol), base]);
time(forward, noSqlite);
rows.push([`warm git ctx impact <id>, file backend (no SQLite)`, warm(forward, noSqlite), base]);
const baseNoCerts = warm(['-e', '0'], noCerts);
rows.push(['node -e 0 without NODE_EXTRA_CA_CERTS', baseNoCerts, baseNoCerts]);
rows.push(['warm git ctx impact <id> without NODE_EXTRA_CA_CERTS', warm(forward, noCerts), baseNoCerts]);
rows.push(['warm git ctx impact <file> without NODE_EXTRA_CA_CERTS', warm(reverseFile, noCerts), baseNoCerts]);
rows.push(['warm git ctx impact <file#symbol> without NODE_EXTRA_CA_CERTS', warm(reverseSymbol, noCerts), baseNoCerts]);

const out = JSON.parse(spawnSync(process.execPath, reverseFile, { cwd: dir, encoding: 'utf8' }).stdout);
console.log(`machine: ${os.cpus().length} cores, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}; median of ${RUNS} warm runs; target under 300 ms warm`);
console.log(`reverse <file> reached ${out.artifacts.length} records and ${out.code.length} code places; ${out.edges.count} edges from ${out.edges.origins} origins (${out.edges.backend})`);
console.log('   wall    cpu');
for (const [name, t, b] of rows) console.log(`${t.ms.toFixed(0).padStart(7)} ${t.cpu.toFixed(0).padStart(6)} ms  ${name}${name.startsWith('node') ? '' : `  (${(t.ms / b.ms).toFixed(1)}× node -e 0; ${(t.ms - b.ms).toFixed(0)} ms after start-up)`}`);
if (KEEP) console.log(`kept: ${dir}`);
else rmSync(dir, { recursive: true, force: true });
