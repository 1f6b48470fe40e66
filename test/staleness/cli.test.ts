import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { gitEnv, makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { decision, INVOICE_TS } from './helpers.js';

const DEC = '.contextia/system/rationale/DEC-ROUND-001.md';
const DRIFTED_TS = INVOICE_TS.replace('Math.round(amount * 100)', 'bankersRound(amount * 100)');
const STAMP_RE = /stamp:\n {2}commit: [0-9a-f]{40}\n {2}fingerprints:\n(?: {4}.+\n)+/;

const read = (repo: TestRepo, file: string) => readFileSync(path.join(repo.dir, file), 'utf8');
const cli = (repo: TestRepo, ...args: string[]) => runCli(args, { cwd: repo.dir });

/** One annotated function and its decision, committed (a comment in the frontmatter must survive writes). */
function baseRepo(extra: Record<string, string> = {}): TestRepo {
  const repo = makeRepo();
  repo.commit('code', { 'src/invoice.ts': INVOICE_TS, [DEC]: decision('DEC-ROUND-001', '# reviewed by finance\n'), ...extra });
  return repo;
}

/** baseRepo, stamped through the CLI and committed. */
function stampedRepo(extra: Record<string, string> = {}): TestRepo {
  const repo = baseRepo(extra);
  const r = cli(repo, 'stamp', 'DEC-ROUND-001');
  expect(r.code).toBe(0);
  repo.commit('stamp DEC-ROUND-001');
  return repo;
}

/** The git processes a CLI run started, read from git's trace2 event stream. */
function gitCommandsOf(repo: TestRepo, args: string[]): string[][] {
  const trace = path.join(repo.dir, '.git', 'trace2.json');
  const r = runCli(args, { cwd: repo.dir, env: { GIT_TRACE2_EVENT: trace } });
  expect([0, 1]).toContain(r.code);
  const lines = readFileSync(trace, 'utf8').split('\n').filter(Boolean);
  rmSync(trace, { force: true });
  return lines.map((l) => JSON.parse(l) as { event: string; argv?: string[] }).filter((e) => e.event === 'start').map((e) => e.argv!.slice(1));
}

describe('git ctx stamp / ack (CLI)', () => {
  it('stamp writes only the stamp block; no ids is a usage error', () => {
    const repo = baseRepo();
    const before = read(repo, DEC);
    const r = cli(repo, 'stamp', 'DEC-ROUND-001');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^stamped {2}DEC-ROUND-001 at [0-9a-f]{12}: 1 anchor /);
    const after = read(repo, DEC);
    expect(after).toMatch(STAMP_RE);
    expect(after).toContain(`    src/invoice.ts#roundTotal: `);
    // byte level: removing the stamp block gives back the file exactly
    expect(after.replace(STAMP_RE, '')).toBe(before);
    expect(after.match(STAMP_RE)![0]).toContain(repo.git('rev-parse', 'HEAD'));

    // stamping again at the same HEAD changes nothing
    const again = cli(repo, 'stamp', 'DEC-ROUND-001');
    expect(again.stdout).toContain('(unchanged)');
    expect(read(repo, DEC)).toBe(after);

    const usage = cli(repo, 'stamp');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('name artifacts to stamp, or pass --all');
    const unknown = cli(repo, 'stamp', 'DEC-ROUND-01');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown artifact id: DEC-ROUND-01');
    expect(unknown.stderr).toContain('did you mean DEC-ROUND-001');
  });

  it('stamp --all --json skips unanchored artifacts and stamps the rest', () => {
    const repo = baseRepo({ '.contextia/system/rationale/DEC-NONE-001.md': decision('DEC-NONE-001') });
    const r = cli(repo, 'stamp', '--all', '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { results: { id: string; action: string; reason?: string; fingerprints?: Record<string, string> }[] };
    const byId = new Map(out.results.map((x) => [x.id, x]));
    expect(byId.get('DEC-ROUND-001')).toMatchObject({ action: 'stamped' });
    expect(Object.keys(byId.get('DEC-ROUND-001')!.fingerprints!)).toEqual(['src/invoice.ts#roundTotal']);
    expect(byId.get('DEC-NONE-001')).toMatchObject({ action: 'skipped', reason: 'unanchored: no anchors, paths or annotations' });
    expect(read(repo, '.contextia/system/rationale/DEC-NONE-001.md')).toBe(decision('DEC-NONE-001'));
  });

  it('stamp --staged fingerprints the index, not the working tree', () => {
    const repo = baseRepo();
    repo.write({ 'src/invoice.ts': DRIFTED_TS });
    repo.git('add', 'src/invoice.ts');
    // the working tree goes further than the index
    repo.write({ 'src/invoice.ts': DRIFTED_TS.replace('bankersRound', 'otherRound') });
    expect(cli(repo, 'stamp', '--staged', 'DEC-ROUND-001').code).toBe(0);
    repo.git('add', DEC);
    expect(cli(repo, 'stale', '--staged').code).toBe(0);
    const wt = cli(repo, 'stale', '--json');
    expect(wt.code).toBe(1);
    expect(JSON.parse(wt.stdout).artifacts[0].anchors[0]).toMatchObject({ anchor: 'src/invoice.ts#roundTotal', state: 'changed' });
  });

  it('ack records the review of drifted code: stale, then fresh', () => {
    const repo = stampedRepo();
    repo.commit('use banker rounding', { 'src/invoice.ts': DRIFTED_TS });
    expect(cli(repo, 'stale').code).toBe(1);
    const before = read(repo, DEC);
    const r = cli(repo, 'ack', 'DEC-ROUND-001');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('DEC-ROUND-001 was stale; acknowledged:\n  changed   src/invoice.ts#roundTotal\n');
    const after = read(repo, DEC);
    // only the commit and the fingerprint lines change
    const diff = after.split('\n').filter((l, i) => l !== before.split('\n')[i]);
    expect(diff).toHaveLength(2);
    expect(diff[0]).toBe(`  commit: ${repo.git('rev-parse', 'HEAD')}`);
    expect(diff[1]).toMatch(/^ {4}src\/invoice\.ts#roundTotal: [0-9a-f]{64}$/);
    expect(cli(repo, 'stale').code).toBe(0);
    expect(cli(repo, 'ack', 'DEC-NOPE').code).toBe(2);
  });

  it('stamp --fix renames the fingerprint key of a moved anchor and nothing else', () => {
    const repo = stampedRepo();
    repo.git('mv', 'src/invoice.ts', 'src/billing.ts');
    repo.commit('rename invoice.ts');
    const moved = cli(repo, 'stale', '--json');
    // moved is not stale: exit 0 by default, 1 with --fail-on moved
    expect(moved.code).toBe(0);
    expect(JSON.parse(moved.stdout).artifacts[0]).toMatchObject({ status: 'moved', anchors: [{ anchor: 'src/invoice.ts#roundTotal', state: 'moved', movedTo: 'src/billing.ts#roundTotal' }] });
    expect(cli(repo, 'stale', '--fail-on', 'moved').code).toBe(1);
    const before = read(repo, DEC);
    const r = cli(repo, 'stamp', '--fix', 'DEC-ROUND-001');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('src/invoice.ts#roundTotal → src/billing.ts#roundTotal');
    const after = read(repo, DEC);
    const head = repo.git('rev-parse', 'HEAD');
    const fp = /src\/invoice\.ts#roundTotal: ([0-9a-f]{64})/.exec(before)![1]!;
    expect(after).toBe(before.replace(/commit: [0-9a-f]{40}/, `commit: ${head}`).replace(`src/invoice.ts#roundTotal: ${fp}`, `src/billing.ts#roundTotal: ${fp}`));
    expect(cli(repo, 'stale', '--fail-on', 'moved').code).toBe(0);
  });
});

describe('git ctx stale (CLI)', () => {
  it('exit 0 when fresh, 1 when stale, 2 on usage errors; JSON shape with commit evidence', () => {
    const repo = stampedRepo({ '.contextia/system/rationale/DEC-NONE-001.md': decision('DEC-NONE-001') });
    const fresh = cli(repo, 'stale');
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toContain('✓ 2 artifacts: 0 stale, 0 moved, 0 unstamped, 1 unanchored, 1 fresh');

    const drift = repo.commit('use banker rounding', { 'src/invoice.ts': DRIFTED_TS });
    const human = cli(repo, 'stale');
    expect(human.code).toBe(1);
    expect(human.stdout).toContain('stale      DEC-ROUND-001');
    expect(human.stdout).toContain(`${drift.slice(0, 10)} 2026-01-01 Test Author  use banker rounding  [modified]`);

    const r = cli(repo, 'stale', '--json');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ tool: 'git-ctx', version: 1, head: drift, shallow: false, counts: { stale: 1, moved: 0, fresh: 0, unanchored: 1, unstamped: 0 }, warnings: [] });
    const j = report.artifacts.find((a: { id: string }) => a.id === 'DEC-ROUND-001');
    expect(j).toMatchObject({ id: 'DEC-ROUND-001', type: 'decision', file: DEC, status: 'stale', method: 'fingerprints', explanation: 'stamp-range', lifecycle: { status: 'accepted', inactive: false, supersededBy: [] } });
    expect(j.base.source).toBe('stamp');
    expect(j.anchors).toHaveLength(1);
    expect(j.anchors[0]).toMatchObject({ anchor: 'src/invoice.ts#roundTotal', kind: 'symbol', origins: ['annotation'], state: 'changed', changedSymbols: ['roundTotal'] });
    expect(j.anchors[0].commits).toEqual([{ id: drift, author: 'Test Author', email: 'author@example.com', date: expect.stringMatching(/^2026-01-01T/), subject: 'use banker rounding', change: 'modified' }]);

    // ids narrow the report; --fail-on never reports without failing
    const one = JSON.parse(cli(repo, 'stale', 'DEC-NONE-001', '--json').stdout);
    expect(one.artifacts.map((a: { id: string }) => a.id)).toEqual(['DEC-NONE-001']);
    expect(cli(repo, 'stale', '--fail-on', 'never').code).toBe(0);

    const unknown = cli(repo, 'stale', 'DEC-ROUND-01');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('did you mean DEC-ROUND-001');
    const badRev = cli(repo, 'stale', '--since', 'no-such-rev');
    expect(badRev.code).toBe(2);
    expect(badRev.stderr).toContain('no-such-rev');
    const badFormat = cli(repo, 'stale', '--format', 'xml');
    expect(badFormat.code).toBe(2);
  });

  it('staleness.fail_on in config.yaml sets the default of --fail-on, and check knows the key', () => {
    const repo = stampedRepo();
    repo.commit('use banker rounding', { 'src/invoice.ts': DRIFTED_TS });
    expect(cli(repo, 'stale').code).toBe(1);
    repo.commit('stale never fails here', { '.contextia/config.yaml': 'staleness:\n  fail_on: never\n' });
    expect(cli(repo, 'stale').code).toBe(0);
    expect(cli(repo, 'stale', '--fail-on', 'stale').code).toBe(1);
    const check = cli(repo, 'check', '--json');
    expect(check.stdout).not.toContain('config-unknown-key');
    repo.commit('a wrong value', { '.contextia/config.yaml': 'staleness:\n  fail_on: sometimes\n' });
    const bad = cli(repo, 'stale');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('staleness.fail_on must be one of stale, moved, unstamped, never');
  });

  it('a warm run reuses the results cache (no history walk) and still sees new drift and lifecycle', () => {
    const repo = stampedRepo({ '.contextia/system/rationale/DEC-ROUND-002.md': decision('DEC-ROUND-002') });
    repo.commit('use banker rounding', { 'src/invoice.ts': DRIFTED_TS });
    const cold = gitCommandsOf(repo, ['stale', '--json']);
    expect(cold.some((a) => a.includes('log'))).toBe(true);
    const first = cli(repo, 'stale', '--json').stdout;
    const warm = gitCommandsOf(repo, ['stale', '--json']);
    expect(warm.filter((a) => a.includes('log') || a.includes('rev-list') || a.includes('merge-base'))).toEqual([]);
    expect(cli(repo, 'stale', '--json').stdout).toBe(first);

    // a lifecycle change elsewhere shows on the cached judgement
    expect(cli(repo, 'supersede', 'DEC-ROUND-001', '--by', 'DEC-ROUND-002').code).toBe(0);
    const sup = JSON.parse(cli(repo, 'stale', 'DEC-ROUND-001', '--json').stdout).artifacts[0];
    expect(sup.lifecycle).toEqual({ status: 'superseded', inactive: true, supersededBy: ['DEC-ROUND-002'] });
    expect(sup.notes[0]).toBe('superseded by DEC-ROUND-002 (a lifecycle fact, reported apart from drift)');
    expect(sup.status).toBe('stale');

    // an uncommitted edit that restores the stamped text makes it fresh again (same HEAD)
    repo.write({ 'src/invoice.ts': INVOICE_TS });
    expect(JSON.parse(cli(repo, 'stale', 'DEC-ROUND-001', '--json').stdout).artifacts[0].status).toBe('fresh');
    // and moving the file away (a search of the whole work tree) is judged on the new content
    repo.git('mv', 'src/invoice.ts', 'src/billing.ts');
    expect(JSON.parse(cli(repo, 'stale', 'DEC-ROUND-001', '--json').stdout).artifacts[0].status).toBe('moved');
  });
});

