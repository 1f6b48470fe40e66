import { describe, expect, it } from 'vitest';
import { loadSet } from '../helpers/artifact-set.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

/**
 * trials30: three wordings real folders use.
 * - Altinn/altinn-studio's shape: dated records whose template offers "Exceeded by "adr-name"";
 *   the older one says "Exceeded by <file name>", the newer "Replaces <file name>", both bare.
 * - openedx/openedx-events' shape: an rst record whose status is **Provisional**.
 * - guardian/cdk's shape: "This is an extension to the [… record](./005-….md)".
 */
describe('status and relation wordings of trials30', () => {
  it('"Exceeded by" and "Replaces" with a bare dated file name are a supersession both records agree on', async () => {
    const repo = makeRepo({
      'docs/adr/yyyy-mm-dd-template.md': '# A short title\n\n- Status: Proposed | Accepted | Exceeded by "adr-name"\n- Date: Proposal date (dd.MM.yyyy)\n\n## Result\n\nWhich alternative was chosen.\n',
      'docs/adr/2025-03-02-report-storage.md': '# Report storage\n\n- Status: Exceeded by 2025-06-10-report-storage-2\n- Deciders: Team Reports\n- Date: 02.03.2025\n\n## Result\n\nB1 - Reports are kept on a shared disk in the cluster.\n',
      'docs/adr/2025-06-10-report-storage-2.md': '# Report storage\n\n- Status: Replaces 2025-03-02-report-storage\n- Deciders: Team Reports\n- Date: 10.06.2025\n\n## Result\n\nB3 - Reports are kept in an object store bucket.\n',
      // a dated name no record has is no reference
      'docs/adr/2025-07-01-report-retention.md': '# Report retention\n\n- Status: Accepted\n- Date: 2025-07-01\n\n## Result\n\nReports are deleted after a year; this replaces 2024-01-01-old-retention.\n',
    });
    repo.commit('records');
    const set = await loadSet(repo.dir);
    const old = set.byId.get('ADR-2025-03-02-report-storage')!;
    const nu = set.byId.get('ADR-2025-06-10-report-storage-2')!;
    expect(old.status).toBe('superseded');
    expect(nu.status).toBe('accepted');
    expect(nu.relations.supersedes).toEqual(['ADR-2025-03-02-report-storage']);
    expect(set.byId.get('ADR-2025-07-01-report-retention')!.relations).toEqual({});
    expect(set.problems).toEqual([]);
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.stdout).toContain('0 errors, 0 warnings');
  });

  it('"Provisional" is a status of a decision in force', async () => {
    const repo = makeRepo({
      'docs/decisions/0004-retry-delivery.rst': '4. Retry delivery\n#################\n\nStatus\n******\n\n**Provisional** *2025-02-11*\n\nContext\n*******\n\nMessages get lost when the broker restarts.\n\nDecision\n********\n\nThe sender retries delivery three times.\n',
    });
    repo.commit('records');
    const set = await loadSet(repo.dir);
    const a = set.byId.get('ADR-0004')!;
    expect(a.status).toBe('accepted');
    expect(a.statusText).toBe('Provisional 2025-02-11');
    expect(set.problems).toEqual([]);
  });

  it('"an extension to [the other record]" amends it', async () => {
    const repo = makeRepo({
      'docs/architecture-decision-records/005-module-layout.md': '# Module layout\n\n## Status\n\nproposed\n\n## Decision\n\nEach module folder exports its members from an index file.\n',
      'docs/architecture-decision-records/006-experimental-modules.md': '# Experimental modules\n\n## Status\nProposed.\n\n## Context\nThis is an extension to the [module layout ADR](./005-module-layout.md)\nand says where unfinished modules live.\n\n## Decision\nUnfinished modules live in an experimental folder.\n',
    });
    repo.commit('records');
    const set = await loadSet(repo.dir);
    expect(set.byId.get('ADR-006')!.relations.amends).toEqual(['ADR-005']);
  });

  it('a record numbered under the one it extends is no number clash to renumber; two unrelated ones still are', async () => {
    const repo = makeRepo({
      'docs/architecture-decision-records/005-module-layout.md': '# Module layout\n\n## Status\n\nproposed\n\n## Decision\n\nEach module folder exports its members from an index file.\n',
      'docs/architecture-decision-records/005-x01-module-layout.md': '# Module layout - Extension 01\n\n## Status\nProposed.\n\n## Context\nThis is an extension to the [module layout ADR](./005-module-layout.md).\n\n## Decision\nUnfinished modules live in an experimental folder.\n',
      'docs/architecture-decision-records/007-logging.md': '# Logging\n\n## Status\n\naccepted\n\n## Decision\n\nLog as JSON.\n',
      'docs/architecture-decision-records/007-metrics.md': '# Metrics\n\n## Status\n\naccepted\n\n## Decision\n\nExport metrics for scraping.\n',
    });
    repo.commit('records');
    const set = await loadSet(repo.dir);
    const ext = set.byId.get('ADR-005-x01-module-layout')!;
    expect(ext.relations.amends).toEqual(['ADR-005']);
    expect(set.problems.filter((p) => p.rule === 'duplicate-number').map((p) => p.file)).toEqual(['docs/architecture-decision-records/007-metrics.md']);
  });
});
