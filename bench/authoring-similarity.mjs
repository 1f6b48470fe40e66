#!/usr/bin/env node
// Calibration of the near-duplicate check behind `git ctx add` and MCP add_decision (DEC-022,
// DEC-058) and of the decision-near-duplicate check rule and the PR comment's "Resembles an
// active decision". Scores drafts written in other words than the records they restate
// (near-duplicates, expected flagged) and drafts about something else (expected not flagged), on
// the fixtures test/fixtures/authoring-similar and adr-home/madr and on the records of the git-en-boite, dotcom-rendering and content-publisher dev sets; then every pair of
// active records of each: the pairs the pair score alone flags and those search's judgement keeps
// (confirmRestatements, what the rule and the PR comment report). Two columns per draft, on the same inputs:
//   pair   the pair score alone (DecisionSimilarity.score: embedding cosine + term overlap),
//          what `add` compared with the threshold before DEC-058
//   check  findSimilarDecisions: the candidates search ranks for the draft, judged by the
//          mean of the pair score and the share of the draft's words search matched
//
//   npm run build && node bench/authoring-similarity.mjs [--json]
//
// The dev sets' records are read from clones of the mirrors at the sets' commits (default
// /work/.mirror/<owner>+<name>/repo; $GIT_CTX_DEVSET_REPO for dotcom-rendering,
// $GIT_CTX_GEB_REPO for git-en-boite, $GIT_CTX_CP_REPO for content-publisher); a set is skipped
// when its mirror is absent.

import './lib/help.mjs';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.join(HERE, '..');
const args = process.argv.slice(2);
const json = args.includes('--json');
const MIRROR = process.env.GIT_CTX_DEVSET_REPO ?? '/work/.mirror/guardian+dotcom-rendering/repo';
const GEB_MIRROR = process.env.GIT_CTX_GEB_REPO ?? '/work/.mirror/SmartBear+git-en-boite/repo';

const lib = await import(pathToFileURL(path.join(ROOT, 'dist/index.js')).href);
const sim = await import(pathToFileURL(path.join(ROOT, 'dist/authoring/similar.js')).href);
const check = await import(pathToFileURL(path.join(ROOT, 'dist/authoring/draft-similar.js')).href);
const replaces = await import(pathToFileURL(path.join(ROOT, 'dist/authoring/replaces.js')).href);
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

/** Drafts for git-en-boite's adr-tools records (doc/adr), written for this bench in other words than the records. */
const GEB_CASES = [
  ['ADR-0005', { decision: 'Put slow work like cloning repositories into background jobs queued in Redis, processed with the Bull library.' }],
  ['ADR-0014', { decision: "Values passed into the core package's interfaces are value object classes, not primitives or plain interfaces." }],
  ['ADR-0004', { decision: 'Use npm as the package manager rather than yarn.' }],
  ['ADR-0009', { decision: "Tests that need git call it through dugite's GitProcess.exec instead of spawning raw git commands." }],
  ['ADR-0015', { decision: 'Drop the Postgres dependency from the code since nothing uses the database yet.' }],
  ['ADR-0013', { decision: 'Run the background worker as its own process in its own docker container, apart from the web server.' }],
  ['ADR-0002', { decision: 'The Dockerfile copies the source and the tests into the image so the container can run both the server and the test suite.' }],
  ['ADR-0008', { decision: 'Structure the code as a hexagonal architecture where commands and events are how the core domain is reached.' }],
  ['ADR-0006', { decision: 'Keep each repository as a bare git repo on disk, with worktrees for its branches in a folder per repo.' }],
  ['ADR-0010', { decision: 'Talk to git repositories through a command bus: one dispatch function routes typed messages to their handlers.' }],
  [null, { decision: 'Use GraphQL for the public API instead of REST.' }],
  [null, { decision: 'Deploy to Kubernetes with a Helm chart per service.' }],
  [null, { decision: 'Write the frontend in React with TypeScript.' }],
  [null, { decision: 'Log in JSON lines to stdout and ship them to Elasticsearch.' }],
  [null, { decision: 'Authenticate API clients with OAuth2 client credentials.' }],
  [null, { decision: 'Store user uploads in S3 with signed URLs.' }],
  [null, { decision: 'Format all code with Prettier in a pre-commit hook.' }],
  [null, { decision: 'Send notification emails through SendGrid.' }],
  [null, { decision: "Cache responses from the git hosting providers' HTTP APIs for five minutes." }],
  [null, { decision: 'Publish each package to the npm registry with semantic versioning and a changelog.' }],
];

