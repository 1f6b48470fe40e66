#!/usr/bin/env node
// Benchmark: the cost of the decision-near-duplicate check rule (DEC-022) on a generated
// repository of N active decisions: `git ctx check` with the rule off, on with a cold vector
// cache (every record embedded by the default embedder), and on with a warm one.
// Usage: npm run build && node bench/authoring-rule.mjs [--decisions N] [--runs N]
// Wall-clock figures include Node start-up; `node -e 0` is measured in the same run.
import './lib/help.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { srcBuildId } from '../scripts/build-id.mjs';

// the caches of the build bin/git-ctx.js runs (built from this src/, DEC-117)
const CACHE_REL = `.git/ctx/cache/build-${srcBuildId(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'))}`;

const args = process.argv.slice(2);
const opt = (name, def) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : def);
const N = opt('--decisions', 1000);
const RUNS = opt('--runs', 3);
const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/git-ctx.js');

const WORDS = ('payment invoice currency refund ledger webhook retry backoff cache redis postgres queue event stream audit log metric trace token session ' +
  'login password email template report export import schedule batch worker thread timeout limit quota rate gateway proxy route handler ' +
  'schema migration index backup restore replica shard tenant account customer merchant order cart price discount tax shipping address').split(' ');
let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = (n) => Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]);

const dir = mkdtempSync(path.join(tmpdir(), 'git-ctx-bench-authoring-rule-'));
const git = (...a) => execFileSync('git', a, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
git('init', '-q', '-b', 'main');
git('config', 'user.email', 'bench@example.com');
git('config', 'user.name', 'bench');
mkdirSync(path.join(dir, '.contextia/system/rationale'), { recursive: true });
for (let i = 1; i <= N; i++) {
  const id = `DEC-${String(i).padStart(5, '0')}`;
  const title = pick(4).join(' ');
  writeFileSync(path.join(dir, `.contextia/system/rationale/${id}.md`), `---\nid: ${id}\ntype: decision\ntitle: ${title}\nstatus: accepted\nsummary: ${pick(12).join(' ')}\n---\n# ${title}\n\n## Decision\n\n${pick(40).join(' ')}.\n\n## Context\n\n${pick(60).join(' ')}.\n`);
}
git('add', '-A');
git('commit', '-q', '-m', 'decisions');

const time = (cmd, argv, env = {}, before) => {
  const ms = [];
  for (let r = 0; r < RUNS; r++) {
    before?.();
    const t = process.hrtime.bigint();
    const p = spawnSync(cmd, argv, { cwd: dir, env: { ...process.env, NO_COLOR: '1', ...env }, encoding: 'utf8' });
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (p.status !== 0 && p.status !== 1) throw new Error(`${argv.join(' ')}: exit ${p.status}\n${p.stderr}`);
  }
  ms.sort((a, b) => a - b);
  return ms[Math.floor(ms.length / 2)];
};
const config = (on) => writeFileSync(path.join(dir, '.contextia/config.yaml'), on ? '' : 'severities:\n  decision-near-duplicate: off\n');
const vectors = path.join(dir, `${CACHE_REL}/vectors`);

const nodeMs = time(process.execPath, ['-e', '0']);
config(false);
time(process.execPath, [BIN, 'check'], {}); // warm the parse cache
const off = time(process.execPath, [BIN, 'check']);
config(true);
const cold = time(process.execPath, [BIN, 'check'], {}, () => rmSync(vectors, { recursive: true, force: true }));
const warm = time(process.execPath, [BIN, 'check']);
const f = spawnSync(process.execPath, [BIN, 'check', '--format', 'json'], { cwd: dir, encoding: 'utf8' });
const found = JSON.parse(f.stdout).findings.filter((x) => x.rule === 'decision-near-duplicate').length;
console.log(`decision-near-duplicate on ${N} generated decisions (median of ${RUNS}; provisional on a loaded machine)`);
console.log(`  node -e 0                      ${nodeMs.toFixed(0)} ms`);
console.log(`  git ctx check, rule off        ${off.toFixed(0)} ms`);
console.log(`  git ctx check, cold vectors    ${cold.toFixed(0)} ms   (+${(cold - off).toFixed(0)} ms)`);
console.log(`  git ctx check, warm vectors    ${warm.toFixed(0)} ms   (+${(warm - off).toFixed(0)} ms)`);
console.log(`  findings: ${found}`);
if (process.env.GIT_CTX_BENCH_KEEP) console.error(`kept ${dir}`);
else rmSync(dir, { recursive: true, force: true });
