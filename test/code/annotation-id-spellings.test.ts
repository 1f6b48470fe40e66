import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

// DEC-093: a team names its records its own way in code — `@adr 5`, `@adr ADR-5`,
// `@decision 0005-use-coroutines`, `@adr adr-0005` — for the record whose id git-ctx reads
// from its file name, ADR-0005. Each names that record, as the same spelling does on the
// command line (`git ctx show 5`); a number no record has is still reported.
const record = (n: string, title: string) => `# ${title}\n\n## Status\n\n- **Accepted**\n\n## Context\n\nWhy ${title.toLowerCase()}.\n\n## Decision\n\n${title}.\n`;

describe('annotation ids spelt as the team spells them', () => {
  it('resolve to the record in trace, for and check; an id naming no record is still an error', () => {
    const repo = makeRepo({
      'docs/adr/0001-switch-to-kotlin.md': record('0001', 'Switch to Kotlin'),
      'docs/adr/0005-use-coroutines.md': record('0005', 'Use coroutines for background work'),
      'docs/adr/0012-central-project-configuration.md': record('0012', 'Central project configuration'),
      'core/sync/src/main/kotlin/Sync.kt': 'package net.example.sync\n\n// @adr 5\nclass Sync {\n  suspend fun run() {}\n}\n',
      'core/mail/src/main/kotlin/Fetch.kt': 'package net.example.mail\n\n// @decision ADR-5\nclass Fetch\n',
      'core/mail/src/main/kotlin/Send.kt': 'package net.example.mail\n\n// @adr 0005-use-coroutines\nclass Send\n',
      'core/mail/src/main/kotlin/Store.kt': 'package net.example.mail\n\n// @adr adr-0012\nclass Store\n',
    });
    repo.commit('records and code');
    for (const [file, id] of [
      ['core/sync/src/main/kotlin/Sync.kt', 'ADR-0005'],
      ['core/mail/src/main/kotlin/Fetch.kt', 'ADR-0005'],
      ['core/mail/src/main/kotlin/Send.kt', 'ADR-0005'],
      ['core/mail/src/main/kotlin/Store.kt', 'ADR-0012'],
    ] as const) {
      const t = runCli(['trace', file, '--format', 'json'], { cwd: repo.dir });
      expect(t.code, t.stderr).toBe(0);
      expect(JSON.stringify(JSON.parse(t.stdout))).toContain(`"${id}"`);
      const f = runCli(['for', file, '--format', 'json'], { cwd: repo.dir });
      expect(f.code, f.stderr).toBe(0);
      expect((JSON.parse(f.stdout) as { results: { id: string }[] }).results[0]!.id).toBe(id);
    }
    const check = runCli(['check', '--json'], { cwd: repo.dir });
    const findings = (JSON.parse(check.stdout) as { findings: { rule: string }[] }).findings;
    expect(findings.filter((f) => f.rule === 'annotation-unknown-id')).toEqual([]);

    repo.commit('an id no record has', { 'core/mail/src/main/kotlin/Draft.kt': 'package net.example.mail\n\n// @adr 99\nclass Draft\n' });
    const bad = runCli(['check', '--json'], { cwd: repo.dir });
    const unknown = (JSON.parse(bad.stdout) as { findings: { rule: string; message: string }[] }).findings.filter((f) => f.rule === 'annotation-unknown-id');
    expect(unknown.map((f) => f.message)).toEqual(['@adr 99 names no artifact']);
  });
});
