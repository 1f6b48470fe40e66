import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CodeIndex, PartialIndexError } from '../../src/code/code-index.js';
import { loadConfig } from '../../src/config.js';
import { runPreCommit, type PreCommitResult } from '../../src/hooks/pre-commit.js';
import { partialStagedIndex } from '../../src/hooks/staged-index.js';
import { StagedDelta } from '../../src/tree/staged.js';
import { StagedSnapshot } from '../../src/hooks/staged-mentions.js';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import type { TestRepo } from '../helpers/git-repo.js';
import { fixtureRepo, stampArtifact } from './helpers.js';
import { CACHE_REL } from '../helpers/cache.js';

const NOW = new Date('2026-06-01T00:00:00Z');
const CARRIERS = `${CACHE_REL}/code-index.carriers.json`;

async function withEnv<T>(name: string, value: string | undefined, f: () => Promise<T>): Promise<T> {
  const before = process.env[name];
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
  try {
    return await f();
  } finally {
    if (before === undefined) delete process.env[name];
    else process.env[name] = before;
  }
}

/** What the hook decides; the check's timing-free parts. */
function decision(r: PreCommitResult) {
  return { ...r, check: { ...r.check } };
}

/**
 * The staged index (partial, from the remembered carriers) against a whole index of the
 * same staged snapshot, and the hook's whole result with and without it. `partial` says
 * whether a memo is expected to be usable.
 */
async function compare(repo: TestRepo, partial: boolean): Promise<PreCommitResult> {
  const staged = await openSnapshot({ cwd: repo.dir, kind: 'index' });
  try {
    const config = await loadConfig(staged);
    const part = await partialStagedIndex({ staged, config, delta: new StagedDelta(staged.root, staged.commit!) });
    if (partial) {
      expect(part).toBeDefined();
      const whole = await CodeIndex.build(staged, config, { cache: false });
      expect(part!.annotations).toEqual(whole.annotations);
      expect(part!.problems).toEqual(whole.problems);
      expect(part!.annotatedIds()).toEqual(whole.annotatedIds());
      // records of files it was not given are looked up as a whole index has them
      for (const f of whole.files) expect(await part!.recordOf(f.path)).toEqual(await whole.recordOf(f.path));
      expect(() => part!.files).toThrow(PartialIndexError);
    } else expect(part).toBeUndefined();
  } finally {
    staged.close();
  }
  const whole = await withEnv('GIT_CTX_TREE', 'git', () => runPreCommit({ cwd: repo.dir, now: NOW, cache: false }));
  const fast = await runPreCommit({ cwd: repo.dir, now: NOW, cache: false });
  expect(decision(fast)).toEqual(decision(whole));
  // every rule (a whole index) agrees too, and leaves the memo usable
  const all = await withEnv('GIT_CTX_TREE', 'git', () => runPreCommit({ cwd: repo.dir, now: NOW, cache: false, allRules: true }));
  expect(decision(await runPreCommit({ cwd: repo.dir, now: NOW, cache: false, allRules: true }))).toEqual(decision(all));
  return fast;
}

const commit = (repo: TestRepo, message: string) => {
  repo.git('add', '-A');
  repo.git('commit', '-q', '--no-verify', '-m', message);
};

