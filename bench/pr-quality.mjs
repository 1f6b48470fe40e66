#!/usr/bin/env node
// Pull-request quality bench (issue 31): real commits of repositories with decision-record
// folders, replayed as pull requests through `git ctx pr --format json`, scored against the
// records a reviewer should be shown, beside a plain BM25 over the diff.
//
// Usage: npm run build && node bench/pr-quality.mjs [options]
//   --data FILE       a PR dev set (repeatable; default every bench/pr-devset/*.json)
//   --repo PATH       git repository holding the set's commits (one --data only; default
//                     /work/.mirror/<owner>+<name>/repo from the set's "repository", as `fetch` leaves it)
//   --work DIR        where the clones are kept between runs (default .bench-work/pr)
//   --bin PATH        the git-ctx to measure (default this checkout's bin/git-ctx.js, dist/ beside it)
//   --baseline-only   skip git-ctx
//   --check           let `git ctx pr` run its coherence check (default --no-check: the records
//                     shown do not depend on it, and it doubles the time)
//   --ctx-arg ARG     extra argument for every `git ctx pr` (repeatable), e.g. --ctx-arg --all
//   --only ID         only this case (repeatable)
//   --json            print the result as JSON instead of tables
//   --verbose         list, per case, the right records and what each system showed
//
// Each case is replayed in a clone of the mirror, reading git objects only: the base gets a
// commit on top that adds .contextia/config.yaml (the set's `config`), and the head becomes a
// commit with the head's tree plus that same file on top of it, with the head's message — a pull
// request whose config is committed at the base. Then
//   git ctx pr --base <base'> --head <head'> --format json --fail-on never --no-check
// and the record files behind the ids from `git ctx list --format json` at head'.
//
// Reported per set and over all sets, for git-ctx and the baseline:
//   hit@3    positives with a right record among the first 3 distinct records shown: the
//            answer's ranked list (records that existed before the change, declared then found;
//            a record the PR adds is listed apart, DEC-080), or for an older answer its
//            artifacts then each file's "also relevant" records; see bench/pr-devset/lib.mjs
//            shownRecords
//   MRR      reciprocal rank of the first right record shown (depth 10)
//   negatives  records shown for each case no record governs (the right answer is none)
//   noise    lockfiles, CI workflows/settings and generated files among the changed files, and
//            how many of them git-ctx lists a record for (the baseline ranks per PR, not per file)
// The baseline: BM25 (k1 1.2, b 0.75, as bench/retrieval.mjs) over the records at the base, the
// query being the diff's added and removed lines plus the commit messages of the range; it
// "shows" its first 3 records (a comment of 3), so a negative gets 3 whenever a word matches.
// Exit: 0 done (also when git-ctx is unavailable: the baseline is printed and the reason said),
//       2 bad usage, bad data, or a repository that cannot be prepared.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import yaml from 'js-yaml';
import { Bm25 } from './retrieval/lib.mjs';
import { BenchError, RECORD_EXT, checkoutPinned, cloneOnce, fail, gitEnv, mirrorOf } from './lib/devset-repo.mjs';
import { BASELINE_SHOWN, HIT_AT, RR_DEPTH, diffQueryTokens, noiseOf, shownRecords, summarisePr, validatePrDevset } from './pr-devset/lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin/git-ctx.js');
const SETS = path.join(ROOT, 'bench/pr-devset');
const PR_TIMEOUT_MS = 300_000;
const CONFIG_PATH = '.contextia/config.yaml';

const HELP = `Usage: node bench/pr-quality.mjs [--data FILE]... [--repo PATH] [--work DIR] [--bin PATH] [--baseline-only]
                                 [--check] [--ctx-arg ARG]... [--only ID]... [--json] [--verbose]

Replays each case of the PR dev sets (bench/pr-devset/*.json) as a pull request through
\`git ctx pr --format json\` and reports: a right record among the first ${HIT_AT} distinct records shown,
MRR, records shown for negatives, and records listed for lockfiles/CI/generated files — beside
BM25 over the diff's changed lines and the commit messages.

Examples:
  node bench/pr-quality.mjs                                   # every set, mirrors at their default paths
  node bench/pr-quality.mjs --data bench/pr-devset/git-en-boite.json --verbose
  node bench/pr-quality.mjs --json > pr-quality.json`;

