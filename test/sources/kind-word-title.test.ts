import { describe, expect, it } from 'vitest';
import { loadSet } from '../helpers/artifact-set.js';
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
