import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo } from '../helpers/git-repo.js';

/**
 * trials26, gardenlinux/gardenlinux: records in docs/reference/adr/ write `features/`, the
 * repository's top-level folder. A bare top-level folder is no mention (DEC-053), but the next
 * reading was tried and found docs/reference/features/ (a placeholder folder beside the records
 * folder): impact listed "mentioned docs/reference/features/.gitkeep".
 */
describe('a bare top-level folder written in a record', () => {
  it('is no mention, and no other reading of it is tried', async () => {
    const repo = makeRepo({
      'features/ssh/info.yaml': 'type: element\n',
      'features/ssh/pkg.include': 'openssh-server\n',
      'docs/reference/features/.gitkeep': '',
      'docs/reference/adr/0001-feature-layout.md': '# ADR 0001: Feature layout\n\nDate: 2025-04-01\n\n## Status\n\nAccepted\n\n## Context\n\nEvery unit of an image lives in the `features/` tree.\n\n## Decision\n\nA feature declares its type in `info.yaml`; the ssh one is `features/ssh/info.yaml`.\n',
    });
    repo.commit('records');
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      expect(set.byId.get('ADR-0001')!.mentions?.map((m) => m.target)).toEqual(['features/ssh/info.yaml']);
    } finally {
      snapshot.close();
    }
  });
});