describe('git ctx deprecate / supersede (CLI)', () => {
  it('deprecate changes the status line and adds the reason, nothing else', () => {
    const repo = stampedRepo();
    const before = read(repo, DEC);
    const r = cli(repo, 'deprecate', 'DEC-ROUND-001', '--reason', 'rounding moved to the ledger');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`DEC-ROUND-001: status deprecated  ${DEC}\n`);
    const after = read(repo, DEC);
    expect(after).toBe(before.replace('status: accepted\n', 'status: deprecated\n').replace('\n---\n# DEC-ROUND-001', '\ndeprecated_reason: rounding moved to the ledger\n---\n# DEC-ROUND-001'));
    expect(cli(repo, 'deprecate', 'DEC-ROUND-001').stdout).toContain('(already)');

    const unknown = cli(repo, 'deprecate', 'DEC-RUND-001');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('did you mean DEC-ROUND-001');
  });

  it('supersede writes the edge on the new record only, refuses cycles and unknown ids', () => {
    const repo = stampedRepo({ '.contextia/system/rationale/DEC-ROUND-002.md': decision('DEC-ROUND-002') });
    const NEW = '.contextia/system/rationale/DEC-ROUND-002.md';
    const oldBefore = read(repo, DEC);
    const newBefore = read(repo, NEW);
    const r = cli(repo, 'supersede', 'DEC-ROUND-001', '--by', 'DEC-ROUND-002');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('DEC-ROUND-002 supersedes DEC-ROUND-001\nDEC-ROUND-001: status superseded\n');
    expect(read(repo, DEC)).toBe(oldBefore.replace('status: accepted\n', 'status: superseded\n'));
    expect(read(repo, NEW)).toBe(newBefore.replace('status: accepted\n', 'status: accepted\nrelations:\n  supersedes: [DEC-ROUND-001]\n'));
    // recorded once, however often it is said
    expect(cli(repo, 'supersede', 'DEC-ROUND-001', '--by', 'DEC-ROUND-002').stdout).toContain('(already recorded)');
    expect(read(repo, NEW)).toContain('supersedes: [DEC-ROUND-001]\n');

    const cycle = cli(repo, 'supersede', 'DEC-ROUND-002', '--by', 'DEC-ROUND-001');
    expect(cycle.code).toBe(2);
    expect(cycle.stderr).toContain('would make a cycle');
    expect(read(repo, DEC)).toBe(oldBefore.replace('status: accepted\n', 'status: superseded\n'));
    const self = cli(repo, 'supersede', 'DEC-ROUND-002', '--by', 'DEC-ROUND-002');
    expect(self.code).toBe(2);
    expect(self.stderr).toContain('cannot supersede itself');
    const unknown = cli(repo, 'supersede', 'DEC-ROUND-001', '--by', 'DEC-ROUND-003');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown artifact id: DEC-ROUND-003');
    expect(unknown.stderr).toMatch(/did you mean .*DEC-ROUND-00[12]/);
  });
});

