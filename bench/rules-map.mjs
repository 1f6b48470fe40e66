#!/usr/bin/env node
// Benchmark of `git ctx rules export` and `git ctx map` on a generated repository of 2,000
// records (scripts/synthetic-artifacts.mjs), run as users run them (spawning bin/git-ctx.js),
// beside `node -e 0` measured in the same run; and how long the written map takes to become
// interactive in headless Chromium (page load to the graph drawn, filters and panel wired).
// Targets: rules export < 1 s, map < 2 s, interactive < 3 s. "cold" removes .git/ctx too (no
// artifact or token-count cache: every record parsed, the o200k rank table loaded and the
// entries near the budget counted; DEC-030), and checks it is gone; "files only" keeps it.
// The rule files of the previous run are moved out of the work tree rather than deleted, as in
// a fresh clone: on ext4 without a journal, inodes freed less than 30 s ago are skipped when
// new ones are allocated, so 2,137 files created right after 2,137 were deleted cost ~1 s of
// kernel time that no clone meets (DEC-035); one row still measures that case, named so.
// "fresh clone" is CI's case: the rule files committed, no .git/ctx, `--check`.
// Usage: npm run build && node bench/rules-map.mjs [--records N] [--runs N] [--keep]
import './lib/help.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeSyntheticRepo } from '../scripts/synthetic-artifacts.mjs';
import { BIN, KEEP, arg, childCpuMs, requireBuild } from './lib/common.mjs';

requireBuild();
const RECORDS = arg('--records', 2000);
const RUNS = arg('--runs', 3);
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', NO_COLOR: '1' };
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const dir = mkdtempSync(path.join(tmpdir(), 'git-ctx-bench-'));
const git = (...a) => execFileSync('git', a, { cwd: dir, env, encoding: 'utf8' });
git('init', '-q', '-b', 'main');
git('config', 'user.name', 'Bench');
git('config', 'user.email', 'bench@example.com');
git('config', 'gc.auto', '0');
writeSyntheticRepo(dir, RECORDS);
git('add', '-A');
git('commit', '-q', '-m', 'records');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Median wall time and CPU time (ms) of a process over RUNS runs. */
function time(args, { prep } = {}) {
  const walls = [];
  const cpus = [];
  for (let i = 0; i < RUNS; i++) {
    prep?.();
    const c0 = childCpuMs();
    const t0 = process.hrtime.bigint();
    const r = spawnSync(args[0], args.slice(1), { cwd: dir, env, encoding: 'utf8' });
    const wall = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    walls.push(wall);
    cpus.push(childCpuMs() - c0);
  }
  return { wall: median(walls), cpu: median(cpus) };
}
const fmt = (ms) => `${ms.toFixed(0).padStart(6)} ms`;
const rows = [];
const row = (label, r) => rows.push(`${label.padEnd(52)} ${fmt(r.wall)}${Number.isNaN(r.cpu) ? '' : `  cpu ${fmt(r.cpu)}`}`);

row('node -e 0', time([process.execPath, '-e', '0']));
row('node -e 0 (NODE_EXTRA_CA_CERTS unset)', (() => {
  const saved = env.NODE_EXTRA_CA_CERTS;
  delete env.NODE_EXTRA_CA_CERTS;
  const r = time([process.execPath, '-e', '0']);
  if (saved !== undefined) env.NODE_EXTRA_CA_CERTS = saved;
  return r;
})());
const cold = () => {
  rmSync(path.join(dir, '.git/ctx'), { recursive: true, force: true });
  if (existsSync(path.join(dir, '.git/ctx'))) throw new Error('.git/ctx still there: the cold run would not be cold');
};
const formats = ['--format', 'agents', '--format', 'claude', '--format', 'cursor', '--format', 'copilot'];
const OUTPUTS = ['AGENTS.md', 'CLAUDE.md', '.cursor', '.github'];
// the previous run's rule files moved aside (removed with the repository at the end)
const trash = mkdtempSync(path.join(tmpdir(), 'git-ctx-bench-trash-'));
let moved = 0;
const outputsAway = () => {
  const to = path.join(trash, String(moved++));
  mkdirSync(to);
  for (const p of OUTPUTS) if (existsSync(path.join(dir, p))) renameSync(path.join(dir, p), path.join(to, p));
};
const clean = () => {
  cold();
  outputsAway();
};
row(`rules export, ${RECORDS} records, 4 formats, cold`, time([process.execPath, BIN, 'rules', 'export', ...formats], { prep: clean }));
// the rule files removed but .git/ctx kept (token counts cached): the cost of writing ~2,100 files
row(`rules export, ${RECORDS} records, 4 formats, files only`, time([process.execPath, BIN, 'rules', 'export', ...formats], { prep: outputsAway }));
// as cold, but the rule files deleted just before (git clean): see the note at the top
const cleanDeleted = () => {
  cold();
  git('clean', '-qfdx', '--', ...OUTPUTS);
};
row(`rules export, cold, the files deleted just before`, time([process.execPath, BIN, 'rules', 'export', ...formats], { prep: cleanDeleted }));
row(`rules export, ${RECORDS} records, 4 formats, warm, up to date`, time([process.execPath, BIN, 'rules', 'export', ...formats]));
row(`rules export --check (no drift)`, time([process.execPath, BIN, 'rules', 'export', '--check']));
const mapFile = path.join(dir, 'map.html');
row(`map, ${RECORDS} records, cold`, time([process.execPath, BIN, 'map', '-o', mapFile], { prep: cold }));
row(`map, ${RECORDS} records, warm`, time([process.execPath, BIN, 'map', '-o', mapFile]));

if (existsSync(CHROMIUM)) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  try {
    const walls = [];
    const inPage = [];
    for (let i = 0; i < RUNS; i++) {
      const page = await browser.newPage({ viewport: { width: 1400, height: 800 } });
      const t0 = Date.now();
      await page.goto(pathToFileURL(mapFile).href);
      await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
      // interactive: a filter change is handled and a panel opens
      await page.locator('input[data-facet="type"]').first().uncheck();
      await page.evaluate(() => globalThis.gitCtxMap.select(globalThis.gitCtxMap.data.nodes[0].id, false));
      walls.push(Date.now() - t0);
      inPage.push(Number(await page.getAttribute('body', 'data-ready-ms')));
      await page.close();
    }
    walls.sort((a, b) => a - b);
    inPage.sort((a, b) => a - b);
    rows.push(`${'map interactive in Chromium (load → filter → panel)'.padEnd(52)} ${fmt(walls[Math.floor(walls.length / 2)])}`);
    rows.push(`${'  of which graph construction and first draw'.padEnd(52)} ${fmt(inPage[Math.floor(inPage.length / 2)])}`);
  } finally {
    await browser.close();
  }
} else rows.push(`map interactive: skipped, ${CHROMIUM} not found`);

// CI on a fresh clone: the rule files committed, no .git/ctx (last, so the map rows above meet
// the same repository as before this row existed)
git('add', '-A', '--', ...OUTPUTS);
git('commit', '-q', '-m', 'rule files');
row(`rules export --check, fresh clone (files committed)`, time([process.execPath, BIN, 'rules', 'export', '--check'], { prep: cold }));

console.log(`git-ctx rules export / map — ${RECORDS} records, median of ${RUNS} runs (wall time, Node start-up included; cpu: user + sys, git included)`);
console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.log(rows.join('\n'));
if (KEEP) console.log(`repository kept at ${dir}`);
else rmSync(dir, { recursive: true, force: true });
rmSync(trash, { recursive: true, force: true });
