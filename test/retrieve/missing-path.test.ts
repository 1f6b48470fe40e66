import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

/** A path typed wrong names the file it probably meant: another extension, another folder, a typo. */
describe('a place that is not in the snapshot', () => {
  const service = () => {
    const repo = makeRepo({
      '.github/dependabot.yaml': 'version: 2\n',
      'src/payments/refund.ts': 'export const refund = () => 1;\n',
      'docs/adr/0001-record-architecture-decisions.md': '# 1. Record architecture decisions\n\n## Status\n\nAccepted\n\n## Decision\n\nWe record decisions.\n',
    });
    repo.commit('a service');
    return repo;
  };

  it.each([
    ['for', '.github/dependabot.yml', '.github/dependabot.yaml'],
    ['for', 'payments/refund.ts', 'src/payments/refund.ts'],
    ['trace', 'src/payments/refnud.ts', 'src/payments/refund.ts'],
    ['impact', 'src/payment/refund.ts', 'src/payments/refund.ts'],
  ])('%s %s: exit 2, names the path and suggests %s', (cmd, typed, meant) => {
    const r = runCli([cmd, typed], { cwd: service().dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`no such file or directory in the snapshot: ${typed}`);
    expect(r.stderr).toContain(`did you mean ${meant}?`);
  });

  it('nothing close: says paths are relative to the repository root', () => {
    const r = runCli(['for', 'lib/nowhere/at-all.go'], { cwd: service().dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('hint: paths are relative to the repository root');
    expect(r.stderr).not.toContain('did you mean');
  });

  it.each(['trace', 'for'])('%s given a record id: points to show instead of the repository root', (cmd) => {
    const r = runCli([cmd, 'ADR-0001'], { cwd: service().dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('hint: ADR-0001 looks like a record id, not a place in the code: git ctx show ADR-0001 prints the record');
  });

  it('a symbol the file lacks: the close names first, then the others, and how many more there are', () => {
    const repo = service();
    const fns = ['refund', 'charge', 'capture', 'authorize', 'voidPayment', 'settle', 'dispute', 'payout', 'reconcile', 'retryCharge'];
    repo.commit('more', { 'src/payments/ops.ts': fns.map((f) => `export function ${f}() {\n  return 1;\n}\n`).join('') });
    for (const cmd of ['for', 'trace']) {
      const r = runCli([cmd, 'src/payments/ops.ts#refnd'], { cwd: repo.dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('no symbol refnd in src/payments/ops.ts');
      expect(r.stderr).toMatch(/did you mean refund\? symbols: refund, charge, capture, authorize, voidPayment, settle, dispute, payout … and 2 more/);
    }
  });
});
