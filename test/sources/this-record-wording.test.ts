import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

/**
 * A newer MADR record that names the older one first and says what happened to it after:
 * "See ADR 3 for the background, which is superseded by this one." The older record's status
 * says "superseded by ADR 4". Both agree; nothing is disputed.
 */
describe('a wording after the reference whose other side is this record', () => {
  it('turns round: "ADR 3 …, which is superseded by this one" is this record superseding ADR 3', async () => {
    const repo = makeRepo({
      'docs/decisions/03-sync-presence.md': '---\nstatus: superseded by ADR 4\ndate: 2024-01-10\n---\n# How do we share who is online?\n\n## Context and Problem Statement\n\nPeers want to see each other.\n\n## Decision Outcome\n\nPoll every minute.\n',
      'docs/decisions/04-push-presence.md': '---\nstatus: accepted\ndate: 2025-02-01\n---\n# How do we share who is online?\n\n## Context and Problem Statement\n\nPolling is slow.\n\n## Decision Outcome\n\nPush changes as they happen.\n\n## More Information\n\nSee ADR 3 for the background, which is superseded by this one.\n',
      'docs/decisions/05-typing-indicator.md': '---\nstatus: accepted\ndate: 2025-03-01\n---\n# Show who is typing\n\n## Context and Problem Statement\n\nPeople talk over each other.\n\n## Decision Outcome\n\nA dot per peer. ADR 4 is amended by this record for the typing state.\n',
    });
    repo.commit('records');
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      expect(set.byId.get('ADR-04')!.relations).toEqual({ supersedes: ['ADR-03'] });
      expect(set.byId.get('ADR-05')!.relations).toEqual({ amends: ['ADR-04'] });
      expect(set.problems.filter((p) => p.rule === 'supersession-disagrees')).toEqual([]);
    } finally {
      snapshot.close();
    }
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.stdout + check.stderr).not.toContain('supersession-disagrees');
  });
});
