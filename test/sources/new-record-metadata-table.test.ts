import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

const record = (status: string, date: string, who: string, what: string) =>
  `| Status   | Date       | Author(s)          |\n|:---------|:-----------|:-------------------|\n| ${status} | ${date} | [@${who}](https://example.invalid/${who}) |\n\n## Context\n\nWhy ${what}.\n\n### Options\n\nA, B or C.\n\n## Decision\n\nWe ${what}.\n\n## Consequences\n\nLess to run.\n`;

/**
 * trials27, DependencyTrack/hyades: records open with a `| Status | Date | Author(s) |` table
 * and have no title line (the documentation site's menu titles them). A new record was written
 * in adr-tools' shape (`# 18. Title`, `Date:`, `## Status`); it opens with the folder's table,
 * its status and date filled in, the author left to write, and reads back as proposed.
 */
describe('new decision in a folder whose records open with a metadata table', () => {
  it('writes the table, not a title and a Status section', () => {
    const repo = makeRepo({
      'docs/architecture/decisions/001-drop-the-broker.md': record('Accepted', '2025-01-07', 'ana', 'drop the message broker'),
      'docs/architecture/decisions/002-store-files-in-a-bucket.md': record('Proposed', '2025-02-11', 'ben', 'store large files in a bucket'),
    });
    repo.commit('records');
    const r = runCli(['new', 'decision', '--title', 'Cache metadata for an hour', '--date', '2026-03-04'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(path.join(repo.dir, 'docs/architecture/decisions/003-cache-metadata-for-an-hour.md'), 'utf8');
    expect(text).toBe('| Status   | Date       | Author(s)          |\n|:---------|:-----------|:-------------------|\n| Proposed | 2026-03-04 | |\n\n## Context\n\n## Decision\n\n## Consequences\n');
    repo.commit('new record');
    const show = JSON.parse(runCli(['show', '3', '--json'], { cwd: repo.dir }).stdout) as { status: string; frontmatter: Record<string, string> };
    expect(show.status).toBe('proposed');
    expect(show.frontmatter.date).toBe('2026-03-04');
    expect(runCli(['check'], { cwd: repo.dir }).code).toBe(0);
  });
});