describe('pre-commit hook: the staged code index (partial, from remembered carriers)', () => {
  it('finds what a whole index finds through adds, edits, deletes, renames, record changes and settings changes', async () => {
    const repo = fixtureRepo();
    repo.write({
      'src/a.ts': '/** @spec SPEC-BILLING-001 */\nexport function a(): number {\n  return 1;\n}\n',
      'src/b.ts': '// @decision DEC-BILLING-001\nexport const b = 2;\n',
      'src/c.ts': '/** @spec SPEC-NOPE-404 */\nexport function c(): void {}\n',
      'src/plain.ts': 'export const plain = 1;\n',
      'lib/other.py': '# @spec SPEC-BILLING-001\ndef other():\n    pass\n',
    });
    commit(repo, 'annotated files');

    // 1. no memo yet: a whole index, and the carriers of HEAD remembered
    let r = await compare(repo, false);
    expect(r.check.findings.map((f) => f.id)).toContain('SPEC-NOPE-404');
    expect(JSON.parse(readFileSync(path.join(repo.dir, CARRIERS), 'utf8')).value.commit).toBe(repo.git('rev-parse', 'HEAD'));

    // 2. memo at HEAD: modified, added, deleted and renamed files; a record added in the
    //    same commit with a file annotating it; an annotation removed; too large, binary,
    //    symbolic link
    repo.write({
      'src/a.ts': '/** @spec SPEC-UNKNOWN-1 */\nexport function a(): number {\n  return 1;\n}\n',
      'src/d.ts': '/** @spec SPEC-NEW-001 */\nexport function d(): void {}\n',
      'src/plain.ts': '/** @decision DEC-MISSING-9 */\nexport const plain = 1;\n',
      '.contextia/system/specs/SPEC-NEW-001.md': '---\nid: SPEC-NEW-001\ntype: spec\ntitle: New\nstatus: active\nsummary: A new spec.\n---\n# New\n',
      'src/big.ts': `// @spec SPEC-BILLING-001\nexport const big = '${'x'.repeat(2.2 * 1024 * 1024)}';\n`,
      'src/bin.ts': Buffer.from([0x2f, 0x2f, 0x20, 0x40, 0x73, 0x00, 0x01]),
    });
    repo.rm('src/b.ts', 'lib/other.py');
    repo.git('mv', 'src/c.ts', 'src/e.ts');
    symlinkSync('a.ts', path.join(repo.dir, 'src/link.ts'));
    repo.git('add', '-A');
    r = await compare(repo, true);
    const ids = r.check.findings.map((f) => `${f.rule}:${f.file}`);
    expect(ids).toContain('annotation-unknown-id:src/a.ts');
    expect(ids).toContain('annotation-unknown-id:src/e.ts');
    expect(ids).toContain('annotation-unknown-id:src/plain.ts');
    expect(ids).toContain('code-file-skipped:src/big.ts');
    expect(ids).not.toContain('annotation-unknown-id:src/d.ts');
    commit(repo, 'second');

    // 3. the memo two commits behind HEAD (commits made without the hook): an annotation
    //    removed, a record deleted while a file still names it, the large file made small
    repo.write({ 'README.md': 'changed\n' });
    commit(repo, 'third');
    repo.write({
      'src/e.ts': 'export function c(): void {}\n',
      'src/big.ts': '// @spec SPEC-NEW-001\nexport const big = 1;\n',
      'src/f.ts': '// @spec SPEC-BILLING-001\nexport const f = 1;\n',
    });
    commit(repo, 'fourth');
    repo.rm('.contextia/system/specs/SPEC-NEW-001.md');
    repo.write({ 'src/a.ts': '/** @spec SPEC-BILLING-001 */\nexport function a(): number {\n  return 2;\n}\n' });
    repo.git('add', '-A');
    r = await compare(repo, true);
    expect(r.check.findings.map((f) => `${f.id}:${f.file}`)).toEqual(expect.arrayContaining(['SPEC-NEW-001:src/big.ts', 'SPEC-NEW-001:src/d.ts']));
    // the commit abandoned (unstaged), something else staged: HEAD's side of what was staged
    // comes from the memo written by that run
    repo.git('reset', '-q');
    repo.write({ 'README.md': 'changed again\n' });
    repo.git('add', 'README.md');
    await compare(repo, true);
    commit(repo, 'fifth');

    // 4. other settings (a lower size bound, another tag): the memo does not answer
    repo.write({ '.contextia/config.yaml': 'limits:\n  max_file_bytes: 60\ntags: [spec, decision, task]\n', 'src/g.ts': '// @task TASK-404\nexport const g = 1;\n' });
    repo.git('add', '-A');
    r = await compare(repo, false);
    expect(r.check.findings.some((f) => f.rule === 'code-file-skipped')).toBe(true);
    expect(r.check.findings.some((f) => f.id === 'TASK-404')).toBe(true);
    commit(repo, 'sixth');

    // 5. a remembered commit that does not exist (history rewritten and pruned): whole index
    repo.write({ 'src/h.ts': '// @spec SPEC-GONE-1\nexport const h = 1;\n' });
    repo.git('add', '-A');
    await compare(repo, true);
    const file = path.join(repo.dir, CARRIERS);
    const memo = JSON.parse(readFileSync(file, 'utf8'));
    memo.value.commit = '0123456789abcdef0123456789abcdef01234567';
    writeFileSync(file, JSON.stringify(memo));
    await compare(repo, false);
  });

  it('judges drift as a whole index does', async () => {
    const repo = fixtureRepo();
    await stampArtifact(repo, '.contextia/system/specs/SPEC-BILLING-001.md', ['src/billing/invoice.ts#InvoiceGenerator.generate', 'src/billing/**']);
    commit(repo, 'stamp');
    await compare(repo, false);
    const file = 'src/billing/invoice.ts';
    const text = readFileSync(path.join(repo.dir, file), 'utf8');
    repo.write({ [file]: text.replace('total += l.amount;', 'total += l.amount * 1.2;'), 'src/billing/tax.ts': 'export const tax = 1;\n' });
    repo.git('add', '-A');
    const r = await compare(repo, true);
    expect(r.drift.map((d) => d.anchor).sort()).toEqual(['src/billing/**', 'src/billing/invoice.ts#InvoiceGenerator.generate']);
  });
});

