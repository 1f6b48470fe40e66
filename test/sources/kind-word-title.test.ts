import { describe, expect, it } from 'vitest';
import { loadSet } from '../helpers/artifact-set.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

/**
 * trials30 (Altinn/altinn-studio's shape): a dated record titled "# ADR: Move …" names its kind
 * before the colon, with no number; the title is what follows. "Decision: …" alike.
 */
describe('a title led by the kind of record without a number', () => {
  it('is the words after the colon', async () => {
    const repo = makeRepo({
      'docs/adr/2025-09-23-load-data-in-backend.md': '# ADR: Move initial data loading to the backend\n\n- **Status:** Approved\n- **Date:** 23.09.2025\n\n## Result\n\nThe backend loads the form data before the page renders.\n',
      'docs/adr/2025-10-01-queue-exports.md': '# Decision: Queue the exports\n\n- Status: Accepted\n\n## Result\n\nExports run from a queue.\n',
      'docs/adr/2025-10-02-adr-tooling.md': '# ADR tooling: which generator we use\n\n- Status: Accepted\n\n## Result\n\nWe write records by hand.\n',
    });
    repo.commit('records');
    const set = await loadSet(repo.dir);
    const a = set.byId.get('ADR-2025-09-23-load-data-in-backend')!;
    expect(a.title).toBe('Move initial data loading to the backend');
    expect(a.status).toBe('accepted');
    expect(set.byId.get('ADR-2025-10-01-queue-exports')!.title).toBe('Queue the exports');
    // a title that only starts with the word keeps it
    expect(set.byId.get('ADR-2025-10-02-adr-tooling')!.title).toBe('ADR tooling: which generator we use');
  });
});

describe('a dated record named by its name without the date', () => {
  it('show using-go finds 2025-10-17-using-go; a name two records share is ambiguous', async () => {
    const repo = makeRepo({
      'docs/adr/2025-10-17-using-go.md': '# Adopt Go for runtime services\n\n- Status: Accepted\n\n## Result\n\nNew runtime services are written in Go.\n',
      'docs/adr/2025-03-01-report-storage.md': '# Report storage\n\n- Status: Accepted\n\n## Result\n\nA shared disk.\n',
      'docs/adr/2025-06-01-report-storage.md': '# Report storage again\n\n- Status: Accepted\n\n## Result\n\nA bucket.\n',
    });
    repo.commit('records');
    const r = runCli(['show', 'using-go', '--depth', 'meta'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('ADR-2025-10-17-using-go');
    const both = runCli(['show', 'report-storage'], { cwd: repo.dir });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('report-storage is ambiguous');
  });
});
