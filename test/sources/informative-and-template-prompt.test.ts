import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

/**
 * trials26: oasisprotocol/oasis-core marks a record that documents what stands "Informative";
 * gardenlinux/gardenlinux keeps a draft whose Decision still holds adr-tools' template prompt.
 */
describe('an informative record and a draft with the template prompt', () => {
  it('maps Informative onto accepted, and summarises the draft from its context, not the prompt', async () => {
    const repo = makeRepo({
      'docs/adr/0001-hash-semantics.md': '# ADR 0001: Hash Input Semantics\n\n## Changelog\n\n- 2021-03-02: Initial version\n\n## Status\n\nInformative\n\n## Context\n\nNodes must agree on what a digest covers.\n\n## Decision\n\nThe digest covers the header and the body, never the trailer.\n',
      'docs/adr/0002-compress-images.md': '# ADR 0002: Compress images\n\nDate: 2025-11-20\n\n## Status\n\nDraft\n\n## Context\n\nImages grow with every feature and downloads get slow.\n\n## Decision\n\nThe change that we\'re proposing or have agreed to implement.\n\n## Consequences\n\nWhat becomes easier or more difficult to do and any risks introduced by the change that will need to be mitigated.\n',
    });
    repo.commit('records');
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      expect(set.byId.get('ADR-0001')!.status).toBe('accepted');
      expect(set.byId.get('ADR-0002')!.summary).toBe('Images grow with every feature and downloads get slow.');
      expect(set.problems.filter((p) => p.rule === 'status-unmapped')).toEqual([]);
    } finally {
      snapshot.close();
    }
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.stdout + check.stderr).not.toContain('status-unmapped');
  });
});

describe('a decision that hands over to a fenced block', () => {
  it('is finished by the block\'s first line', async () => {
    const repo = makeRepo({
      'docs/adr/0001-permissive-selinux.md': '# ADR 0001: Build the hardened image permissive\n\nDate: 2025-12-01\n\n## Status\n\nAccepted\n\n## Context\n\nServices fail to start when enforcing.\n\n## Decision\n\nThe hardened image will be built with:\n```sh\nSELINUX=permissive\n```\n\ninstead of:\n```sh\nSELINUX=enforcing\n```\n',
    });
    repo.commit('records');
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      expect(set.byId.get('ADR-0001')!.summary).toBe('The hardened image will be built with: SELINUX=permissive');
    } finally {
      snapshot.close();
    }
  });
});
