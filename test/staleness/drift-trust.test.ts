import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { decision, INVOICE_TS, judge, judgeOne, stamp } from './helpers.js';

// Issue 14: drift you can trust. Every case drives a real git history.

const DEC = '.contextia/system/rationale/DEC-ROUND-001.md';
const read = (repo: TestRepo, file: string) => readFileSync(path.join(repo.dir, file), 'utf8');
const cli = (repo: TestRepo, ...args: string[]) => runCli(args, { cwd: repo.dir });
const subjects = (j: Awaited<ReturnType<typeof judgeOne>>) => j.anchors.flatMap((v) => (v.commits ?? []).map((c) => c.subject));

/** invoice.ts and a decision anchoring roundTotal, stamped and committed. */
async function anchoredRepo(): Promise<TestRepo> {
  const repo = makeRepo();
  repo.commit('code', { 'src/invoice.ts': INVOICE_TS, [DEC]: decision('DEC-ROUND-001', 'anchors: ["src/invoice.ts#roundTotal"]\n') });
  await stamp(repo.dir, ['DEC-ROUND-001']);
  repo.commit('stamp DEC-ROUND-001');
  return repo;
}

describe('blame: only commits that moved an anchor away from its stamp', () => {
  it('the commit carrying the stamp with the reviewed code change is not blamed; the later edit is', async () => {
    const repo = await anchoredRepo();
    // the reviewed change is made, stamped before it is committed, and committed with the stamp
    repo.write({ 'src/invoice.ts': INVOICE_TS.replace('Math.round', 'Math.trunc') });
    const results = await stamp(repo.dir, ['DEC-ROUND-001']);
    expect(results[0]).toMatchObject({ action: 'stamped', dirty: ['src/invoice.ts'] });
    repo.commit('review DEC-ROUND-001: truncate cents');
    let j = await judgeOne(repo.dir, 'DEC-ROUND-001');
    expect(j.status).toBe('fresh');
    repo.commit('round up instead', { 'src/invoice.ts': INVOICE_TS.replace('Math.round', 'Math.ceil') });
    j = await judgeOne(repo.dir, 'DEC-ROUND-001');
    expect(j.status).toBe('stale');
    expect(subjects(j)).toEqual(['round up instead']);
    expect(j.anchors[0]!.uncommitted).toBeUndefined();
  });

  it('a later commit that restores the stamped text clears the blame before it', async () => {
    const repo = await anchoredRepo();
    repo.commit('break it', { 'src/invoice.ts': INVOICE_TS.replace('Math.round', 'Math.ceil') });
    repo.commit('restore it', { 'src/invoice.ts': INVOICE_TS });
    repo.commit('break it again', { 'src/invoice.ts': INVOICE_TS.replace('Math.round', 'Math.floor') });
    const j = await judgeOne(repo.dir, 'DEC-ROUND-001');
    expect(j.status).toBe('stale');
    expect(subjects(j)).toEqual(['break it again']);
  });

  it('an uncommitted edit is reported as the working tree, never attributed to a commit', async () => {
    const repo = await anchoredRepo();
    repo.commit('touch another function', { 'src/invoice.ts': INVOICE_TS.replace('toFixed(2)', 'toFixed(3)') });
    repo.write({ 'src/invoice.ts': INVOICE_TS.replace('toFixed(2)', 'toFixed(3)').replace('Math.round', 'Math.ceil') });
    const j = await judgeOne(repo.dir, 'DEC-ROUND-001');
    expect(j.status).toBe('stale');
    expect(j.anchors[0]).toMatchObject({ state: 'changed', uncommitted: ['working tree'] });
    expect(subjects(j)).toEqual([]);
    const r = cli(repo, 'stale');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('working tree (uncommitted)');
  });

  it('a staged-only edit is reported as staged (in the working tree and in the --staged view)', async () => {
    const repo = await anchoredRepo();
    repo.write({ 'src/invoice.ts': INVOICE_TS.replace('Math.round', 'Math.ceil') });
    repo.git('add', 'src/invoice.ts');
    let j = await judgeOne(repo.dir, 'DEC-ROUND-001');
    expect(j.anchors[0]).toMatchObject({ state: 'changed', uncommitted: ['staged'] });
    expect(subjects(j)).toEqual([]);
    const staged = (await judge(repo.dir, { kind: 'index', ids: ['DEC-ROUND-001'] })).artifacts[0]!;
    expect(staged.anchors[0]).toMatchObject({ state: 'changed', uncommitted: ['staged'] });
    // staged, then edited again: both
    repo.write({ 'src/invoice.ts': INVOICE_TS.replace('Math.round', 'Math.floor') });
    j = await judgeOne(repo.dir, 'DEC-ROUND-001');
    expect(j.anchors[0]!.uncommitted).toEqual(['staged', 'working tree']);
  });

  it('stamp --dry-run shows what would be written and writes nothing; ack warns about uncommitted files', async () => {
    const repo = await anchoredRepo();
    repo.write({ 'src/invoice.ts': INVOICE_TS.replace('Math.round', 'Math.ceil') });
    const before = read(repo, DEC);
    const dry = cli(repo, 'stamp', 'DEC-ROUND-001', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('dry run: nothing written');
    expect(dry.stdout).toMatch(/\| {5}src\/invoice\.ts#roundTotal: [0-9a-f]{64}/);
    expect(dry.stdout).toContain('uncommitted changes in src/invoice.ts');
    expect(read(repo, DEC)).toBe(before);
    const ack = cli(repo, 'ack', 'DEC-ROUND-001');
    expect(ack.code).toBe(0);
    expect(ack.stdout).toContain('uncommitted changes in src/invoice.ts');
    expect(read(repo, DEC)).not.toBe(before);
    repo.commit('reviewed');
    expect((await judgeOne(repo.dir, 'DEC-ROUND-001')).status).toBe('fresh');
  });
});

const BILLING = `export function charge(amount: number): number {
  return Math.round(amount * 100) / 100;
}
`;
const GEN = 'export const generated = 1;\n';

/** A decision governing src/billing except its generated code, stamped and committed. */
async function billingRepo(paths = '["src/billing/**", "!src/billing/gen/**"]'): Promise<TestRepo> {
  const repo = makeRepo();
  repo.commit('billing', {
    'src/billing/charge.ts': BILLING,
    'src/billing/refund.ts': 'export const refund = (x: number) => -x;\n',
    'src/billing/gen/types.ts': GEN,
    'src/other.ts': 'export const other = 1;\n',
    'README.md': '# app\n',
    '.contextia/system/rationale/DEC-BILL-001.md': decision('DEC-BILL-001', `paths: ${paths}\n`),
  });
  await stamp(repo.dir, ['DEC-BILL-001']);
  repo.commit('stamp DEC-BILL-001');
  return repo;
}

describe('globs mean what they say', () => {
  it('a ! entry excludes: no unrelated file is governed, and check and stale agree', async () => {
    const repo = await billingRepo();
    const fm = read(repo, '.contextia/system/rationale/DEC-BILL-001.md');
    expect(fm).not.toMatch(/'!src\/billing\/gen\/\*\*':/); // an exclusion is not an anchor
    for (const f of ['README.md', 'src/other.ts', 'src/billing/gen/types.ts']) {
      const t = cli(repo, 'trace', f, '--json');
      expect(t.code, t.stderr).toBe(0);
      // nothing declared governs it; retrieval's weaker, marked fallback may still name records by keywords
      const governing = (JSON.parse(t.stdout) as { entries: { id: string }[] }).entries.map((e) => e.id);
      expect(governing, f).not.toContain('DEC-BILL-001');
    }
    expect((JSON.parse(cli(repo, 'trace', 'src/billing/charge.ts', '--json').stdout) as { entries: { id: string }[] }).entries.map((e) => e.id)).toContain('DEC-BILL-001');
    const check = cli(repo, 'check', '--format', 'json');
    expect(check.stdout).not.toContain('DEC-BILL-001');
    expect((await judgeOne(repo.dir, 'DEC-BILL-001')).status).toBe('fresh');
    // an edit of an excluded file is not drift
    repo.commit('regenerate', { 'src/billing/gen/types.ts': 'export const generated = 2;\n' });
    expect((await judgeOne(repo.dir, 'DEC-BILL-001')).status).toBe('fresh');
    // an edit of a governed file is, blamed on its commit, with the file named
    repo.commit('charge in cents', { 'src/billing/charge.ts': BILLING.replace('/ 100', '') });
    const j = await judgeOne(repo.dir, 'DEC-BILL-001');
    expect(j.status).toBe('stale');
    expect(j.anchors[0]).toMatchObject({ anchor: 'src/billing/**', state: 'changed' });
    expect(subjects(j)).toEqual(['charge in cents']);
    expect(j.anchors[0]!.files).toEqual([{ path: 'src/billing/charge.ts', change: 'modified', commits: [repo.git('rev-parse', 'HEAD')] }]);
  });

  it('every paths: entry is validated once: only exclusions, an exclusion excluding nothing, an empty entry', () => {
    const repo = makeRepo();
    repo.commit('code', {
      'src/a.ts': 'export const a = 1;\n',
      '.contextia/system/rationale/DEC-ONLY-001.md': decision('DEC-ONLY-001', 'paths: ["!src/gen/**"]\n'),
      '.contextia/system/rationale/DEC-NOOP-001.md': decision('DEC-NOOP-001', 'paths: ["src/**", "!lib/**"]\n'),
      '.contextia/system/rationale/DEC-EMPTY-001.md': decision('DEC-EMPTY-001', 'paths: ["src/**", ""]\n'),
    });
    const r = cli(repo, 'check', '--format', 'json');
    const findings = (JSON.parse(r.stdout) as { findings: { rule: string; id: string; line?: number; message: string }[] }).findings.filter((f) => f.rule === 'path-glob-matches-nothing');
    const by = (id: string) => findings.filter((f) => f.id === id).map((f) => f.message);
    expect(by('DEC-ONLY-001')).toEqual(['paths has only exclusions (!src/gen/**): it covers no file (an exclusion never means "everything but")']);
    expect(by('DEC-NOOP-001')).toEqual(['paths exclusion "!lib/**" excludes nothing: no file the inclusions cover matches it']);
    expect(by('DEC-EMPTY-001')).toEqual(['paths entry "" is empty: it names nothing']);
    expect(findings.every((f) => f.line === 6)).toBe(true);
  });
});

describe('glob fingerprints ignore noise', () => {
  it('comment-only and formatting-only edits of globbed files are fresh; a code edit is not', async () => {
    const repo = await billingRepo('["src/billing/**"]');
    repo.commit('comment', { 'src/billing/charge.ts': '// charges are rounded to cents\n' + BILLING.replace('return', '// to cents\n  return') });
    expect((await judgeOne(repo.dir, 'DEC-BILL-001')).status).toBe('fresh');
    repo.commit('reformat', { 'src/billing/charge.ts': BILLING.replace('export function charge(amount: number): number {', 'export function charge(\n  amount: number\n): number {').replace(/\n {2}/g, '\n    ') });
    expect((await judgeOne(repo.dir, 'DEC-BILL-001')).status).toBe('fresh');
    repo.commit('real change', { 'src/billing/charge.ts': BILLING.replace('100', '1000') });
    const j = await judgeOne(repo.dir, 'DEC-BILL-001');
    expect(j.status).toBe('stale');
    expect(subjects(j)).toEqual(['real change']);
  });

  it('a test file added under a globbed folder is fresh with the default exclusion list, and counted when configured away', async () => {
    const repo = await billingRepo('["src/billing/**"]');
    repo.commit('add a test', { 'src/billing/charge.test.ts': 'import { charge } from "./charge";\ncharge(1);\n', 'src/billing/__tests__/refund.ts': 'export {};\n' });
    expect((await judgeOne(repo.dir, 'DEC-BILL-001')).status).toBe('fresh');
    repo.commit('count tests', { '.contextia/config.yaml': 'staleness:\n  glob_ignore: []\n' });
    const j = await judgeOne(repo.dir, 'DEC-BILL-001');
    expect(j.status).toBe('stale');
    expect(j.anchors[0]!.files!.map((f) => [f.path, f.change])).toEqual([
      ['src/billing/__tests__/refund.ts', 'added'],
      ['src/billing/charge.test.ts', 'added'],
    ]);
  });

  it('a file moved within the glob is moved, and stamp --fix with no ids makes it fresh', async () => {
    const repo = await billingRepo('["src/billing/**"]');
    repo.rm('src/billing/refund.ts');
    repo.commit('group refunds', { 'src/billing/refunds/refund.ts': 'export const refund = (x: number) => -x;\n' });
    const j = await judgeOne(repo.dir, 'DEC-BILL-001');
    expect(j.status).toBe('moved');
    expect(j.anchors[0]).toMatchObject({ anchor: 'src/billing/**', state: 'moved', movedTo: 'src/billing/**' });
    expect(j.anchors[0]!.files).toEqual([{ path: 'src/billing/refunds/refund.ts', change: 'moved', from: 'src/billing/refund.ts', commits: [repo.git('rev-parse', 'HEAD')] }]);
    const stale = cli(repo, 'stale');
    expect(stale.stdout).toContain('git ctx stamp --fix');
    const fix = cli(repo, 'stamp', '--fix');
    expect(fix.code, fix.stderr).toBe(0);
    expect(fix.stdout).toContain('fixed    DEC-BILL-001');
    expect(fix.stdout).toContain('src/billing/refund.ts → src/billing/refunds/refund.ts');
    expect((await judgeOne(repo.dir, 'DEC-BILL-001')).status).toBe('fresh');
  });

  it('a stamp written before set fingerprints (sorted path + blob list) is still fresh', async () => {
    const repo = await billingRepo('["src/billing/**"]');
    const file = '.contextia/system/rationale/DEC-BILL-001.md';
    const { createHash } = await import('node:crypto');
    const files = ['src/billing/charge.ts', 'src/billing/gen/types.ts', 'src/billing/refund.ts'];
    const legacy = createHash('sha256')
      .update(files.map((f) => `${f}\0${repo.git('rev-parse', `HEAD:${f}`)}`).join('\n'))
      .digest('hex');
    repo.commit('old stamp', { [file]: read(repo, file).replace(/src\/billing\/\*\*: set1:[0-9a-f:]+/, `src/billing/**: ${legacy}`) });
    expect(read(repo, file)).toContain(legacy);
    expect((await judgeOne(repo.dir, 'DEC-BILL-001')).status).toBe('fresh');
  });
});

describe('writes keep quoting', () => {
  it('stamp --fix rewrites a moved anchors: entry with its quotes and flow style', async () => {
    const repo = makeRepo();
    repo.commit('code', {
      'src/invoice.ts': INVOICE_TS,
      [DEC]: decision('DEC-ROUND-001', `anchors: ["src/invoice.ts#roundTotal", 'src/invoice.ts#formatTotal']\n`),
    });
    await stamp(repo.dir, ['DEC-ROUND-001']);
    repo.commit('stamp');
    repo.git('mv', 'src/invoice.ts', 'src/billing.ts');
    repo.commit('rename');
    const r = cli(repo, 'stamp', '--fix');
    expect(r.code, r.stderr).toBe(0);
    expect(read(repo, DEC)).toContain(`anchors: ["src/billing.ts#roundTotal", 'src/billing.ts#formatTotal']\n`);
    expect((await judgeOne(repo.dir, 'DEC-ROUND-001')).status).toBe('fresh');
  });

  it('a block list keeps its style and its quotes', async () => {
    const repo = makeRepo();
    repo.commit('code', {
      'src/invoice.ts': INVOICE_TS,
      [DEC]: decision('DEC-ROUND-001', `anchors:\n  - "src/invoice.ts#roundTotal"  # the rounding\n  - src/invoice.ts#formatTotal\n`),
    });
    await stamp(repo.dir, ['DEC-ROUND-001']);
    repo.commit('stamp');
    repo.git('mv', 'src/invoice.ts', 'src/billing.ts');
    repo.commit('rename');
    expect(cli(repo, 'stamp', '--fix').code).toBe(0);
    expect(read(repo, DEC)).toContain(`anchors:\n  - "src/billing.ts#roundTotal"  # the rounding\n  - src/billing.ts#formatTotal\n`);
  });
});
