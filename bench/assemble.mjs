#!/usr/bin/env node
// Benchmark of `git ctx <TASK-ID>` on a generated repository of 2,000 artifacts with real
// commits. Run after `npm run build`:  node bench/assemble.mjs [--artifacts 2000] [--runs 9] [--keep]
// Prints wall times of the real CLI (node start-up included) for a cold run (no token-count
// cache), warm runs, --at an older commit, and a budgeted run; and the in-process library time.
import './lib/help.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, KEEP, ROOT, arg, childCpuMs, requireBuild, seeded } from './lib/common.mjs';

requireBuild();
const N = arg('--artifacts', 2000);
const RUNS = arg('--runs', 9);

// deterministic PRNG (mulberry32), so every run benchmarks the same repository
let { rand, pick } = seeded(42);
const pickN = (xs, n) => {
  const out = new Set();
  while (out.size < Math.min(n, xs.length)) out.add(pick(xs));
  return [...out];
};
const WORDS = 'invoice currency rate ledger payment refund customer order tax rounding retry queue event schema migration cache index audit report export import webhook token session account balance settlement dispute fee discount coupon subscription plan trial usage meter quota limit region locale'.split(' ');
const sentence = () => {
  const n = 8 + Math.floor(rand() * 14);
  const w = Array.from({ length: n }, () => pick(WORDS));
  return w[0][0].toUpperCase() + w.join(' ').slice(1) + '.';
};
const para = (k) => Array.from({ length: k }, sentence).join(' ');

// shape: ~10% specs, ~50% decisions, ~7.5% norms, the rest tasks, in 20 domains
const domains = Array.from({ length: 20 }, (_, i) => `d${String(i).padStart(2, '0')}`);
const nSpec = Math.round(N * 0.1);
const nDec = Math.round(N * 0.5);
const nNorm = Math.round(N * 0.075);
const nTask = N - 1 - nSpec - nDec - nNorm;
const dom = (i) => domains[i % domains.length];
const specs = Array.from({ length: nSpec }, (_, i) => ({ id: `SPEC-${dom(i).toUpperCase()}-${String(i).padStart(4, '0')}`, d: dom(i) }));
const decs = Array.from({ length: nDec }, (_, i) => ({ id: `DEC-${dom(i).toUpperCase()}-${String(i).padStart(4, '0')}`, d: dom(i) }));
const norms = Array.from({ length: nNorm }, (_, i) => ({ id: `NORM-${String(i).padStart(4, '0')}`, d: dom(i), scope: i % 5 === 0 ? 'global' : 'domain' }));
const tasks = Array.from({ length: nTask }, (_, i) => ({ id: `TASK-${String(i).padStart(4, '0')}`, d: dom(i) }));
const inDomain = (xs, d) => xs.filter((x) => x.d === d);

const yamlList = (xs) => `[${xs.join(', ')}]`;
function file(fm, body) {
  const lines = Object.entries(fm)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${v}`);
  return `---\n${lines.join('\n')}\n---\n${body}`;
}
function body(title) {
  return `# ${title}\n\n${para(3)}\n\n## Context\n\n${para(4)}\n\n## Consequences\n\n${para(3)}\n`;
}

function generate(dir, edited = 0) {
  const w = (rel, text) => {
    const p = path.join(dir, '.contextia', rel);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, text);
  };
  w('identity.md', file({ id: 'IDENTITY', type: 'identity', title: 'Bench Corp', summary: 'Generated repository for the assembly benchmark.' }, `# Bench Corp\n\n${para(3)}\n`));
  for (const [i, s] of specs.entries()) {
    const ds = inDomain(decs, s.d);
    const ns = inDomain(norms, s.d);
    const links = `{ decisions: ${yamlList(pickN(ds, 3 + Math.floor(rand() * 6)).map((x) => x.id))}, norms: ${yamlList(pickN(ns, 1 + Math.floor(rand() * 3)).map((x) => x.id))} }`;
    const title = `Spec ${i} of ${s.d}${i < edited ? ' (revised)' : ''}`;
    w(`system/specs/${s.id}.md`, file({ id: s.id, type: 'spec', title, status: 'active', scope: 'domain', domain: s.d, summary: sentence(), keywords: yamlList(pickN(WORDS, 3)), links, requires: yamlList([pick(norms).id]), paths: yamlList([`src/${s.d}/m${i % 7}/**`]) }, body(title)));
  }
  for (const [i, x] of decs.entries()) {
    // some decisions depend on others (links.decisions), a few across domains
    const deps = rand() < 0.3 ? pickN(rand() < 0.8 ? inDomain(decs, x.d) : decs, 1 + Math.floor(rand() * 2)).filter((y) => y.id !== x.id) : [];
    const title = `Decision ${i} in ${x.d}`;
    w(`system/rationale/${x.id}.md`, file({ id: x.id, type: 'decision', title, status: pick(['accepted', 'accepted', 'accepted', 'proposed', 'superseded']), scope: 'project', domain: x.d, summary: sentence(), links: deps.length ? `{ decisions: ${yamlList(deps.map((y) => y.id))} }` : undefined, paths: yamlList([`src/${x.d}/m${i % 7}/f${i % 13}.ts`]), owner: pick(['alice', 'bob', 'carol']), created: '2026-01-15' }, body(title)));
  }
  for (const [i, n] of norms.entries()) {
    const title = `Norm ${i}`;
    w(`system/norms/${n.id}.md`, file({ id: n.id, type: 'norm', title, status: 'active', scope: n.scope, domain: n.scope === 'domain' ? n.d : undefined, summary: sentence() }, body(title)));
  }
  for (const [i, t] of tasks.entries()) {
    const ss = inDomain(specs, t.d);
    const title = `Task ${i}`;
    const extra = rand() < 0.3 ? `, decisions: ${yamlList([pick(inDomain(decs, t.d)).id])}` : '';
    w(`work/tasks/${t.id}.md`, file({ id: t.id, type: 'task', title, status: 'active', summary: sentence(), links: `{ specs: ${yamlList(pickN(ss, 1 + Math.floor(rand() * 3)).map((x) => x.id))}${extra} }` }, `# ${title}\n\n${para(4)}\n\n## Acceptance\n\n- ${sentence()}\n- ${sentence()}\n`));
  }
}

