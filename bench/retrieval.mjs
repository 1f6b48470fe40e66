#!/usr/bin/env node
// Retrieval quality bench: recall@5 and MRR@10 of `git ctx for` / `git ctx search` on a labelled
// dev set, per query kind, beside a plain BM25 baseline over the records' text; and, per kind, the
// share of queries answered with nothing (right for off-topic questions, kind `offtopic`) and the
// record most often in the first 3 of queries that do not label it.
//
// Dev sets: bench/retrieval/dotcom-rendering.json (default), bench/retrieval/git-en-boite.json,
// bench/retrieval/content-publisher.json, bench/retrieval/goboot.json, bench/retrieval/sylius.json (PHP, DEC-085),
// bench/retrieval/tendermint-rs.json (Rust, a Cargo workspace, DEC-088),
// bench/retrieval/semantic-kernel.json (C# and Python, 77 MADR records, DEC-091),
// bench/retrieval/python-tuf.json, bench/retrieval/carbon-aware-sdk.json,
// bench/retrieval/manage-get-gov.json, bench/retrieval/alfa.json and
// bench/retrieval/verify-service-provider.json (Java, DEC-131) (held-out, labelled blind;
// files no record governs have relevant [] like off-topic questions; see bench/README-retrieval-devsets.md).
//   npm run build && node bench/retrieval.mjs --data bench/retrieval/git-en-boite.json
// The BM25 baseline is run twice: `baseline` always answers (every record sharing a word),
// `baseline-floor` answers nothing when no record scores BM25_FLOOR (lib.mjs) or more.
//
// Usage: npm run build && node bench/retrieval.mjs [options]
//   --data FILE       dev set (default bench/retrieval/dotcom-rendering.json)
//   --repo PATH       git repository holding the dev set's pinned commit ($GIT_CTX_DEVSET_REPO; default
//                     /work/.mirror/<owner>+<name>/repo from the set's "repository", as `fetch` leaves it)
//   --work DIR        where the clone is cached between runs (default .bench-work/retrieval)
//   --fixture         run on test/fixtures/retrieval-paraphrase instead (invented records, no clone)
//   --baseline-only   skip git-ctx
//   --bin PATH        the git-ctx to measure (default this checkout's bin/git-ctx.js; its dist/ beside it)
//   --cli             always run git-ctx as a process per query, even if the library exports the engine
//   --ctx-arg ARG     extra argument for every git-ctx query (repeatable), e.g. --ctx-arg --all
//   --no-keywords-only  skip the second git-ctx run with the semantic slot off (GIT_CTX_EMBED_PROVIDER=off)
//   --json            print the result as JSON instead of tables
//   --verbose         list, per query, the relevant records and both top-5 lists
// git-ctx runs through the library when dist/index.js exports the engine (checked against the CLI
// on a few queries first), else as `git ctx for|search … --format json`, one process per query.
// Exit: 0 done (also when git-ctx is unavailable: the baseline is printed and the reason said),
//       2 bad usage, bad data, or the repository cannot be prepared.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import yaml from 'js-yaml';
import {
  BM25_FLOOR,
  Bm25,
  KINDS,
  MRR_DEPTH,
  RECALL_AT,
  TOP_SHOWN,
  bm25Answer,
  formatAnswerTable,
  formatTable,
  isPlaceKind,
  queryTokens,
  scoreRanking,
  summarise,
  summariseAnswers,
  validateDataset,
} from './retrieval/lib.mjs';
import { BenchError, RECORD_EXT, checkoutPinned, cloneOnce, fail, gitEnv, mirrorOf } from './lib/devset-repo.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin/git-ctx.js');
const DEFAULT_MIRROR = '/work/.mirror/guardian+dotcom-rendering/repo';
const FIXTURE = path.join(ROOT, 'test/fixtures/retrieval-paraphrase');
const QUERY_TIMEOUT_MS = 120_000;

