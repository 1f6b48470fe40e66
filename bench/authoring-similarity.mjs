#!/usr/bin/env node
// Calibration of the near-duplicate score behind `git ctx add`, MCP add_decision and the
// decision-conflict check rule (DEC-022). Scores drafts written in other words than the
// records they restate (near-duplicates, expected ≥ threshold) and drafts about something
// else (expected below), on the fixture test/fixtures/authoring-similar and on the
// dotcom-rendering dev set records; then every pair of active records of each.
//
//   npm run build && node bench/authoring-similarity.mjs [--repo PATH] [--json]
//
// The dotcom-rendering records are read from a clone of the mirror at the dev set's commit
// (default /work/.mirror/guardian+dotcom-rendering/repo; $GIT_CTX_DEVSET_REPO); skipped when absent.

import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.join(HERE, '..');
const args = process.argv.slice(2);
const json = args.includes('--json');
const repoArg = args.includes('--repo') ? args[args.indexOf('--repo') + 1] : undefined;
const MIRROR = repoArg ?? process.env.GIT_CTX_DEVSET_REPO ?? '/work/.mirror/guardian+dotcom-rendering/repo';

const lib = await import(pathToFileURL(path.join(ROOT, 'dist/index.js')).href);
const sim = await import(pathToFileURL(path.join(ROOT, 'dist/authoring/similar.js')).href);
const gitEnv = { ...process.env, GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'bench@example.com', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'bench@example.com', GIT_CONFIG_NOSYSTEM: '1' };
const git = (cwd, ...a) => execFileSync('git', a, { cwd, env: gitEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** Drafts for the fixture: [expected near-duplicate id or null, draft]. Written for this bench. */
const FIXTURE_CASES = [
  ['DEC-001', { decision: 'Store an idempotency key for every charge in Redis so that a retried request never charges the customer twice.' }],
  ['DEC-001', { title: 'Deduplicate payment requests', decision: 'Payment requests carry a unique key; we keep the keys in Redis for a day and answer repeats with the first response.' }],
  ['DEC-002', { decision: 'Convert currencies with the European Central Bank reference rates, refreshed once per day.' }],
  ['DEC-003', { decision: 'Keep all business data (orders, customers, invoices) in a single Postgres cluster with versioned migrations.' }],
  ['DEC-004', { decision: 'Failed webhook deliveries are retried with exponentially growing delays for up to 72 hours.' }],
  ['DEC-007', { decision: 'Represent monetary amounts as integer cents with a currency code; never use floats for money.' }],
  ['DEC-009', { decision: 'API access tokens are JWTs that expire after fifteen minutes, with rotating refresh tokens.' }],
  [null, { decision: 'Use GraphQL for the public merchant API instead of REST endpoints.' }],
  [null, { decision: 'Deploy every service on Kubernetes with one Helm chart per service.' }],
  [null, { decision: 'Write the mobile app in Kotlin Multiplatform.' }],
  [null, { decision: 'Send transactional emails through one provider with templates kept in the repository.' }],
  [null, { decision: 'Rate limit the public API per merchant with a token bucket in the gateway.' }],
  [null, { decision: 'Keep an append-only ledger of every balance change, double entry.' }],
  [null, { decision: 'Use Storybook to review admin UI components in isolation.' }],
  [null, { decision: 'Store uploaded invoices as PDFs in object storage with signed URLs.' }],
];

/** Drafts for dotcom-rendering records, written for this bench (not taken from the records). */
const DCR = 'dotcom-rendering/docs/architecture';
const DCR_CASES = [
  ['ADR-028', { decision: 'Allow the React context API for global, immutable app configuration such as the rendering target, instead of prop drilling.' }],
  ['ADR-019', { decision: 'Ship Preact instead of React to readers, to make the JavaScript bundle smaller.' }],
  ['ADR-004', { title: 'Emotion for component styles', decision: 'Write component styles with the Emotion CSS-in-JS library.' }],
  ['ADR-030', { decision: 'Remove AMP pages from dotcom-rendering and stop rendering AMP.' }],
  ['ADR-009', { decision: 'Develop and review UI components in isolation in Storybook.' }],
  ['ADR-013', { decision: 'Test components with Jest and React Testing Library.' }],
  ['ADR-018', { decision: 'Write function components with React hooks rather than class components.' }],
  [null, { decision: 'Store reader sessions in Redis with a 30 minute expiry.' }],
  [null, { decision: 'Use PostgreSQL for the article database.' }],
  [null, { decision: 'Adopt Kotlin for the Android news app.' }],
  [null, { decision: 'Serve the content API over GraphQL.' }],
  [null, { decision: 'Deploy the rendering service on Kubernetes instead of EC2 autoscaling groups.' }],
  [null, { decision: 'Track page views with a first-party analytics endpoint instead of third-party tags.' }],
  [null, { decision: 'Use Tailwind utility classes for component styles.' }],
  [null, { decision: 'Translate the site into French and Spanish with ICU message files.' }],
];

async function load(dir) {
  const snapshot = await lib.openSnapshot({ cwd: dir });
  const set = await lib.loadArtifactSet(snapshot, await lib.loadConfig(snapshot));
  return { snapshot, set };
}

function fixtureRepo() {
  const dir = mkdtempSync(path.join(tmpdir(), 'git-ctx-bench-authoring-'));
  cpSync(path.join(ROOT, 'test/fixtures/authoring-similar/repo'), dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--no-verify', '-m', 'fixture');
  return dir;
}

function dcrRepo() {
  if (!existsSync(MIRROR)) return undefined;
  const data = JSON.parse(readFileSync(path.join(ROOT, 'bench/retrieval/dotcom-rendering.json'), 'utf8'));
  const dir = mkdtempSync(path.join(tmpdir(), 'git-ctx-bench-authoring-dcr-'));
  git(dir, 'init', '-q', '-b', 'main');
  // only the records folder: read-tree of the pinned commit's subtree, no full checkout
  git(dir, 'fetch', '-q', '--depth', '1', MIRROR, data.commit);
  git(dir, 'read-tree', '--prefix=', `FETCH_HEAD`);
  git(dir, 'checkout-index', '-a', '-q', '--', );
  const keep = execFileSync('git', ['ls-files', '-z', '--', DCR], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 }).split('\0').filter(Boolean);
  git(dir, 'read-tree', '--empty');
  rmSync(path.join(dir, '.contextia'), { recursive: true, force: true });
  mkdirSync(path.join(dir, '.contextia'), { recursive: true });
  const sources = data.config.sources.map((s) => `  - { dir: ${s.dir}, format: ${s.format}, prefix: ${s.prefix}, type: ${s.type} }`).join('\n');
  const statusMap = Object.entries(data.config.status_map).map(([k, v]) => `  "${k}": ${v}`).join('\n');
  writeFileSync(path.join(dir, '.contextia/config.yaml'), `sources:\n${sources}\nstatus_map:\n${statusMap}\n`);
  execFileSync('git', ['add', '--', '.contextia', ...keep], { cwd: dir, env: gitEnv });
  git(dir, 'commit', '-q', '--no-verify', '-m', 'records');
  return dir;
}

const fmt = (n) => n.toFixed(3);
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))] : NaN;
};