describe('git ctx trace (CLI): stale marks', () => {
  it('marks a governing artifact whose code drifted, in human and json output', () => {
    const repo = stampedRepo();
    expect(cli(repo, 'trace', 'src/invoice.ts#roundTotal').stdout).not.toContain('stale');
    repo.commit('use banker rounding', { 'src/invoice.ts': DRIFTED_TS });
    const human = cli(repo, 'trace', 'src/invoice.ts#roundTotal');
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('DEC-ROUND-001  decision accepted  DEC-ROUND-001 title');
    expect(human.stdout).toContain('stale: src/invoice.ts#roundTotal changed (1 commit since the stamp)');
    const json = JSON.parse(cli(repo, 'trace', 'src/invoice.ts', '--json').stdout);
    expect(json.entries[0]).toMatchObject({ id: 'DEC-ROUND-001', stale: { state: 'stale', summary: 'src/invoice.ts#roundTotal changed (1 commit since the stamp)' } });
  });
});

describe('check rules: stale-artifact, moved-anchor, proposed-shipped (CLI)', () => {
  type Finding = { rule: string; id: string; severity: string; message: string; line?: number };
  const findings = (repo: TestRepo, rule: string): Finding[] => (JSON.parse(cli(repo, 'check', '--format', 'json').stdout).findings as Finding[]).filter((f) => f.rule === rule);

  it('stale-artifact: a warning when stamped code drifted, none when fresh; severity configurable', () => {
    const repo = stampedRepo();
    expect(findings(repo, 'stale-artifact')).toEqual([]);
    repo.commit('use banker rounding', { 'src/invoice.ts': DRIFTED_TS });
    const last = repo.git('rev-parse', 'HEAD').slice(0, 8);
    const [f, ...rest] = findings(repo, 'stale-artifact');
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ id: 'DEC-ROUND-001', severity: 'warning', message: `DEC-ROUND-001 is stale: src/invoice.ts#roundTotal changed (1 commit, last ${last})` });
    // the finding points at the stamp line
    expect(read(repo, DEC).split('\n')[f!.line! - 1]).toBe('stamp:');
    expect(cli(repo, 'check').code).toBe(0);
    repo.write({ '.contextia/config.yaml': 'rules:\n  stale-artifact: error\n' });
    const strict = cli(repo, 'check');
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('error  DEC-ROUND-001 is stale');
  });

  it('moved-anchor: info on a rename with unchanged text, none after stamp --fix', () => {
    const repo = stampedRepo();
    repo.git('mv', 'src/invoice.ts', 'src/billing.ts');
    repo.commit('rename');
    expect(findings(repo, 'moved-anchor')).toEqual([
      expect.objectContaining({ id: 'DEC-ROUND-001', severity: 'info', message: 'DEC-ROUND-001: src/invoice.ts#roundTotal → src/billing.ts#roundTotal (run git ctx stamp --fix)' }),
    ]);
    expect(findings(repo, 'stale-artifact')).toEqual([]);
    expect(cli(repo, 'stamp', '--fix', '--all').code).toBe(0);
    expect(findings(repo, 'moved-anchor')).toEqual([]);
  });

  it('proposed-shipped: a proposed decision whose code has existed unchanged for long; not for accepted or recent ones', () => {
    const repo = makeRepo();
    const old = { GIT_AUTHOR_DATE: '2020-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2020-01-01T00:00:00Z' };
    repo.write({
      'src/invoice.ts': INVOICE_TS,
      [DEC]: decision('DEC-ROUND-001').replace('status: accepted', 'status: proposed'),
      '.contextia/system/rationale/DEC-DONE-001.md': decision('DEC-DONE-001', 'anchors: ["src/invoice.ts#formatTotal"]\n'),
    });
    repo.git('add', '-A');
    execFileSync('git', ['commit', '-q', '-m', 'long ago'], { cwd: repo.dir, env: gitEnv(old) });
    const [f, ...rest] = findings(repo, 'proposed-shipped');
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ id: 'DEC-ROUND-001', severity: 'warning' });
    expect(f!.message).toMatch(/^DEC-ROUND-001 is still proposed, but the code it anchors has existed unchanged for \d+ days \(since 2020-01-01\)/);
    // code being edited now has not shipped
    repo.write({ 'src/invoice.ts': DRIFTED_TS });
    expect(findings(repo, 'proposed-shipped')).toEqual([]);
    repo.write({ 'src/invoice.ts': INVOICE_TS });
    // a threshold longer than the age silences it
    repo.write({ '.contextia/config.yaml': 'staleness:\n  proposed_shipped_days: 1000000\n' });
    expect(findings(repo, 'proposed-shipped')).toEqual([]);
  });
});
