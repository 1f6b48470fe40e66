import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { paymentsRepo } from '../pr/change-scenario.js';
import { connect } from '../mcp/helpers.js';

/* `git ctx for --diff` / `--staged` and MCP context_for_change: the ranked records for a change before it is a pull request. */

describe('git ctx for --diff / --staged', () => {
  it('--diff base...head: one ranked list, each record once with its files and lines; json is the same data', async () => {
    const repo = paymentsRepo();
    const human = runCli(['for', '--diff', 'main...feature'], { cwd: repo.dir });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^the change main\.\.\.feature \(\d+ files\)/);
    expect(human.stdout.indexOf('DEC-ERR')).toBeLessThan(human.stdout.indexOf('DEC-IDEM'));
    expect(human.stdout).toContain('[declared]');
    expect(human.stdout).toMatch(/DEC-IDEM +decision accepted +Generate idempotency key +\[related\]/);
    expect(human.stdout).toMatch(/src\/idempotency\.ts:\d/);
    expect(human.stdout).not.toContain('DEC-NOTIFY');
    const json = JSON.parse(runCli(['for', '--diff', 'main...feature', '--json'], { cwd: repo.dir }).stdout);
    expect(json).toMatchObject({ version: 1, query: { kind: 'change', range: 'main...feature', head: repo.git('rev-parse', 'feature') }, retrieval: { description: 'commits' } });
    expect(json.ranked.map((x: { id: string }) => x.id).slice(0, 2)).toEqual(['DEC-ERR', 'DEC-IDEM']);
    // a lone base is compared with HEAD, as a pull request from here would be
    repo.git('checkout', '-q', 'feature');
    const lone = JSON.parse(runCli(['for', '--diff', 'main', '--json'], { cwd: repo.dir }).stdout);
    expect(lone.ranked.map((x: { id: string }) => x.id)).toEqual(json.ranked.map((x: { id: string }) => x.id));
  });

  it('--staged: what the index adds, before the commit; a change no record governs says so in one line', async () => {
    const repo = paymentsRepo();
    repo.git('checkout', '-q', 'main');
    repo.write({ 'src/handlers/card.ts': "import { charge } from '../gateway';\n\nexport async function cardPayment(orderId: string, amount: number) {\n  const key = idempotencyKey(orderId, attempt);\n  return charge(orderId, amount, key);\n}\n" });
    repo.git('add', 'src/handlers/card.ts');
    // the working tree says more than the index: only the index counts
    repo.write({ 'src/notify/match.ts': 'export function matchNotification(reference: string) {\n  // match webhook notifications to orders by merchant reference\n  return reference.trim();\n}\n' });
    const r = runCli(['for', '--staged', '--title', 'Send the idempotency key', '--format', 'context'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('# Records for the staged change');
    expect(r.stdout).toMatch(/- DEC-ERR — Errors of payment handlers \(decision, accepted; declared\)/);
    expect(r.stdout).toMatch(/- DEC-IDEM — Generate idempotency key \(decision, accepted; related\): .*\[src\/handlers\/card\.ts:4/);
    expect(r.stdout).not.toContain('DEC-NOTIFY');

    repo.git('reset', '-q');
    repo.git('checkout', '--', '.');
    repo.write({ 'README.md': '# Payments\n\nRun yarn test.\n' });
    repo.git('add', 'README.md');
    const none = runCli(['for', '--staged'], { cwd: repo.dir });
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout.trim().split('\n')).toEqual(['the staged change (1 file)', '  No decision governs the staged change.']);
  });

  it('bad input: a place with --diff, no place at all, a range that does not resolve', () => {
    const repo = paymentsRepo();
    const both = runCli(['for', 'src/gateway.ts', '--diff', 'main'], { cwd: repo.dir });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--diff asks about a change, not a place');
    const neither = runCli(['for'], { cwd: repo.dir });
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('give a place, --diff <range> or --staged');
    const bad = runCli(['for', '--diff', 'no-such-branch...HEAD'], { cwd: repo.dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no-such-branch');
    const title = runCli(['for', 'src/gateway.ts', '--title', 'x'], { cwd: repo.dir });
    expect(title.code).toBe(2);
    expect(title.stderr).toContain('--title and --body describe a change');
  });

  it('a head without config: the ADR folder is read and the answer says so', () => {
    const adr = (n: string, title: string, body: string) => `# ${n}. ${title}\n\nDate: 2024-01-0${n}\n\n## Status\n\nAccepted\n\n## Context\n\n${body}\n\n## Decision\n\n${body}\n`;
    const repo = paymentsRepo({
      'doc/adr/0001-record-architecture-decisions.md': adr('1', 'Record architecture decisions', 'We record architecture decisions in this folder.'),
      'doc/adr/0002-generate-idempotency-key.md': adr('2', 'Generate idempotency key', 'Every payment request to the gateway carries an idempotency key generated from the order id and the attempt, so a retried request is charged once.'),
    });
    const r = runCli(['for', '--diff', 'main...feature'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    // the tree that had no config file is named: a config init wrote and nobody committed is not in it (trials26)
    expect(r.stdout).toMatch(/no \.contextia\/config\.yaml at the change's head [0-9a-f]{7}: read decision records from doc\/adr\//);
    expect(r.stdout).toMatch(/ADR-0002 +decision accepted +Generate idempotency key/);
  });
});

describe('MCP context_for_change through a real client', () => {
  it('answers for a range and for the staged change; a wrong call is an error naming the fix', async () => {
    const repo = paymentsRepo();
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('context_for_change', { range: 'main...feature' });
    expect(r.isError).toBeFalsy();
    const results = r.data.results as { id: string; strength: string; why: string; places: { path: string; lines: number[][] }[] }[];
    expect(results.slice(0, 2).map((x) => [x.id, x.strength])).toEqual([
      ['DEC-ERR', 'declared'],
      ['DEC-IDEM', 'retrieved'],
    ]);
    expect(results[1]!.places.map((p) => p.path)).toContain('src/idempotency.ts');
    expect(r.text).toContain('- DEC-IDEM — Generate idempotency key (decision, accepted; related)');
    const unread = [...(r.data.retrieval as { skipped: { path: string }[] }).skipped, ...((r.data.ungovernable ?? []) as { path: string }[])].map((s) => s.path);
    expect(unread.sort()).toEqual(['assets/logo.png', 'src/schema.generated.ts', 'yarn.lock']);

    const given = await c.call('context_for_change', { range: 'main...feature', title: 'Implements DEC-NOTIFY', max: 1 });
    expect((given.data.results as { id: string }[]).map((x) => x.id)).toContain('DEC-NOTIFY');

    repo.git('checkout', '-q', 'main');
    repo.write({ 'CONTRIBUTING.md': '# Contributing\n\nOpen a branch.\n' });
    repo.git('add', 'CONTRIBUTING.md');
    const staged = await c.call('context_for_change', { staged: true });
    expect(staged.isError).toBeFalsy();
    expect(staged.text.trim()).toBe('No decision governs the staged change.');

    const wrong = await c.call('context_for_change', {});
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toContain('give range');
  });
});
