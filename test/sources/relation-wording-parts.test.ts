import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

const nygard = (n: number, title: string, status: string, body: string) =>
  `# ADR ${String(n).padStart(4, '0')}: ${title}\n\nDate: 2025-0${n}-01\n\n## Status\n\n${status}\n\n## Context\n\n${body}\n\n## Decision\n\nWe do it.\n`;

/**
 * Relation wordings read where they are no wording, or read too wide (trials26 on
 * gardenlinux/gardenlinux and DEFRA/epr-re-ex-service): a word inside a link's file name, a
 * replacement of one named part of a record, a possessive, and a wording carried from a list
 * item whose own reference already took it.
 */
describe('relation wordings in a record folder', () => {
  it('reads no wording from a link target, amends for a named part, and carries no used wording to the next item', async () => {
    const repo = makeRepo({
      'docs/adr/0001-cache-builder-images.md': nygard(1, 'Cache the builder images', 'Superseded by [ADR 4](./0004-stop-caching-builder-images.md)', 'Builds pull the same image again and again.'),
      'docs/adr/0002-queue-layout.md': nygard(2, 'Queue layout', 'Accepted', 'Option one: one queue per tenant. Option two: a shared queue.'),
      'docs/adr/0003-ledger-rows.md': nygard(3, 'Ledger rows', 'Accepted', 'Rows carry their own balance.'),
      // a link whose file name holds "updates", with no wording around it
      'docs/adr/0004-stop-caching-builder-images.md': nygard(4, 'Stop caching the builder images', 'Accepted', 'In ADR [1 Cache the builder images](./0001-cache-builder-images.md), we kept a copy of each image.\nIt cost more than it saved; see also [the notes](https://example.invalid/builder-updates/notes).'),
      // a named part of another record, and a possessive
      'docs/adr/0005-shared-queue.md': nygard(5, 'Shared queue', 'Accepted', 'Supersedes the "option one" portion of [ADR 0002 (Queue layout)](0002-queue-layout.md) for the billing tenants.\nThis also replaces ADR-0003\'s balance column with a derived one.'),
      // a list whose first item ends with the wording its own reference took
      'docs/adr/0006-balance-events.md': `${nygard(6, 'Balance events', 'Accepted', 'Events, not rows.')}\n## Related\n\n- [ADR-0005](./0005-shared-queue.md) — the queue this ADR amends\n- [ADR-0003](./0003-ledger-rows.md) — the rows it reads\n`,
    });
    repo.commit('records');
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const rel = (id: string) => set.byId.get(id)!.relations ?? {};
      expect(rel('ADR-0004')).toEqual({ supersedes: ['ADR-0001'] });
      expect(rel('ADR-0005')).toEqual({ amends: ['ADR-0002', 'ADR-0003'] });
      expect(rel('ADR-0006')).toEqual({ amends: ['ADR-0005'], relates_to: ['ADR-0003'] });
    } finally {
      snapshot.close();
    }
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.stdout + check.stderr).not.toContain('superseded-still-active');
  });
});
