import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

/** Real-shaped repositories whose only records are ADR folders (test/fixtures/adr-first-hour). */
const FIX = path.join(ROOT, 'test/fixtures/adr-first-hour');

function fixtureRepo(...names: string[]) {
  const repo = makeRepo();
  for (const n of names) cpSync(path.join(FIX, n), repo.dir, { recursive: true });
  repo.commit('fixture');
  return repo;
}
const cli = (dir: string, ...args: string[]) => runCli(args, { cwd: dir });

describe('first hour: the team\'s own pointers (.adr-dir, .log4brains.yml)', () => {
  it('adr-tools: .adr-dir names a folder no name rule finds; list reads it with no configuration, init configures it', () => {
    const repo = fixtureRepo('adr-tools');
    const list = cli(repo.dir, 'list');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/ADR-0010\s+decision\s+accepted\s+Retry payment webhooks with exponential backoff/);
    const init = cli(repo.dir, 'init');
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('architecture/log/  3 records, ids ADR-<number> (named by .adr-dir)');
    expect(readFileSync(path.join(repo.dir, '.contextia/config.yaml'), 'utf8')).toMatch(/sources:\n {2}- dir: architecture\/log\n {4}format: adr\n {4}prefix: ADR-/);
  });

  it('log4brains: the project folder and each package folder, the package with its own prefix', () => {
    const repo = fixtureRepo('log4brains');
    // a log4brains record's id is its file name (its date is not a number: DEC-083)
    expect(cli(repo.dir, 'list').stdout).toMatch(/ADR-20250301-reserve-stock-at-checkout\s+decision\s+accepted\s+Reserve stock at checkout[\s\S]*STOCK-20250410-count-stock-in-units\s+decision\s+accepted\s+Count stock in units/);
    const init = cli(repo.dir, 'init');
    expect(init.stdout).toContain('design/journal/  2 records, ids ADR-<date>-<name> (named by .log4brains.yml)');
    expect(init.stdout).toContain('src/stock-decisions/  1 record, ids STOCK-<date>-<name> (named by .log4brains.yml)');
  });

  it('a pointer that leaves the repository is ignored', () => {
    const repo = fixtureRepo('adr-tools');
    repo.commit('escape', { '.adr-dir': '../../etc\n' });
    const r = cli(repo.dir, 'list');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('ADR-');
  });
});

