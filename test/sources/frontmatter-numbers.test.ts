import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';
import { loadSet as load } from '../helpers/artifact-set.js';

/**
 * A Nygard folder whose records carry YAML frontmatter with `id:` set to the file name (a
 * team that added frontmatter to every record and numbers that may repeat after merges): the
 * records still call each other "ADR 12" and link "[ADR 0012](0012-….md)", and people type `12`.
 */
const record = (stem: string, title: string, status: string, body: string) =>
  `---\nid: ${stem}\ntitle: "${title}"\nstatus: ${status}\ncreated: 2024-03-01\n---\n\n# ${Number(stem.slice(0, 4))}. ${title}\n\nDate: 2024-03-01\n\n## Status\n\n${status}\n\n## Context\n\n${body}\n\n## Decision\n\nWe do it.\n`;

function fixture() {
  const repo = makeRepo({
    'docs/adr/0011-queue-per-tenant.md': record('0011-queue-per-tenant', 'One queue per tenant', 'Accepted', 'Tenants must not starve each other.'),
    'docs/adr/0012-retry-with-backoff.md': record('0012-retry-with-backoff', 'Retry failed deliveries with backoff', 'Accepted', 'Deliveries fail when a consumer is down. This depends on ADR 0011 for the queues.'),
    'docs/adr/0012-trace-every-message.md': record('0012-trace-every-message', 'Trace every message', 'Accepted', 'Nobody can follow a message today.'),
    'docs/adr/0013-park-poison-messages.md': record(
      '0013-park-poison-messages',
      'Park poison messages',
      'Accepted',
      'Builds on [ADR 0012](0012-retry-with-backoff.md) and on [ADR 0012](0012-trace-every-message.md) for the trace id.\n\n**Supersedes**: ADR 0011 §3 "Ordering" only; the rest of that record stands.',
    ),
  });
  repo.commit('records with frontmatter ids');
  return repo;
}

describe('records whose frontmatter id is their file name, in a numbered folder', () => {
  it('resolve "ADR 0011" in another record to the record numbered 0011, with no broken link and no false disagreement between a link and its text', async () => {
    const set = await load(fixture().dir);
    expect(set.byId.get('0012-retry-with-backoff')!.relations).toEqual({ depends_on: ['0011-queue-per-tenant'] });
    const parked = set.byId.get('0013-park-poison-messages')!.relations;
    expect(parked.depends_on).toEqual(['0012-retry-with-backoff', '0012-trace-every-message']);
    // a link whose text says "ADR 0012" and leads to either record numbered 0012 agrees with its text
    expect(set.problems.filter((p) => p.rule === 'reference-disagrees')).toEqual([]);
    const check = runCli(['check'], { cwd: fixture().dir });
    expect(check.stdout).not.toContain('broken-link');
    expect(check.stdout).not.toContain('reference-disagrees');
  });

  it('reads "Supersedes ADR 0011 §3" as an amendment: one section is replaced, the record stands', async () => {
    const set = await load(fixture().dir);
    const parked = set.byId.get('0013-park-poison-messages')!.relations;
    expect(parked.supersedes).toBeUndefined();
    expect(parked.amends).toEqual(['0011-queue-per-tenant']);
    const check = runCli(['check'], { cwd: fixture().dir });
    expect(check.stdout).not.toContain('superseded-still-active');
  });

  it('is named by its file number as people type it: one record, or the list of those sharing the number', () => {
    const repo = fixture();
    const one = runCli(['show', '11', '--depth', 'meta'], { cwd: repo.dir });
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toContain('0011-queue-per-tenant (decision, docs/adr/0011-queue-per-tenant.md)');
    expect(runCli(['show', 'ADR-0011', '--depth', 'meta'], { cwd: repo.dir }).stdout).toContain('0011-queue-per-tenant (decision');
    const two = runCli(['show', '12'], { cwd: repo.dir });
    expect(two.code).not.toBe(0);
    expect(two.stderr).toContain('12 is ambiguous: its number is shared by 2 records: 0012-retry-with-backoff "Retry failed deliveries with backoff" (docs/adr/0012-retry-with-backoff.md), 0012-trace-every-message "Trace every message" (docs/adr/0012-trace-every-message.md)');
  });
});

describe('init in a folder of records that carry their own ids', () => {
  it('says the ids come from the frontmatter, not prefix + number', () => {
    const repo = fixture();
    const init = runCli(['init'], { cwd: repo.dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('docs/adr/  4 records, ids from their frontmatter (id: 0011-queue-per-tenant, …)');
    expect(init.stdout).not.toContain('ids ADR-<number>');
    const json = JSON.parse(runCli(['init', '--json'], { cwd: fixture().dir }).stdout) as { sources: { dir: string; frontmatterId?: string }[] };
    expect(json.sources).toEqual([expect.objectContaining({ dir: 'docs/adr', frontmatterId: '0011-queue-per-tenant' })]);
  });
});
