import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const FIX = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/authoring-similar/repo');
const RATIONALE = '.contextia/system/rationale';

// DEC-011 restates DEC-001 (idempotency keys in Redis) in other words
const DUP = `---
id: DEC-011
type: decision
title: Deduplicate payment requests with Redis keys
status: accepted
summary: "A repeated payment request with the same idempotency key returns the first response instead of charging again."
---
# Deduplicate payment requests with Redis keys

## Decision

Each payment request carries an idempotency key; keys and responses are kept in Redis for a day.
`;

function findings(dir: string) {
  const r = runCli(['check', '--format', 'json'], { cwd: dir });
  return (JSON.parse(r.stdout) as { findings: { rule: string; id: string; message: string; line?: number }[] }).findings.filter((f) => f.rule === 'decision-near-duplicate');
}

describe('decision-near-duplicate check rule', () => {
  it('flags two active near-duplicates once, and clears when one is deprecated or they are linked', () => {
    const repo = makeRepo();
    cpSync(FIX, repo.dir, { recursive: true });
    repo.commit('fixture');
    expect(findings(repo.dir)).toEqual([]);

    repo.write({ [`${RATIONALE}/DEC-011.md`]: DUP });
    const f = findings(repo.dir);
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ id: 'DEC-001' });
    expect(f[0]!.message).toMatch(/DEC-001 and DEC-011 are active and nearly the same decision \(similarity (0\.(7[5-9]|[89]\d)|1\.00) ≥ 0\.75\)/);

    // deprecated: no longer in force, no longer a duplicate
    expect(runCli(['deprecate', 'DEC-011'], { cwd: repo.dir }).code).toBe(0);
    expect(findings(repo.dir)).toEqual([]);
    expect(runCli(['activate', 'DEC-011'], { cwd: repo.dir }).code).toBe(0);
    expect(findings(repo.dir)).toHaveLength(1);

    // linked: the authors know of each other
    const file = path.join(repo.dir, RATIONALE, 'DEC-011.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace('status: accepted\n', 'status: accepted\nrelations:\n  relates_to: [DEC-001]\n'));
    expect(findings(repo.dir)).toEqual([]);
  });

  it('the threshold is semantic.conflict_threshold', () => {
    const repo = makeRepo();
    cpSync(FIX, repo.dir, { recursive: true });
    repo.commit('fixture', { [`${RATIONALE}/DEC-011.md`]: DUP, '.contextia/config.yaml': 'semantic:\n  conflict_threshold: 1.01\n' });
    expect(findings(repo.dir)).toEqual([]);
  });
});