describe('first hour: reading a record', () => {
  it('summary depth shows what an adr-tools record decided; the status is the mapped one with the written one beside it', () => {
    const repo = fixtureRepo('adr-tools');
    const r = cli(repo.dir, 'show', 'ADR-0010', '--depth', 'summary');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('status: accepted (written "Approved")');
    expect(r.stdout).toContain('## Decision\n\nIncoming webhooks are written to the `webhook_inbox` table first');
    expect(r.stdout).not.toContain('## Consequences');
    const json = JSON.parse(cli(repo.dir, 'show', 'ADR-0010', '--json').stdout) as { status: string; statusWritten: string };
    expect(json).toMatchObject({ status: 'accepted', statusWritten: 'Approved' });
    // "Accepted" is the mapped word in another case: nothing to add
    const same = cli(repo.dir, 'show', 'ADR-0002', '--depth', 'meta');
    expect(same.stdout).toContain('status: accepted\n');
    expect(same.stdout).not.toContain('written');
  });

  it('MADR: frontmatter stays out of the summary, "[Approved]" reads as accepted, the Decision Outcome is shown without its Consequences', () => {
    const repo = fixtureRepo('madr');
    cli(repo.dir, 'init');
    const r = cli(repo.dir, 'show', 'ADR-0002', '--depth', 'summary');
    expect(r.stdout).toContain('status: accepted (written "[Approved]")');
    expect(r.stdout).toContain('# Store web sessions in Redis\n\n## Decision Outcome\n\nChosen option: "Redis"');
    expect(r.stdout).not.toMatch(/^---$/m);
    expect(r.stdout).not.toContain('Consequences');
  });

  it('a relation written in a record\'s prose shows on that record too, not only as the other record\'s computed reverse', () => {
    const repo = fixtureRepo('madr');
    cli(repo.dir, 'init');
    repo.commit('linked', { 'docs/decisions/0004-session-expiry.md': '# Expire web sessions after a day\n\n* Status: accepted\n\n## Context and Problem Statement\n\nSessions pile up (see [ADR 2](0002-store-sessions-in-redis.md)).\n\n## Decision Outcome\n\nA day.\n' });
    const r = cli(repo.dir, 'show', 'ADR-0004', '--depth', 'meta');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('relates_to (from the text): ADR-0002');
    expect(cli(repo.dir, 'show', 'ADR-0002', '--depth', 'meta').stdout).toContain('relates_to (computed): ADR-0004');
    const json = JSON.parse(cli(repo.dir, 'show', 'ADR-0004', '--json').stdout) as { relationsFromText?: Record<string, string[]> };
    expect(json.relationsFromText).toEqual({ relates_to: ['ADR-0002'] });
  });

  it('meta depth of a record that wrote no metadata says so instead of printing {}', () => {
    const repo = fixtureRepo('madr');
    cli(repo.dir, 'init');
    repo.commit('bare', { 'docs/decisions/0004-bare-note.md': '# Keep a changelog\n\nWe keep one.\n' });
    const r = cli(repo.dir, 'show', 'ADR-0004', '--depth', 'meta');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('{}');
    expect(r.stdout).toContain('(no metadata written in the record)');
  });

  it('a status written as a long sentence shows as its mapped word and its line; --json keeps the sentence', () => {
    const long = 'Accepted on 2021-03-04 after the review by the platform team, with the caveat that the migration must finish before the Q3 freeze';
    const repo = makeRepo({ 'docs/adr/0001-use-postgres.md': `# 1. Use Postgres\n\nDate: 2021-03-04\n\n## Status\n\n${long}\n\n## Context\n\nWe need a database.\n\n## Decision\n\nUse Postgres.\n` });
    repo.commit('records');
    const meta = cli(repo.dir, 'show', 'ADR-0001', '--depth', 'meta');
    expect(meta.code, meta.stderr).toBe(0);
    expect(meta.stdout).toContain('status: accepted (written at length on line 7)\n');
    expect(meta.stdout).not.toContain('platform team');
    const json = JSON.parse(cli(repo.dir, 'show', 'ADR-0001', '--json').stdout) as { status: string; statusWritten: string };
    expect(json).toMatchObject({ status: 'accepted', statusWritten: long });
  });
});

describe('first hour: ids as people type them', () => {
  it.each(['10', '0010', 'adr-10', 'ADR-10', 'ADR-0010'])('show %s is ADR-0010', (typed) => {
    const repo = fixtureRepo('adr-tools');
    const r = cli(repo.dir, 'show', typed, '--depth', 'meta');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ADR-0010 \(decision, architecture\/log\/0010-retry-payment-webhooks\.md\)/);
  });

  it('a number two sources have lists both, exit 2; a prefix picks one', () => {
    const repo = fixtureRepo('adr-tools', 'madr');
    cli(repo.dir, 'init');
    const r = cli(repo.dir, 'show', '2');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('2 is ambiguous: its number is shared by 2 records: ADR-0002 "Use PostgreSQL for the ledger" (architecture/log/0002-use-postgresql-for-ledger.md), DOCS-DECISIONS-0002 "Store web sessions in Redis" (docs/decisions/0002-store-sessions-in-redis.md)');
    expect(cli(repo.dir, 'show', 'docs-decisions-2', '--depth', 'meta').stdout).toMatch(/^DOCS-DECISIONS-0002 /);
    expect(cli(repo.dir, 'show', '99').stderr).toContain('unknown artifact id: 99');
  });
});

describe('first hour: bad places are errors', () => {
  it('for/trace file:99999 names the file and its length, exit 2; a line inside answers', () => {
    const repo = fixtureRepo('adr-tools');
    for (const cmd of ['for', 'trace']) {
      const r = cli(repo.dir, cmd, 'src/payments/webhooks.ts:99999');
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('src/payments/webhooks.ts:99999 is not a line of src/payments/webhooks.ts: it has 10 lines');
    }
    const ok = cli(repo.dir, 'for', 'src/payments/webhooks.ts:3');
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('ADR-0010');
    // the semantic fallback the keywords made unnecessary is no line of the answer; JSON keeps it
    expect(ok.stdout).not.toContain('semantic:');
    const json = JSON.parse(cli(repo.dir, 'for', 'src/payments/webhooks.ts:3', '--json').stdout) as { slots: { semantic: { status: string; message?: string } } };
    expect(json.slots.semantic.message).toBe('a fallback for places: not needed, the keywords answered');
  });

  it('an impossible date in a record is a warning naming file and line (impossible-date)', () => {
    const repo = fixtureRepo('madr');
    cli(repo.dir, 'init');
    const r = cli(repo.dir, 'check', '--format', 'json');
    const f = (JSON.parse(r.stdout) as { findings: { rule: string; file: string; line: number; message: string; severity: string }[] }).findings.filter((x) => x.rule === 'impossible-date');
    expect(f).toEqual([expect.objectContaining({ file: 'docs/decisions/0002-store-sessions-in-redis.md', line: 3, severity: 'warning', message: 'date "2026-13-45" is no calendar day: month 13 does not exist' })]);
    expect(cli(repo.dir, 'check', '--list-rules').stdout).toContain('impossible-date');
  });
});

