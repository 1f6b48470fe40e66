#!/usr/bin/env node
// Benchmark of retrieval: `git ctx for <file>`, `git ctx hook agent-read` and `git ctx search`
// on generated repositories (10,000 source files with 300 records; 5,000 records), each
// figure beside `node -e 0` measured in the same run. Run after `npm run build`:
//   node bench/retrieve.mjs [--files 10000] [--records 5000] [--runs 7] [--keep]
// Cold = no .git/ctx cache (code index, import graph, keyword index built); warm = median; cpu =
// user + system time of that run (with /usr/bin/time), git's children included.
import './lib/help.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, KEEP, arg, requireBuild, seeded } from './lib/common.mjs';

requireBuild();
const FILES = arg("--files", 10000);
const RECORDS = arg('--records', 5000);
const RUNS = arg('--runs', 7);

const { rand, pick } = seeded(7);
const WORDS = 'invoice currency rate ledger payment refund customer order tax rounding retry queue event schema migration cache index audit report export import webhook token session account balance settlement dispute fee discount coupon subscription plan trial usage meter quota limit region locale'.split(' ');
const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
const camel = () => pick(WORDS) + pick(WORDS).replace(/^./, (c) => c.toUpperCase());

function write(dir, files) {
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), c);
  }
}
const rec = (id, type, extra, body) => `---\nid: ${id}\ntype: ${type}\ntitle: ${words(5)}\nstatus: ${type === 'decision' ? 'accepted' : 'active'}\nsummary: ${words(14)}\nkeywords: [${words(3).split(' ').join(', ')}]\n${extra}---\n\n# Title\n\n${body}\n`;

function makeRepo(name, files) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `git-ctx-bench-${name}-`));
  const git = (...a) => execFileSync('git', a, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Bench');
  git('config', 'user.email', 'bench@example.com');
  git('config', 'commit.gpgsign', 'false');
  write(dir, files);
  git('add', '-A');
  git('commit', '-q', '-m', 'bench');
  return dir;
}

// repository 1: FILES TypeScript files in 100 folders importing each other, 300 records
const code = {};
const paths = Array.from({ length: FILES }, (_, i) => `src/m${String(i % 100).padStart(2, '0')}/f${i}.ts`);
paths.forEach((p, i) => {
  const imps = [1, 2, 3].map(() => paths[Math.floor(rand() * FILES)]).filter((q) => q !== p);
  const rel = (q) => {
    let r = path.posix.relative(path.posix.dirname(p), q).replace(/\.ts$/, '');
    return r.startsWith('.') ? r : `./${r}`;
  };
  code[p] =
    imps.map((q, k) => `import { f${k} as g${k} } from '${rel(q)}';`).join('\n') +
    `\n// ${words(10)}\nexport function ${camel()}${i}(x: number): string {\n  const ${camel()} = '${words(4)}';\n  return ${camel()} + x;\n}\n` +
    (i % 50 === 0 ? `// @decision DEC-${String(i % 300).padStart(4, '0')}\nexport const tagged${i} = 1;\n` : '');
});
for (let i = 0; i < 300; i++) code[`.contextia/system/rationale/DEC-${String(i).padStart(4, '0')}.md`] = rec(`DEC-${String(i).padStart(4, '0')}`, 'decision', i % 3 === 0 ? `paths: [src/m${String(i % 100).padStart(2, '0')}/**]\n` : '', words(80));
const big = makeRepo('files', code);

// repository 2: RECORDS records, a few source files
const recs = { 'src/a.ts': 'export const a = 1;\n' };
for (let i = 0; i < RECORDS; i++) recs[`.contextia/system/rationale/DEC-${String(i).padStart(5, '0')}.md`] = rec(`DEC-${String(i).padStart(5, '0')}`, 'decision', '', words(120));
const many = makeRepo('records', recs);

// CPU time (user + system, git children included) says more than wall time on a shared machine
const HAS_TIME = spawnSync('/usr/bin/time', ['-f', '%U', 'true']).status === 0;
/** One run: wall and CPU milliseconds (cpu undefined without /usr/bin/time). */
function time(args, cwd, input) {
  const cmd = HAS_TIME ? '/usr/bin/time' : process.execPath;
  const full = HAS_TIME ? ['-f', '@@cpu %U %S', process.execPath, ...args] : args;
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, full, { cwd, input, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const m = /@@cpu ([\d.]+) ([\d.]+)/.exec(r.stderr);
  return { ms, cpu: m ? (Number(m[1]) + Number(m[2])) * 1000 : undefined };
}
/** The run of median wall time. */
const median = (xs) => [...xs].sort((a, b) => a.ms - b.ms)[Math.floor(xs.length / 2)];
const warm = (args, cwd, input) => median(Array.from({ length: RUNS }, () => time(args, cwd, input)));

const target = paths[4242 % FILES];
const rows = [];
const baseRun = warm(['-e', '0'], big);
const base = baseRun.ms;
rows.push(['node -e 0', baseRun]);
rmSync(path.join(big, '.git/ctx'), { recursive: true, force: true });
rows.push([`cold git ctx for <file> (${FILES} files: code index, import graph, keyword index)`, time([BIN, 'for', target, '--json'], big)]);
rows.push([`warm git ctx for <file> (${FILES} files)`, warm([BIN, 'for', target, '--json'], big)]);
const payload = JSON.stringify({ session_id: 'bench', hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: path.join(big, target) } });
rows.push([`warm git ctx hook agent-read (${FILES} files)`, warm([BIN, 'hook', 'agent-read'], big, payload)]);
rmSync(path.join(many, '.git/ctx'), { recursive: true, force: true });
rows.push([`cold git ctx search (${RECORDS} records)`, time([BIN, 'search', 'webhook', 'retry', 'limit', '--json'], many)]);
rows.push([`warm git ctx search (${RECORDS} records)`, warm([BIN, 'search', 'webhook', 'retry', 'limit', '--json'], many)]);
rows.push([`warm git ctx search naming a file (${RECORDS} records)`, warm([BIN, 'search', 'src/a.ts', 'webhook', 'retry', '--json'], many)]);
const base2 = warm(['-e', '0'], many);
rows.push(['node -e 0 (again)', base2]);

console.log(`machine: ${os.cpus().length} cores, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}; median of ${RUNS} warm runs`);
for (const [name, { ms, cpu: c }] of rows) {
  const cpu = c !== undefined ? `  cpu ${c.toFixed(0)} ms` : '';
  console.log(`${ms.toFixed(0).padStart(7)} ms  ${name}${name.startsWith('node') ? '' : `  (${(ms / base).toFixed(1)}× node -e 0; ${(ms - base).toFixed(0)} ms after start-up)`}${cpu}`);
}
if (KEEP) console.log(`kept: ${big} ${many}`);
else for (const d of [big, many]) rmSync(d, { recursive: true, force: true });
