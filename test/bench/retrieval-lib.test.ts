import { describe, expect, it } from 'vitest';
import {
  Bm25,
  countKinds,
  BM25_FLOOR,
  bm25Answer,
  formatAnswerTable,
  formatTable,
  namesFile,
  pathWords,
  queryTokens,
  recallAt,
  reciprocalRank,
  summarise,
  summariseAnswers,
  tokenize,
  validateDataset,
  type DevQuery,
} from '../../bench/retrieval/lib.mjs';

const q = (id: string, kind: DevQuery['kind'], relevant: string[], extra: Partial<DevQuery> = {}): DevQuery => ({
  id,
  kind,
  input: 'some words',
  relevant,
  note: 'why',
  ...extra,
});

describe('tokens', () => {
  it('lowercases words and splits on anything that is not a letter or digit', () => {
    expect(tokenize('Use CSS-in-JS (Emotion) for 100% of styles; déjà vu')).toEqual(['use', 'css', 'in', 'js', 'emotion', 'for', '100', 'of', 'styles', 'déjà', 'vu']);
  });

  it('splits camelCase and PascalCase humps in paths and symbols', () => {
    expect(pathWords('src/client/islands/initHydration.ts')).toEqual(['src', 'client', 'islands', 'init', 'hydration', 'ts']);
    expect(pathWords('src/lib/HTMLPageTemplate.ts#renderToStringWithEmotion')).toEqual([
      'src', 'lib', 'html', 'page', 'template', 'ts', 'render', 'to', 'string', 'with', 'emotion',
    ]);
  });

  it('uses path words for file and symbol queries and plain words otherwise', () => {
    expect(queryTokens({ kind: 'file', input: 'a/ClickToView.tsx' })).toEqual(['a', 'click', 'to', 'view', 'tsx']);
    expect(queryTokens({ kind: 'question', input: 'ClickToView here?' })).toEqual(['clicktoview', 'here']);
  });
});

describe('BM25 baseline', () => {
  const docs = [
    { id: 'a.md', text: 'Emotion is our CSS-in-JS library. Emotion scopes styles to components.' },
    { id: 'b.md', text: 'We load scripts with defer in the head and async at the end of the body.' },
    { id: 'c.md', text: 'Components are written in TypeScript with static types for every prop and every state.' },
  ];
  const bm = new Bm25(docs);

  it('ranks the document holding the query terms first and leaves out documents matching nothing', () => {
    const hits = bm.search(tokenize('emotion styles'));
    expect(hits.map((h) => h.id)).toEqual(['a.md']);
    expect(hits[0]!.score).toBeGreaterThan(0);
  });

  it('weights a rare term above a common one (idf)', () => {
    expect(bm.idf('defer')).toBeGreaterThan(bm.idf('components'));
    // "components" is in a.md and c.md; "defer" only in b.md
    const hits = bm.search(tokenize('components defer'));
    expect(hits[0]!.id).toBe('b.md');
  });

  it('computes the textbook score for a one-term query', () => {
    const one = new Bm25([{ id: 'x', text: 'alpha beta' }, { id: 'y', text: 'gamma' }]);
    // N = 2, df(alpha) = 1 → idf = ln(1 + 1.5/1.5) = ln 2; tf = 1, |d| = 2, avgdl = 1.5
    const norm = 1.2 * (1 - 0.75 + (0.75 * 2) / 1.5);
    expect(one.search(['alpha'])[0]!.score).toBeCloseTo(Math.log(2) * ((1 * 2.2) / (1 + norm)), 12);
  });

  it('breaks score ties by id so the ranking is deterministic', () => {
    const tie = new Bm25([{ id: 'z.md', text: 'same words' }, { id: 'm.md', text: 'same words' }]);
    expect(tie.search(['same']).map((h) => h.id)).toEqual(['m.md', 'z.md']);
  });
});