/** Drafts for content-publisher's records (docs/adr), written for this bench in other words than the records. */
const CP_CASES = [
  ['ADR-0002', { decision: 'Keep a local database for the publishing workflow and sync its content to the Publishing API.' }],
  ['ADR-0008', { decision: 'Foreign keys restrict deletes: nothing is deleted from the database until a real case needs it.' }],
  ['ADR-0010', { decision: 'Send emails through GOV.UK Notify with Action Mailer, delivered by Sidekiq background jobs.' }],
  ['ADR-0011', { decision: 'Put controller business logic in Interactor classes so that controllers only produce the HTTP response.' }],
  ['ADR-0012', { decision: 'File attachment links and their metadata are rendered by GOV.UK Publishing Components, which Govspeak uses too.' }],
  ['ADR-0015', { decision: 'A periodic background job loads bulk data into Redis and the app reads it from the Redis cache at runtime.' }],
  ['ADR-0016', { decision: 'Content Publisher stores publishing times and the change history itself.' }],
  ['ADR-0005', { decision: 'Avoid flickering while JavaScript initialises by styling with the js-enabled class.' }],
  [null, { decision: 'Write the frontend in React with a Redux store.' }],
  [null, { decision: 'Deploy the app to Kubernetes with Helm charts.' }],
  [null, { decision: 'Require two-factor authentication for every admin login.' }],
  [null, { decision: 'Store uploaded images in S3 and serve them through a CDN.' }],
  [null, { decision: 'Use PostgreSQL full-text search to find documents.' }],
  [null, { decision: 'Adopt GraphQL for the internal API.' }],
  [null, { decision: 'Lint the Ruby code with RuboCop in CI.' }],
  [null, { decision: 'Translate the interface into Welsh with Rails i18n files.' }],
];

/** Drafts for the three-record MADR fixture (test/fixtures/adr-home/madr), written for this bench. */
const MADR_CASES = [
  ['ADR-002', { decision: 'Keep user sessions in Redis with a sliding thirty-minute expiry instead of process memory.' }],
  ['ADR-003', { title: 'Distributed tracing', decision: 'Follow each request across the gateway, web tier and workers with OpenTelemetry spans sent to our collector.' }],
  [null, { decision: 'Rate limit the public API per merchant with a token bucket in the gateway.' }],
  [null, { decision: 'Serve the merchant API over GraphQL.' }],
  [null, { decision: 'Store uploaded invoices as PDFs in object storage.' }],
];

async function load(dir) {
  const snapshot = await lib.openSnapshot({ cwd: dir });
  const set = await lib.loadArtifactSet(snapshot, await lib.loadConfig(snapshot));
  return { snapshot, set };
}

