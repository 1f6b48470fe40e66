// Shared parts of the retrieval quality bench (bench/retrieval.mjs) and its tests:
// the dev-set shape, the BM25 baseline, and the metrics. Plain ESM, no dependencies.

/**
 * Query kinds, in the order the table prints them. `offtopic` questions and `ungoverned` files
 * (a file query for a file no record governs) have no right answer (`relevant: []`): the right
 * behaviour is to answer nothing, so they have no recall or MRR and count only in the answer
 * table (share answered with nothing).
 */
export const KINDS = ['file', 'symbol', 'question', 'paraphrase', 'keyword', 'offtopic', 'ungoverned'];

/** Kinds without a right answer (`relevant: []`). */
export const NO_ANSWER = ['offtopic', 'ungoverned'];

/** Kinds with a right answer: the ones recall and MRR are measured on. */
export const ON_TOPIC = KINDS.filter((k) => !NO_ANSWER.includes(k));

/** Kinds whose input is a place in the code (`path`, `path#Symbol`), asked with `for`. */
export const isPlaceKind = (kind) => kind === 'file' || kind === 'symbol' || kind === 'ungoverned';

/** How deep "a record sits in the top" is looked for when counting unlabelled records. */
export const TOP_SHOWN = 3;

/**
 * The BM25 baseline's "nothing" rule: it answers nothing when no record scores at least this
 * (the raw Okapi score, see Bm25). One fixed number for every dev set, chosen once by looking at
 * the off-topic and on-topic top scores of both sets, not tuned per set.
 */
export const BM25_FLOOR = 6;

/** Depth of the recall cut-off and of the reciprocal-rank cut-off. */
export const RECALL_AT = 5;
export const MRR_DEPTH = 10;