/** Mentions resolved through the per-commit memo against those resolved from the whole staged listing. */
async function compareMentions(repo: TestRepo, fromMemo: boolean): Promise<Record<string, string[]>> {
  const plain = await openSnapshot({ cwd: repo.dir, kind: 'index' });
  const staged = new StagedSnapshot(plain.root, plain.commit!, new StagedDelta(plain.root, plain.commit!));
  try {
    const config = await loadConfig(plain);
    const whole = await loadArtifactSet(plain, config);
    const memo = await loadArtifactSet(staged, config);
    const of = (set: typeof whole) => Object.fromEntries(set.artifacts.map((a) => [a.id, (a.mentions ?? []).map((m) => m.target)]));
    expect(of(memo)).toEqual(of(whole));
    // whether the memo answered (no whole listing read) is visible in the snapshot: list() never ran
    expect((staged as unknown as { entries?: unknown }).entries === undefined).toBe(fromMemo);
    return of(whole);
  } finally {
    plain.close();
    staged.close();
  }
}

const record = (id: string, body: string) => `---\nid: ${id}\ntype: spec\ntitle: ${id}\nstatus: active\nsummary: Mentions.\n---\n# ${id}\n\n${body}\n`;

describe('pre-commit hook: drift on an endpoint anchor (the whole file list)', () => {
  it('builds the whole index for drift when an endpoint anchor needs it, with the same result', async () => {
    const repo = fixtureRepo();
    repo.write({ 'src/api/routes.ts': "router.post('/api/v1/orders', (req, res) => res.end());\n" });
    commit(repo, 'routes');
    await stampArtifact(repo, '.contextia/system/specs/SPEC-BILLING-001.md', ['POST /api/v1/orders']);
    commit(repo, 'stamp');
    await compare(repo, false);
    repo.write({ 'src/api/routes.ts': "router.post('/api/v1/orders', (req, res) => res.status(201).end());\n", 'src/b.ts': 'export const b = 1;\n' });
    repo.git('add', '-A');
    const r = await compare(repo, true);
    expect(r.drift.map((d) => d.anchor)).toEqual(['POST /api/v1/orders']);
  });
});