describe('metrics', () => {
  it('recall@5 is the share of relevant records in the first five', () => {
    expect(recallAt(['a', 'b', 'c', 'd', 'e', 'f'], ['b', 'f'])).toBe(0.5);
    expect(recallAt([], ['a'])).toBe(0);
  });

  it('reciprocal rank counts the first relevant record within the first ten', () => {
    expect(reciprocalRank(['x', 'y', 'a'], ['a', 'y'])).toBe(0.5);
    const eleven = [...'bcdefghijkl'];
    expect(reciprocalRank(eleven, ['k'])).toBe(0.1);
    expect(reciprocalRank(eleven, ['l'])).toBe(0);
  });

  it('summarises per kind, files no record names, and overall; a missing system gives null', () => {
    const queries = [q('f1', 'file', ['r1'], { unnamed: true }), q('f2', 'file', ['r2']), q('k1', 'keyword', ['r1'])];
    const rows = summarise(queries, {
      baseline: { f1: { recall: 1, rr: 1 }, f2: { recall: 0, rr: 0 }, k1: { recall: 1, rr: 0.5 } },
      'git-ctx': null,
    });
    expect(rows.map((r) => [r.kind, r.n])).toEqual([
      ['file', 2],
      ['keyword', 1],
      ['file (unnamed)', 1],
      ['overall', 3],
    ]);
    expect(rows[0]!.baseline).toEqual({ recall5: 0.5, mrr: 0.5 });
    expect(rows[3]!.baseline).toEqual({ recall5: 2 / 3, mrr: 0.5 });
    expect(rows[0]!['git-ctx']).toBeNull();
    const table = formatTable(rows, ['baseline']);
    expect(table.split('\n')[0]).toMatch(/^kind\s+n\s+baseline R@5\s+baseline MRR$/);
    expect(table).toContain('file (unnamed)');
  });
});

describe('answers: nothing, and records in the top 3 of queries that do not label them', () => {
  it('recall and MRR leave off-topic queries out; the answer table counts empty answers and the most frequent unlabelled top-3 record per kind', () => {
    const queries = [q('f1', 'file', ['r1']), q('f2', 'file', ['r2']), q('f3', 'file', ['r3']), q('o1', 'offtopic', []), q('o2', 'offtopic', [])];
    const rows = summarise(queries, { s: { f1: { recall: 1, rr: 1 }, f2: { recall: 0, rr: 0 }, f3: { recall: 1, rr: 0.5 }, o1: { recall: 0, rr: 0 }, o2: { recall: 0, rr: 0 } } });
    expect(rows.map((r) => [r.kind, r.n])).toEqual([
      ['file', 3],
      ['overall', 3],
    ]);
    expect(rows[1]!.s).toEqual({ recall5: 2 / 3, mrr: 0.5 });
    const answers = summariseAnswers(queries, {
      // r9 sits in the top 3 of f1 and f2 (unlabelled there), r1 in f1's top (labelled) and f3's (not); r4 is fourth
      s: { f1: ['r1', 'r9'], f2: ['r9', 'r1', 'r2', 'r4'], f3: ['r1', 'r3'], o1: [], o2: ['r9'] },
      none: null,
    });
    expect(answers.map((r) => [r.kind, r.n])).toEqual([
      ['file', 3],
      ['offtopic', 2],
      ['overall', 5],
    ]);
    expect(answers[0]!.s).toEqual({ empty: 0, dominant: { id: 'r1', count: 2 } });
    expect(answers[1]!.s).toEqual({ empty: 0.5, dominant: { id: 'r9', count: 1 } });
    expect(answers[2]!.s).toEqual({ empty: 0.2, dominant: { id: 'r9', count: 3 } });
    expect(answers[0]!.none).toBeNull();
    const table = formatAnswerTable(answers, ['s', 'none']);
    expect(table.split('\n')[0]).toMatch(/^kind\s+n\s+s empty\s+s most unlabelled top-3\s+none empty/);
    expect(table).toContain('r9 ×3');
  });

  it('the BM25 baseline says nothing when no record reaches the floor', () => {
    expect(bm25Answer([{ id: 'a', score: BM25_FLOOR }, { id: 'b', score: 1 }])).toEqual(['a', 'b']);
    expect(bm25Answer([{ id: 'a', score: BM25_FLOOR - 0.01 }])).toEqual([]);
    expect(bm25Answer([])).toEqual([]);
    expect(bm25Answer([{ id: 'a', score: 2 }], 1)).toEqual(['a']);
  });
});

