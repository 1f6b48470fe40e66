import { describe, expect, it } from 'vitest';
import { unemphasized } from '../../src/artifacts/sources/placeholders.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

type Listed = { id: string; title: string; status: string | null };

// SAP/cloud-sdk-js keeps its retired records in knowledge-base/adr/outdated/ with the status
// "**outdated**": the folder became a second source (OUTDATED-0002) and the status was unmapped.
// Two records kept the template's "# Title" heading (both titled "Title"), and a title written
// with emphasis ("Supporting _bound_ *operations*") kept its underscores and stars.
describe('an outdated/ folder, a "Title" heading and an emphasised title', () => {
  it('reads the folder as part of the records folder, outdated as deprecated, and titles as the reader sees them', () => {
    const rec = (heading: string, status: string) => `# ${heading}\n\n## Status\n\n${status}\n\n## Context\n\nSome background.\n\n## Decision\n\nWe do it.\n`;
    const repo = makeRepo({
      'notes/adr/0004-request-timeouts.md': rec('Request timeouts', 'accepted'),
      'notes/adr/0005-mail-relay.md': '# Title\n\nSend reports through the mail relay\n\n## Status\n\napproved\n\n## Decision\n\nReports go out through the relay.\n',
      'notes/adr/0006-paged-reads.md': rec('Supporting _paged_ *reads* (*lists* and *searches*) in the client', 'accepted'),
      'notes/adr/outdated/0001-scaffolding-tool.md': rec('Scaffolding tool', '**outdated**\n\nThe tool was retired.'),
      'notes/adr/outdated/0002-shared-build.md': rec('Shared build', 'superseded'),
    });
    repo.commit('records');
    const list = runCli(['list', '--json'], { cwd: repo.dir });
    expect(list.code, list.stderr).toBe(0);
    const arts = (JSON.parse(list.stdout) as { artifacts: Listed[] }).artifacts;
    expect(arts.map((a) => [a.id, a.status, a.title])).toEqual([
      ['ADR-0001', 'deprecated', 'Scaffolding tool'],
      ['ADR-0002', 'superseded', 'Shared build'],
      ['ADR-0004', 'accepted', 'Request timeouts'],
      ['ADR-0005', 'accepted', 'Mail relay'],
      ['ADR-0006', 'accepted', 'Supporting paged reads (lists and searches) in the client'],
    ]);
    expect(runCli(['check'], { cwd: repo.dir }).stdout).not.toContain('status-unmapped');
  });

  it('strips emphasis around words, not the underscores of a name or a code span', () => {
    expect(unemphasized('Use **strict** mode')).toBe('Use strict mode');
    expect(unemphasized('Rename snake_case_name')).toBe('Rename snake_case_name');
    expect(unemphasized('Keep `__init__` files')).toBe('Keep `__init__` files');
  });
});
