import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adrEntry } from '../helpers/adr.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// An ADR folder read as it is (no config, no anchors) and code that imports itself: a place's
// walk of the code graph can find nothing until some code file carries a tag (DEC-121).
const FILES = Object.fromEntries([
  adrEntry(
    'docs/adr',
    1,
    'round-money-half-even',
    'Round money half to even',
    'Invoices summed rounded amounts and drifted from the ledger by a cent.',
    'Every amount is rounded half to even, once, when an invoice is totalled.',
    'Totals match the ledger; intermediate amounts keep their fractions.',
  ),
  adrEntry('docs/adr', 2, 'retry-webhooks', 'Retry webhooks with backoff', 'Partners drop webhooks under load.', 'Webhooks are retried five times with exponential backoff.', 'Deliveries can arrive late.'),
  ['src/money/round.ts', 'export function roundHalfEven(x: number): number {\n  return Math.round(x);\n}\n'],
  ['src/billing/invoice.ts', "import { roundHalfEven } from '../money/round';\n\nexport function invoiceTotal(lines: number[]): number {\n  return roundHalfEven(lines.reduce((a, b) => a + b, 0));\n}\n"],
  ['src/billing/lines.ts', "import { invoiceTotal } from './invoice';\n\nexport const total = (xs: number[]) => invoiceTotal(xs);\n"],
]);

const graphFiles = (dir: string): string[] => {
  const cache = path.join(dir, '.git/ctx/cache');
  if (!existsSync(cache)) return [];
  return readdirSync(cache, { withFileTypes: true }).filter((b) => b.isDirectory()).flatMap((b) => readdirSync(path.join(cache, b.name)).filter((f) => f.startsWith('code-graph')));
};

const forPlace = (dir: string, place: string) => {
  const r = runCli(['for', place, '--json'], { cwd: dir, env: { GIT_CTX_TIMINGS: '1' } });
  expect(r.code, r.stderr).toBe(0);
  return { json: JSON.parse(r.stdout) as { results: { id: string; slot: string; why: { text: string }[] }[] }, stderr: r.stderr };
};

describe('the code graph of a place is walked only when something can be declared on a neighbour', () => {
  it('skips the walk (and the graph) while no code carries a tag, and walks once a staged annotation does', () => {
    const repo = makeRepo(FILES);
    repo.commit('records and code');

    const before = forPlace(repo.dir, 'src/money/round.ts');
    expect(before.stderr).toContain('code graph: no record anchors code and no code file carries a tag, not walked');
    expect(graphFiles(repo.dir)).toEqual([]);
    expect(before.json.results.some((r) => r.slot === 'declared')).toBe(false);
    // the keywords still answer
    expect(before.json.results[0]?.id).toBe('ADR-0001');

    // an importer declares the record: once staged, the next question walks and finds it
    repo.write({ 'src/billing/invoice.ts': "import { roundHalfEven } from '../money/round';\n\n// @adr ADR-0001\nexport function invoiceTotal(lines: number[]): number {\n  return roundHalfEven(lines.reduce((a, b) => a + b, 0));\n}\n" });
    repo.git('add', '-A');
    const after = forPlace(repo.dir, 'src/money/round.ts');
    expect(after.stderr).not.toContain('not walked');
    expect(graphFiles(repo.dir).length).toBeGreaterThan(0);
    const hit = after.json.results.find((r) => r.id === 'ADR-0001');
    expect(hit?.slot).toBe('declared');
    expect(hit?.why.some((w) => w.text.includes('imported by src/billing/invoice.ts'))).toBe(true);

    // a repository once seen carrying a tag is walked from then on, without asking git again
    repo.write({ 'src/billing/invoice.ts': FILES['src/billing/invoice.ts']! });
    repo.git('add', '-A');
    const removed = forPlace(repo.dir, 'src/money/round.ts');
    expect(removed.stderr).not.toContain('not walked');
    expect(removed.json.results.find((r) => r.id === 'ADR-0001')?.slot).not.toBe('declared');
  }, 60_000);

  it('after git ctx init: the config, which speaks of tags in its comments, is no code carrying one', () => {
    const repo = makeRepo(FILES);
    repo.commit('records and code');
    const init = runCli(['init'], { cwd: repo.dir });
    expect(init.code, init.stderr).toBe(0);
    expect(readFileSync(path.join(repo.dir, '.contextia/config.yaml'), 'utf8')).toMatch(/@(spec|decision|adr)\b/);
    const r = forPlace(repo.dir, 'src/money/round.ts');
    expect(r.stderr).toContain('not walked');
    expect(graphFiles(repo.dir)).toEqual([]);
  }, 60_000);

  it('walks when a record anchors code, though no code file carries a tag', () => {
    const repo = makeRepo({
      ...FILES,
      '.contextia/config.yaml': 'version: 1\n',
      '.contextia/system/rationale/DEC-001.md': '---\nid: DEC-001\ntype: decision\ntitle: Invoices total through one function\nstatus: accepted\nanchors: [src/billing/invoice.ts]\n---\n# Invoices total through one function\n',
    });
    repo.commit('anchored record');
    const r = forPlace(repo.dir, 'src/money/round.ts');
    expect(r.stderr).not.toContain('not walked');
    const hit = r.json.results.find((x) => x.id === 'DEC-001');
    expect(hit?.slot).toBe('declared');
    expect(hit?.why.some((w) => w.text.includes('imported by src/billing/invoice.ts'))).toBe(true);
  }, 60_000);
});