const HELP = `Usage: node bench/retrieval.mjs [--data FILE] [--repo PATH] [--work DIR] [--fixture] [--bin PATH]
                                [--baseline-only] [--cli] [--ctx-arg ARG]... [--no-keywords-only] [--json] [--verbose]

Recall@${RECALL_AT} and MRR@${MRR_DEPTH} per query kind for git-ctx (for/search) and a BM25 baseline; git-ctx runs
twice, with the semantic slot (the embedder of the environment/config) and with it off
(column "keywords-only"), so the slot's gain shows beside BM25 alone. A second table gives,
per kind, the share answered with nothing and the record most often in the top ${TOP_SHOWN} of
queries that do not label it; "baseline-floor" is BM25 answering nothing below ${BM25_FLOOR}.

Examples:
  node bench/retrieval.mjs                       # dotcom-rendering dev set, mirror at its default path
  node bench/retrieval.mjs --data bench/retrieval/git-en-boite.json   # the second set (SmartBear/git-en-boite)
  node bench/retrieval.mjs --data bench/retrieval/content-publisher.json   # the third (alphagov/content-publisher, Ruby)
  node bench/retrieval.mjs --data bench/retrieval/python-tuf.json   # held-out, labelled blind (theupdateframework/python-tuf, Python, MADR)
  node bench/retrieval.mjs --data bench/retrieval/carbon-aware-sdk.json   # held-out, labelled blind (Green-Software-Foundation/carbon-aware-sdk, C#)
  node bench/retrieval.mjs --data bench/retrieval/manage-get-gov.json   # held-out, labelled blind (cisagov/manage.get.gov, Python, Django)
  node bench/retrieval.mjs --data bench/retrieval/alfa.json   # held-out, labelled blind (Siteimprove/alfa, TypeScript)
  node bench/retrieval.mjs --data bench/retrieval/verify-service-provider.json   # held-out, labelled blind (alphagov/verify-service-provider, Java)
  node bench/retrieval.mjs --repo ~/src/dotcom-rendering --json > quality.json
  node bench/retrieval.mjs --fixture --verbose   # the invented payments fixture
  GIT_CTX_EMBED_PROVIDER=openai GIT_CTX_EMBED_URL=http://127.0.0.1:11434 GIT_CTX_EMBED_MODEL=nomic-embed-text \\
    node bench/retrieval.mjs --fixture           # another embedder (the keywords-only column stays the same)
  node bench/retrieval.mjs --ctx-arg --all       # pass --all to every git-ctx query (forces the CLI)
  node bench/retrieval.mjs --bin ../other/bin/git-ctx.js   # measure another build of git-ctx`;

function parseArgs(argv) {
  const o = { ctxArgs: [], bin: BIN };
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
    } else if (a === '--data') o.data = value();
    else if (a === '--repo') o.repo = value();
    else if (a === '--work') o.work = value();
    else if (a === '--ctx-arg') o.ctxArgs.push(value());
    else if (a === '--bin') o.bin = path.resolve(value());
    else if (a === '--fixture') o.fixture = true;
    else if (a === '--baseline-only') o.baselineOnly = true;
    else if (a === '--cli') o.cli = true;
    else if (a === '--no-keywords-only') o.noKeywordsOnly = true;
    else if (a === '--json') o.json = true;
    else if (a === '--verbose') o.verbose = true;
    else usage(`unknown option ${a}`);
  }
  if (o.fixture && (o.data || o.repo)) usage('--fixture takes its data and records from test/fixtures/retrieval-paraphrase; drop --data/--repo');
  return o;
}

function usage(msg) {
  console.error(`bench/retrieval.mjs: ${msg}\n\n${HELP}`);
  process.exit(2);
}

const git = (cwd, ...args) =>
  execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28 }).trim();

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    fail(`cannot read ${file}: ${e.message}`);
  }
}

/** Clone (once) the repository into the work dir, check out the pinned commit, commit the config. */
function prepareClone(data, repo, work) {
  if (!data.commit) fail('the dev set names no "commit" to pin');
  const dir = cloneOnce(repo, path.join(work, `${data.name}-${data.commit.slice(0, 12)}`), data.repository ?? 'the dev set repository');
  try {
    checkoutPinned(dir, data.commit);
  } catch (e) {
    fail(`commit ${data.commit} is not in ${repo}: ${e.stderr?.toString().trim() || e.message}`);
  }
  git(dir, 'clean', '-fdq', '-e', '.contextia');
  writeConfig(dir, data.config);
  return dir;
}

