import { describe, expect, it } from 'vitest';
import { fitBudget, type BudgetItem } from '../../src/assemble/budget.js';
import { assembleBundle, renderBundle } from '../../src/assemble/index.js';
import { CtxError } from '../../src/errors.js';
import { runCli } from '../helpers/cli.js';
import { charCounter, exampleRepo } from './helpers.js';

const item = (id: string, type: string, role: BudgetItem['role'], direct: boolean, kindRank: number, t: [number, number, number], distance: number | null = direct ? 1 : 2): BudgetItem => ({
  id,
  type,
  role,
  direct,
  distance,
  why: id,
  kindRank,
  requestedDepth: 'full',
  tokens: { meta: t[0], summary: t[1], full: t[2] },
});

// full total 460; everything optional at meta → 40 + 60 + 4×10 = 140
const items = (): BudgetItem[] => [
  item('IDENTITY', 'identity', 'identity', false, 0, [10, 20, 40], null),
  item('TASK-1', 'task', 'root', false, 1, [10, 30, 60], 0),
  item('SPEC-D', 'spec', 'linked', true, 2, [10, 50, 100]),
  item('SPEC-T', 'spec', 'linked', false, 2, [10, 50, 100]),
  item('NORM-T', 'norm', 'linked', false, 3, [10, 40, 80]),
  item('DEC-T', 'decision', 'linked', false, 4, [10, 40, 80]),
];

describe('fitBudget', () => {
  it('changes nothing when everything fits', () => {
    const r = fitBudget(items(), 460);
    expect(r.adjustments).toEqual([]);
    expect(r.total).toBe(460);
  });

  it('lowers the lowest priority first, and only as much as needed', () => {
    const r = fitBudget(items(), 420);
    expect(r.adjustments.map((a) => [a.id, a.action, a.from, a.to])).toEqual([['DEC-T', 'lowered', 'full', 'summary']]);
    expect(r.total).toBe(420);
  });

  it('lowers everything it can before dropping anything, then drops decisions, norms, transitive specs in turn', () => {
    const r = fitBudget(items(), 125);
    // every optional entry went to meta (140), then DEC-T and NORM-T were dropped
    expect(r.depth.get('SPEC-D')).toBe('meta');
    expect(r.depth.get('SPEC-T')).toBe('meta');
    expect(r.depth.has('DEC-T')).toBe(false);
    expect(r.depth.has('NORM-T')).toBe(false);
    expect(r.total).toBeLessThanOrEqual(125);
    const dropped = r.adjustments.filter((a) => a.action === 'dropped').map((a) => a.id);
    expect(dropped).toEqual(['NORM-T', 'DEC-T']);
    expect(r.adjustments.find((a) => a.id === 'DEC-T')!.reason).toContain('dropped after every entry was lowered');
    // identity and task untouched while others could give way
    expect(r.depth.get('IDENTITY')).toBe('full');
    expect(r.depth.get('TASK-1')).toBe('full');

    const r2 = fitBudget(items(), 110);
    expect(r2.depth.has('SPEC-T')).toBe(false);
    expect(r2.depth.get('SPEC-D')).toBe('meta');
  });

  it('lowers identity, then the task, only after everything else is gone', () => {
    const r = fitBudget(items(), 90);
    expect([...r.depth.keys()]).toEqual(['IDENTITY', 'TASK-1']);
    expect(r.depth.get('IDENTITY')).toBe('summary');
    expect(r.depth.get('TASK-1')).toBe('full');
    const r2 = fitBudget(items(), 20);
    expect(r2.depth.get('IDENTITY')).toBe('meta');
    expect(r2.depth.get('TASK-1')).toBe('meta');
  });

  it('refuses, never truncates, when even identity + task at meta do not fit', () => {
    const err = (() => {
      try {
        fitBudget(items(), 19);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(CtxError);
    expect((err as CtxError).code).toBe('BUDGET');
    expect((err as CtxError).message).toContain('needs 20 tokens');
  });

  it('gives what a drop freed back to the highest-priority lowered entry', () => {
    const xs = items();
    xs[5]!.tokens = { meta: 60, summary: 70, full: 80 };
    // all at meta = 190 > 175: DEC-T is dropped (130), and SPEC-D can go back to summary (170)
    const r = fitBudget(xs, 175);
    expect(r.depth.has('DEC-T')).toBe(false);
    expect(r.depth.get('SPEC-D')).toBe('summary');
    expect(r.depth.get('SPEC-T')).toBe('meta');
    expect(r.total).toBe(170);
    expect(r.adjustments.find((a) => a.id === 'SPEC-D')).toMatchObject({ action: 'lowered', from: 'full', to: 'summary', tokensAfter: 50 });
  });

  it('skips a lowering that saves nothing', () => {
    const xs = items();
    xs[5]!.tokens = { meta: 10, summary: 80, full: 80 };
    const r = fitBudget(xs, 420);
    expect(r.adjustments[0]!.id).toBe('NORM-T');
  });
});

describe('budget in assembleBundle', () => {
  it('fits the example into a budget and says what was lowered and dropped', async () => {
    const { repo } = exampleRepo();
    const full = await assembleBundle({ cwd: repo.dir, id: 'TASK-042', tokenCounter: charCounter });
    const budget = Math.floor(full.totals.tokens / 2);
    const b = await assembleBundle({ cwd: repo.dir, id: 'TASK-042', budget, tokenCounter: charCounter });
    expect(b.totals.tokens).toBeLessThanOrEqual(budget);
    expect(b.totals.budget).toBe(budget);
    expect(b.adjustments.length).toBeGreaterThan(0);
    expect(b.totals.lowered + b.totals.dropped).toBe(b.adjustments.length);
    for (const a of b.adjustments) {
      const e = b.entries.find((x) => x.id === a.id);
      if (a.action === 'dropped') expect(e).toBeUndefined();
      else expect(e!.depth).toBe(a.to);
    }
    expect(b.entries[0]!.id).toBe('IDENTITY');
    expect(b.entries[1]!.id).toBe('TASK-042');
    const text = renderBundle(b, 'context');
    for (const a of b.adjustments) expect(text).toContain(`${a.action}: ${a.id}`);
  });

  it('CLI: a budget below the minimum exits 1 and says so', () => {
    const { repo } = exampleRepo();
    const r = runCli(['TASK-042', '--budget', '5'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/budget of 5 tokens is too small: even the minimum \(IDENTITY \+ TASK-042 at meta depth\) needs \d+ tokens/);
    expect(r.stdout).toBe('');
  });
});
