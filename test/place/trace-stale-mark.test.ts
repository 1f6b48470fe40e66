import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const SPEC = `---
id: SPEC-001
type: spec
title: Invoice generation
status: active
paths: [src/invoice/**]
anchors: ["src/invoice/generator.ts#generate"]
---
# Invoice generation
`;

describe('trace <file>: the staleness mark of a record also annotated in another file', () => {
  it("judges the other file's annotation as stale does, not as removed", () => {
    const repo = makeRepo({
      '.contextia/system/specs/SPEC-001.md': SPEC,
      'src/invoice/generator.ts': 'export function generate(n: number): number {\n  return n + 1;\n}\n',
      'src/invoice/routes.ts': "import { generate } from './generator';\n\n// @spec SPEC-001\nexport function register(n: number): number {\n  return generate(n);\n}\n",
    });
    repo.commit('invoices');
    expect(runCli(['stamp', 'SPEC-001'], { cwd: repo.dir }).code).toBe(0);
    repo.commit('stamp');
    repo.commit('change generate', { 'src/invoice/generator.ts': 'export function generate(n: number): number {\n  return n + 2;\n}\n' });

    const stale = runCli(['stale', 'SPEC-001'], { cwd: repo.dir });
    expect(stale.stdout).toContain('src/invoice/generator.ts#generate: changed since the stamp');
    expect(stale.stdout).not.toContain('src/invoice/routes.ts#register');

    const trace = runCli(['trace', 'src/invoice/generator.ts'], { cwd: repo.dir });
    expect(trace.code).toBe(0);
    const mark = trace.stdout.split('\n').find((l) => l.includes('stale:'));
    expect(mark, trace.stdout).toContain('src/invoice/generator.ts#generate changed');
    expect(mark).not.toContain('removed');
  });
});