describe('pre-commit hook: mentions from the per-commit memo', () => {
  it('resolves the records\' mentions as the whole staged listing does through adds, deletes and new mentions', async () => {
    const repo = fixtureRepo();
    repo.write({
      '.contextia/system/specs/SPEC-M-001.md': record('SPEC-M-001', 'See `src/a.ts`, `src/lib/`, `src/lib/*.ts`, `docs/guide.md`, `src/gone.ts` and `src/a.ts#a`.'),
      'src/a.ts': 'export function a(): void {}\n',
      'src/lib/one.ts': 'export const one = 1;\n',
      'src/lib/two.ts': 'export const two = 2;\n',
      'src/lib/three.ts': 'export const three = 3;\n',
    });
    commit(repo, 'mentions');
    // no memo: the listing, and HEAD's answers remembered
    let m = await compareMentions(repo, false);
    expect(m['SPEC-M-001']).toEqual(['src/a.ts', 'src/lib', 'src/lib/*.ts', 'src/a.ts#a']);
    // added files now exist; nothing remembered was deleted: from the memo
    repo.write({ 'src/gone.ts': 'export {};\n', 'docs/guide.md': '# Guide\n', 'src/lib/alpha.ts': 'export {};\n' });
    repo.git('add', '-A');
    m = await compareMentions(repo, true);
    expect(m['SPEC-M-001']).toContain('src/gone.ts');
    // one of the two remembered matches of a glob deleted (the third is not known): the listing
    repo.rm('src/lib/alpha.ts');
    repo.git('add', '-A');
    repo.git('rm', '-q', 'src/lib/one.ts');
    await compareMentions(repo, false);
    await compare(repo, false);
    commit(repo, 'second');
    await compareMentions(repo, false);
    repo.write({ 'README.md': 'changed\n' });
    commit(repo, 'between');
    // the memo a commit behind HEAD: mentioned files deleted (each its pattern's only match)
    repo.git('rm', '-q', 'src/a.ts', 'src/gone.ts');
    m = await compareMentions(repo, true);
    expect(m['SPEC-M-001']).not.toContain('src/a.ts');
    commit(repo, 'third');
    // a folder emptied: both remembered matches deleted, the listing again
    repo.git('rm', '-q', '-r', 'src/lib');
    await compareMentions(repo, false);
    // a record added with a mention never remembered: the listing
    repo.write({ '.contextia/system/specs/SPEC-M-002.md': record('SPEC-M-002', 'Uses `README.md` and `src/billing/`.') });
    repo.git('add', '-A');
    m = await compareMentions(repo, false);
    expect(m['SPEC-M-002']).toEqual(['README.md', 'src/billing']);
    await compare(repo, true);
  });

  it('tells one folder named in prose from several through the memo (DEC-138: the last match is remembered)', async () => {
    const repo = fixtureRepo();
    repo.write({
      '.contextia/system/specs/SPEC-M-003.md': record('SPEC-M-003', 'Trials go in the `trial` directory until they settle.'),
      'src/trial/a.ts': 'export const a = 1;\n',
      'src/trial/b.ts': 'export const b = 1;\n',
      'src/trial/c.ts': 'export const c = 1;\n',
    });
    commit(repo, 'one trial folder');
    expect((await compareMentions(repo, false))['SPEC-M-003']).toEqual(['src/trial']);
    // a second folder of that name, after the first in path order: derived from the memo, no longer one folder
    repo.write({ 'tools/trial/x.ts': 'export const x = 1;\n' });
    repo.git('add', '-A');
    expect((await compareMentions(repo, true))['SPEC-M-003']).toEqual([]);
    commit(repo, 'two trial folders');
    await compareMentions(repo, true);
    // the second one gone again: its only file was the last remembered, so the listing is read
    repo.git('rm', '-q', '-r', 'tools/trial');
    expect((await compareMentions(repo, false))['SPEC-M-003']).toEqual(['src/trial']);
  });
});
