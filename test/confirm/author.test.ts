import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const NYGARD = '# 1. Record architecture decisions\n\nDate: 2026-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nx\n\n## Decision\n\ny\n\n## Consequences\n\nz\n';
const MADR = '---\nstatus: accepted\ndate: 2026-01-01\n---\n# Use MADR\n\n## Context and Problem Statement\n\nx\n\n## Decision Outcome\n\ny\n\n### Consequences\n\nz\n';

describe('authoring confirmations: add, new, show', () => {
  it('add writes confirm: in frontmatter and the fenced block in an ADR in its own style; show lists them; check runs them', () => {
    const repo = makeRepo({
      '.contextia/config.yaml': 'sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n  - dir: docs/madr\n    format: adr\n    prefix: MADR-\n',
      'docs/adr/0001-record.md': NYGARD,
      'docs/madr/0001-use-madr.md': MADR,
      'src/billing/a.ts': 'export const x = Math.round(1);\nimport m from "moment";\nexport default m;\n',
    });
    repo.commit('base');
    const a = runCli(['add', '--in', '.contextia', '--decision', 'Round half to even in billing', '--paths', 'src/billing/**', '--forbid-call', 'Math.round', '--forbid', 'parseFloat\\(', '--force'], { cwd: repo.dir });
    expect(a.code, a.stderr).toBe(0);
    const dec = readFileSync(path.join(repo.dir, a.stdout.trim()), 'utf8');
    expect(dec).toContain('confirm:\n  - forbid-call: Math.round\n  - forbid: parseFloat\\(\n');
    const b = runCli(['add', '--in', 'docs/adr', '--decision', 'Use luxon', '--forbid-import', 'moment*', '--force'], { cwd: repo.dir });
    expect(b.code, b.stderr).toBe(0);
    expect(readFileSync(path.join(repo.dir, b.stdout.trim()), 'utf8')).toMatch(/## Consequences\n\n## Confirmation\n\n```git-ctx\nconfirm:\n {2}- forbid-import: "moment\*"\n```\n$/);
    const c = runCli(['new', 'decision', '--in', 'docs/madr', '--title', 'Named exports', '--forbid-call', 'console.*', '--require', '^export'], { cwd: repo.dir });
    expect(c.code, c.stderr).toBe(0);
    expect(readFileSync(path.join(repo.dir, c.stdout.trim()), 'utf8')).toMatch(/### Consequences\n\n### Confirmation\n\n```git-ctx\nconfirm:\n {2}- forbid-call: "console\.\*"\n {2}- require: "\^export"\n```\n$/);
    // an invalid pattern is a usage error, nothing written
    const bad = runCli(['add', '--decision', 'Something else entirely', '--forbid', '([a-', '--force'], { cwd: repo.dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not a valid regular expression');

    const show = runCli(['show', 'ADR-0002'], { cwd: repo.dir });
    expect(show.stdout).toContain('confirms: forbid-import moment*\n');
    const json = JSON.parse(runCli(['show', 'DEC-001', '--json'], { cwd: repo.dir }).stdout);
    expect(json.confirm).toEqual([
      { kind: 'forbid-call', pattern: 'Math.round', in: ['src/billing/**'] },
      { kind: 'forbid', pattern: 'parseFloat\\(', in: ['src/billing/**'] },
    ]);
    const check = JSON.parse(runCli(['check', '--json'], { cwd: repo.dir }).stdout);
    const v = check.findings.filter((f: { rule: string }) => f.rule === 'confirmation-violated').map((f: { file: string; line: number; id: string }) => `${f.file}:${f.line} ${f.id}`);
    expect(v).toEqual(expect.arrayContaining(['src/billing/a.ts:1 DEC-001', 'src/billing/a.ts:2 ADR-0002']));
  });
});
