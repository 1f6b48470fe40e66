import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inRecordFolder, isAdrFile, recordStem } from '../../src/artifacts/sources/files.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

type Listed = { id: string; title: string; file: string };

// eclipse-edc/Connector keeps each record in a folder of its own, named by its date, with its
// images beside it: `docs/developer/decision-records/2022-02-07-tracing/README.md`. Zero config
// found nothing ("0 artifacts"), a folder's name was an unknown id, and `new` wrote a flat
// `0001-….md` numbered "# 1." among dated folders.
describe('records kept in folders of their own', () => {
  const rec = (title: string, decision: string, extra = '') => `# ${title}\n\n## Decision\n\n${decision}\n\n## Rationale\n\nIt was measured.${extra}\n`;
  const files = {
    'docs/developer/decision-records/README.md': '# Decision records\n\n- [2023-01-10 Retry budget](2023-01-10-retry-budget/)\n',
    'docs/developer/decision-records/2023-01-10-retry-budget/README.md': rec('Retry budget', 'Each outgoing call gets at most three retries per minute.'),
    'docs/developer/decision-records/2023-01-10-retry-budget/budget.png': 'not really an image\n',
    'docs/developer/decision-records/2023-01-10-retry-budget/measurements.md': '# Measurements\n\nNumbers from the load test.\n',
    'docs/developer/decision-records/2023-04-02-jitter/README.md': rec('Jitter on retries', 'Retries wait a random share of the backoff.', '\n\nIt refines [the retry budget](../2023-01-10-retry-budget/README.md).'),
    'src/main/java/org/acme/RetryPolicy.java': 'package org.acme;\n\npublic class RetryPolicy {}\n',
  };

  it('tells a record folder\'s page from its attachments', () => {
    expect(inRecordFolder('a/2023-01-10-retry-budget/README.md')).toBe(true);
    expect(inRecordFolder('a/0007-queues/index.md')).toBe(true);
    expect(inRecordFolder('a/samples/README.md')).toBe(false);
    expect(isAdrFile('a/2023-01-10-retry-budget/measurements.md')).toBe(false);
    expect(isAdrFile('a/README.md')).toBe(false);
    expect(recordStem('a/2023-01-10-retry-budget/README.md')).toBe('2023-01-10-retry-budget');
  });

  it('are found without a config, named by their folder, linked, and a new one gets a folder too', () => {
    const repo = makeRepo(files);
    repo.commit('records');
    const list = runCli(['list', '--json'], { cwd: repo.dir });
    expect(list.code, list.stderr).toBe(0);
    const arts = (JSON.parse(list.stdout) as { artifacts: Listed[] }).artifacts;
    expect(arts.map((a) => [a.id, a.title])).toEqual([
      ['ADR-2023-01-10-retry-budget', 'Retry budget'],
      ['ADR-2023-04-02-jitter', 'Jitter on retries'],
    ]);
    const show = runCli(['show', '2023-04-02-jitter'], { cwd: repo.dir });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain('amends (from the text): ADR-2023-01-10-retry-budget');
    expect(runCli(['show', 'docs/developer/decision-records/2023-01-10-retry-budget/'], { cwd: repo.dir }).stdout).toContain('ADR-2023-01-10-retry-budget (decision');
    const created = runCli(['new', 'decision', 'Circuit breaker per host', '--date', '2023-06-01'], { cwd: repo.dir });
    expect(created.code, created.stderr).toBe(0);
    const file = 'docs/developer/decision-records/2023-06-01-circuit-breaker-per-host/README.md';
    expect(created.stdout).toContain(file);
    expect(existsSync(path.join(repo.dir, file))).toBe(true);
    const shown = runCli(['show', 'ADR-2023-06-01-circuit-breaker-per-host'], { cwd: repo.dir });
    expect(shown.stdout).toContain('# Circuit breaker per host\n');
  });
});