function fixtureRepo(from = 'test/fixtures/authoring-similar/repo') {
  const dir = mkdtempSync(path.join(tmpdir(), 'git-ctx-bench-authoring-'));
  cpSync(path.join(ROOT, from), dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--no-verify', '-m', 'fixture');
  return dir;
}

/** A repository holding only a dev set's records folders at its commit, configured as the set says. */
function devsetRepo(mirror, setFile) {
  if (!existsSync(mirror)) return undefined;
  const data = JSON.parse(readFileSync(path.join(ROOT, 'bench/retrieval', setFile), 'utf8'));
  const dir = mkdtempSync(path.join(tmpdir(), 'git-ctx-bench-authoring-set-'));
  git(dir, 'init', '-q', '-b', 'main');
  // only the records folders: read-tree of the pinned commit, no full checkout
  git(dir, 'fetch', '-q', '--depth', '1', mirror, data.commit);
  git(dir, 'read-tree', '--prefix=', `FETCH_HEAD`);
  git(dir, 'checkout-index', '-a', '-q', '--');
  const keep = execFileSync('git', ['ls-files', '-z', '--', ...data.config.sources.map((s) => s.dir)], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 }).split('\0').filter(Boolean);
  git(dir, 'read-tree', '--empty');
  rmSync(path.join(dir, '.contextia'), { recursive: true, force: true });
  mkdirSync(path.join(dir, '.contextia'), { recursive: true });
  const sources = data.config.sources.map((s) => `  - { dir: ${s.dir}, format: ${s.format}, prefix: ${s.prefix}, type: ${s.type} }`).join('\n');
  const statusMap = Object.entries(data.config.status_map ?? {}).map(([k, v]) => `  "${k}": ${v}`).join('\n');
  writeFileSync(path.join(dir, '.contextia/config.yaml'), `sources:\n${sources}\n${statusMap ? `status_map:\n${statusMap}\n` : ''}`);
  execFileSync('git', ['add', '--', '.contextia', ...keep], { cwd: dir, env: gitEnv });
  git(dir, 'commit', '-q', '--no-verify', '-m', 'records');
  return dir;
}

