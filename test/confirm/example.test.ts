import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

describe('the example repository carries confirmations that hold', () => {
  it('checks clean; a Math.round in the invoice generator and a console.log in payments are caught', () => {
    const repo = makeRepo();
    cpSync(path.join(ROOT, '.contextia-example'), repo.dir, { recursive: true });
    repo.commit('example');
    const clean = JSON.parse(runCli(['check', '--json'], { cwd: repo.dir }).stdout) as { findings: { rule: string }[] };
    expect(clean.findings.filter((f) => f.rule.startsWith('confirmation-'))).toEqual([]);
    const gen = path.join(repo.dir, 'src/billing/invoice/generator.ts');
    writeFileSync(gen, readFileSync(gen, 'utf8') + '\nexport const cents = (x: number) => Math.round(x * 100);\n');
    const pay = path.join(repo.dir, 'src/billing/payments/matcher.ts');
    writeFileSync(pay, readFileSync(pay, 'utf8') + '\nconsole.log("matched");\n');
    const r = runCli(['check', '--json'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    const v = (JSON.parse(r.stdout) as { findings: { rule: string; file: string; id: string; message: string }[] }).findings.filter((f) => f.rule === 'confirmation-violated');
    expect(v.map((f) => `${f.file} ${f.id}`)).toEqual(['src/billing/invoice/generator.ts DEC-BILLING-001', 'src/billing/payments/matcher.ts NORM-LOGGING-001']);
    const show = runCli(['show', 'DEC-BILLING-001', '--depth', 'meta'], { cwd: repo.dir });
    expect(show.stdout).toContain('confirms: forbid-call Math.round in src/billing/invoice/**, !src/billing/invoice/totals.ts — round with roundHalfEven');
  });
});
