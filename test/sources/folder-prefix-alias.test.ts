import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

/**
 * A repository with a decisions folder per app: each folder gets its own prefix (BILLING-,
 * ADR- for the top one), but the records of one app still call each other "ADR-0001", the way
 * the team numbers them. Those references name the app's own record, and only when it exists.
 */
const rst = (title: string, status: string, body: string) => `${title}\n${'='.repeat(title.length)}\n\nStatus\n------\n\n${status}\n\nContext\n-------\n\n${body}\n\nDecision\n--------\n\nWe do it.\n`;

describe('"ADR-0001" in a folder with its own prefix', () => {
  it("names that folder's record numbered 1; a number it has no record for is dropped, and the top folder reads ADR- as before", async () => {
    const repo = makeRepo({
      'docs/decisions/0001-record-decisions.rst': rst('Record decisions', 'Accepted', 'We write them down.'),
      'docs/decisions/0002-one-database.rst': rst('One database', 'Accepted', 'Unlike ADR-0001 this is about storage.'),
      'apps/billing/docs/decisions/0001-invoice-numbers.rst': rst('Invoice numbers', 'Accepted', 'Numbers come from a sequence.'),
      'apps/billing/docs/decisions/0002-invoice-numbers-per-country.rst': rst('Invoice numbers per country', 'Accepted', 'In ADR-0001 one sequence served every country; tax offices want their own. ADR-0009 will cover credit notes.'),
    });
    repo.commit('two folders');
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const billing = [...set.byId.values()].find((a) => a.file.endsWith('0002-invoice-numbers-per-country.rst'))!;
      const first = [...set.byId.values()].find((a) => a.file.endsWith('0001-invoice-numbers.rst'))!;
      expect(billing.id).not.toMatch(/^ADR-/);
      expect(billing.relations).toEqual({ relates_to: [first.id] });
      expect(set.byId.get('ADR-0002')!.relations).toEqual({ relates_to: ['ADR-0001'] });
    } finally {
      snapshot.close();
    }
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.stdout).not.toContain('broken-link');
  });
});