const fmt = (n) => n.toFixed(3);
const THRESHOLD = 0.75;
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
    const scores = await s.score(sim.draftText(draft), [title, draft.decision, ''].join('\n'));
    const top = scores[0];
    const target = expect ? scores.find((x) => x.id === expect) : top;
    // the check as add runs it, every candidate kept (threshold 0) to see the scores
    const found = await check.findSimilarDecisions(snapshot.root, set, draft, { threshold: 0, embedder: embedder ?? null });
    const checked = found.similar;
    // DEC-130: none of these drafts replaces a record, so a hint here is a false alarm
    const hints = replaces.replacementHints(set, { ...draft, title }, (found.candidates ?? []).map((score) => ({ record: set.byId.get(score.id), score, rank: score.rank ?? 0 })).filter((c) => c.record));
    const ctop = checked[0];
    const ctarget = expect ? checked.find((x) => x.id === expect) : ctop;
    out.cases.push({
      expect, title, top: top.id, topScore: top.similarity, target: target?.id, similarity: target?.similarity ?? 0, cosine: target?.cosine ?? 0, lexical: target?.lexical ?? 0,
      pairFlags: scores.filter((x) => x.similarity >= THRESHOLD).map((x) => x.id),
      checkTop: ctop?.id, checkTopScore: ctop?.similarity ?? 0, check: ctarget?.similarity ?? 0, coverage: ctarget?.coverage ?? 0, rank: ctarget?.rank ?? null,
      checkFlags: checked.filter((x) => x.similarity >= THRESHOLD).map((x) => x.id),
      replaces: hints.map((h) => `${h.id}: ${h.reason}`),
    });
  }
  // the check rule and the PR comment: the pairs the pair score flags (linked ones skipped),
  // before DEC-058's extension alone, since confirmed by search's judgement of either record
  const proposed = s.pairs(THRESHOLD, { skip: check.areLinked });
  const { pairs: confirmed } = await check.confirmRestatements(snapshot.root, set, proposed, { threshold: THRESHOLD, embedder: embedder ?? null });
  const pairName = (p) => `${p.a.id}~${p.b.id}`;
  out.rule = { pairScore: proposed.map(pairName), judged: confirmed.map((p) => `${pairName(p)} ${fmt(p.score.similarity)}`) };
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
const mx = fixtureRepo('test/fixtures/adr-home/madr');
try {
  results.push(await measure('fixture adr-home/madr', mx, MADR_CASES));
} finally {
  if (process.env.GIT_CTX_BENCH_KEEP) console.error(`kept ${mx}`);
  else rmSync(mx, { recursive: true, force: true });
}
const CP_MIRROR = process.env.GIT_CTX_CP_REPO ?? '/work/.mirror/alphagov+content-publisher/repo';
for (const [name, mirror, file, cases] of [['git-en-boite', GEB_MIRROR, 'git-en-boite.json', GEB_CASES], ['dotcom-rendering', MIRROR, 'dotcom-rendering.json', DCR_CASES], ['content-publisher', CP_MIRROR, 'content-publisher.json', CP_CASES]]) {
  const dir = devsetRepo(mirror, file);
  if (!dir) {
    console.error(`skipped ${name}: ${mirror} not found`);
    continue;
  }
  try {
    results.push(await measure(name, dir, cases));
  } finally {
    if (process.env.GIT_CTX_BENCH_KEEP) console.error(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

if (json) console.log(JSON.stringify(results, null, 2));
else {
  for (const r of results) {
    console.log(`\n${r.name}: ${r.records} active decisions`);
    console.log('expect     pair   cosine lexical  pair top (score)      check  coverage rank  check top (score)     draft title');
    for (const c of r.cases) {
      console.log(`${(c.expect ?? 'unrelated').padEnd(10)} ${fmt(c.similarity)}  ${fmt(c.cosine)}  ${fmt(c.lexical)}  ${`${c.top} (${fmt(c.topScore)})`.padEnd(21)} ${fmt(c.check)}  ${fmt(c.coverage)}    ${String(c.rank ?? '-').padEnd(4)}  ${`${c.checkTop ?? '-'} (${fmt(c.checkTopScore)})`.padEnd(21)} ${c.title}`);
    }
    for (const [label, key] of [['pair score alone (before)', 'pairFlags'], ['check (search candidates)', 'checkFlags']]) {
      const dups = r.cases.filter((c) => c.expect);
      const caught = dups.filter((c) => c[key].includes(c.expect)).length;
      const wrongDup = dups.filter((c) => c[key].some((id) => id !== c.expect)).length;
      const unrel = r.cases.filter((c) => !c.expect);
      const flagged = unrel.filter((c) => c[key].length).length;
      console.log(`${label.padEnd(27)} at ${THRESHOLD}: restatements caught ${caught}/${dups.length} (also flagging another record: ${wrongDup}), unrelated drafts flagged ${flagged}/${unrel.length}`);
    }
    const hinted = (cs) => cs.filter((c) => c.replaces.length);
    const dupsH = r.cases.filter((c) => c.expect);
    const othersH = r.cases.filter((c) => !c.expect);
    console.log(`replacement hint (DEC-130; no draft here replaces a record): restatements given one ${hinted(dupsH).length}/${dupsH.length}, other drafts ${hinted(othersH).length}/${othersH.length}${hinted(r.cases).map((c) => `\n  "${c.title}" → ${c.replaces.join(' | ')}`).join('')}`);
    console.log(`check rule / PR comment at ${THRESHOLD}: pair score alone flags ${r.rule.pairScore.length} (${r.rule.pairScore.join(', ') || '-'}), search's judgement keeps ${r.rule.judged.length} (${r.rule.judged.join(', ') || '-'})`);
    console.log(`record pairs (${r.pairs.count}): score median ${fmt(r.pairs.similarity.median)} p95 ${fmt(r.pairs.similarity.p95)} max ${fmt(r.pairs.similarity.max)};  cosine median ${fmt(r.pairs.cosine.median)} p95 ${fmt(r.pairs.cosine.p95)} max ${fmt(r.pairs.cosine.max)};  top ${r.pairs.top.join(', ')}`);
  }
}
