#!/usr/bin/env node
// Benchmark: the evidence store (issue 18). Usage: npm run build && node bench/evidence.mjs [--runs N] [--episodes N] [--keep]
//
//   node -e 0              Node start-up on this machine, measured in the same run
//   for, recording off     `git ctx for <file>` with GIT_CTX_NO_RECORD=1
//   for, recording on      the same with recording (journal append + dirty flag of the files read)
//   append (in process)    one appendEpisode call, the recording itself
//   record (in process)    startEpisode + finish: HEAD, the dirty flag of the files read, the append
//   100,000 episodes       ingested from the journal; file size of the database
//   episodes --since 1d    the CLI listing on that store (warm: journal already ingested)
// Medians of alternating runs; targets: recording adds < 5 ms, 100k episodes < 100 MB,
// `episodes --since 1d` < 200 ms.
import './lib/help.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const RUNS = opt('--runs', 15);
const EPISODES = opt('--episodes', 100_000);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin/git-ctx.js');
const { appendEpisode } = await import(path.join(ROOT, 'dist/store/journal.js'));
const { openStore } = await import(path.join(ROOT, 'dist/store/store.js'));
const { startEpisode } = await import(path.join(ROOT, 'dist/store/record.js'));

const dir = mkdtempSync(path.join(tmpdir(), 'git-ctx-bench-evidence-'));
const env = { ...process.env, NO_COLOR: '1', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@example.com', GIT_CTX_NO_RECORD: '' };
const git = (...a) => execFileSync('git', a, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
const write = (p, s) => {
  mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
  writeFileSync(path.join(dir, p), s);
};
const time = (argv, extraEnv = {}) => {
  const t = performance.now();
  const r = spawnSync(argv[0], argv.slice(1), { cwd: dir, env: { ...env, ...extraEnv }, encoding: 'utf8' });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed (${r.status}): ${r.stderr}`);
  return ms;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${ms.toFixed(1)} ms`;

// --- a small repository: 300 files, 40 records ----------------------------------------------
git('init', '-q', '-b', 'main');
for (let i = 0; i < 300; i++) write(`src/mod${i % 10}/file${i}.ts`, `${i % 9 === 0 ? `// @decision DEC-${String(i % 40).padStart(3, '0')}\n` : ''}export function handle${i}(x: number): number {\n  return x + ${i};\n}\n`);
for (let d = 0; d < 40; d++) write(`.contextia/system/rationale/DEC-${String(d).padStart(3, '0')}.md`, `---\nid: DEC-${String(d).padStart(3, '0')}\ntype: decision\ntitle: Decision ${d} about module ${d % 10}\nstatus: accepted\nsummary: handle inputs of module ${d % 10}\npaths: [src/mod${d % 10}/**]\n---\n# Decision ${d}\n\nBody ${d}.\n`);
git('add', '-A');
git('commit', '-q', '-m', 'bench');

const node0 = [];
const off = [];
const on = [];
const FOR = [process.execPath, BIN, 'for', 'src/mod3/file33.ts'];
time(FOR, { GIT_CTX_NO_RECORD: '1' }); // warm caches
time(FOR);
for (let i = 0; i < RUNS; i++) {
  node0.push(time([process.execPath, '-e', '0']));
  off.push(time(FOR, { GIT_CTX_NO_RECORD: '1' }));
  on.push(time(FOR));
}
const appendUs = [];
for (let i = 0; i < 200; i++) {
  const t = performance.now();
  appendEpisode(dir, { caller: { kind: 'cli', command: 'bench' }, commit: 'a'.repeat(40), dirty: false, query: { kind: 'place', text: 'src/a.ts', place: 'src/a.ts' }, lanes: [{ name: 'declared', status: 'ok', count: 3, ms: 2 }], evidence: [1, 2, 3, 4, 5].map((r) => ({ kind: 'artifact', value: `DEC-00${r}`, grounding: 'indexed', rank: r, slot: 'declared' })) }, { env: {} });
  appendUs.push((performance.now() - t) * 1000);
}
// the whole recording in process: startEpisode (HEAD, dirty probe) + finish (flag of the place, append)
const recordUs = [];
const head = git('rev-parse', 'HEAD').trim();
for (let i = 0; i < 50; i++) {
  const t = performance.now();
  await startEpisode(dir, { caller: { kind: 'cli', command: 'bench' }, commit: head, env: {}, dirtyWaitMs: 1000 }).finish({ query: { kind: 'place', text: 'src/mod3/file33.ts', place: 'src/mod3/file33.ts' }, evidence: [], files: ['src/mod3/file33.ts', '.contextia/system/rationale/DEC-003.md'] });
  recordUs.push((performance.now() - t) * 1000);
}

// --- 100,000 episodes through the journal ---------------------------------------------------
rmSync(path.join(dir, '.git/ctx/evidence'), { recursive: true, force: true });
mkdirSync(path.join(dir, '.git/ctx/evidence'), { recursive: true });
const journal = path.join(dir, '.git/ctx/evidence/journal.jsonl');
const now = Date.now();
let chunk = '';
for (let i = 0; i < EPISODES; i++) {
  const at = now - Math.floor(((EPISODES - i) / EPISODES) * 30 * 86_400_000); // spread over 30 days, oldest first as a journal is written
  const ep = {
    v: 1,
    id: `${at.toString(36).padStart(9, '0')}${i.toString(16).padStart(6, '0')}`,
    at,
    caller: i % 3 === 0 ? { kind: 'mcp', command: 'context_for_code', session: `s${i % 50}` } : { kind: 'cli', command: 'for' },
    commit: 'c'.repeat(40),
    dirty: i % 4 === 0,
    query: { kind: 'place', text: `src/mod${i % 10}/file${i % 300}.ts`, place: `src/mod${i % 10}/file${i % 300}.ts` },
    lanes: ['declared', 'keywords', 'mentions', 'nearness', 'semantic', 'links', 'metadata'].map((name) => ({ name, status: 'ok', count: 1, ms: 1.2 })),
    evidence: [1, 2, 3, 4, 5].map((r) => ({ kind: 'artifact', value: `DEC-${String((i + r) % 40).padStart(3, '0')}`, grounding: 'indexed', rank: r, slot: r < 3 ? 'declared' : 'fused' })),
    ms: 40,
  };
  chunk += JSON.stringify(ep) + '\n';
  if (chunk.length > 1 << 20) {
    appendFileSync(journal, chunk);
    chunk = '';
  }
}
appendFileSync(journal, chunk);
const journalBytes = statSync(journal).size;
let t = performance.now();
const store = openStore(dir);
const ingestMs = performance.now() - t;
const stats = store.stats();
store.close();
const dbBytes = statSync(path.join(dir, '.git/ctx/evidence/evidence.db')).size;
const LIST = [process.execPath, BIN, 'episodes', '--since', '1d'];
time(LIST);
const list = [];
const node0b = [];
for (let i = 0; i < RUNS; i++) {
  node0b.push(time([process.execPath, '-e', '0']));
  list.push(time(LIST));
}

const mb = (b) => `${(b / 1024 / 1024).toFixed(1)} MB`;
console.log(`evidence store bench (${RUNS} runs, medians; NODE_EXTRA_CA_CERTS ${process.env.NODE_EXTRA_CA_CERTS ? 'set' : 'unset'})`);
console.log(`  node -e 0                      ${fmt(median(node0))}`);
console.log(`  for, recording off             ${fmt(median(off))}`);
console.log(`  for, recording on              ${fmt(median(on))}   (+${(median(on) - median(off)).toFixed(1)} ms; target < 5 ms)`);
console.log(`  append one episode (in process) ${median(appendUs).toFixed(0)} µs`);
console.log(`  record one episode (in process: HEAD, dirty flag of 2 files, append) ${median(recordUs).toFixed(0)} µs`);
console.log(`  ${EPISODES} episodes: journal ${mb(journalBytes)}, ingested in ${(ingestMs / 1000).toFixed(1)} s, database ${mb(dbBytes)} (target < 100 MB); ${stats.episodes} episodes, ${stats.evidence} references`);
console.log(`  node -e 0                      ${fmt(median(node0b))}`);
console.log(`  episodes --since 1d            ${fmt(median(list))}   (target < 200 ms)`);
if (!args.includes('--keep')) rmSync(dir, { recursive: true, force: true });
else console.log(`kept ${dir}`);
