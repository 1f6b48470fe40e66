import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  diffQueryTokens,
  noiseKind,
  noiseOf,
  recordsForFile,
  scoreShown,
  shownRecords,
  summarisePr,
  validatePrDevset,
  type PrCase,
  type PrDevSet,
} from '../../bench/pr-devset/lib.mjs';

// The pull-request dev sets of issue 31 (bench/pr-devset/*.json) and the scoring of
// bench/pr-quality.mjs. Shape always; labels against the commits only where a mirror of the
// repository is on this machine (no network).
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIR = path.join(ROOT, 'bench/pr-devset');
const sets = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ file: f, data: JSON.parse(readFileSync(path.join(DIR, f), 'utf8')) as PrDevSet }));
const mirrorOf = (repo: string) => `/work/.mirror/${repo.replace('/', '+')}/repo`;

describe('the PR dev sets', () => {
  it('there are seven, on seven repositories (python-tuf, carbon-aware-sdk and manage.get.gov held out, labelled blind; Sylius in PHP, DEC-090), with enough positives and negatives between them', () => {
    expect(sets.map((s) => s.data.repository).sort()).toEqual(['Green-Software-Foundation/carbon-aware-sdk', 'SmartBear/git-en-boite', 'Sylius/Sylius', 'alphagov/content-publisher', 'cisagov/manage.get.gov', 'guardian/dotcom-rendering', 'theupdateframework/python-tuf']);
    const cases = sets.flatMap((s) => s.data.cases);
    expect(cases.filter((c) => c.kind === 'positive').length).toBeGreaterThanOrEqual(40);
    expect(cases.filter((c) => c.kind === 'negative').length).toBeGreaterThanOrEqual(9);
  });

  for (const { file, data } of sets) {
    describe(file, () => {
      it('has the agreed shape', () => {
        expect(validatePrDevset(data, { positive: 5, negative: 2 })).toEqual([]);
        expect(data.name).toBe(file.replace(/\.json$/, ''));
      });

      it('labels only records under the configured source folders', () => {
        const dirs = data.config.sources.map((s) => s.dir.replace(/\/+$/, '') + '/');
        for (const c of data.cases) for (const r of c.relevant) expect(dirs.some((d) => r.startsWith(d)), `${c.id}: ${r}`).toBe(true);
      });

      const mirror = mirrorOf(data.repository!);
      describe.skipIf(!existsSync(mirror))(`against ${mirror}`, () => {
        const git = (...args: string[]) => execFileSync('git', ['--git-dir', mirror, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 }).trim();

        it('each head is a commit whose first parent is the base, and its subject is the title', () => {
          for (const c of data.cases) {
            expect(git('rev-parse', `${c.head}^1`), c.id).toBe(c.base);
            expect(git('log', '-1', '--format=%s', c.head), c.id).toBe(c.title);
          }
        });

        it('every labelled record exists at the base (the pull request cannot see a later one)', () => {
          for (const c of data.cases) {
            const tree = new Set(git('ls-tree', '-r', '--name-only', '-z', c.base, '--', ...data.config.sources.map((s) => s.dir)).split('\0'));
            for (const r of c.relevant) expect(tree.has(r), `${c.id}: ${r}`).toBe(true);
          }
        });
      });
    });
  }
});

