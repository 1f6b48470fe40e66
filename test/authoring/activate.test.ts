import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { replaceAdrStatus } from '../../src/artifacts/record-status.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const ADR_FIX = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/adr-sources');

const FM = `---
# keep this comment
id: DEC-ROUND-001
type: decision
title: Round half to even
status: accepted   # in force
keywords: [rounding,  money]
---
# DEC-ROUND-001

Body stays.
`;

const statusOf = (dir: string, id: string): string | undefined => {
  const r = runCli(['list', '--json'], { cwd: dir, env: {} });
  const j = JSON.parse(r.stdout) as { artifacts?: { id: string; status?: string }[] } | { id: string; status?: string }[];
  const list = Array.isArray(j) ? j : (j.artifacts ?? []);
  return list.find((a) => a.id === id)?.status;
};

describe('git ctx activate', () => {
  it('deprecate → activate on a frontmatter record gives back the exact bytes (the reason is removed)', () => {
    const repo = makeRepo();
    repo.commit('dec', { '.contextia/system/rationale/DEC-ROUND-001.md': FM });
    const file = path.join(repo.dir, '.contextia/system/rationale/DEC-ROUND-001.md');
    expect(runCli(['deprecate', 'DEC-ROUND-001', '--reason', 'moved to the ledger'], { cwd: repo.dir }).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('deprecated_reason: moved to the ledger');
    const r = runCli(['activate', 'DEC-ROUND-001'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('DEC-ROUND-001: status accepted  .contextia/system/rationale/DEC-ROUND-001.md\n');
    expect(readFileSync(file, 'utf8')).toBe(FM);
    expect(runCli(['activate', 'DEC-ROUND-001'], { cwd: repo.dir }).stdout).toContain('(already)');
  });

  it('uses the type vocabulary (norms become active) and refuses superseded records and unknown ids', () => {
    const repo = makeRepo();
    repo.commit('n', {
      '.contextia/system/norms/NORM-001.md': '---\nid: NORM-001\ntype: norm\ntitle: Lint\nstatus: deprecated\n---\n# Lint\n',
      '.contextia/system/rationale/DEC-001.md': '---\nid: DEC-001\ntype: decision\ntitle: Old\nstatus: superseded\n---\n# Old\n',
      '.contextia/system/rationale/DEC-002.md': '---\nid: DEC-002\ntype: decision\ntitle: New\nstatus: accepted\nrelations:\n  supersedes: [DEC-001]\n---\n# New\n',
    });
    const n = runCli(['activate', 'NORM-001', '--json'], { cwd: repo.dir });
    expect(JSON.parse(n.stdout)).toMatchObject({ id: 'NORM-001', status: 'active', changed: true });
    const s = runCli(['activate', 'DEC-001'], { cwd: repo.dir });
    expect(s.code).toBe(2);
    expect(s.stderr).toContain('superseded');
    const bad = runCli(['activate', 'NORM-001', '--status', 'deprecated'], { cwd: repo.dir });
    expect(bad.code).toBe(2);
    expect(runCli(['activate', 'DEC-404'], { cwd: repo.dir }).code).toBe(2);
  });

  it('deprecate → activate on ADR-format records rewrites only the status line, and restores it', () => {
    const repo = makeRepo();
    cpSync(ADR_FIX, repo.dir, { recursive: true });
    repo.commit('fixture');
    // Nygard section, CRLF-free Nygard, MADR frontmatter, rst, and other status styles
    const ids = ['ADR-0001', 'ADR-0003', 'API-0001', 'MADR-0001', 'MADR-0002', 'MADR-0004', 'MADR-0005', 'MADR-0006', 'RST-0001'];
    const files: Record<string, string> = {
      'ADR-0001': 'docs/adr/0001-record-architecture-decisions.md',
      'ADR-0003': 'docs/adr/0003-use-cockroachdb-for-storage.md',
      'API-0001': 'packages/api/docs/adr/0001-api-framework.md',
      'MADR-0001': 'docs/decisions/0001-use-madr.md',
      'MADR-0002': 'docs/decisions/0002-madr2-bullets.md',
      'MADR-0004': 'docs/decisions/0004-hand-written-bold.md',
      'MADR-0005': 'docs/decisions/0005-table-metadata.md',
      'MADR-0006': 'docs/decisions/0006-plain-status-line.md',
      'RST-0001': 'doc/rst/0001-use-sphinx.rst',
    };
    for (const id of ids) {
      const r = runCli(['deprecate', id, '--reason', 'no longer true'], { cwd: repo.dir });
      expect(r.code, `${id}: ${r.stderr}`).toBe(0);
      const diff = repo.git('diff', '--numstat', '--', files[id]!);
      expect(diff, id).toMatch(/^1\t1\t/);
      expect(statusOf(repo.dir, id), id).toBe('deprecated');
    }
    // a Nygard record: the section's value line, reason after it
    expect(repo.git('diff', '-U0', '--', files['ADR-0001']!)).toMatch(/-Accepted\n\+Deprecated \(no longer true\)/);
    for (const id of ids) {
      const r = runCli(['activate', id], { cwd: repo.dir });
      expect(r.code, `${id}: ${r.stderr}`).toBe(0);
      expect(statusOf(repo.dir, id), id).toBe('accepted');
    }
    // records whose status was written "Accepted" come back byte for byte; the others read "Accepted" now
    const changed = repo.git('diff', '--name-only').split('\n').filter(Boolean).sort();
    expect(changed).toEqual(['docs/decisions/0002-madr2-bullets.md', 'docs/decisions/0004-hand-written-bold.md', 'docs/decisions/0005-table-metadata.md', 'docs/decisions/0006-plain-status-line.md', 'packages/api/docs/adr/0001-api-framework.md']);
    for (const f of changed) expect(repo.git('diff', '--numstat', '--', f), f).toMatch(/^1\t1\t/);
  }, 240_000);
});

describe('replaceAdrStatus', () => {
  it('keeps the capitalisation and the rest of the line', () => {
    expect(replaceAdrStatus('a\n* Status: Approved\nb\n', 2, 'Approved', 'deprecated')).toBe('a\n* Status: Deprecated\nb\n');
    expect(replaceAdrStatus('| 🟢 accepted | 2024 |\r\n', 1, '🟢 accepted', 'deprecated')).toBe('| deprecated | 2024 |\r\n');
    expect(replaceAdrStatus('STATUS: ACCEPTED\n', 1, 'ACCEPTED', 'deprecated')).toBe('STATUS: DEPRECATED\n');
    expect(replaceAdrStatus('**Accepted**\n', 1, 'Accepted', 'deprecated')).toBe('**Deprecated**\n');
    expect(() => replaceAdrStatus('nothing\n', 1, 'Accepted', 'deprecated')).toThrow(/could not find the status/);
  });
});
