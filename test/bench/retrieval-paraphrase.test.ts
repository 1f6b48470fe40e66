import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadArtifactSet, loadConfig, openSnapshot } from '../../src/index.js';
import { tokenize, validateDataset, type DevSet } from '../../bench/retrieval/lib.mjs';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

// The invented payments fixture: records + paraphrased questions for the semantic slot and search.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURE = path.join(ROOT, 'test/fixtures/retrieval-paraphrase');
const data = JSON.parse(readFileSync(path.join(FIXTURE, 'queries.json'), 'utf8')) as DevSet;

function fixtureFiles(dir = path.join(FIXTURE, 'repo'), prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) Object.assign(out, fixtureFiles(path.join(dir, e.name), rel));
    else out[rel] = readFileSync(path.join(dir, e.name), 'utf8');
  }
  return out;
}

interface BenchJson {
  dataset: string;
  records: number;
  gitCtx: { available: boolean; reason?: string; queryErrors?: unknown[] };
  rows: { kind: string; n: number; baseline: { recall5: number; mrr: number }; 'git-ctx': { recall5: number; mrr: number } | null }[];
  queries: { id: string; baseline: { top: string[] } }[];
}

describe('the retrieval-paraphrase fixture', () => {
  const files = fixtureFiles();

  it('has about twenty paraphrased questions with sound labels that exist in the fixture', () => {
    expect(validateDataset(data, { paraphrase: 20, keyword: 3 })).toEqual([]);
    for (const r of data.queries.flatMap((q) => q.relevant)) expect(files[r], r).toBeDefined();
  });

  it('no paraphrase uses a word of its target record’s title', () => {
    const glue = new Set(['with', 'from', 'that', 'this', 'when', 'what', 'only', 'every']);
    for (const q of data.queries.filter((x) => x.kind === 'paraphrase')) {
      const words = new Set(tokenize(q.input));
      for (const r of q.relevant) {
        const title = JSON.parse(files[r]!.match(/^title:\s*(.*)$/m)![1]!.replace(/^([^"].*)$/, '"$1"')) as string;
        const shared = tokenize(title).filter((t) => t.length >= 4 && !glue.has(t) && words.has(t));
        expect(shared, `${q.id} vs ${r}`).toEqual([]);
      }
    }
  });

  it('loads as 23 artifacts with no problems, and `git ctx check` finds nothing', async () => {
    const repo = makeRepo(files);
    repo.commit('fixture');
    const snapshot = await openSnapshot({ cwd: repo.dir, rev: 'HEAD' });
    const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
    expect(set.problems).toEqual([]);
    expect(set.artifacts.length).toBe(23);
    expect(set.byId.get('DEC-PAY-018')?.status).toBe('superseded');
    expect(set.byId.get('DEC-PAY-003')?.relations.supersedes).toEqual(['DEC-PAY-018']);
    const check = spawnSync(process.execPath, [path.join(ROOT, 'bin/git-ctx.js'), 'check'], { cwd: repo.dir, encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it('bench/retrieval.mjs --fixture measures it: BM25 baseline per kind, git-ctx or the reason it is missing', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bench/retrieval.mjs'), '--fixture', '--json'], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as BenchJson;
    expect(out.dataset).toBe('retrieval-paraphrase');
    expect(out.records).toBe(23);
    expect(out.rows.map((row) => [row.kind, row.n])).toEqual([
      ['paraphrase', 21],
      ['keyword', 4],
      ['overall', 25],
    ]);
    // keyword controls are exact words: plain BM25 must get each of them first
    expect(out.rows[1]!.baseline).toEqual({ recall5: 1, mrr: 1 });
    // paraphrases are hard for word overlap, which is what they are for
    expect(out.rows[0]!.baseline.mrr).toBeLessThan(0.6);
    const first = out.queries.find((q) => q.id === 'keyword-03')!.baseline.top[0];
    expect(first).toBe('.contextia/system/rationale/DEC-PAY-003.md');
    if (out.gitCtx.available) {
      expect(out.gitCtx.queryErrors).toEqual([]);
      for (const row of out.rows) {
        expect(row['git-ctx']!.recall5).toBeGreaterThanOrEqual(0);
        expect(row['git-ctx']!.recall5).toBeLessThanOrEqual(1);
      }
    } else {
      expect(out.gitCtx.reason).toMatch(/\S/);
      for (const row of out.rows) expect(row['git-ctx']).toBeNull();
    }
  }, 300_000);

  /**
   * A stand-in for another build of git-ctx (--bin): it speaks the `for`/`search --format json`
   * contract of issue 13, so the bench's side of that contract is tested before the engine lands.
   */
  function fakeGitCtx(): { dir: string; bin: string } {
    const dir = tempDir('git-ctx-fake-bin-');
    mkdirSync(path.join(dir, 'bin'));
    mkdirSync(path.join(dir, 'dist/cli'), { recursive: true });
    writeFileSync(path.join(dir, 'dist/cli/main.js'), '');
    const dec = (n: number) => `.contextia/system/rationale/DEC-PAY-${String(n).padStart(3, '0')}.md`;
    writeFileSync(
      path.join(dir, 'bin/git-ctx.js'),
      `const [cmd, ...rest] = process.argv.slice(2);
if (cmd === '--help') { console.log('Commands:\\n  for <place>   x\\n  search <words...>   y'); process.exit(0); }
const words = rest.slice(0, rest.indexOf('--format'));
if (rest.slice(rest.indexOf('--format')).join(' ') !== '--format json') { console.error('want --format json'); process.exit(2); }
const answer = (files) => JSON.stringify({ query: words.join(' '), results: files.map((file, i) => ({ id: 'X' + i, type: 'decision', title: 't', status: 'accepted', file, slot: 'fused', why: [] })), slots: {} });
const w = words.join(' ');
if (cmd !== 'search') { console.log(answer([])); }
else if (w === 'idempotency key') console.log(answer([${JSON.stringify(dec(1))}]));
else if (w === 'rate limiting') console.log(answer([${JSON.stringify(dec(18))}, './${dec(3)}', ${JSON.stringify(dec(3))}]));
else if (w === 'webhook signature') { console.log(answer([${JSON.stringify(dec(2))}, ${JSON.stringify(dec(5))}])); process.exit(1); }
else if (w === 'chargeback') { console.error('    at somewhere\\nCtxError: the index is broken'); process.exit(2); }
else console.log(answer([]));
`,
    );
    return { dir, bin: path.join(dir, 'bin/git-ctx.js') };
  }
  type FakeRun = BenchJson & { gitCtx: { mode: string; modeNote: string; queryErrors: { id: string; error: string }[]; emptyAnswers: number } };
  const benchWith = (bin: string): FakeRun => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bench/retrieval.mjs'), '--fixture', '--json', '--bin', bin], { cwd: ROOT, encoding: 'utf8', timeout: 240_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    return JSON.parse(r.stdout) as FakeRun;
  };

  it('scores what a git-ctx CLI answers in the documented JSON shape, and lists the queries it failed', () => {
    const out = benchWith(fakeGitCtx().bin);
    expect(out.gitCtx.mode).toBe('cli');
    expect(out.gitCtx.queryErrors).toEqual([{ id: 'keyword-04', error: expect.stringMatching(/^search chargeback … exited 2: CtxError: the index is broken$/), detail: expect.any(String) }]);
    expect(out.gitCtx.emptyAnswers).toBe(22);
    // keyword-01 first (RR 1), keyword-02 second (an exit-1 answer still counts; RR 1/2),
    // keyword-03 second after deduping ./ paths (RR 1/2), keyword-04 failed (0)
    expect(out.rows.find((row) => row.kind === 'keyword')!['git-ctx']).toEqual({ recall5: 0.75, mrr: 0.5 });
    expect(out.rows.find((row) => row.kind === 'paraphrase')!['git-ctx']).toEqual({ recall5: 0, mrr: 0 });
  }, 300_000);

  it('uses the library export only when it answers like the CLI on a sample of queries', () => {
    const { dir, bin } = fakeGitCtx();
    const dec1 = JSON.stringify('.contextia/system/rationale/DEC-PAY-001.md');
    // disagrees with the CLI (which finds nothing for the first paraphrases): the CLI is used
    writeFileSync(path.join(dir, 'dist/index.js'), `export async function retrieve() { return { results: [{ file: ${dec1} }] }; }\n`);
    const disagreeing = benchWith(bin);
    expect(disagreeing.gitCtx.mode).toBe('cli');
    expect(disagreeing.gitCtx.modeNote).toMatch(/^library and CLI disagree on paraphrase-01/);
    expect(disagreeing.rows.find((row) => row.kind === 'keyword')!['git-ctx']).toEqual({ recall5: 0.75, mrr: 0.5 });
    // agrees on the sample (nothing for the first paraphrases): the library answers everything
    writeFileSync(path.join(dir, 'dist/index.js'), `export async function retrieve({ query }) { return { results: query === 'chargeback' ? [{ file: '.contextia/system/rationale/DEC-PAY-016.md' }] : [] }; }\n`);
    const agreeing = benchWith(bin);
    expect(agreeing.gitCtx.mode).toBe('library');
    expect(agreeing.gitCtx.queryErrors).toEqual([]);
    expect(agreeing.rows.find((row) => row.kind === 'keyword')!['git-ctx']).toEqual({ recall5: 0.25, mrr: 0.25 });
  }, 300_000);

  it('the bench refuses a broken dev set with exit 2 and names the problem', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bench/retrieval.mjs'), '--data', path.join(FIXTURE, 'repo/src/money/money.ts')], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/cannot read .*money\.ts/);
  });
});