describe('scoring a PR answer', () => {
  const c = (id: string, kind: PrCase['kind'], relevant: string[]): PrCase => ({ id, kind, relevant, base: 'a'.repeat(40), head: 'b'.repeat(40), title: 't', note: 'n' });

  it('validation names every problem', () => {
    const problems = validatePrDevset({
      name: 'x',
      config: { sources: [{ dir: 'doc/adr' }] },
      cases: [c('p', 'positive', []), { ...c('p', 'negative', ['doc/adr/1.md']), base: 'abc' }, { ...c('q', 'positive', ['/abs.md']), kind: 'maybe' }],
    });
    expect(problems).toEqual([
      'cases[0] (p): a positive case names at least one record',
      'cases[1] (p): duplicate id',
      'cases[1] (p): base must be a full commit id',
      'cases[1] (p): a negative case has no right record: relevant must be []',
      'cases[2] (q): kind "maybe" is not positive or negative',
      'cases[2] (q): relevant path "/abs.md" is not repository-relative',
    ]);
  });

  it('records are shown in the comment’s order, each once: artifacts (not stale elsewhere), then each file’s also-relevant', () => {
    const result = {
      artifacts: [
        { id: 'ADR-2', file: 'doc/2.md', inclusion: 'direct' },
        { id: 'ADR-9', file: 'doc/9.md', inclusion: 'stale-elsewhere' },
        { id: 'ADR-3', file: 'doc/3.md', inclusion: 'mentioned' },
      ],
      files: [
        { path: 'a.ts', alsoRelevant: [{ id: 'ADR-1' }, { id: 'ADR-2' }] },
        { path: 'b.ts', alsoRelevant: [{ id: 'ADR-4' }] },
      ],
    };
    expect(shownRecords(result, new Map([['ADR-1', 'doc/1.md']]))).toEqual(['doc/2.md', 'doc/3.md', 'doc/1.md', 'ADR-4']);
    expect(recordsForFile({ governedBy: ['ADR-2'], alsoRelevant: [{ id: 'ADR-2' }, { id: 'ADR-5' }] })).toEqual(['ADR-2', 'ADR-5']);
    // an answer with the ranked list (issue 31) shows that list as it is, and a file's records are those whose places name it
    const ranked = { ...result, ranked: [{ id: 'ADR-7', file: 'doc/7.md', places: [{ path: 'b.ts', lines: [] }] }, { id: 'ADR-1', file: '', places: [] }] };
    expect(shownRecords(ranked, new Map([['ADR-1', 'doc/1.md']]))).toEqual(['doc/7.md', 'doc/1.md']);
    expect(recordsForFile({ path: 'b.ts', governedBy: [] }, ranked)).toEqual(['ADR-7']);
  });

  it('lockfiles, CI settings and generated files are noise; source files are not', () => {
    expect(noiseKind('yarn.lock')).toBe('lockfile');
    expect(noiseKind('dotcom-rendering/pnpm-lock.yaml')).toBe('lockfile');
    expect(noiseKind('.github/workflows/ci.yml')).toBe('ci');
    expect(noiseKind('.dependabot/config.yml')).toBe('ci');
    expect(noiseKind('cdk/lib/__snapshots__/stack.test.ts.snap')).toBe('generated');
    expect(noiseKind('src/schema.ts', '// @generated by a tool\nexport {}')).toBe('generated');
    expect(noiseKind('src/worker.ts', 'export const x = 1')).toBeNull();
    expect(noiseKind('docs/workflows.md')).toBeNull();
  });

  it('noise files come from the diff and the ungovernable list, each with the records listed for it', () => {
    // ungovernable files are reported apart and are not in `files`: the diff's paths still count them
    const result = {
      files: [{ path: 'src/a.ts', governedBy: ['ADR-1'] }],
      ungovernable: [
        { path: 'yarn.lock', reason: 'lockfile', detail: 'lockfile' },
        { path: 'lib/vendor/x.js', reason: 'vendored', detail: 'linguist-vendored' },
        { path: 'logo.png', reason: 'binary', detail: 'binary content' },
      ],
      ranked: [{ id: 'ADR-7', file: 'doc/7.md', places: [{ path: '.github/workflows/ci.yml', lines: [] }] }],
    };
    const heads: Record<string, string> = { 'src/schema.ts': '// @generated by a tool\nexport {}' };
    const noise = noiseOf(['src/a.ts', 'yarn.lock', '.github/workflows/ci.yml', 'src/schema.ts', 'logo.png', 'lib/vendor/x.js'], result, (p) => heads[p] ?? '');
    expect(noise).toEqual([
      { file: 'yarn.lock', kind: 'lockfile', records: [] },
      { file: '.github/workflows/ci.yml', kind: 'ci', records: ['ADR-7'] },
      { file: 'src/schema.ts', kind: 'generated', records: [] },
      { file: 'lib/vendor/x.js', kind: 'generated', records: [] },
    ]);
    expect(noiseOf([], { ungovernable: [{ path: 'pnpm-lock.yaml', reason: 'lockfile', detail: '' }] })).toEqual([{ file: 'pnpm-lock.yaml', kind: 'lockfile', records: [] }]);
  });

  it('the baseline query is the changed lines and the messages, not the file headers or context', () => {
    const diff = ['diff --git a/x.ts b/x.ts', '--- a/x.ts', '+++ b/x.ts', '@@ -1 +1 @@ context', '-const oldQueue = 1', '+const bullQueue = 2', ' unchanged line'].join('\n');
    expect(diffQueryTokens(diff, 'Use bull')).toEqual(['use', 'bull', 'const', 'oldqueue', '1', 'const', 'bullqueue', '2']);
  });

  it('hit@3, MRR, negatives and noise files per system', () => {
    expect(scoreShown(['r'], ['x', 'y', 'r'])).toEqual({ hit: true, rr: 1 / 3 });
    expect(scoreShown(['r'], ['x', 'y', 'z', 'r'])).toEqual({ hit: false, rr: 0.25 });
    const cases = [c('p1', 'positive', ['r1']), c('p2', 'positive', ['r2']), c('n1', 'negative', []), c('n2', 'negative', [])];
    const s = summarisePr(cases, {
      p1: { shown: ['r1'], noise: [{ file: 'yarn.lock', kind: 'lockfile', records: ['r1'] }] },
      p2: { shown: ['x', 'r2'] },
      n1: { shown: [] },
      n2: { shown: ['x', 'y'], noise: [{ file: '.github/workflows/ci.yml', kind: 'ci', records: [] }] },
    });
    expect(s).toEqual({ positives: 2, hits: 2, mrr: 0.75, negatives: 2, negativeShown: [0, 2], negativesAtMostOne: 1, noiseFiles: 2, noiseFilesWithRecord: 1 });
  });
});
