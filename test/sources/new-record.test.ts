import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';
import { withLogEntry } from '../../src/artifacts/sources/decision-log.js';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/adr-sources');

describe('git ctx new decision in a records folder', () => {
  it("writes the folder's own style with its next number and --date; frontmatter files get placeholders", () => {
    const repo = makeRepo();
    cpSync(FIXTURE, repo.dir, { recursive: true });
    repo.commit('fixture');
    const ny = runCli(['new', 'decision', '--in', 'docs/adr', '--title', 'Use Kafka', '--date', '2026-01-31', '--json'], { cwd: repo.dir });
    expect(ny.code, ny.stderr).toBe(0);
    expect(JSON.parse(ny.stdout)).toMatchObject({ id: 'ADR-0006', file: 'docs/adr/0006-use-kafka.md', style: 'nygard' });
    expect(readFileSync(path.join(repo.dir, 'docs/adr/0006-use-kafka.md'), 'utf8')).toBe('# 6. Use Kafka\n\nDate: 2026-01-31\n\n## Status\n\nProposed\n\n## Context\n\n## Decision\n\n## Consequences\n');
    const md = runCli(['new', 'decision', '--in', 'docs/decisions', '--title', 'Use Zod', '--status', 'Accepted', '--date', '2026-02-01', '--json'], { cwd: repo.dir });
    // the newest record of this mixed folder whose shape can be filled is 0004's hand-written bold metadata:
    // its title line, metadata lines and sections are copied, the parts it lacks put back
    expect(JSON.parse(md.stdout)).toMatchObject({ id: 'MADR-0008', file: 'docs/decisions/0008-use-zod.md', style: 'nygard' });
    expect(readFileSync(path.join(repo.dir, 'docs/decisions/0008-use-zod.md'), 'utf8')).toBe('# ADR-0008: Use Zod\n\n**Status:** Accepted\n**Date:** 2026-02-01\n\n## Purpose\n\n## Context\n\n## Decision\n\n## Consequences\n');
    // both read back as records, and check stays clean of errors
    const list = JSON.parse(runCli(['list', '--json'], { cwd: repo.dir }).stdout) as { artifacts: { id: string; status: string; title: string }[] };
    expect(list.artifacts).toEqual(expect.arrayContaining([expect.objectContaining({ id: 'ADR-0006', status: 'proposed', title: 'Use Kafka' }), expect.objectContaining({ id: 'MADR-0008', status: 'accepted' })]));
    expect(runCli(['check'], { cwd: repo.dir }).code).toBe(0);
    // the repository's decisions are only ADR records: a frontmatter record is asked for with --in .contextia
    const fm = runCli(['new', 'decision', '--in', '.contextia', '--title', 'Plain', '--date', '2025-05-05'], { cwd: repo.dir });
    expect(fm.code, fm.stderr).toBe(0);
    expect(readFileSync(path.join(repo.dir, fm.stdout.trim()), 'utf8')).toContain('summary: ""\npaths: []\nanchors: []\ncreated: "2025-05-05"\n');
    const bad = runCli(['new', 'decision', '--in', 'docs/nowhere', '--title', 'X'], { cwd: repo.dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('docs/nowhere is not a records folder');
    expect(runCli(['new', 'decision', '--date', '31/01/2026'], { cwd: repo.dir }).stderr).toContain('--date must be YYYY-MM-DD');
  });
});

describe("a records folder's generated log (adr-log index.md)", () => {
  const log = (entries: string) => `# Decisions\n\nWhat we decided.\n\n<!-- adrlog -- made by adr-log -->\n\n${entries}\n<!-- adrlogstop -->\n\nUse template.md for new records.\n`;
  it('gets the new record on a line modelled on its last one; the rest of the file is kept', () => {
    const before = log('- [ADR-0001](0001-use-madr.md) - Use MADR\n- [ADR-0002](0002-use-python.md) - Use Python 3\n');
    const after = withLogEntry(before, { number: '3', file: 'docs/adr/0003-cache-metadata.md', title: 'Cache metadata', oldTitleOf: (l) => (l === '0002-use-python.md' ? 'Use Python 3' : undefined) });
    expect(after).toBe(log('- [ADR-0001](0001-use-madr.md) - Use MADR\n- [ADR-0002](0002-use-python.md) - Use Python 3\n- [ADR-0003](0003-cache-metadata.md) - Cache metadata\n'));
    // CRLF stays CRLF; a log already naming the file, or without both markers, is left alone
    expect(withLogEntry(before.replace(/\n/g, '\r\n'), { number: '3', file: 'd/0003-x.md', title: 'X', oldTitleOf: () => undefined })).toContain('- [ADR-0003](0003-x.md) - X\r\n\r\n<!-- adrlogstop -->');
    expect(withLogEntry(before, { number: '2', file: 'docs/adr/0002-use-python.md', title: 'Use Python 3', oldTitleOf: () => undefined })).toBeUndefined();
    expect(withLogEntry('# Decisions\n\n- [ADR-0001](0001-a.md) - A\n', { number: '2', file: 'd/0002-b.md', title: 'B', oldTitleOf: () => undefined })).toBeUndefined();
  });

  it('new decision lists the record in the folder index; --dry-run writes neither', () => {
    const repo = makeRepo({
      'docs/adr/0001-use-madr.md': '---\nstatus: accepted\ndate: 2021-01-01\n---\n# Use MADR\n\n## Context and Problem Statement\n\nx\n\n## Decision Outcome\n\nChosen option: MADR.\n',
      'docs/adr/index.md': log('- [ADR-0001](0001-use-madr.md) - Use MADR\n'),
      '.contextia/config.yaml': 'sources:\n  - docs/adr\n',
    });
    repo.commit('records');
    const dry = runCli(['new', 'decision', '--title', 'Cache metadata', '--date', '2026-01-31', '--dry-run'], { cwd: repo.dir });
    expect(dry.code, dry.stderr).toBe(0);
    expect(readFileSync(path.join(repo.dir, 'docs/adr/index.md'), 'utf8')).toBe(log('- [ADR-0001](0001-use-madr.md) - Use MADR\n'));
    const r = runCli(['new', 'decision', '--title', 'Cache metadata', '--date', '2026-01-31', '--json'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 'ADR-0002', file: 'docs/adr/0002-cache-metadata.md', log: 'docs/adr/index.md' });
    expect(readFileSync(path.join(repo.dir, 'docs/adr/index.md'), 'utf8')).toBe(log('- [ADR-0001](0001-use-madr.md) - Use MADR\n- [ADR-0002](0002-cache-metadata.md) - Cache metadata\n'));
    expect(runCli(['check'], { cwd: repo.dir }).code).toBe(0);
  });
});
