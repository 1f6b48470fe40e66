import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';
import { connect } from '../mcp/helpers.js';
import { computedOnly } from '../../src/artifacts/graph.js';
import { loadSet as load } from '../helpers/artifact-set.js';

/**
 * adr-tools writes a link made with `adr new -l "5:Implements:Implemented in"` as a line of
 * the Status section of both records, with whatever labels the team chose. Those are
 * relations; a Status section's other bare links stay prose.
 */
const adr = (n: number, title: string, status: string) =>
  `# ${n}. ${title}\n\nDate: 2023-05-0${n}\n\n## Status\n\n${status}\n\n## Context\n\nSomething about ${title.toLowerCase()}.\n\n## Decision\n\nWe will do it.\n`;

describe('links adr-tools writes in a Status section with custom labels', () => {
  it('reads "Implements [N. Title](file)" and its reverse as related records; a bare link inside a status sentence is not one', async () => {
    const repo = makeRepo({
      '.adr-dir': 'doc/arch\n',
      'doc/arch/0001-record-architecture-decisions.md': adr(1, 'Record architecture decisions', 'Accepted'),
      'doc/arch/0002-write-down-the-old-choices.md': adr(2, 'Write down the old choices', 'Accepted\n\nRealised by [3. Stay in beta forever](0003-stay-in-beta-forever.md)'),
      'doc/arch/0003-stay-in-beta-forever.md': adr(3, 'Stay in beta forever', 'Accepted\n\nRealises [2. Write down the old choices](0002-write-down-the-old-choices.md)'),
      'doc/arch/0004-keep-a-changelog.md': adr(4, 'Keep a changelog', 'Accepted after the review of [the first record](0001-record-architecture-decisions.md) in May.'),
    });
    repo.commit('adr-tools folder');
    const set = await load(repo.dir);
    expect(set.byId.get('ADR-0002')!.relations).toEqual({ relates_to: ['ADR-0003'] });
    expect(set.byId.get('ADR-0003')!.relations).toEqual({ relates_to: ['ADR-0002'] });
    expect(set.byId.get('ADR-0003')!.status).toBe('accepted');
    expect(set.byId.get('ADR-0004')!.relations).toEqual({});
    const map = JSON.parse(runCli(['map', '--json', '--no-staleness'], { cwd: repo.dir }).stdout) as { edges: { source: string; target: string; kind: string }[] };
    expect(map.edges.some((e) => [e.source, e.target].sort().join() === 'ADR-0002,ADR-0003')).toBe(true);
    // both records state the symmetric relation: show says it once, as written, not again as computed
    const show = runCli(['show', 'ADR-0002', '--depth', 'meta'], { cwd: repo.dir });
    expect(show.stdout).toContain('relates_to (from the text): ADR-0003');
    expect(show.stdout).not.toContain('(computed)');
    // so does the record an agent reads through MCP
    const c = await connect({ cwd: repo.dir });
    try {
      const read = await c.call('read_artifact', { id: 'ADR-0002', depth: 'meta' });
      expect(read.text).not.toContain('(computed)');
    } finally {
      await c.close();
    }
    // a relation only the other record states is still shown as computed
    expect(computedOnly({ ...set.byId.get('ADR-0002')!, relations: {} }, { relates_to: ['ADR-0003'] })).toEqual({ relates_to: ['ADR-0003'] });
    expect(computedOnly(set.byId.get('ADR-0002')!, { relates_to: ['ADR-0003'], superseded_by: ['ADR-0009'] })).toEqual({ superseded_by: ['ADR-0009'] });
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });
});
