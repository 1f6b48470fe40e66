// Shared parts of the pull-request quality bench (bench/pr-quality.mjs) and its tests: the
// dev-set shape, which records a `git ctx pr --format json` answer shows and in what order,
// which changed files cannot be governed (lockfiles, CI workflows, generated files), the
// BM25-over-the-diff query, and the metrics. Plain ESM, no dependencies.
import { tokenize } from '../retrieval/lib.mjs';

/** A right record counts as found when it is among the first this many distinct records shown. */
export const HIT_AT = 3;
/** Reciprocal rank looks this deep into the records shown. */
export const RR_DEPTH = 10;
/** The BM25 baseline's comment: its first this many records. */
export const BASELINE_SHOWN = 3;

const SHA = /^[0-9a-f]{40}$/;

/**
 * Shape problems of a PR dev set (empty when sound): a name, a source config, cases with unique
 * ids, full commit ids for base and head, a title and a note, `positive` cases with at least one
 * repository-relative record path and `negative` ones with none. `minimums` may ask for at least
 * so many `positive`, `negative` or `total` cases.
 */
export function validatePrDevset(data, minimums = {}) {
  const problems = [];
  if (!data || typeof data !== 'object') return ['the data file is not a JSON object'];
  if (typeof data.name !== 'string' || !/^[\w.-]+$/.test(data.name)) problems.push('"name" must be a plain word (it names the clone)');
  if (!data.config || !Array.isArray(data.config.sources) || !data.config.sources.length) problems.push('"config.sources" must list the record folders');
  if (!Array.isArray(data.cases)) return [...problems, '"cases" is not a list'];
  const seen = new Set();
  data.cases.forEach((c, i) => {
    const where = `cases[${i}]${c && typeof c.id === 'string' ? ` (${c.id})` : ''}`;
    if (!c || typeof c !== 'object') return problems.push(`${where}: not an object`);
    if (typeof c.id !== 'string' || !c.id) problems.push(`${where}: id missing`);
    else if (seen.has(c.id)) problems.push(`${where}: duplicate id`);
    else seen.add(c.id);
    for (const k of ['base', 'head']) if (typeof c[k] !== 'string' || !SHA.test(c[k])) problems.push(`${where}: ${k} must be a full commit id`);
    if (c.base && c.base === c.head) problems.push(`${where}: base and head are the same commit`);
    for (const k of ['title', 'note']) if (typeof c[k] !== 'string' || !c[k].trim()) problems.push(`${where}: ${k} missing`);
    if (c.kind !== 'positive' && c.kind !== 'negative') problems.push(`${where}: kind "${c.kind}" is not positive or negative`);
    if (!Array.isArray(c.relevant)) problems.push(`${where}: relevant must be a list`);
    else {
      if (c.kind === 'positive' && !c.relevant.length) problems.push(`${where}: a positive case names at least one record`);
      if (c.kind === 'negative' && c.relevant.length) problems.push(`${where}: a negative case has no right record: relevant must be []`);
      if (new Set(c.relevant).size !== c.relevant.length) problems.push(`${where}: relevant lists a record twice`);
      for (const r of c.relevant) {
        if (typeof r !== 'string' || !r || r.startsWith('/') || r.startsWith('./') || r.includes('\\') || r.split('/').includes('..')) problems.push(`${where}: relevant path "${r}" is not repository-relative`);
      }
    }
  });
  const counts = { total: data.cases.length, positive: 0, negative: 0 };
  for (const c of data.cases) if (c && (c.kind === 'positive' || c.kind === 'negative')) counts[c.kind]++;
  for (const [key, min] of Object.entries(minimums)) if ((counts[key] ?? 0) < min) problems.push(`${key}: ${counts[key] ?? 0} cases, at least ${min} required`);
  return problems;
}

/**
 * The records a `git ctx pr --format json` answer shows, in the order its comment shows them.
 * An answer with the ranked list (`ranked`, issue 31) shows that list as it is. An older answer
 * shows the artifacts list (governing, edited, then required/related/mentioned; "stale elsewhere" is
 * not about this change and is left out), then each file's "also relevant" records in file
 * order; each record once. `fileOf` maps an id to its record file (artifacts carry theirs).
 * Returns record files (ids without a known file stay ids, so they still count as shown).
 */
export function shownRecords(result, fileOf = new Map()) {
  if (Array.isArray(result?.ranked)) return [...new Set(result.ranked.map((r) => r.file || fileOf.get(r.id) || r.id))];
  const out = [];
  const known = new Map(fileOf);
  const push = (id, file) => {
    if (file) known.set(id, file);
    const f = known.get(id) || id;
    if (!out.includes(f)) out.push(f);
  };
  for (const a of result?.artifacts ?? []) if (a.inclusion !== 'stale-elsewhere') push(a.id, a.file);
  for (const f of result?.files ?? []) for (const x of f.alsoRelevant ?? []) push(x.id, null);
  return out;
}

