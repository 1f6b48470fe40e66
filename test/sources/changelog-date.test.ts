import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo } from '../helpers/git-repo.js';

/**
 * trials26, oasisprotocol/oasis-core: records write no `Date:` line; a `## Changelog` list above
 * the Status section dates each revision, the first entry the record's start. The record had no
 * date. A record with a `Date:` line keeps it.
 */
describe('a record dated by its changelog', () => {
  it('takes the earliest changelog entry as its date, unless it writes a date', async () => {
    const repo = makeRepo({
      'docs/adr/0001-root-hashes.md': '# ADR 0001: Several Roots Under One Hash\n\n## Changelog\n\n- 2021-02-11: Add a consequence for checkpoints\n- 2020-11-03: Initial version\n\n## Status\n\nAccepted\n\n## Context\n\nLight clients need proofs of events.\n\n## Decision\n\nHash the roots together.\n',
      'docs/adr/0002-release-tags.md': '# ADR 0002: Release Tags\n\nDate: 2021-05-01\n\n## Changelog\n\n- 2020-12-24: Initial draft\n\n## Status\n\nAccepted\n\n## Decision\n\nTag releases as Go modules expect.\n',
    });
    repo.commit('records');
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      expect(set.byId.get('ADR-0001')!.created).toBe('2020-11-03');
      expect(set.byId.get('ADR-0002')!.created).toBe('2021-05-01');
    } finally {
      snapshot.close();
    }
  });
});