describe('dev-set validation', () => {
  it('accepts a sound set and counts its kinds', () => {
    const set = { queries: [q('a', 'file', ['docs/x.md'], { unnamed: true }), q('b', 'symbol', ['docs/y.md'], { input: 'src/a.ts#A' })] };
    expect(validateDataset(set, { file: 1, symbol: 1, unnamed: 1, total: 2 })).toEqual([]);
    expect(countKinds(set.queries)).toMatchObject({ total: 2, file: 1, symbol: 1, unnamed: 1 });
  });

  it('names every problem: duplicate ids, unknown kinds, bad paths, bad symbols, short counts', () => {
    const problems = validateDataset(
      {
        queries: [
          q('a', 'file', ['/abs.md']),
          q('a', 'question', ['x.md', 'x.md']),
          { ...q('c', 'file', []), kind: 'vibes' },
          q('d', 'symbol', ['y.md'], { input: 'no-hash-here' }),
          q('e', 'keyword', ['../up.md'], { unnamed: true }),
        ],
      },
      { paraphrase: 26 },
    );
    expect(problems).toEqual([
      'queries[0] (a): relevant path "/abs.md" is not repository-relative',
      'queries[1] (a): duplicate id',
      'queries[1] (a): relevant lists a record twice',
      'queries[2] (c): kind "vibes" is not one of file, symbol, question, paraphrase, keyword, offtopic, ungoverned',
      'queries[2] (c): relevant must list at least one record',
      'queries[3] (d): a symbol query is path#Symbol, got "no-hash-here"',
      'queries[4] (e): unnamed is a boolean on file queries only',
      'queries[4] (e): relevant path "../up.md" is not repository-relative',
      'paraphrase: 0 queries, at least 26 required',
    ]);
  });

  it('an off-topic query has no right answer, and only it or an ungoverned file may have none (a file query with none says which kind to use)', () => {
    const problems = validateDataset(
      { queries: [q('o1', 'offtopic', []), q('o2', 'offtopic', ['docs/x.md']), q('k1', 'keyword', []), q('f1', 'file', []), q('s1', 'symbol', [], { input: 'src/a.py#A' })] },
      { offtopic: 2 },
    );
    expect(problems).toEqual([
      'queries[1] (o2): an off-topic query has no right answer: relevant must be []',
      'queries[2] (k1): relevant must list at least one record',
      'queries[3] (f1): relevant must list at least one record (a file no record governs is kind "ungoverned")',
      'queries[4] (s1): relevant must list at least one record',
    ]);
  });

  it('an ungoverned file has no right answer and is a path; it counts in the answers beside the governed files, not in recall', () => {
    const problems = validateDataset({ queries: [q('u1', 'ungoverned', [], { input: 'src/log.ts' }), q('u2', 'ungoverned', ['docs/x.md'], { input: 'src/a.ts' }), q('u3', 'ungoverned', [], { input: 'src/a.ts#f' })] });
    expect(problems).toEqual(['queries[1] (u2): an ungoverned file has no right answer: relevant must be []', 'queries[2] (u3): an ungoverned query is a file path, got "src/a.ts#f"']);
    const queries = [q('f1', 'file', ['r1']), q('f2', 'file', ['r2']), q('u1', 'ungoverned', []), q('u2', 'ungoverned', [])];
    const rows = summarise(queries, { s: { f1: { recall: 1, rr: 1 }, f2: { recall: 1, rr: 0.5 }, u1: { recall: 0, rr: 0 }, u2: { recall: 0, rr: 0 } } });
    expect(rows.map((r) => [r.kind, r.n])).toEqual([
      ['file', 2],
      ['overall', 2],
    ]);
    // r9 is unlabelled in the top 3 of f2 and of u1: 2 of the 4 files, counted across both kinds
    const answers = summariseAnswers(queries, { s: { f1: ['r1'], f2: ['r9', 'r2'], u1: ['r9'], u2: [] } });
    expect(answers.map((r) => [r.kind, r.n])).toEqual([
      ['file', 2],
      ['ungoverned', 2],
      ['files (governed or not)', 4],
      ['overall', 4],
    ]);
    expect(answers[1]!.s).toEqual({ empty: 0.5, dominant: { id: 'r9', count: 1 } });
    expect(answers[2]!.s).toEqual({ empty: 0.25, dominant: { id: 'r9', count: 2 } });
  });

  it('a record names a file by its base name, or by an identifier-like stem as a whole word', () => {
    expect(namesFile('see [Picture](../src/Picture.tsx)', 'src/components/Picture.tsx')).toBe(true);
    expect(namesFile('the ClickToView component wraps embeds', 'src/components/ClickToView.tsx')).toBe(true);
    expect(namesFile('the ClickToViewer component', 'src/components/ClickToView.tsx')).toBe(false);
    expect(namesFile('every image is lazy', 'src/lib/image.ts')).toBe(false);
  });
});
