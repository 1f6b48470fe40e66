#!/usr/bin/env node
// Benchmark: feedback ranking (retrieval.feedback_ranking, DEC-028). Usage:
//   npm run build && node bench/feedback-ranking.mjs [--runs N] [--votes N] [--keep]
//
//   node -e 0                  Node start-up on this machine, measured in the same run
//   for, ranking off           warm `git ctx for <file>` with feedback_ranking: false
//   for, ranking on            the same with feedback_ranking: true and N votes in the store
//   profile read + rank        in process: reading the store's profile file, scoring, reordering
// Medians of alternating runs; target: ranking on adds no more than a few ms to a warm `for`.
import './lib/help.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BIN, KEEP, ROOT, arg, requireBuild, seeded } from './lib/common.mjs';

requireBuild();
const RUNS = arg('--runs', 11);
const VOTES = arg('--votes', 2000);
const { openStore } = await import(path.join(ROOT, 'dist/store/store.js'));
const { readFeedbackProfile } = await import(path.join(ROOT, 'dist/store/feedback-profile.js'));
const { feedbackScores, rankWithFeedback } = await import(path.join(ROOT, 'dist/retrieve/feedback-rank.js'));

const dir = mkdtempSync(path.join(tmpdir(), 'git-ctx-bench-feedback-'));
const env = { ...process.env, NO_COLOR: '1', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@example.com', GIT_CTX_NO_RECORD: '1' };
const git = (...a) => execFileSync('git', a, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
const write = (p, s) => {
  mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
  writeFileSync(path.join(dir, p), s);
};
const time = (argv) => {
  const t = performance.now();
  const r = spawnSync(argv[0], argv.slice(1), { cwd: dir, env, encoding: 'utf8' });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed (${r.status}): ${r.stderr}`);
  return ms;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (ms) => `${ms.toFixed(1)} ms`;
const ranking = (on) => write('.contextia/config.yaml', `retrieval:\n  feedback_ranking: ${on}\n`);

// --- a small repository: 300 files, 40 records (as bench/evidence.mjs) --------------------------
git('init', '-q', '-b', 'main');
for (let i = 0; i < 300; i++) write(`src/mod${i % 10}/file${i}.ts`, `${i % 9 === 0 ? `// @decision DEC-${String(i % 40).padStart(3, '0')}\n` : ''}export function handle${i}(x: number): number {\n  return x + ${i};\n}\n`);
for (let d = 0; d < 40; d++) write(`.contextia/system/rationale/DEC-${String(d).padStart(3, '0')}.md`, `---\nid: DEC-${String(d).padStart(3, '0')}\ntype: decision\ntitle: Decision ${d} about module ${d % 10}\nstatus: accepted\nsummary: handle inputs of module ${d % 10}\npaths: [src/mod${d % 10}/**]\n---\n# Decision ${d}\n\nBody ${d}.\n`);
ranking(false);
git('add', '-A');
git('commit', '-q', '-m', 'bench');

// --- VOTES votes on place episodes all over the tree, 4 per episode ----------------------------
const { rand, pick } = seeded(28);
const store = openStore(dir);
const now = Date.now();
for (let e = 0; e < VOTES / 4; e++) {
  const file = `src/mod${e % 10}/file${Math.floor(rand() * 300)}.ts`;
  const id = `${(now - e * 1000).toString(36).padStart(9, '0')}${e.toString(16).padStart(6, '0')}`;
  store.insertEpisode({ id, at: now - e * 1000, caller: { kind: 'cli', command: 'for' }, query: { kind: 'place', text: file, place: file }, lanes: [], evidence: [] });
  const refs = new Set();
  while (refs.size < 4) refs.add(`DEC-${String(Math.floor(rand() * 40)).padStart(3, '0')}`);
  store.addFeedback(id, [...refs].map((ref) => ({ ref, verdict: pick(['useful', 'useful', 'not-useful', 'missing']) })));
}
store.close();

const FOR = [process.execPath, BIN, 'for', 'src/mod3/file33.ts'];
for (const on of [false, true]) {
  ranking(on);
  time(FOR); // warm caches
}
const node0 = [];
const off = [];
const onMs = [];
for (let i = 0; i < RUNS; i++) {
  node0.push(time([process.execPath, '-e', '0']));
  ranking(false);
  off.push(time(FOR));
  ranking(true);
  onMs.push(time(FOR));
}
// in process: what ranking itself costs on an answer of 10 declared + 5 fused + 3 links
const results = Array.from({ length: 18 }, (_, i) => ({ id: `DEC-${String(i).padStart(3, '0')}`, type: 'decision', title: '', file: '', slot: i < 10 ? 'declared' : i < 15 ? 'fused' : 'links', score: 1, why: [] }));
const inProc = [];
let votes = 0;
for (let i = 0; i < 200; i++) {
  const t = performance.now();
  const profile = readFeedbackProfile(dir);
  votes = profile.votes.length;
  rankWithFeedback(results, feedbackScores(profile, { kind: 'place', path: 'src/mod3/file33.ts' }));
  inProc.push(performance.now() - t);
}

console.log(`feedback ranking bench (${RUNS} runs, medians; ${votes} votes in the profile)`);
console.log(`  node -e 0                      ${fmt(median(node0))}`);
console.log(`  for, ranking off               ${fmt(median(off))}`);
console.log(`  for, ranking on                ${fmt(median(onMs))}   (+${(median(onMs) - median(off)).toFixed(1)} ms; target: a few ms)`);
console.log(`  profile read + rank (in proc)  ${median(inProc).toFixed(2)} ms`);
if (KEEP) console.log(`  kept ${dir}`);
else rmSync(dir, { recursive: true, force: true });
