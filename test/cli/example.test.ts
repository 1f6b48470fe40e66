import { cpSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { parseArtifact } from '../../src/artifacts/parse.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const EXAMPLE = path.join(ROOT, '.contextia-example');

function exampleRepo() {
  const repo = makeRepo();
  cpSync(EXAMPLE, repo.dir, { recursive: true });
  repo.commit('Acme billing example');
  return repo;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

describe('the .contextia-example repository', () => {
  it('checks clean: exit 0, no errors, only the intended superseded-link warning', () => {
    const repo = exampleRepo();
    const r = runCli(['check', '--json'], { cwd: repo.dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { findings: { rule: string; id?: string; severity: string; message: string }[]; artifacts: number };
    expect(out.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(out.findings).toContainEqual(expect.objectContaining({ rule: 'task-links-inactive', id: 'TASK-043', severity: 'warning' }));
    expect(out.findings.filter((f) => f.rule === 'active-conflict')).toEqual([]);
    expect(out.artifacts).toBeGreaterThanOrEqual(19);
  });

  it('every annotation in the code names an existing id and sits inside that artifact\'s paths', () => {
    const arts = walk(path.join(EXAMPLE, '.contextia'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => parseArtifact(path.relative(EXAMPLE, f), readFileSync(f)).artifact!);
    const byId = new Map(arts.map((a) => [a.id, a]));
    const seen: string[] = [];
    for (const file of walk(path.join(EXAMPLE, 'src'))) {
      const rel = path.relative(EXAMPLE, file).split(path.sep).join('/');
      for (const m of readFileSync(file, 'utf8').matchAll(/@(spec|decision|norm|task)\s+([A-Z][A-Z0-9-]+)/g)) {
        const a = byId.get(m[2]!);
        expect(a, `${rel}: @${m[1]} ${m[2]}`).toBeDefined();
        expect(a!.type).toBe(m[1]);
        expect(a!.paths.some((p) => picomatch(p)(rel)), `${rel} is outside the paths of ${a!.id}`).toBe(true);
        seen.push(a!.id);
      }
    }
    expect(new Set(seen)).toEqual(new Set(['SPEC-BILLING-001', 'SPEC-CURRENCY-001', 'SPEC-PAYMENTS-001', 'DEC-BILLING-001', 'DEC-BILLING-004', 'DEC-CURRENCY-001', 'DEC-PAYMENTS-001', 'NORM-LOGGING-001']));
    // the anchor of SPEC-BILLING-001 exists in the code
    expect(readFileSync(path.join(EXAMPLE, 'src/billing/invoice/generator.ts'), 'utf8')).toMatch(/class InvoiceGenerator[\s\S]*async generate\(/);
    expect(readFileSync(path.join(EXAMPLE, 'src/billing/invoice/routes.ts'), 'utf8')).toContain("app.post('/api/v1/invoices'");
  });

  it('new picks the next billing decision number', () => {
    const repo = exampleRepo();
    const r = runCli(['new', 'decision', '--domain', 'billing', '--title', 'Credit notes'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('.contextia/system/rationale/DEC-BILLING-005.md');
  });
});