async function measure(name, dir, cases) {
  const { snapshot, set } = await load(dir);
  const embedder = sim.configuredEmbedder(set);
  const records = sim.activeDecisions(set);
  const out = { name, records: records.length, cases: [], pairs: {} };
  const s = await sim.DecisionSimilarity.open(snapshot.root, set, records, embedder);
  for (const [expect, draft] of cases) {
    const title = draft.title ?? sim.deriveTitle(draft.decision);
    const scores = await s.score(sim.draftText(draft), [title, draft.decision].join('\n'));
    const top = scores[0];
    const target = expect ? scores.find((x) => x.id === expect) : top;
    out.cases.push({ expect, title, top: top.id, topScore: top.similarity, target: target?.id, similarity: target?.similarity ?? 0, cosine: target?.cosine ?? 0, lexical: target?.lexical ?? 0 });
  }
  const all = await s.pairs(-1);
  const scores = all.map((p) => p.score.similarity);
  const cos = all.map((p) => p.score.cosine);
  out.pairs = {
    count: all.length,
    similarity: { median: quantile(scores, 0.5), p95: quantile(scores, 0.95), max: Math.max(...scores) },
    cosine: { median: quantile(cos, 0.5), p95: quantile(cos, 0.95), max: Math.max(...cos) },
    top: all.sort((a, b) => b.score.similarity - a.score.similarity).slice(0, 3).map((p) => `${p.a.id}~${p.b.id} ${fmt(p.score.similarity)}`),
  };
  snapshot.close?.();
  return out;
}

const results = [];
const fx = fixtureRepo();
try {
  results.push(await measure('fixture authoring-similar', fx, FIXTURE_CASES));
} finally {
  if (process.env.GIT_CTX_BENCH_KEEP) console.error(`kept ${fx}`);
  else rmSync(fx, { recursive: true, force: true });
}
const dcr = dcrRepo();
if (dcr) {
  try {
    results.push(await measure('dotcom-rendering', dcr, DCR_CASES));
  } finally {
    if (process.env.GIT_CTX_BENCH_KEEP) console.error(`kept ${dcr}`);
    else rmSync(dcr, { recursive: true, force: true });
  }
} else console.error(`skipped dotcom-rendering: ${MIRROR} not found`);

if (json) console.log(JSON.stringify(results, null, 2));
else {
  for (const r of results) {
    console.log(`\n${r.name}: ${r.records} active decisions`);
    console.log('expect     score  cosine lexical  top (score)          draft title');
    for (const c of r.cases) {
      console.log(`${(c.expect ?? 'unrelated').padEnd(10)} ${fmt(c.similarity)}  ${fmt(c.cosine)}  ${fmt(c.lexical)}  ${`${c.top} (${fmt(c.topScore)})`.padEnd(20)} ${c.title}`);
    }
    const dups = r.cases.filter((c) => c.expect).map((c) => c.similarity);
    const unrel = r.cases.filter((c) => !c.expect).map((c) => c.similarity);
    console.log(`near-duplicates: min ${fmt(Math.min(...dups))}  median ${fmt(quantile(dups, 0.5))}   unrelated (best match): max ${fmt(Math.max(...unrel))}  median ${fmt(quantile(unrel, 0.5))}`);
    console.log(`record pairs (${r.pairs.count}): score median ${fmt(r.pairs.similarity.median)} p95 ${fmt(r.pairs.similarity.p95)} max ${fmt(r.pairs.similarity.max)};  cosine median ${fmt(r.pairs.cosine.median)} p95 ${fmt(r.pairs.cosine.p95)} max ${fmt(r.pairs.cosine.max)};  top ${r.pairs.top.join(', ')}`);
  }
}
