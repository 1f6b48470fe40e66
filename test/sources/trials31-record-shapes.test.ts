import { describe, expect, it } from 'vitest';
import { reverseEdges, buildGraph } from '../../src/artifacts/graph.js';
import { loadSet } from '../helpers/artifact-set.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

/**
 * trials31: shapes of three folders nobody had tried (DEC-132).
 * - hyperledger/identus-cloud-agent's shape: log4brains MADR 2 records, some still holding the
 *   template's `- Status: [ accepted | deprecated | superseded by [xxx](yyyymmdd-xxx.md)]` and its
 *   date prompt, one a date in brackets, and a Links list naming another project's "ADR 002".
 * - joeycumines/go-utilpkg's shape: "This supersedes the … guidance in ADR-002" (one part of it).
 * - HubEvolution/EvolutionHub's shape: frontmatter `status: deprecated` and `supersededBy: <path>`,
 *   retired records moved to `adrs/deprecated/` keeping numbers the folder gave again.
 */
describe('record shapes of trials31', () => {
  it('a template\'s unfilled status choices are no status and their example link no reference; a bracketed date is the date, a date prompt none; bracketed prompts are no summary', async () => {
    const repo = makeRepo({
      'docs/decisions/template.md': '# [short title]\n\n- Status: [ proposed | accepted | superseded by [xxx](yyyymmdd-xxx.md)]\n- Date: [YYYY-MM-DD when decided]\n\n## Decision Outcome\n\nChosen option: "[option 1]".\n',
      'docs/decisions/20230301-use-liquibase-for-schema-changes.md': '# Use liquibase for schema changes\n\n- Status: [ accepted | deprecated | superseded by [xxx](yyyymmdd-xxx.md)] <!-- optional -->\n- Date: [YYYY-MM-DD when the decision was last updated] <!-- optional -->\n\n## Context and Problem Statement\n\n[Describe the context and problem statement in two or three sentences.]\n\n## Decision Outcome\n\nChosen option: "[option 1]", because [justification. e.g., only option | comes out best (see below)].\n\n## Links <!-- optional -->\n\n- [Link type](link to adr) <!-- example: Refined by [xxx](yyyymmdd-xxx.md) -->\n- …\n',
      'docs/decisions/20230410-typed-queries.md': '# Typed queries for the storage layer\n\n- Status: accepted\n- Date: [2023-04-09]\n\n## Decision Outcome\n\nChosen option: "typed queries", because mistakes show at compile time.\n\n## Links\n\n- [ADR 003: Resource registry](https://docs.example.org/identity/adr-list/adr-003-resource-registry)\n',
    });
    repo.commit('records');
    const set = await loadSet(repo.dir);
    const stub = set.byId.get('ADR-20230301-use-liquibase-for-schema-changes')!;
    expect(stub.status).toBeUndefined();
    expect(stub.created).toBe('2023-03-01');
    expect(stub.links).toEqual([]);
    // the template's bracketed prompts are no summary
    expect(stub.summary).toBeUndefined();
    const typed = set.byId.get('ADR-20230410-typed-queries')!;
    expect(typed.created).toBe('2023-04-09');
    expect(typed.summary).toBe('Chosen option: "typed queries", because mistakes show at compile time.');
    expect(typed.relations).toEqual({});
    expect(typed.links).toEqual([]);
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.stdout).toContain('0 errors, 0 warnings');
  });

  it('"supersedes the … guidance in ADR-002" amends ADR-002, which stays in force', async () => {
    const repo = makeRepo({
      'docs/adr/002-functional-options.md': '# ADR-002: Functional Options\n\n## Decision\n\nConstructors take functional options; an invalid option panics.\n',
      'docs/adr/007-constructors-return-errors.md': '# ADR-007: Constructors Return Errors\n\n## Decision\n\nConstructors that take options return an error.\n\nThis supersedes the "invalid option panics" guidance in ADR-002 for\nconstructors with options.\n',
      'docs/adr/009-new-cache.md': '# ADR-009: New Cache\n\n## Decision\n\nThis supersedes ADR-008 entirely.\n',
      'docs/adr/008-old-cache.md': '# ADR-008: Old Cache\n\n## Decision\n\nA map guarded by a mutex.\n',
    });
    repo.commit('records');
    const set = await loadSet(repo.dir);
    expect(set.byId.get('ADR-007')!.relations).toEqual({ amends: ['ADR-002'] });
    expect(set.byId.get('ADR-009')!.relations).toEqual({ supersedes: ['ADR-008'] });
    expect(reverseEdges(buildGraph(set), 'ADR-002')).toEqual({ amended_by: ['ADR-007'] });
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.stdout).not.toContain('ADR-002 is superseded');
    expect(check.stdout).toContain('ADR-008 is superseded by ADR-009');
  });

  it('frontmatter supersededBy names the successor by path; retired records set aside in deprecated/ keep their numbers without a warning', async () => {
    const fm = (status: string, by: string) => `---\nstatus: ${status}\ndate: '2024-02-01'\nsupersededBy: '${by}'\ndescription: 'Entscheidung zur Ablage.'\n---\n`;
    const repo = makeRepo({
      'docs/architektur/adrs/0001-statische-seiten.md': `${fm('active', '')}\n# ADR-0001: Statische Seiten am Rand ausliefern\n\n## Status\n\nAkzeptiert\n\n## Entscheidung\n\nSeiten werden vorab gebaut.\n`,
      'docs/architektur/adrs/0002-datenbankschema.md': `${fm('active', '')}\n# ADR-0002: Datenbankschema mit Migrationen\n\n## Status\n\nAkzeptiert\n\n## Entscheidung\n\nJede Schemaänderung ist eine Migration.\n`,
      'docs/architektur/adrs/deprecated/0001-sitzungs-token.md': `${fm('deprecated', 'docs/architektur/anmeldung-neu.md')}\n# ADR-0001: Sitzungs-Token\n\n## Status\n\nAkzeptiert\n\n## Entscheidung\n\nSitzungen tragen ein signiertes Token.\n`,
      'docs/architektur/adrs/deprecated/0002-erstes-schema.md': `${fm('deprecated', 'docs/architektur/adrs/0002-datenbankschema.md')}\n# ADR-0002: Erstes Schema\n\n## Status\n\nAkzeptiert\n\n## Entscheidung\n\nEine Tabelle pro Seite.\n`,
      'docs/architektur/anmeldung-neu.md': '# Anmeldung neu\n\nDie Anmeldung läuft über einen Dienst.\n',
    });
    repo.commit('records');
    const set = await loadSet(repo.dir);
    expect(set.byId.get('ADR-0002')!.relations).toEqual({ supersedes: ['ADR-0002-erstes-schema'] });
    expect(set.byId.get('ADR-0001')!.relations).toEqual({});
    expect(set.byId.get('ADR-0001-sitzungs-token')!.links).toEqual([]);
    expect(set.problems.filter((p) => p.rule === 'duplicate-number')).toEqual([]);
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.stdout).toContain('0 errors, 0 warnings');
  });

  it('two records of one folder sharing a number still get the warning, retired or not', async () => {
    const repo = makeRepo({
      'docs/adr/0003-queue.md': '# Queue\n\n- Status: accepted\n\n## Decision\n\nUse a queue.\n',
      'docs/adr/0003-old-queue.md': '# Old queue\n\n- Status: deprecated\n\n## Decision\n\nUse a table as a queue.\n',
    });
    repo.commit('records');
    const set = await loadSet(repo.dir);
    expect(set.problems.filter((p) => p.rule === 'duplicate-number')).toHaveLength(1);
  });
});