/** Writes .contextia/config.yaml (when the set has one) and commits it, so HEAD and the work tree agree. */
function writeConfig(dir, config) {
  if (!config) return;
  const file = path.join(dir, '.contextia/config.yaml');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `# written by bench/retrieval.mjs from the dev set\n${yaml.dump(config, { lineWidth: 120 })}`);
  git(dir, 'add', '.contextia/config.yaml');
  // write-tree --missing-ok, not `git commit`: a blob the mirror lacks (see checkoutPinned) stays in the tree as it is
  const tree = git(dir, 'write-tree', '--missing-ok');
  const commit = git(dir, 'commit-tree', tree, '-p', 'HEAD', '-m', 'bench: git-ctx sources for the retrieval dev set');
  git(dir, 'update-ref', 'HEAD', commit);
}

/** A throwaway repository holding the fixture's records, one commit. */
function prepareFixture() {
  const dir = mkdtempSync(path.join(tmpdir(), 'git-ctx-bench-retrieval-'));
  cpSync(path.join(FIXTURE, 'repo'), dir, { recursive: true });
  git(dir, 'init', '--quiet', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '--quiet', '--no-verify', '-m', 'fixture');
  return dir;
}

/** The records the baseline ranks: files under each source dir, and every .contextia artifact. */
function listRecords(dir, config) {
  const dirs = ['.contextia', ...(config?.sources ?? []).map((s) => String(s.dir).replace(/\/+$/, ''))];
  const files = new Set();
  for (const d of dirs) {
    const out = git(dir, 'ls-files', '-z', '--', d);
    for (const f of out.split('\0')) {
      if (!f || !RECORD_EXT.test(f)) continue;
      if (f.startsWith('.contextia/') && f.endsWith('config.yaml')) continue;
      files.add(f);
    }
  }
  return [...files].sort().map((f) => ({ id: f, text: readFileSync(path.join(dir, f), 'utf8') }));
}