function parseArgs(argv) {
  const o = { data: [], ctxArgs: [], only: [], bin: BIN };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) usage(`${a} needs a value`);
      return v;
    };
    if (a === '--help' || a === '-h') {
      console.log(HELP);
      process.exit(0);
    } else if (a === '--data') o.data.push(path.resolve(value()));
    else if (a === '--repo') o.repo = path.resolve(value());
    else if (a === '--work') o.work = path.resolve(value());
    else if (a === '--bin') o.bin = path.resolve(value());
    else if (a === '--ctx-arg') o.ctxArgs.push(value());
    else if (a === '--only') o.only.push(value());
    else if (a === '--baseline-only') o.baselineOnly = true;
    else if (a === '--check') o.check = true;
    else if (a === '--json') o.json = true;
    else if (a === '--verbose') o.verbose = true;
    else usage(`unknown option ${a}`);
  }
  if (o.repo && o.data.length !== 1) usage('--repo goes with exactly one --data');
  if (!o.data.length) o.data = readdirSync(SETS).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(SETS, f));
  return o;
}

function usage(msg) {
  console.error(`bench/pr-quality.mjs: ${msg}\n\n${HELP}`);
  process.exit(2);
}

const git = (cwd, args, opts = {}) =>
  execFileSync('git', args, { cwd, env: { ...gitEnv, ...opts.env }, encoding: 'utf8', input: opts.input, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1 << 28 }).trimEnd();

function readSet(file) {
  let data;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    fail(`cannot read ${file}: ${e.message}`);
  }
  const problems = validatePrDevset(data);
  if (problems.length) fail(`${file} is not a sound PR dev set:\n  ${problems.join('\n  ')}`);
  return data;
}

/** The tree of `commit` with the config file added, written with a private index. */
function treeWithConfig(dir, commit, blob) {
  const index = path.join(dir, '.git', `bench-pr-index-${process.pid}`);
  try {
    const env = { GIT_INDEX_FILE: index };
    git(dir, ['read-tree', commit], { env });
    git(dir, ['update-index', '--add', '--cacheinfo', `100644,${blob},${CONFIG_PATH}`], { env });
    // --missing-ok: a blob the mirror lacks (see checkoutPinned) stays in the tree as it is
    return git(dir, ['write-tree', '--missing-ok'], { env });
  } finally {
    rmSync(index, { force: true });
  }
}

/** base' (base + config) and head' (head's tree + config, on base', head's message). */
function replay(dir, c, blob) {
  for (const k of ['base', 'head']) {
    try {
      git(dir, ['cat-file', '-e', `${c[k]}^{commit}`]);
    } catch {
      fail(`${c.id}: ${k} ${c[k]} is not in the repository`);
    }
  }
  const base = git(dir, ['commit-tree', treeWithConfig(dir, c.base, blob), '-p', c.base, '-m', 'bench: git-ctx config at the pull request base']);
  const message = git(dir, ['log', '--format=%B', `${c.base}..${c.head}`]);
  const head = git(dir, ['commit-tree', treeWithConfig(dir, c.head, blob), '-p', base, '-F', '-'], { input: message || c.title });
  git(dir, ['update-ref', `refs/bench/${c.id}/base`, base]);
  git(dir, ['update-ref', `refs/bench/${c.id}/head`, head]);
  return { base, head, message };
}

/** The records at a commit: files of the config's source folders and .contextia artifacts. */
function recordsAt(dir, commit, config) {
  const dirs = ['.contextia', ...config.sources.map((s) => String(s.dir).replace(/\/+$/, ''))];
  const files = git(dir, ['ls-tree', '-r', '-z', '--name-only', commit, '--', ...dirs])
    .split('\0')
    .filter((f) => f && RECORD_EXT.test(f) && f !== CONFIG_PATH);
  return [...new Set(files)].sort().map((f) => ({ id: f, text: git(dir, ['show', `${commit}:${f}`]) }));
}

