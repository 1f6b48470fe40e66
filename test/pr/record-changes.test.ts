import { describe, expect, it } from 'vitest';
import { analyzePullRequest } from '../../src/pr/analyze.js';
import { analyzeChange } from '../../src/pr/change.js';
import { renderChangeContext } from '../../src/pr/change-render.js';
import { renderPrComment } from '../../src/pr/render.js';
import { CODE } from './change-scenario.js';
import { makeRepo } from '../helpers/git-repo.js';

/*
 * A record the pull request adds is news for the reviewer, not the decision that governs the
 * change (DEC-080): it is said on its own line, never ranked; a record the PR edits is ranked
 * only when declared or found like any other, and marked.
 */

const adr = (n: string, title: string, status: string, body: string) => `# ${n}. ${title}\n\nDate: 2024-01-0${n}\n\n## Status\n\n${status}\n\n## Context\n\n${body}\n\n## Decision\n\n${body}\n`;

const RECORDS = {
  'doc/adr/0001-record-architecture-decisions.md': adr('1', 'Record architecture decisions', 'Accepted', 'We record architecture decisions in this folder.'),
  'doc/adr/0002-retry-gateway-calls.md': adr('2', 'Retry gateway calls', 'Accepted', 'A gateway call that times out is retried with backoff; every retried payment request carries the same idempotency key so the gateway charges it once.'),
  'doc/adr/0003-match-notifications.md': adr('3', 'Match notifications to orders', 'Accepted', 'Incoming webhook notifications are matched to orders by the merchant reference.'),
  'doc/adr/0004-monthly-reports.md': adr('4', 'Monthly settlement reports', 'Accepted', 'Settlement reports are rendered as CSV once a month for finance.'),
};

/** main: the records and the payments code; `feature`: an idempotency key in the card handler, and a new record about exactly that. */
function repoWithNewRecord() {
  const repo = makeRepo({ ...RECORDS, ...CODE });
  repo.commit('payments service');
  repo.git('checkout', '-q', '-b', 'feature');
  repo.write({
    'src/idempotency.ts': '/** The idempotency key of a retried payment request: the gateway charges it once. */\nexport function idempotencyKey(orderId: string, attempt: number): string {\n  return `${orderId}:${attempt}`;\n}\n',
    // the new record is written about this very change: its words are the change's words
    'doc/adr/0005-idempotency-key-per-attempt.md': adr('5', 'Idempotency key per payment attempt', 'Proposed', 'Generate the idempotency key with idempotencyKey(orderId, attempt) for every retried payment request sent to the gateway.'),
  });
  repo.commit('Add an idempotency key for retried payment requests');
  return repo;
}

describe('records the pull request adds or edits', () => {
  it('an added record is on its own line, never in the ranked list; the record that governs the change leads it', async () => {
    const repo = repoWithNewRecord();
    const r = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'feature', cache: false, check: false });
    expect(r.recordChanges).toEqual([{ id: 'ADR-0005', type: 'decision', title: 'Idempotency key per payment attempt', status: 'proposed', file: 'doc/adr/0005-idempotency-key-per-attempt.md', change: 'added' }]);
    expect(r.ranked.map((x) => x.id)).not.toContain('ADR-0005');
    expect(r.ranked[0]).toMatchObject({ id: 'ADR-0002', strength: 'retrieved' });
    expect(r.ranked[0]!.editedHere).toBeUndefined();

    const md = renderPrComment(r, { recordUrl: (file, side) => `https://github.example/o/r/blob/${side === 'head' ? r.head.commit : r.mergeBase}/${file}` });
    // the news first, then the decisions the change answers to, numbered in order
    expect(md).toContain(`- Adds decision [**ADR\\-0005**](https://github.example/o/r/blob/${r.head.commit}/doc/adr/0005-idempotency-key-per-attempt.md) Idempotency key per payment attempt (proposed) · \`doc/adr/0005-idempotency-key-per-attempt.md\``);
    expect(md.indexOf('#### Records this PR changes')).toBeLessThan(md.indexOf('#### Decisions this change concerns, strongest first'));
    expect(md).toContain('No record declares the code this PR changes');
    expect(md).not.toContain('no decision, spec or norm governs');
    expect(md).toMatch(/\n1\. \[\*\*ADR\\-0002\*\*\]\(https:\/\/github\.example\/o\/r\/blob\/[0-9a-f]{40}\/doc\/adr\/0002-retry-gateway-calls\.md\) Retry gateway calls \(accepted\) — /);
    // it restates the record that governs the change: said on its own line, not in a section of its own (DEC-084)
    expect(md).toMatch(/- Adds decision [^\n]*ADR\\-0005[^\n]*\n {2}- ⚠️ it resembles \*\*ADR\\-0002\*\* Retry gateway calls \((0\.\d\d|1\.00)\): supersede, merge or link them if both stand\.\n/);
    expect(md).not.toContain('#### Resembles an active decision');

    // `for --diff` and MCP context_for_change say the same
    const change = await analyzeChange({ cwd: repo.dir, range: 'main...feature', cache: false });
    expect(change.ranked.map((x) => x.id)).toEqual(r.ranked.map((x) => x.id));
    expect(change.recordChanges.map((c) => [c.id, c.change])).toEqual([['ADR-0005', 'added']]);
    expect(renderChangeContext(change)).toContain('This change adds decision ADR-0005 — Idempotency key per payment attempt (proposed).');
  });

  it('an edited record that governs the change stays ranked, marked edited; one that does not is news only', async () => {
    const repo = makeRepo({ ...RECORDS, ...CODE });
    repo.commit('payments service');
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write({
      'src/idempotency.ts': '/** The idempotency key of a retried payment request: the gateway charges it once. */\nexport function idempotencyKey(orderId: string, attempt: number): string {\n  return `${orderId}:${attempt}`;\n}\n',
      'doc/adr/0002-retry-gateway-calls.md': adr('2', 'Retry gateway calls', 'Accepted', 'A gateway call that times out is retried with backoff; every retried payment request carries the same idempotency key, from idempotencyKey(orderId, attempt), so the gateway charges it once.'),
      'doc/adr/0004-monthly-reports.md': adr('4', 'Monthly settlement reports', 'Superseded', 'Settlement reports are rendered as CSV once a month for finance.'),
    });
    repo.commit('Add an idempotency key for retried payment requests');
    const r = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'feature', cache: false, check: false });
    expect(r.recordChanges.map((c) => [c.id, c.change])).toEqual([
      ['ADR-0002', 'edited'],
      ['ADR-0004', 'edited'],
    ]);
    expect(r.ranked[0]).toMatchObject({ id: 'ADR-0002', strength: 'retrieved', editedHere: true });
    expect(r.ranked.map((x) => x.id)).not.toContain('ADR-0004');
    const md = renderPrComment(r);
    expect(md).toContain('- Edits decision **ADR\\-0002** Retry gateway calls (accepted) · `doc/adr/0002-retry-gateway-calls.md`\n  - it governs this change too, found by its lines, paths or description: ');
    expect(md).toMatch(/- Edits decision \*\*ADR\\-0004\*\* Monthly settlement reports \(superseded\) · `doc\/adr\/0004-monthly-reports\.md`\n/);
    // said once, under "Records this PR changes": not again as a found record (DEC-084)
    expect(md).not.toMatch(/\n\d+\. \*\*ADR\\-0002\*\*/);
  });
});