/** Whether the git-ctx at `bin` has `for` and `search`, and why not when it does not. */
function detectGitCtx(cwd, bin) {
  if (!existsSync(bin)) return { available: false, reason: `${bin} does not exist` };
  if (!existsSync(path.join(distOf(bin), 'cli/main.js'))) return { available: false, reason: `${distOf(bin)} is missing: run \`npm run build\` first` };
  const r = spawnSync(process.execPath, [bin, '--help'], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const help = r.stdout ?? '';
  const missing = ['for', 'search'].filter((c) => !new RegExp(`^\\s+${c}\\b`, 'm').test(help));
  if (missing.length) return { available: false, reason: `this git-ctx has no ${missing.map((c) => `\`${c}\``).join(' or ')} command (issue 13 not merged yet)` };
  return { available: true };
}

/** The built library beside a bin/git-ctx.js. */
function distOf(bin) {
  return path.join(path.dirname(bin), '../dist');
}

/**
 * The engine through the library entry, when dist/index.js exports it: either
 * `retrieve({ cwd, place } | { cwd, query })`, or `retrieveForPlace` / `retrieveForText` over a
 * snapshot and artifact set loaded once (what `git ctx for|search` do with default options).
 * Returns a function query → `--format json`-shaped answer, or null (the CLI is used).
 */
async function loadLibrary(bin, cwd) {
  let lib;
  try {
    lib = await import(pathToFileURL(path.join(distOf(bin), 'index.js')).href);
  } catch {
    return null;
  }
  const isPlace = (q) => isPlaceKind(q.kind);
  if (typeof lib.retrieve === 'function') return (q) => lib.retrieve(isPlace(q) ? { cwd, place: q.input } : { cwd, query: q.input });
  const needed = ['retrieveForPlace', 'retrieveForText', 'openSnapshot', 'loadConfig', 'loadArtifactSet', 'parseTraceTarget'];
  if (!needed.every((n) => typeof lib[n] === 'function')) return null;
  const snapshot = await lib.openSnapshot({ cwd, rev: 'HEAD' });
  const set = await lib.loadArtifactSet(snapshot, await lib.loadConfig(snapshot));
  const index = typeof lib.buildCodeIndex === 'function' ? await lib.buildCodeIndex(snapshot, set.config) : undefined;
  // the semantic lane as configured, as `git ctx for|search` run it
  const semantic = typeof lib.semanticLaneFor === 'function' ? lib.semanticLaneFor(snapshot.root, set) : undefined;
  const base = { snapshot, set, ...(index ? { index } : {}), ...(semantic ? { semantic } : {}) };
  const ask = (q) =>
    isPlace(q)
      ? lib.retrieveForPlace({ ...base, target: lib.parseTraceTarget(q.input, snapshot.root, cwd), place: q.input })
      : lib.retrieveForText({ ...base, text: q.input });
  // the snapshot keeps a git process open: closed when the run is done, or the bench never exits
  ask.close = () => snapshot.close();
  return ask;
}

const execFileP = promisify(execFile);

function ctxArgv(query, extra) {
  const place = isPlaceKind(query.kind);
  return place ? ['for', query.input, '--format', 'json', ...extra] : ['search', ...query.input.split(/\s+/).filter(Boolean), '--format', 'json', ...extra];
}

function filesOf(result) {
  if (!result || !Array.isArray(result.results)) throw new Error('the answer has no "results" list');
  const out = [];
  for (const r of result.results) {
    const f = typeof r?.file === 'string' ? r.file.replace(/\\/g, '/').replace(/^\.\//, '') : null;
    if (f && !out.includes(f)) out.push(f);
  }
  return out;
}

async function runCli(bin, cwd, query, extra, env = {}) {
  try {
    const { stdout } = await execFileP(process.execPath, [bin, ...ctxArgv(query, extra)], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', ...env },
      timeout: QUERY_TIMEOUT_MS,
      maxBuffer: 1 << 26,
    });
    return filesOf(JSON.parse(stdout));
  } catch (e) {
    // exit 1 may still carry an answer (findings-style exit); anything else is an error for this query
    if (e.code === 1 && e.stdout) {
      try {
        return filesOf(JSON.parse(e.stdout));
      } catch {
        /* fall through */
      }
    }
    const text = (e.stderr || e.message).toString().trim();
    const lines = text.split('\n');
    const gist = lines.find((l) => /\b(\w*Error|error)\b/.test(l)) ?? lines[0];
    const err = new Error(`${ctxArgv(query, extra).slice(0, 2).join(' ')} … exited ${e.code ?? e.signal}: ${gist}`, { cause: e });
    err.detail = text.slice(0, 4000);
    throw err;
  }
}

/** Number of queries answered both ways before the library is trusted for the rest. */
const CROSS_CHECK = 3;

async function runGitCtx(cwd, queries, opts) {
  const bin = opts.bin;
  // extra CLI arguments have no library equivalent: they force the CLI
  // the library path has no semantic slot of its own: a run with an environment is a CLI run
  let library = opts.cli || opts.ctxArgs.length || opts.env ? null : await loadLibrary(bin, cwd).catch(() => null);
  let note = library ? '' : opts.cli ? '--cli' : opts.ctxArgs.length ? '--ctx-arg given' : opts.env ? 'semantic slot off' : 'the library does not export the engine';
  // the library must answer exactly as the CLI does; a few queries of each shape are compared
  if (library) {
    const sample = [...queries.filter((q) => isPlaceKind(q.kind)).slice(0, CROSS_CHECK), ...queries.filter((q) => !isPlaceKind(q.kind)).slice(0, CROSS_CHECK)];
    for (const q of sample) {
      const viaCli = await runCli(bin, cwd, q, []).catch((e) => `error: ${e.message}`);
      const viaLib = await Promise.resolve()
        .then(() => library(q))
        .then(filesOf)
        .catch((e) => `error: ${e.message}`);
      if (JSON.stringify(viaCli) !== JSON.stringify(viaLib)) {
        note = `library and CLI disagree on ${q.id} (${JSON.stringify(viaLib)} vs ${JSON.stringify(viaCli)}); the CLI is used`;
        library.close?.();
        library = null;
        break;
      }
    }
  }
  const rankings = {};
  const errors = [];
  const started = Date.now();
  const one = async (q) => {
    try {
      rankings[q.id] = library ? filesOf(await library(q)) : await runCli(bin, cwd, q, opts.ctxArgs, opts.env);
    } catch (e) {
      rankings[q.id] = [];
      errors.push({ id: q.id, error: e.message, ...(e.detail ? { detail: e.detail } : {}) });
    }
  };
  if (library) {
    for (const q of queries) await one(q);
    library.close?.();
  }
  else {
    // the first query alone (it builds the caches), then two processes at a time (a 2-core machine)
    if (queries.length) await one(queries[0]);
    let next = 1;
    const worker = async () => {
      while (next < queries.length) await one(queries[next++]);
    };
    await Promise.all([worker(), worker()]);
  }
  return { mode: library ? 'library' : 'cli', note, rankings, errors, ms: Date.now() - started };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const dataFile = opts.fixture ? path.join(FIXTURE, 'queries.json') : path.resolve(opts.data ?? path.join(ROOT, 'bench/retrieval/dotcom-rendering.json'));
  const data = readJson(dataFile);
  const problems = validateDataset(data);
  if (problems.length) fail(`${dataFile} is not a sound dev set:\n  ${problems.join('\n  ')}`);

  const mirror = mirrorOf(data.repository) ?? DEFAULT_MIRROR;
  const repo = path.resolve(opts.repo ?? process.env.GIT_CTX_DEVSET_REPO ?? mirror);
  const work = path.resolve(opts.work ?? path.join(ROOT, '.bench-work/retrieval'));
  const cwd = opts.fixture ? prepareFixture() : prepareClone(data, repo, work);
  try {
    const records = listRecords(cwd, data.config);
    if (!records.length) fail(`no records found in ${cwd} (sources: ${(data.config?.sources ?? []).map((s) => s.dir).join(', ') || '.contextia only'})`);
    const missing = [...new Set(data.queries.flatMap((q) => q.relevant))].filter((r) => !records.some((d) => d.id === r));
    if (missing.length) fail(`labelled records missing from the repository at ${data.commit ?? 'the fixture'}:\n  ${missing.join('\n  ')}`);

    const bm25 = new Bm25(records);
    const baselineRank = {};
    const baseline = {};
    const floorRank = {};
    const floored = {};
    const topScore = {};
    for (const q of data.queries) {
      const hits = bm25.search(queryTokens(q));
      topScore[q.id] = hits[0]?.score ?? 0;
      baselineRank[q.id] = hits.map((h) => h.id);
      baseline[q.id] = scoreRanking(q, baselineRank[q.id]);
      floorRank[q.id] = bm25Answer(hits);
      floored[q.id] = scoreRanking(q, floorRank[q.id]);
    }

    const status = opts.baselineOnly ? { available: false, reason: 'skipped (--baseline-only)' } : detectGitCtx(cwd, opts.bin);
    let ctx = null;
    let run = null;
    if (status.available) {
      run = await runGitCtx(cwd, data.queries, opts);
      ctx = {};
      for (const q of data.queries) ctx[q.id] = scoreRanking(q, run.rankings[q.id]);
    }
    let kwOnly = null;
    let kwRun = null;
    if (status.available && !opts.noKeywordsOnly) {
      kwRun = await runGitCtx(cwd, data.queries, { ...opts, env: { GIT_CTX_EMBED_PROVIDER: 'off' } });
      kwOnly = {};
      for (const q of data.queries) kwOnly[q.id] = scoreRanking(q, kwRun.rankings[q.id]);
    }
    const rows = summarise(data.queries, { baseline, 'baseline-floor': floored, ...(kwOnly ? { 'keywords-only': kwOnly } : {}), 'git-ctx': ctx });
    const answers = summariseAnswers(data.queries, {
      baseline: baselineRank,
      'baseline-floor': floorRank,
      ...(kwRun ? { 'keywords-only': kwRun.rankings } : {}),
      'git-ctx': run ? run.rankings : null,
    });
    const perQuery = data.queries.map((q) => ({
      id: q.id,
      kind: q.kind,
      relevant: q.relevant,
      baseline: { ...baseline[q.id], top: baselineRank[q.id].slice(0, RECALL_AT), topScore: Math.round(topScore[q.id] * 1000) / 1000 },
      'baseline-floor': { ...floored[q.id], top: floorRank[q.id].slice(0, RECALL_AT) },
      ...(kwOnly ? { 'keywords-only': { ...kwOnly[q.id], top: kwRun.rankings[q.id].slice(0, RECALL_AT) } } : {}),
      'git-ctx': ctx ? { ...ctx[q.id], top: run.rankings[q.id].slice(0, RECALL_AT) } : null,
    }));

    if (opts.json) {
      console.log(
        JSON.stringify(
          {
            dataset: data.name,
            commit: data.commit ?? null,
            records: records.length,
            recallAt: RECALL_AT,
            mrrDepth: MRR_DEPTH,
            topShown: TOP_SHOWN,
            bm25Floor: BM25_FLOOR,
            gitCtx: status.available
              ? { available: true, bin: opts.bin, mode: run.mode, modeNote: run.note, queryErrors: run.errors, emptyAnswers: data.queries.filter((q) => run.rankings[q.id].length === 0).length, ms: run.ms, args: opts.ctxArgs }
              : { available: false, reason: status.reason },
            rows,
            answers,
            queries: perQuery,
          },
          null,
          2,
        ),
      );
      return;
    }
    console.log(`dev set ${data.name}${data.commit ? ` @ ${data.commit.slice(0, 12)}` : ''}: ${data.queries.length} queries over ${records.length} records (${KINDS.join(', ')})`);
    console.log(`baseline: BM25 (k1 1.2, b 0.75) over each record's whole text; file/symbol queries use the path's words`);
    console.log(`baseline-floor: the same, answering nothing when no record scores ${BM25_FLOOR} or more\n`);
    if (kwOnly) console.log(`keywords-only: git-ctx with the semantic slot off; git-ctx: with it (embedder: ${process.env.GIT_CTX_EMBED_PROVIDER || 'config, else default'})\n`);
    const systems = status.available ? ['baseline', 'baseline-floor', ...(kwOnly ? ['keywords-only'] : []), 'git-ctx'] : ['baseline', 'baseline-floor'];
    console.log(formatTable(rows, systems));
    // record ids are long paths: the table names a record by its file's stem
    const short = (id) => id.split('/').pop().replace(/\.[^.]+$/, '').slice(0, 28);
    console.log(`\nanswered with nothing (share) and the record most often in the top ${TOP_SHOWN} of queries that do not label it:\n`);
    console.log(formatAnswerTable(answers, systems, short));
    if (!status.available) console.log(`\ngit-ctx: unavailable — ${status.reason}. No git-ctx figures are printed.`);
    else {
      const extra = opts.ctxArgs.length ? ` with ${opts.ctxArgs.join(' ')}` : '';
      const how = run.mode === 'library' ? 'through the library (matched the CLI on a sample)' : `one CLI process per query${run.note ? ` (${run.note})` : ''}`;
      console.log(`\ngit-ctx (${opts.bin}): ${how}${extra}, ${data.queries.length} queries in ${(run.ms / 1000).toFixed(1)} s`);
      const empty = data.queries.filter((q) => run.rankings[q.id].length === 0).length;
      if (empty === data.queries.length) console.log(`git-ctx returned no record for any query: does it read the records (the \`sources:\` config needs ADR support)?`);
      else if (empty) console.log(`git-ctx returned no record for ${empty} of ${data.queries.length} queries`);
      if (run.errors.length) {
        console.log(`git-ctx failed on ${run.errors.length} queries (counted as empty results):`);
        for (const e of run.errors.slice(0, 10)) console.log(`  ${e.id}: ${e.error}`);
      }
    }
    if (opts.verbose) {
      console.log('');
      for (const p of perQuery) {
        const q = data.queries.find((x) => x.id === p.id);
        console.log(`${p.id} [${p.kind}] ${q.input}`);
        console.log(`  relevant: ${p.relevant.join(', ')}`);
        console.log(`  baseline R@${RECALL_AT} ${p.baseline.recall.toFixed(2)} RR ${p.baseline.rr.toFixed(2)} (top score ${p.baseline.topScore}): ${p.baseline.top.join(', ') || '(nothing)'}`);
        if (p['keywords-only']) console.log(`  kw-only  R@${RECALL_AT} ${p['keywords-only'].recall.toFixed(2)} RR ${p['keywords-only'].rr.toFixed(2)}: ${p['keywords-only'].top.join(', ') || '(nothing)'}`);
        if (p['git-ctx']) console.log(`  git-ctx  R@${RECALL_AT} ${p['git-ctx'].recall.toFixed(2)} RR ${p['git-ctx'].rr.toFixed(2)}: ${p['git-ctx'].top.join(', ') || '(nothing)'}`);
      }
    }
  } finally {
    if (opts.fixture) rmSync(cwd, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (e) {
  if (!(e instanceof BenchError)) throw e;
  console.error(`bench/retrieval.mjs: ${e.message}`);
  process.exitCode = 2;
}