/** Whether the git-ctx at `bin` is built and has `pr`. */
function detectGitCtx(cwd, bin) {
  if (!existsSync(bin)) return { available: false, reason: `${bin} does not exist` };
  if (!existsSync(path.join(path.dirname(bin), '../dist/cli/main.js'))) return { available: false, reason: 'dist/ is missing: run `npm run build` first' };
  const r = spawnSync(process.execPath, [bin, '--help'], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (!/^\s+pr\b/m.test(r.stdout ?? '')) return { available: false, reason: 'this git-ctx has no `pr` command' };
  return { available: true };
}

const execFileP = promisify(execFile);

async function runCtx(bin, cwd, args) {
  const env = { ...process.env, NO_COLOR: '1', GIT_CTX_NO_RECORD: '1' };
  try {
    const { stdout } = await execFileP(process.execPath, [bin, ...args], { cwd, env, timeout: PR_TIMEOUT_MS, maxBuffer: 1 << 28 });
    return JSON.parse(stdout);
  } catch (e) {
    // exit 1 (findings) still carries the answer
    if (e.code === 1 && e.stdout) return JSON.parse(e.stdout);
    const text = (e.stderr || e.message).toString().trim();
    throw new Error(`git ctx ${args[0]} exited ${e.code ?? e.signal}: ${text.split('\n').slice(0, 3).join(' / ')}`, { cause: e });
  }
}

/** git-ctx's answer for one replayed case: the records shown and the noise files' records. */
async function askGitCtx(dir, pr, opts) {
  // `list` reads the working tree: head' checked out gives the ids' record files
  checkoutPinned(dir, pr.head);
  const list = await runCtx(opts.bin, dir, ['list', '--format', 'json']);
  const fileOf = new Map((list.artifacts ?? []).map((a) => [a.id, a.file]));
  const t0 = Date.now();
  const result = await runCtx(opts.bin, dir, ['pr', '--base', pr.base, '--head', pr.head, '--format', 'json', '--fail-on', 'never', ...(opts.check ? [] : ['--no-check']), ...opts.ctxArgs]);
  const ms = Date.now() - t0;
  // the changed files as the diff names them: ungovernable ones are not in result.files
  const changed = git(dir, ['diff', '--name-only', '-z', pr.base, pr.head]).split('\0').filter((p) => p && p !== CONFIG_PATH);
  const headOf = (p) => {
    try {
      return git(dir, ['cat-file', '-p', `${pr.head}:${p}`]).slice(0, 2000);
    } catch {
      return ''; // deleted at head
    }
  };
  const noise = noiseOf(changed, result, headOf).map((n) => ({ ...n, records: n.records.map((id) => fileOf.get(id) ?? id) }));
  return { shown: shownRecords(result, fileOf), noise, files: (result.files ?? []).length, ms };
}

function baselineAnswer(dir, c, pr, records) {
  const diff = git(dir, ['diff', '--no-color', '--no-ext-diff', '-U0', c.base, c.head]);
  const bm25 = new Bm25(records);
  const hits = bm25.search(diffQueryTokens(diff, pr.message || c.title));
  return { shown: hits.slice(0, BASELINE_SHOWN).map((h) => h.id), ranked: hits.slice(0, RR_DEPTH).map((h) => h.id) };
}

async function runSet(file, opts) {
  const data = readSet(file);
  const cases = data.cases.filter((c) => !opts.only.length || opts.only.includes(c.id));
  const dir = cloneOnce(opts.repo ?? mirrorOf(data.repository), path.join(opts.work ?? path.join(ROOT, '.bench-work/pr'), data.name), data.repository ?? 'the set repository');
  const blob = git(dir, ['hash-object', '-w', '--stdin'], { input: `# written by bench/pr-quality.mjs from the PR dev set\n${yaml.dump(data.config, { lineWidth: 120 })}` });
  const status = opts.baselineOnly ? { available: false, reason: 'skipped (--baseline-only)' } : detectGitCtx(dir, opts.bin);
  const ctx = {};
  const baseline = {};
  const errors = [];
  const perCase = [];
  for (const c of cases) {
    const pr = replay(dir, c, blob);
    const records = recordsAt(dir, pr.base, data.config);
    const missing = c.relevant.filter((r) => !records.some((d) => d.id === r));
    if (missing.length) fail(`${c.id}: labelled records missing at the base ${c.base.slice(0, 12)}: ${missing.join(', ')}`);
    // the baseline ranks by its whole list for MRR and shows its first 3
    const b = baselineAnswer(dir, c, pr, records);
    baseline[c.id] = { shown: b.shown };
    const row = { id: c.id, kind: c.kind, title: c.title, relevant: c.relevant, baseline: b.shown, baselineRanked: b.ranked };
    if (status.available) {
      try {
        ctx[c.id] = await askGitCtx(dir, pr, opts);
        row['git-ctx'] = { shown: ctx[c.id].shown, noise: ctx[c.id].noise, files: ctx[c.id].files, ms: ctx[c.id].ms };
      } catch (e) {
        errors.push({ id: c.id, error: e.message });
        row['git-ctx'] = null;
      }
    }
    perCase.push(row);
  }
  // MRR for the baseline reads its ranking beyond the 3 it shows
  const baselineRanked = Object.fromEntries(perCase.map((r) => [r.id, { shown: r.baselineRanked }]));
  const bSummary = summarisePr(cases, baselineRanked);
  const bShown = summarisePr(cases, baseline);
  return {
    dataset: data.name,
    repository: data.repository ?? null,
    cases: cases.length,
    gitCtx: status.available ? { available: true, bin: opts.bin, errors, summary: summarisePr(cases, ctx), ms: Object.values(ctx).map((x) => x.ms) } : { available: false, reason: status.reason },
    baseline: { ...bSummary, hits: bShown.hits, negativeShown: bShown.negativeShown, negativesAtMostOne: bShown.negativesAtMostOne, noiseFiles: null, noiseFilesWithRecord: null },
    perCase,
  };
}

function fmtRow(name, s) {
  if (!s) return [name, '—', '—', '—', '—'];
  const neg = s.negatives ? `${s.negativeShown.join(', ')} (≤1: ${s.negativesAtMostOne}/${s.negatives})` : '—';
  const noise = s.noiseFiles === null ? 'n/a (per PR)' : `${s.noiseFilesWithRecord}/${s.noiseFiles}`;
  return [name, `${s.hits}/${s.positives}`, s.mrr.toFixed(3), neg, noise];
}

function table(rows) {
  const head = ['system', `hit@${HIT_AT}`, 'MRR', 'records shown per negative', 'noise files given a record'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** Sums of two summaries (the "all sets" row). */
function add(a, b) {
  if (!a || !b) return null;
  const positives = a.positives + b.positives;
  return {
    positives,
    hits: a.hits + b.hits,
    mrr: positives ? (a.mrr * a.positives + b.mrr * b.positives) / positives : 0,
    negatives: a.negatives + b.negatives,
    negativeShown: [...a.negativeShown, ...b.negativeShown],
    negativesAtMostOne: a.negativesAtMostOne + b.negativesAtMostOne,
    noiseFiles: a.noiseFiles === null ? null : a.noiseFiles + b.noiseFiles,
    noiseFilesWithRecord: a.noiseFilesWithRecord === null ? null : a.noiseFilesWithRecord + b.noiseFilesWithRecord,
  };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const sets = [];
  for (const f of opts.data) sets.push(await runSet(f, opts));
  if (opts.json) {
    console.log(JSON.stringify({ hitAt: HIT_AT, rrDepth: RR_DEPTH, baselineShown: BASELINE_SHOWN, sets }, null, 2));
    return;
  }
  let allCtx = null;
  let allBase = null;
  for (const s of sets) {
    console.log(`\nPR dev set ${s.dataset} (${s.repository ?? 'local'}): ${s.cases} cases`);
    const ctx = s.gitCtx.available ? s.gitCtx.summary : null;
    console.log(table([fmtRow('baseline (BM25 over the diff)', s.baseline), fmtRow('git-ctx pr', ctx)]));
    if (!s.gitCtx.available) console.log(`git-ctx: unavailable — ${s.gitCtx.reason}`);
    else {
      const ms = [...s.gitCtx.ms].sort((x, y) => x - y);
      if (ms.length) console.log(`git ctx pr: median ${(ms[Math.floor(ms.length / 2)] / 1000).toFixed(1)} s, slowest ${(ms[ms.length - 1] / 1000).toFixed(1)} s per case`);
      for (const e of s.gitCtx.errors) console.log(`  ${e.id}: ${e.error}`);
    }
    allBase = allBase === null ? s.baseline : add(allBase, s.baseline);
    allCtx = allCtx === null ? ctx : add(allCtx, ctx);
    if (opts.verbose) {
      for (const r of s.perCase) {
        console.log(`\n${r.id} [${r.kind}] ${r.title}`);
        console.log(`  right:    ${r.relevant.join(', ') || '(none)'}`);
        console.log(`  baseline: ${r.baseline.join(', ') || '(nothing)'}`);
        if (r['git-ctx']) {
          console.log(`  git-ctx:  ${r['git-ctx'].shown.slice(0, 5).join(', ') || '(nothing)'}${r['git-ctx'].shown.length > 5 ? ` … (${r['git-ctx'].shown.length} in all)` : ''}`);
          for (const n of r['git-ctx'].noise) console.log(`  noise ${n.kind} ${n.file}: ${n.records.join(', ') || '(no record)'}`);
        }
      }
    }
  }
  if (sets.length > 1) {
    console.log(`\nall sets: ${sets.reduce((a, s) => a + s.cases, 0)} cases`);
    console.log(table([fmtRow('baseline (BM25 over the diff)', allBase), fmtRow('git-ctx pr', allCtx)]));
  }
}

try {
  await main();
} catch (e) {
  if (!(e instanceof BenchError)) throw e;
  console.error(`bench/pr-quality.mjs: ${e.message}`);
  process.exitCode = 2;
}