describe('first hour: husky v4 in package.json', () => {
  it('hooks install appends the git-ctx command to husky.hooks.pre-commit, touching nothing else; uninstall restores the bytes', () => {
    const repo = fixtureRepo('husky4');
    const file = path.join(repo.dir, 'package.json');
    const before = readFileSync(file, 'utf8');
    const r = cli(repo.dir, 'hooks', 'install');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('added a git-ctx entry to');
    const after = readFileSync(file, 'utf8');
    const changed = after.split('\n').filter((l, i) => l !== before.split('\n')[i]);
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatch(/^ {6}"pre-commit": "lint-staged && if \[ -x node_modules\/\.bin\/git-ctx \].*# git-ctx-managed-hook",$/);
    expect((JSON.parse(after) as { husky: { hooks: Record<string, string> } }).husky.hooks['commit-msg']).toBe('commitlint -E HUSKY_GIT_PARAMS');
    expect(cli(repo.dir, 'hooks', 'install').stdout).toContain('already runs git-ctx');
    expect(cli(repo.dir, 'hooks', 'install', '--uninstall').code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('a husky block without a pre-commit hook gets one, indented like its neighbours', () => {
    const repo = fixtureRepo('husky4');
    const file = path.join(repo.dir, 'package.json');
    const before = readFileSync(file, 'utf8').replace('      "pre-commit": "lint-staged",\n', '');
    repo.commit('no pre-commit', { 'package.json': before });
    expect(cli(repo.dir, 'hooks', 'install').code).toBe(0);
    const after = readFileSync(file, 'utf8');
    expect(after).toMatch(/"hooks": \{\n {6}"pre-commit": "if \[ -x node_modules.*# git-ctx-managed-hook",\n {6}"commit-msg"/);
    cli(repo.dir, 'hooks', 'install', '--uninstall');
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});

describe('first hour: the pre-commit hook names what a commit touches', () => {
  it('one line naming the decision governing the staged change; silent when nothing reaches the floor; never blocks', () => {
    const repo = fixtureRepo('adr-tools');
    repo.write({ 'src/payments/webhooks.ts': `${readFileSync(path.join(repo.dir, 'src/payments/webhooks.ts'), 'utf8')}// jitter later\n` });
    repo.git('add', '-A');
    const r = cli(repo.dir, 'hook', 'pre-commit');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('governs this change: ADR-0010 "Retry payment webhooks with exponential backoff"\n');
    expect(r.stdout.split('\n').filter((l) => l.startsWith('governs this change')).length).toBe(1);
    repo.git('reset', '-q', '--hard');
    // the README matches the ledger decision by keywords only: below the floor, so nothing is said
    repo.write({ 'README.md': 'payments-service\n\nTakes payments and keeps the ledger of each service.\n' });
    repo.git('add', '-A');
    const quiet = cli(repo.dir, 'hook', 'pre-commit');
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).not.toContain('governs this change');
  });

  it('the line is capped: at most three records, long titles cut, one terminal line', async () => {
    const { governingLine } = await import('../../src/hooks/render.js');
    const g = (id: string) => ({ id, type: 'decision', title: 'A very long title '.repeat(10), strength: 'declared' as const, score: 1000, paths: ['a.ts'] });
    const line = governingLine({ governing: [g('ADR-0001'), g('ADR-0002'), g('ADR-0003')] })!;
    expect(line.length).toBeLessThanOrEqual(160);
    expect(line).toMatch(/^governs this change: ADR-0001 "A very long title/);
    expect(governingLine({ governing: [] })).toBeUndefined();
  });
});