/** Lowercase word tokens: runs of letters or digits. No stemming, no stop words. */
export function tokenize(text) {
  return String(text).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The words of a path (or `path#Symbol`): camelCase and PascalCase humps split apart
 * (`initHydration.ts` → init hydration ts), then tokenized like any text.
 */
export function pathWords(input) {
  const split = String(input)
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2');
  return tokenize(split);
}

/** The text BM25 is given for a query: a file or symbol query's path words, else its words. */
export function queryTokens(query) {
  return isPlaceKind(query.kind) ? pathWords(query.input) : tokenize(query.input);
}

/**
 * Okapi BM25 (k1 1.2, b 0.75, idf = ln(1 + (N − df + 0.5) / (df + 0.5))) over whole documents.
 * `docs` is [{ id, text }]; search returns [{ id, score }] with score > 0, best first, ties by id.
 */
export class Bm25 {
  constructor(docs, { k1 = 1.2, b = 0.75 } = {}) {
    this.k1 = k1;
    this.b = b;
    this.docs = docs.map((d) => {
      const tf = new Map();
      const tokens = tokenize(d.text);
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      return { id: d.id, tf, len: tokens.length };
    });
    this.avgLen = this.docs.reduce((s, d) => s + d.len, 0) / Math.max(1, this.docs.length);
    this.df = new Map();
    for (const d of this.docs) for (const t of d.tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
  }

  idf(term) {
    const df = this.df.get(term) ?? 0;
    const n = this.docs.length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  search(tokens) {
    const terms = [...new Set(tokens)];
    const out = [];
    for (const d of this.docs) {
      let score = 0;
      for (const t of terms) {
        const f = d.tf.get(t);
        if (!f) continue;
        const norm = this.k1 * (1 - this.b + (this.b * d.len) / (this.avgLen || 1));
        score += this.idf(t) * ((f * (this.k1 + 1)) / (f + norm));
      }
      if (score > 0) out.push({ id: d.id, score });
    }
    return out.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  }
}

/** Share of the relevant records found in the first k of the ranking (0..1). */
export function recallAt(ranked, relevant, k = RECALL_AT) {
  if (relevant.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter((r) => top.has(r)).length / relevant.length;
}

/** 1 / rank of the first relevant record within the first `depth`, else 0. */
export function reciprocalRank(ranked, relevant, depth = MRR_DEPTH) {
  const want = new Set(relevant);
  const i = ranked.slice(0, depth).findIndex((r) => want.has(r));
  return i < 0 ? 0 : 1 / (i + 1);
}

/** The records a BM25 search answers when it must say nothing below `floor`: all hits, or none. */
export function bm25Answer(hits, floor = BM25_FLOOR) {
  return hits.length && hits[0].score >= floor ? hits.map((h) => h.id) : [];
}

/** Scores one ranking (a list of record paths) against one query. */
export function scoreRanking(query, ranked) {
  return { recall: recallAt(ranked, query.relevant), rr: reciprocalRank(ranked, query.relevant) };
}

/**
 * The groups a table reports: one per kind present, then `file (unnamed)` when some file
 * queries are marked unnamed, `files (governed or not)` when ungoverned files are counted (the
 * issue's "a record in the top 3 of files it does not govern" is read over all of them), then
 * `overall` (`kinds` limits which kinds count at all).
 */
function groupsOf(queries, kinds) {
  const counted = queries.filter((q) => kinds.includes(q.kind));
  const groups = [];
  for (const kind of kinds) {
    const qs = counted.filter((q) => q.kind === kind);
    if (qs.length) groups.push({ kind, queries: qs });
  }
  const unnamed = counted.filter((q) => q.kind === 'file' && q.unnamed === true);
  if (unnamed.length) groups.push({ kind: 'file (unnamed)', queries: unnamed });
  if (counted.some((q) => q.kind === 'ungoverned')) groups.push({ kind: 'files (governed or not)', queries: counted.filter((q) => q.kind === 'file' || q.kind === 'ungoverned') });
  groups.push({ kind: 'overall', queries: counted });
  return groups;
}

/**
 * Table rows: one per kind present, then `file (unnamed)` when some file queries are marked
 * unnamed, then `overall`. `scores` maps query id → { recall, rr } for one system; a system
 * with no scores for a row gets null there. Off-topic queries have no right answer and are
 * left out (overall is over the on-topic queries); `summariseAnswers` reports them.
 */
export function summarise(queries, systems) {
  const groups = groupsOf(queries, ON_TOPIC);
  return groups.map((g) => {
    const row = { kind: g.kind, n: g.queries.length };
    for (const [name, scores] of Object.entries(systems)) {
      const got = g.queries.map((q) => scores?.[q.id]).filter(Boolean);
      row[name] =
        scores && got.length === g.queries.length
          ? { recall5: mean(got.map((s) => s.recall)), mrr: mean(got.map((s) => s.rr)) }
          : null;
    }
    return row;
  });
}

/**
 * What each system answered, per kind (off-topic included) and overall: `empty` the share of
 * queries answered with nothing (right for off-topic ones, a miss for the others), and
 * `dominant` the record found most often in the first `TOP_SHOWN` of queries that do not label
 * it, with that count (null when every top record was labelled). `rankings` maps query id →
 * ranked record paths for one system; a system without rankings gets null.
 */
export function summariseAnswers(queries, systems, top = TOP_SHOWN) {
  return groupsOf(queries, KINDS).map((g) => {
    const row = { kind: g.kind, n: g.queries.length };
    for (const [name, rankings] of Object.entries(systems)) {
      if (!rankings || !g.queries.every((q) => Array.isArray(rankings[q.id]))) {
        row[name] = null;
        continue;
      }
      const unlabelled = new Map();
      for (const q of g.queries) {
        for (const r of new Set(rankings[q.id].slice(0, top))) if (!q.relevant.includes(r)) unlabelled.set(r, (unlabelled.get(r) ?? 0) + 1);
      }
      const [id, count] = [...unlabelled].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))[0] ?? [];
      row[name] = {
        empty: mean(g.queries.map((q) => (rankings[q.id].length === 0 ? 1 : 0))),
        dominant: id === undefined ? null : { id, count },
      };
    }
    return row;
  });
}

/** Fixed-width table of `summariseAnswers` rows: per system the share empty and the dominant unlabelled record. */
export function formatAnswerTable(rows, systems, short = (id) => id) {
  const head = ['kind', 'n', ...systems.flatMap((s) => [`${s} empty`, `${s} most unlabelled top-${TOP_SHOWN}`])];
  const body = rows.map((r) => [
    r.kind,
    String(r.n),
    ...systems.flatMap((s) => (r[s] ? [r[s].empty.toFixed(2), r[s].dominant ? `${short(r[s].dominant.id)} ×${r[s].dominant.count}` : '—'] : ['—', '—'])),
  ]);
  return fixedWidth(head, body);
}

function mean(xs) {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

/** Fixed-width text table of `summarise` rows for the named systems. */
export function formatTable(rows, systems) {
  const head = ['kind', 'n', ...systems.flatMap((s) => [`${s} R@${RECALL_AT}`, `${s} MRR`])];
  const body = rows.map((r) => [
    r.kind,
    String(r.n),
    ...systems.flatMap((s) => (r[s] ? [r[s].recall5.toFixed(3), r[s].mrr.toFixed(3)] : ['—', '—'])),
  ]);
  return fixedWidth(head, body);
}

function fixedWidth(head, body) {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/**
 * Shape problems of a dev set (empty when sound): queries present, ids unique, known kinds,
 * non-empty input and note, `relevant` a non-empty list of distinct repository-relative paths
 * (an empty list for off-topic queries and for file queries on files no record governs).
 * `minimums` (optional) maps a kind, `unnamed` (file queries with unnamed: true) or `total`
 * to the least count required.
 */
export function validateDataset(data, minimums = {}) {
  const problems = [];
  if (!data || typeof data !== 'object') return ['the data file is not a JSON object'];
  if (!Array.isArray(data.queries)) return ['"queries" is not a list'];
  const seen = new Set();
  data.queries.forEach((q, i) => {
    const where = `queries[${i}]${q && typeof q.id === 'string' ? ` (${q.id})` : ''}`;
    if (!q || typeof q !== 'object') return problems.push(`${where}: not an object`);
    if (typeof q.id !== 'string' || !q.id) problems.push(`${where}: id missing`);
    else if (seen.has(q.id)) problems.push(`${where}: duplicate id`);
    else seen.add(q.id);
    if (!KINDS.includes(q.kind)) problems.push(`${where}: kind "${q.kind}" is not one of ${KINDS.join(', ')}`);
    if (typeof q.input !== 'string' || !q.input.trim()) problems.push(`${where}: input missing`);
    if (typeof q.note !== 'string' || !q.note.trim()) problems.push(`${where}: note missing`);
    if (q.kind === 'symbol' && typeof q.input === 'string' && !/^[^#\s]+#[^#\s]+$/.test(q.input)) {
      problems.push(`${where}: a symbol query is path#Symbol, got "${q.input}"`);
    }
    if (q.unnamed !== undefined && (q.kind !== 'file' || typeof q.unnamed !== 'boolean')) {
      problems.push(`${where}: unnamed is a boolean on file queries only`);
    }
    if (q.kind === 'ungoverned' && typeof q.input === 'string' && /[#\s]/.test(q.input)) problems.push(`${where}: an ungoverned query is a file path, got "${q.input}"`);
    if (NO_ANSWER.includes(q.kind)) {
      if (!Array.isArray(q.relevant) || q.relevant.length !== 0) problems.push(`${where}: an ${q.kind === 'offtopic' ? 'off-topic query' : 'ungoverned file'} has no right answer: relevant must be []`);
    } else if (!Array.isArray(q.relevant) || q.relevant.length === 0) problems.push(`${where}: relevant must list at least one record${q.kind === 'file' ? ' (a file no record governs is kind "ungoverned")' : ''}`);
    else {
      if (new Set(q.relevant).size !== q.relevant.length) problems.push(`${where}: relevant lists a record twice`);
      for (const r of q.relevant) {
        if (typeof r !== 'string' || !r || r.startsWith('/') || r.startsWith('./') || r.includes('\\') || r.split('/').includes('..')) {
          problems.push(`${where}: relevant path "${r}" is not repository-relative`);
        }
      }
    }
  });
  const counts = countKinds(data.queries);
  for (const [key, min] of Object.entries(minimums)) {
    const have = counts[key] ?? 0;
    if (have < min) problems.push(`${key}: ${have} queries, at least ${min} required`);
  }
  return problems;
}

/** Counts per kind, plus `unnamed` and `total`. */
export function countKinds(queries) {
  const counts = { total: queries.length, unnamed: 0 };
  for (const q of queries) {
    counts[q.kind] = (counts[q.kind] ?? 0) + 1;
    if (q.kind === 'file' && q.unnamed === true) counts.unnamed++;
  }
  return counts;
}

/**
 * Whether a record text names a file: its base name (`Picture.tsx`) appears, or its stem as a
 * whole, case-sensitive word when the stem looks like an identifier with a capital letter
 * (`ClickToView`, `Island`). Lowercase stems (`image`, `content`) are ordinary words and
 * do not count as naming the file.
 */
export function namesFile(text, filePath) {
  const base = filePath.split('/').pop();
  if (text.includes(base)) return true;
  const stem = base.replace(/\.[^.]+$/, '');
  if (!/\p{Lu}/u.test(stem)) return false;
  const escaped = stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}_])${escaped}($|[^\\p{L}\\p{N}_])`, 'u').test(text);
}

/**
 * The clone `bench/retrieval.mjs` prepared for a dev set (under `.bench-work/retrieval/`), for
 * the benches that read it afterwards: the set's data and the clone's path; exits 2 naming the
 * command that prepares it when it is missing.
 */
export async function preparedDevSet(root, name, script) {
  const { existsSync, readFileSync } = await import('node:fs');
  const path = await import('node:path');
  const file = path.join(root, `bench/retrieval/${name}.json`);
  if (!existsSync(file)) {
    console.error(`${script}: no dev set ${name} (bench/retrieval/${name}.json); the sets are the .json files there`);
    process.exit(2);
  }
  const data = JSON.parse(readFileSync(file, 'utf8'));
  const cwd = path.join(root, `.bench-work/retrieval/${data.name}-${data.commit.slice(0, 12)}`);
  if (!existsSync(cwd)) {
    console.error(`${script}: ${cwd} is missing: run node bench/retrieval.mjs --data bench/retrieval/${name}.json first`);
    process.exit(2);
  }
  return { data, cwd };
}

/** The value after a command-line flag, or the fallback when it is absent. */
export function flagValue(argv, name, fallback) {
  const i = argv.indexOf(name);
  return i < 0 ? fallback : argv[i + 1];
}
