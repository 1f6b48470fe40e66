import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSet } from '../helpers/artifact-set.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

/**
 * trials30 (guardian/cdk's shape): the folder's template writes a prompt as an HTML comment
 * under each heading (`<!--- What is the status …? -->`, with a third dash), and the records
 * keep the prompt above their own text. The prompt is neither the status nor the summary.
 */
const template = (status: string, decision: string) =>
  `# Title\n\n## Status\n\n<!--- What is the status, such as proposed, accepted, rejected, deprecated, superseded, etc.? -->\n\n${status}\n\n## Context\n\n<!--- What is the issue that we're seeing that is motivating this decision or change? -->\n\nBuilds take too long.\n\n## Decision\n\n<!-- What is the change that we're proposing and/or doing? -->\n\n${decision}\n\n## Consequences\n\n<!-- What becomes easier or more difficult to do because of this change? -->\n`;

describe('a record that keeps its template\'s comment prompts', () => {
  it('reads the status and the summary from the text under the prompts', async () => {
    const repo = makeRepo({
      'docs/architecture-decision-records/000-template.md': template('', '').replace('# Title', '# Title'),
      'docs/architecture-decision-records/001-cache-build-layers.md': template('proposed', 'We will cache the build layers in the registry.').replace('# Title', '# Cache build layers'),
      // the prompt over two lines, above an emphasised value
      'docs/architecture-decision-records/002-pin-toolchain.md': '# Pin the toolchain\n\n## Status\n\n<!--\n  proposed, accepted or superseded?\n-->\n**Accepted**\n\n## Decision\n\n<!--\n  What did we decide?\n-->\nThe toolchain version is pinned in one file.\n',
    });
    repo.commit('records');
    const set = await loadSet(repo.dir);
    const a = set.byId.get('ADR-001')!;
    expect(a.status).toBe('proposed');
    expect(a.summary).toBe('We will cache the build layers in the registry.');
    const b = set.byId.get('ADR-002')!;
    expect(b.status).toBe('accepted');
    expect(b.summary).toBe('The toolchain version is pinned in one file.');
    expect(set.problems.filter((p) => p.rule === 'status-unmapped')).toEqual([]);
    const list = runCli(['list'], { cwd: repo.dir });
    expect(list.stdout).not.toContain('<!--');
  });
});

describe('a new record from a template whose sections hold only their comment prompts', () => {
  it('keeps each prompt above the text written under it, as the records do, and reads back', async () => {
    const repo = makeRepo({
      'docs/architecture-decision-records/000-template.md': template('', ''),
      'docs/architecture-decision-records/001-cache-build-layers.md': template('proposed', 'We will cache the build layers in the registry.').replace('# Title', '# Cache build layers'),
    });
    repo.commit('records');
    const r = runCli(['add', '--json', 'Releases are cut from the main branch only'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const file = (JSON.parse(r.stdout) as { file: string }).file;
    const text = readFileSync(path.join(repo.dir, file), 'utf8');
    expect(text).toContain('## Status\n\n<!--- What is the status, such as proposed, accepted, rejected, deprecated, superseded, etc.? -->\n\n');
    expect(text).toContain("## Decision\n\n<!-- What is the change that we're proposing and/or doing? -->\n\nReleases are cut from the main branch only\n");
    repo.commit('new record');
    const set = await loadSet(repo.dir);
    const a = set.artifacts.find((x) => x.file === file)!;
    expect(a.summary).toBe('Releases are cut from the main branch only');
    expect(set.problems).toEqual([]);
  });
});
