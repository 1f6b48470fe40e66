import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo } from '../helpers/git-repo.js';

/**
 * trials28, log4brains folders (canonical/identity-team, SSWConsulting/Northwind365,
 * SAP/jenkins-library): records named by their day (`20250909-x.md`) with `- Tags:` lines
 * written three ways (`a, b`, `[a, b, c]`, `a b c`), one record without a `- Date:` line. The
 * tags were dropped (frontmatter tags are read as keywords, the log4brains line was not) and the
 * undated record had no date though its file name gives it. A written date still wins; the
 * log4brains template's tag prompt left in a record is no tag.
 */
describe('log4brains records: Tags lines and the date of the file name', () => {
  it('reads the Tags line as keywords and dates a record without a Date line by its file name', async () => {
    const repo = makeRepo({
      '.log4brains.yml': 'project:\n  name: Ticket Desk\n  tz: Europe/Paris\n  adrFolder: ./decisions\n  packages: []\n',
      'decisions/20240312-route-tickets-by-team.md': '# Route tickets by owning team\n\n- Status: proposed\n- Tags: [ticket-routing, teams, queues]\n\n## Context\nTickets land in one shared inbox.\n\n## Decision\nEach ticket goes to the queue of the team that owns the product area.\n',
      'decisions/20240520-weekly-written-standup.md': '# Hold the standup in writing on Fridays\n\n- Status: accepted\n- Deciders: Desk team\n- Date: 2024-05-21\n- Tags: rituals team weekly\n\n## Context\nThe Friday call overlaps with support hours.\n\n## Decision\nA written round replaces it.\n',
      'decisions/20240601-archive-closed-tickets.md': '# Archive closed tickets after a year\n\n- Status: accepted\n- Date: 2024-06-01\n- Tags: retention, storage <!-- optional -->\n\n## Context and Problem Statement\n\nClosed tickets fill the main table.\n\n## Decision Outcome\n\nMove them to the archive table after twelve months.\n',
      'decisions/20240702-keep-ticket-ids-short.md': '# Keep ticket ids short\n\n- Status: accepted\n- Date: 2024-07-02\n- Tags: [space and/or comma separated list of tags] <!-- optional -->\n\n## Context and Problem Statement\n\nLong ids are read out on calls.\n\n## Decision Outcome\n\nSix characters.\n',
      'decisions/template.md': '# [short title of solved problem and solution]\n\n- Status: [draft | proposed | rejected | accepted | deprecated | … | superseded by [xxx](yyyymmdd-xxx.md)] <!-- optional -->\n- Date: [YYYY-MM-DD when the decision was last updated] <!-- optional -->\n- Tags: [space and/or comma separated list of tags] <!-- optional -->\n\n## Context and Problem Statement\n\n[Describe the context.]\n',
    });
    repo.commit('records');
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const route = set.byId.get('ADR-20240312-route-tickets-by-team')!;
      expect(route.keywords).toEqual(['ticket-routing', 'teams', 'queues']);
      expect(route.created).toBe('2024-03-12');
      const standup = set.byId.get('ADR-20240520-weekly-written-standup')!;
      expect(standup.keywords).toEqual(['rituals', 'team', 'weekly']);
      expect(standup.created).toBe('2024-05-21');
      expect(standup.owner).toBe('Desk team');
      expect(set.byId.get('ADR-20240601-archive-closed-tickets')!.keywords).toEqual(['retention', 'storage']);
      expect(set.byId.get('ADR-20240702-keep-ticket-ids-short')!.keywords).toEqual([]);
    } finally {
      snapshot.close();
    }
  });

  it('leaves a numbered record without a Date line undated', async () => {
    const repo = makeRepo({ 'docs/adr/0003-use-queues.md': '# 3. Use queues\n\n## Status\n\nAccepted\n\n## Decision\n\nQueues between services.\n' });
    repo.commit('records');
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      expect(set.byId.get('ADR-0003')!.created).toBeUndefined();
    } finally {
      snapshot.close();
    }
  });

  it("the template's Deciders prompt left in a record is no decider; a bracketed list of names is", async () => {
    const repo = makeRepo({
      'decisions/20240801-sign-releases.md': '# Sign releases\n\n- Status: proposed\n- Deciders: [list everyone involved in the decision] <!-- optional -->\n- Date: 2024-08-01\n\n## Context\nUnsigned tarballs.\n\n## Decision\nSign them.\n',
      'decisions/20240802-pin-base-images.md': '# Pin base images\n\n- Status: accepted\n- Deciders: [Ana Lima, Ben Ode]\n- Date: 2024-08-02\n\n## Context\nFloating tags.\n\n## Decision\nPin digests.\n',
    });
    repo.commit('records');
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      expect(set.byId.get('ADR-20240801-sign-releases')!.owner).toBeUndefined();
      expect(set.byId.get('ADR-20240802-pin-base-images')!.owner).toContain('Ana Lima');
    } finally {
      snapshot.close();
    }
  });
});