const LOCKFILES = new Set(['yarn.lock', 'package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'bun.lockb', 'Gemfile.lock', 'Cargo.lock', 'poetry.lock', 'Pipfile.lock', 'composer.lock', 'go.sum', 'mix.lock', 'packages.lock.json', 'flake.lock']);

/**
 * Why a changed file cannot be governed by a decision, or null: `lockfile`, `ci` (workflow and
 * bot settings), or `generated` (a generated folder, a snapshot, minified output, or an
 * `@generated` mark in its first lines, when `head` text is given).
 */
export function noiseKind(file, head = '') {
  const parts = file.split('/');
  const base = parts[parts.length - 1];
  if (LOCKFILES.has(base)) return 'lockfile';
  if (/^\.github\/(workflows\/|dependabot\.ya?ml$|renovate\.json)/.test(file) || /^(\.circleci|\.dependabot|\.buildkite)\//.test(file) || /^(\.gitlab-ci\.ya?ml|\.travis\.yml|azure-pipelines\.ya?ml|renovate\.json5?)$/.test(file)) return 'ci';
  if (parts.some((p) => p === 'generated' || p === '__generated__' || p === '__snapshots__') || /\.(min\.(js|css)|snap)$/.test(base) || /@generated\b/.test(head.slice(0, 2000))) return 'generated';
  return null;
}

/**
 * The records `git ctx pr` lists for one changed file: those governing it and those it finds
 * "also relevant"; with the ranked list, the records whose places name the file.
 */
export function recordsForFile(f, result) {
  const ranked = Array.isArray(result?.ranked) ? result.ranked.filter((r) => (r.places ?? []).some((p) => p.path === f.path)).map((r) => r.id) : [];
  return [...new Set([...(f.governedBy ?? []), ...(f.alsoRelevant ?? []).map((x) => x.id), ...ranked])];
}

/** Reasons git-ctx gives an ungovernable file (`result.ungovernable`) that are the bench's noise kinds. */
const NOISE_REASONS = { lockfile: 'lockfile', ci: 'ci', generated: 'generated', snapshot: 'generated', vendored: 'generated' };

/**
 * The noise files of one answer, each with the records git-ctx lists for it. `paths` are the
 * changed files as the diff names them: ungovernable files are reported apart
 * (`result.ungovernable`) and no longer in `result.files`, so the answer alone would count none.
 * A file is noise by its path (noiseKind), by its first lines (`headOf(path)`, for an
 * `@generated` mark) or by git-ctx's own reason; binaries and configured patterns are not noise.
 */
export function noiseOf(paths, result, headOf = () => '') {
  const files = new Map((result?.files ?? []).map((f) => [f.path, f]));
  const reasons = new Map((result?.ungovernable ?? []).map((u) => [u.path, NOISE_REASONS[u.reason]]));
  const out = [];
  for (const file of new Set([...paths, ...reasons.keys()])) {
    const kind = noiseKind(file) ?? reasons.get(file) ?? noiseKind(file, headOf(file));
    if (kind) out.push({ file, kind, records: recordsForFile(files.get(file) ?? { path: file }, result) });
  }
  return out;
}

/**
 * The BM25 baseline's query for a change: the added and removed lines of a unified diff (not
 * the file headers, not the context lines) and the commit messages, as tokens.
 */
export function diffQueryTokens(diff, messages) {
  const lines = [];
  for (const line of String(diff).split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+') || line.startsWith('-')) lines.push(line.slice(1));
  }
  return tokenize(`${messages}\n${lines.join('\n')}`);
}

/** 1 / rank of the first right record shown within RR_DEPTH, else 0; and whether one is in the first HIT_AT. */
export function scoreShown(relevant, shown) {
  const want = new Set(relevant);
  const i = shown.slice(0, RR_DEPTH).findIndex((r) => want.has(r));
  return { hit: i >= 0 && i < HIT_AT, rr: i < 0 ? 0 : 1 / (i + 1) };
}

/**
 * Per system, over the cases it answered: positives found in the first HIT_AT and their MRR,
 * the records shown for each negative, and the noise files given a record. `answers` maps case
 * id → { shown: string[], noise?: { file, kind, records: string[] }[] } for one system.
 */
export function summarisePr(cases, answers) {
  const pos = cases.filter((c) => c.kind === 'positive' && answers[c.id]);
  const neg = cases.filter((c) => c.kind === 'negative' && answers[c.id]);
  const scores = pos.map((c) => scoreShown(c.relevant, answers[c.id].shown));
  const noise = cases.flatMap((c) => answers[c.id]?.noise ?? []);
  const negShown = neg.map((c) => answers[c.id].shown.length);
  return {
    positives: pos.length,
    hits: scores.filter((s) => s.hit).length,
    mrr: scores.length ? scores.reduce((a, s) => a + s.rr, 0) / scores.length : 0,
    negatives: neg.length,
    negativeShown: negShown,
    negativesAtMostOne: negShown.filter((n) => n <= 1).length,
    noiseFiles: noise.length,
    noiseFilesWithRecord: noise.filter((n) => n.records.length > 0).length,
  };
}
