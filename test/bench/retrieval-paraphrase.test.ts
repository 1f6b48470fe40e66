import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadArtifactSet, loadConfig, openSnapshot } from '../../src/index.js';
import { tokenize, validateDataset, type DevSet } from '../../bench/retrieval/lib.mjs';
import { makeRepo } from '../helpers/git-repo.js';

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

  it('the bench refuses a broken dev set with exit 2 and names the problem', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bench/retrieval.mjs'), '--data', path.join(FIXTURE, 'repo/src/money/money.ts')], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/cannot read .*money\.ts/);
  });
});
