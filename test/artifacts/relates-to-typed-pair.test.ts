import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

/*
 * A log4brains/MADR folder: the old record says "superseded by [new](new.md)" in its status and
 * links the new one again under "## Links"; the new one says "Supersedes [old](old.md)". The
 * pair is joined by a supersession: the plain link is not a second, weaker relation.
 */

const OLD = `# Use PostgreSQL for the catalogue

- Status: superseded by [20210301-use-dynamodb](20210301-use-dynamodb.md)
- Date: 2020-01-01

## Context and Problem Statement

The catalogue needs a database for products and prices.

## Decision Outcome

Chosen option: PostgreSQL, because the team knows it.

## Links

- [Use DynamoDB for the catalogue](20210301-use-dynamodb.md)
- [Cache prices at the edge](20200601-cache-prices.md)
`;

const NEW = `# Use DynamoDB for the catalogue

- Status: accepted
- Date: 2021-03-01

## Context and Problem Statement

The catalogue outgrew one database server.

## Decision Outcome

Chosen option: DynamoDB, because it scales with reads.

## Links

- Supersedes [Use PostgreSQL for the catalogue](20200101-use-postgres.md)
`;

const CACHE = `# Cache prices at the edge

- Status: accepted
- Date: 2020-06-01

## Decision Outcome

Chosen option: a CDN caches the price pages for a minute.
`;

describe('relates_to beside a typed relation of the same pair', () => {
  it('is dropped from show, show --json and map --json; a relates_to to another record stays', () => {
    const repo = makeRepo({ 'docs/adr/20200101-use-postgres.md': OLD, 'docs/adr/20210301-use-dynamodb.md': NEW, 'docs/adr/20200601-cache-prices.md': CACHE });
    repo.commit('records');
    const show = runCli(['show', 'ADR-20200101-use-postgres'], { cwd: repo.dir });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain('superseded_by (computed): ADR-20210301-use-dynamodb');
    expect(show.stdout).toContain('relates_to (from the text): ADR-20200601-cache-prices\n');

    const json = JSON.parse(runCli(['show', 'ADR-20200101-use-postgres', '--json'], { cwd: repo.dir }).stdout);
    expect(json.reverse).toEqual({ superseded_by: ['ADR-20210301-use-dynamodb'] });
    expect(json.relationsFromText).toEqual({ relates_to: ['ADR-20200601-cache-prices'] });

    const map = JSON.parse(runCli(['map', '--json'], { cwd: repo.dir }).stdout);
    const pair = (e: { source: string; target: string }) => [e.source, e.target].sort().join(' ');
    const between = map.edges.filter((e: { source: string; target: string }) => pair(e) === 'ADR-20200101-use-postgres ADR-20210301-use-dynamodb');
    expect(between.map((e: { kind: string }) => e.kind)).toEqual(['supersedes']);
    expect(map.edges.map((e: { id: string }) => e.id)).toContain('ADR-20200101-use-postgres|relates_to|ADR-20200601-cache-prices');
  });
});
