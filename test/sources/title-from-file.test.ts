import { describe, expect, it } from 'vitest';
import { loadSet as load } from '../helpers/artifact-set.js';
import { makeRepo } from '../helpers/git-repo.js';

/**
 * A record without any heading is titled by its file name, humanised, never by the folder it
 * sits in (a records folder per area: `docs/adr/payments/`). The one exception is the page of
 * a folder of its own (`0007-queues/README.md`, DEC-104): "README" names nothing, the folder
 * is the record's name.
 */
describe('the title of a record without a heading', () => {
  it('comes from its file name, never from its folder', async () => {
    const repo = makeRepo({
      '.contextia/config.yaml': 'sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
      'docs/adr/0003-use-postgres.md': 'Status: accepted\n\nWe use Postgres.\n',
      'docs/adr/identity.md': 'Who we are, without a heading.\n',
      'docs/adr/payments/0001-retry-policy.md': 'Status: accepted\n\nRetries back off.\n',
      'docs/adr/0007-queues/README.md': 'Status: accepted\n\nOne queue per tenant.\n',
    });
    repo.commit('records without headings');
    const set = await load(repo.dir);
    const titles = Object.fromEntries([...set.byId.values()].map((a) => [a.file, a.title]));
    expect(titles['docs/adr/0003-use-postgres.md']).toBe('Use postgres');
    expect(titles['docs/adr/identity.md']).toBe('Identity');
    expect(titles['docs/adr/payments/0001-retry-policy.md']).toBe('Retry policy');
    expect(titles['docs/adr/0007-queues/README.md']).toBe('Queues');
    expect(Object.values(titles)).not.toContain('Payments');
    expect(Object.values(titles)).not.toContain('Adr');
  });

  it('of a frontmatter record without a title comes from its file name too, or is its id when the file is named by it', async () => {
    const rec = (id: string) => `---\nid: ${id}\ntype: decision\nstatus: accepted\n---\nNo title, no heading.\n`;
    const repo = makeRepo({
      '.contextia/system/rationale/use-kafka.md': rec('DEC-009'),
      '.contextia/system/rationale/DEC-010.md': rec('DEC-010'),
    });
    repo.commit('frontmatter records without titles');
    const titleOf = async (id: string) => (await load(repo.dir)).byId.get(id)?.title;
    expect(await titleOf('DEC-009')).toBe('Use kafka');
    expect(await titleOf('DEC-010')).toBe('DEC-010');
    // the same bytes under another name: the parse cache (warm now) is keyed by path too
    repo.git('mv', '.contextia/system/rationale/use-kafka.md', '.contextia/system/rationale/stream-events.md');
    repo.commit('renamed');
    expect(await titleOf('DEC-009')).toBe('Stream events');
  });
});
