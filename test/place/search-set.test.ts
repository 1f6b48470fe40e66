// The kept search set (DEC-066): a search with words never asked before reads what it needs
// of the artifact set from one kept entry. Its answers must be the from-scratch answers
// (GIT_CTX_TREE=git: nothing kept) after every kind of change, and it must be used while
// nothing loading the set read has changed.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RACY_MS } from '../../src/place/kept.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { CACHE_REL } from '../helpers/cache.js';

const rec = (id: string, title: string, extra = '') => `---\nid: ${id}\ntype: decision\ntitle: ${title}\nstatus: accepted\nsummary: ${title} (${id}).\n${extra}---\n\n# ${title}\n\n${title}, with retries and rounding of invoices.\n`;
const adr = (n: number, title: string, status: string, body: string) => `# ${n}. ${title}\n\nDate: 2025-01-0${n}\n\n## Status\n\n${status}\n\n## Context\n\n${body}\n\n## Decision\n\n${body}\n`;

function standards(): TestRepo {
  const up = makeRepo({
    'adr/0001-money-in-cents.md': adr(1, 'Keep money in integer cents', 'Accepted', 'Money amounts are integer cents, never floating point; invoices round once.'),
    'adr/0002-timestamps-utc.md': adr(2, 'Timestamps in UTC', 'Accepted', 'Every timestamp is stored in UTC; retries keep the first timestamp.'),
  });
  up.commit('standards');
  return up;
}

function service(up: TestRepo): TestRepo {
  const svc = makeRepo({
    '.contextia/config.yaml': `sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n  - git: ../${path.basename(up.dir)}\n    ref: main\n    dir: adr\n    format: adr\n    prefix: ORG-ADR-\n    name: standards\n`,
    '.contextia/system/rationale/DEC-001.md': rec('DEC-001', 'Invoices are rounded once', 'relations:\n  supersedes: [DEC-002]\n'),
    '.contextia/system/rationale/DEC-002.md': rec('DEC-002', 'Invoices rounded per line').replace('status: accepted', 'status: superseded'),
    'docs/adr/0001-retry-invoices.md': adr(1, 'Retry invoices', 'Accepted', 'The retry loop resends invoices three times with backoff.'),
    'src/billing/invoice.ts': 'export const total = 1;\n',
  });
  svc.commit('service');
  expect(runCli(['sources', 'update'], { cwd: svc.dir }).code).toBe(0);
  svc.commit('pin standards');
  return svc;
}

type From = 'kept answer' | 'search set' | 'repository';

/** `search --json` without the lanes' times, and what answered it. */
function search(dir: string, words: string[], env: NodeJS.ProcessEnv = {}): { out: unknown; from: From } {
  const r = runCli(['search', ...words, '--json'], { cwd: dir, env: { GIT_CTX_TIMINGS: '1', ...env } });
  expect(r.stderr).not.toContain('Error');
  expect(r.code).toBe(0);
  const json = JSON.parse(r.stdout) as { slots: Record<string, { ms?: number }> };
  for (const s of Object.values(json.slots)) delete s.ms;
  const from: From = /timing: snapshot/.test(r.stderr) ? 'repository' : r.stderr.includes('keywords: searched') ? 'search set' : 'kept answer';
  return { out: json, from };
}

const scratch = { GIT_CTX_TREE: 'git' };
const settle = () => new Promise((res) => setTimeout(res, RACY_MS + 150));
let asked = 0;
/** Words no search asked before (so no kept answer serves them), around the records' words. */
const fresh = (): string[] => ['invoices', 'rounding', 'retry', `w${++asked}`];

/**
 * After a change: the first new search is computed from the repository (and keeps the set
 * anew), the next new one from the kept set; both equal the from-scratch answers, as does a
 * repeated one (its kept answer).
 */
async function expectSearchSetAfterChange(dir: string): Promise<unknown> {
  await settle();
  const a = fresh();
  const first = search(dir, a);
  expect(first.from).toBe('repository');
  expect(first.out).toEqual(search(dir, a, scratch).out);
  const b = fresh();
  const second = search(dir, b);
  expect(second.from).toBe('search set');
  const want = search(dir, b, scratch).out;
  expect(second.out).toEqual(want);
  const again = search(dir, b);
  expect(again.from).toBe('kept answer');
  expect(again.out).toEqual(want);
  return want;
}

const ids = (out: unknown) => (out as { results: { id: string }[] }).results.map((r) => r.id);

describe('the kept search set', () => {
  it('answers new words as the repository does after record edits, adds, deletes, a pin change and a config change', async () => {
    const up = standards();
    const svc = service(up);
    const d = svc.dir;
    const start = await expectSearchSetAfterChange(d);
    expect(ids(start)).toEqual(expect.arrayContaining(['DEC-001', 'ADR-0001']));

    // a record edited (not staged)
    svc.write({ 'docs/adr/0001-retry-invoices.md': adr(1, 'Retry invoices', 'Accepted', 'The retry loop resends invoices five times; rounding stays with the ledger.') });
    await expectSearchSetAfterChange(d);

    // a record added (untracked), then one deleted from disk
    svc.write({ '.contextia/system/rationale/DEC-003.md': rec('DEC-003', 'Retry invoices with jitter') });
    const added = await expectSearchSetAfterChange(d);
    expect(ids(added)).toContain('DEC-003');
    svc.rm('docs/adr/0001-retry-invoices.md');
    const removed = await expectSearchSetAfterChange(d);
    expect(ids(removed)).not.toContain('ADR-0001');

    // the source's pin moves: upstream edits a record, `sources update` writes the lock
    up.commit('money as strings', { 'adr/0001-money-in-cents.md': adr(1, 'Money as decimal strings', 'Accepted', 'Invoices carry amounts as decimal strings; retries resend the same string.') });
    expect(runCli(['sources', 'update'], { cwd: d }).code).toBe(0);
    const moved = await expectSearchSetAfterChange(d);
    expect(JSON.stringify(moved)).toContain('Money as decimal strings');

    // the config changed: links are no longer followed
    svc.write({ '.contextia/config.yaml': `${readFileSync(path.join(d, '.contextia/config.yaml'), 'utf8')}retrieval:\n  link_depth: 0\n` });
    await expectSearchSetAfterChange(d);

    // a commit (HEAD and the index move)
    svc.commit('all of it');
    await expectSearchSetAfterChange(d);
  });

  it('computes from the repository when a search needs what the kept set does not hold', async () => {
    const up = standards();
    const svc = service(up);
    const d = svc.dir;
    await expectSearchSetAfterChange(d);
    // the keyword index gone: rebuilding it reads the records' text, which the kept set lacks
    for (const slot of ['latest', 'previous']) rmSync(path.join(d, `${CACHE_REL}/retrieve-keywords-${slot}.bin`), { force: true });
    const words = fresh();
    const r = search(d, words);
    expect(r.from).toBe('repository');
    expect(r.out).toEqual(search(d, words, scratch).out);
    // a filter on what the kept set holds is answered from it, and equals the repository's
    const filtered = [...fresh(), '--all', '--source', 'adr'];
    const f = search(d, filtered);
    expect(f.from).toBe('search set');
    expect(f.out).toEqual(search(d, filtered, scratch).out);
  });
});