const gitEnv = (date) => ({
  ...process.env,
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
  GIT_AUTHOR_DATE: date,
  GIT_COMMITTER_DATE: date,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
});
const git = (dir, date, ...args) => execFileSync('git', args, { cwd: dir, env: gitEnv(date), stdio: ['ignore', 'pipe', 'pipe'] }).toString().trim();

const cpuTimes = new Map();
function time(args, cwd, label, env = process.env) {
  const c0 = childCpuMs();
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...env, NO_COLOR: '1' }, maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`git-ctx ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  if (label) cpuTimes.set(label, [...(cpuTimes.get(label) ?? []), childCpuMs() - c0]);
  return { ms, out: r.stdout };
}
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0], median: s[Math.floor(s.length / 2)], max: s[s.length - 1] };
};
const fmt = (s, label) => {
  const cpu = label && cpuTimes.get(label) ? stats(cpuTimes.get(label)) : undefined;
  return `wall min ${s.min.toFixed(0)} / median ${s.median.toFixed(0)} / max ${s.max.toFixed(0)} ms${cpu && !Number.isNaN(cpu.median) ? ` · cpu median ${cpu.median.toFixed(0)} ms` : ''}`;
};

const dir = mkdtempSync(path.join(os.tmpdir(), 'git-ctx-bench-'));
try {
  const tg0 = Date.now();
  git(dir, '2026-01-01T00:00:00Z', 'init', '-q', '-b', 'main');
  generate(dir);
  git(dir, '2026-01-01T00:00:00Z', 'add', '-A');
  git(dir, '2026-01-01T00:00:00Z', 'commit', '-q', '-m', 'generated artifacts');
  const old = git(dir, '2026-01-01T00:00:00Z', 'rev-parse', 'HEAD');
  // later history: revise 60 specs, then another commit
  ({ rand, pick } = seeded(42));
  generate(dir, 60);
  git(dir, '2026-01-02T00:00:00Z', 'add', '-A');
  git(dir, '2026-01-02T00:00:00Z', 'commit', '-q', '-m', 'revise specs');
  git(dir, '2026-01-03T00:00:00Z', 'commit', '-q', '--allow-empty', '-m', 'later');
  console.log(`repository: ${N} artifacts (${nSpec} specs, ${nDec} decisions, ${nNorm} norms, ${nTask} tasks), 3 commits, generated in ${Date.now() - tg0} ms`);

  // the task with the largest bundle is the honest case
  const candidates = tasks.slice(0, 40).map((t) => t.id);
  let task = candidates[0];
  let most = 0;
  for (const id of candidates.slice(0, 10)) {
    const n = JSON.parse(time([id, '--format', 'json', '--depth', 'meta'], dir).out).entries.length;
    if (n > most) {
      most = n;
      task = id;
    }
  }
  rmSync(path.join(dir, '.git/ctx'), { recursive: true, force: true });
  const nodeOnly = stats(Array.from({ length: RUNS }, () => {
    const t0 = process.hrtime.bigint();
    spawnSync(process.execPath, ['-e', '0']);
    return Number(process.hrtime.bigint() - t0) / 1e6;
  }));
  const version = stats(Array.from({ length: RUNS }, () => time(['--version'], dir, 'version').ms));
  const cold = time([task], dir, 'cold');
  const warm = stats(Array.from({ length: RUNS }, () => time([task], dir, 'warm').ms));
  const coldAt = time([task, '--at', old], dir, 'coldAt');
  const at = stats(Array.from({ length: RUNS }, () => time([task, '--at', old], dir, 'at').ms));
  const budget = stats(Array.from({ length: RUNS }, () => time([task, '--budget', '4000'], dir, 'budget').ms));
  const json = stats(Array.from({ length: RUNS }, () => time([task, '--format', 'json'], dir, 'json').ms));
  // NODE_EXTRA_CA_CERTS makes Node parse a certificate bundle at every start (~85 ms on the
  // machine these figures come from); most developer machines do not set it
  const caEnv = process.env.NODE_EXTRA_CA_CERTS ? { ...process.env } : undefined;
  if (caEnv) delete caEnv.NODE_EXTRA_CA_CERTS;
  const nodeNoCa = caEnv
    ? stats(Array.from({ length: RUNS }, () => {
        const t0 = process.hrtime.bigint();
        spawnSync(process.execPath, ['-e', '0'], { env: caEnv });
        return Number(process.hrtime.bigint() - t0) / 1e6;
      }))
    : undefined;
  const warmNoCa = caEnv ? stats(Array.from({ length: RUNS }, () => time([task], dir, 'warmNoCa', caEnv).ms)) : undefined;
  // an agent edits one artifact of the bundle, then asks again: one file re-parsed, and its
  // new text counted (the tokenizer loads for that one miss)
  const bundled = JSON.parse(time([task, '--format', 'json'], dir).out).entries.find((e) => e.type === 'spec');
  const edited = path.join(dir, bundled.file);
  writeFileSync(edited, readFileSync(edited, 'utf8') + '\nEdited by the benchmark.\n');
  const afterEdit = time([task], dir, 'afterEdit');
  const afterEditWarm = stats(Array.from({ length: RUNS }, () => time([task], dir, 'afterEditWarm').ms));
  const first = time([task], dir).out;
  const header = first.split('\n').slice(0, 8).join('\n');

  // in-process: what the MCP server pays per call once Node and the modules are loaded
  const { assembleBundle, renderBundle } = await import(path.join(ROOT, 'dist/assemble/index.js'));
  await assembleBundle({ cwd: dir, id: task });
  const libTimes = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    renderBundle(await assembleBundle({ cwd: dir, id: task }), 'context');
    libTimes.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const lib = stats(libTimes);
  // the encoder load that the token cache avoids
  const t0 = process.hrtime.bigint();
  const { get_encoding } = await import('@dqbd/tiktoken');
  const enc = get_encoding('o200k_base');
  enc.free();
  const tiktokenLoad = Number(process.hrtime.bigint() - t0) / 1e6;

  console.log(`task: ${task} (${most} entries)\n${header}\n`);
  console.log(`load: ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} on ${os.cpus().length} CPUs (wall times include whatever else runs)`);
  console.log(`node -e 0 (start-up only)            ${fmt(nodeOnly)}`);
  console.log(`git-ctx --version (import graph)     ${fmt(version, 'version')}`);
  console.log(`git-ctx ${task} cold (no caches; loads tiktoken)  ${fmt(stats([cold.ms]), 'cold')}`);
  console.log(`git-ctx ${task} warm                 ${fmt(warm, 'warm')}   target < 300 ms`);
  if (nodeNoCa) {
    console.log(`without NODE_EXTRA_CA_CERTS (set here; most machines do not set it):`);
    console.log(`  node -e 0                          ${fmt(nodeNoCa)}`);
    console.log(`  git-ctx ${task} warm               ${fmt(warmNoCa, 'warmNoCa')}`);
  }
  console.log(`git-ctx ${task} after editing ${bundled.id}, first run   ${fmt(stats([afterEdit.ms]), 'afterEdit')}`);
  console.log(`git-ctx ${task} after editing ${bundled.id}, warm        ${fmt(afterEditWarm, 'afterEditWarm')}`);
  console.log(`git-ctx ${task} --at <older> first   ${fmt(stats([coldAt.ms]), 'coldAt')}`);
  console.log(`git-ctx ${task} --at <older>         ${fmt(at, 'at')}   target < 500 ms`);
  console.log(`git-ctx ${task} --budget 4000        ${fmt(budget, 'budget')}`);
  console.log(`git-ctx ${task} --format json        ${fmt(json, 'json')}`);
  console.log(`assembleBundle + render in-process   ${fmt(lib)}`);
  console.log(`tiktoken o200k_base encoder load     ${tiktokenLoad.toFixed(0)} ms (paid only on token-cache misses)`);
} finally {
  if (KEEP) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
