import { appendFileSync, cpSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// trials29, cloud-carbon-footprint: two records of a plain adr folder (no frontmatter) were
// reported as near-duplicates with the advice to "link them (relations.relates_to)", a
// frontmatter key such records do not have. For a record read in place the advice is the link
// its text can carry, and following it ends the finding.
const MADR = path.resolve(import.meta.dirname, '../fixtures/adr-home/madr');
const RESTATEMENT = `---\nstatus: accepted\ndate: 2025-04-02\n---\n# Keep user sessions in Redis\n\n## Context and Problem Statement\n\nEvery deploy logged everybody out, because the web tier held sessions in its own memory.\n\n## Decision Outcome\n\nChosen option: "Redis", user sessions live in Redis with a thirty-minute sliding expiry instead of process memory.\n`;

type Finding = { rule: string; id: string; file: string; message: string };
const nearDuplicates = (dir: string): Finding[] =>
  (JSON.parse(runCli(['check', '--format', 'json'], { cwd: dir }).stdout) as { findings: Finding[] }).findings.filter((f) => f.rule === 'decision-near-duplicate');

describe('decision-near-duplicate on records read in place', () => {
  it('advises a link in the record’s text, and that link ends the finding', () => {
    const repo = makeRepo();
    cpSync(MADR, repo.dir, { recursive: true });
    repo.write({ 'docs/decisions/adr-004-keep-user-sessions-in-redis.md': RESTATEMENT });
    repo.commit('records');
    const [f, ...rest] = nearDuplicates(repo.dir);
    expect(rest).toEqual([]);
    const m = /or link them \(a link to (ADR-\d+) in (ADR-\d+)'s text, e\.g\. "(Related: \[ADR-\d+\]\(([^)]+)\))"\) if both stand/.exec(f!.message);
    expect(m, f!.message).not.toBeNull();
    expect(m![2]).toBe(f!.id);
    expect(f!.message).not.toContain('relations.relates_to');
    // the suggested line, written into the reported record, links the two
    expect(path.posix.join(path.posix.dirname(f!.file), m![4]!)).toMatch(/^docs\/decisions\/adr-00\d-/);
    appendFileSync(path.join(repo.dir, f!.file), `\n${m![3]}\n`);
    expect(nearDuplicates(repo.dir)).toEqual([]);
  });
});
