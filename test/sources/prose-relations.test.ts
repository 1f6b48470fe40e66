import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { buildGraph, reverseEdges } from '../../src/artifacts/graph.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCheck } from '../../src/check/run.js';
import { runCli } from '../helpers/cli.js';
import { loadSet as load } from '../helpers/artifact-set.js';

/**
 * An adr-tools folder whose records point at each other in prose, the way real records do
 * (issue 30 item 5, DEC-053), a reStructuredText and a MADR folder with title traps, and
 * mentions of bare top-level folders.
 */
const adr = (n: string, title: string, status: string, body: string) => `# ${Number(n)}. ${title}\n\nDate: 2022-01-0${Number(n) % 9}\n\n## Status\n\n${status}\n\n## Context\n\n${body}\n\n## Decision\n\nWe decided.\n`;

function fixture(extra: Record<string, string> = {}) {
  const repo = makeRepo({
    '.contextia/config.yaml': [
      'sources:',
      '  - { dir: doc/adr, format: adr, prefix: ADR-, type: decision }',
      '  - { dir: doc/rst, format: adr, prefix: RST-, type: decision }',
      '  - { dir: doc/madr, format: adr, prefix: MADR-, type: decision }',
      '',
    ].join('\n'),
    'doc/adr/0001-use-rest.md': adr('0001', 'Use REST', 'Deprecated\n\n**See [0009-use-graphql](0009-use-graphql.md) for updates!**', 'Clients call us over HTTP.'),
    'doc/adr/0002-store-events.md': adr('0002', 'Store events', 'Accepted\n\nPlease refer to the [0011-event-retention](0011-event-retention.md) for the latest change.', 'We keep every event.'),
    'doc/adr/0003-event-schema.md': adr('0003', 'Event schema', 'Accepted', 'This updates some of the content in [ADR #2](0002-store-events.md).'),
    'doc/adr/0004-schema-versions.md': adr('0004', 'Schema versions', 'Accepted', 'This is a refinement of 0003-event-schema: every event names its version.'),
    'doc/adr/0005-consumers.md': adr('0005', 'Consumers', 'Accepted', 'This depends on ADR 4 for the versions it reads.'),
    'doc/adr/0006-replay.md': adr('0006', 'Replay', 'Accepted', 'Replay relates to #5, the consumers.'),
    'doc/adr/0007-one-api.md': adr('0007', 'One API', 'Accepted', 'This replaces ADR-0001 for new clients.'),
    'doc/adr/0008-event-store.md': adr('0008', 'Event store', 'Accepted', 'We looked at [the event store](0002-store-events.md) again. Unlike ADR-0011, nothing here expires.'),
    'doc/adr/0009-use-graphql.md': adr('0009', 'Use GraphQL', 'Accepted', 'One endpoint.'),
    'doc/adr/0010-queues.md': adr('0010', 'Queues', 'Accepted\n\nSupersedes [ADR-12](0012-topics.md)', 'Queues.'),
    'doc/adr/0011-event-retention.md': adr('0011', 'Event retention', 'Accepted', 'Events older than a year go to cold storage.'),
    'doc/adr/0012-topics.md': adr('0012', 'Topics', 'Accepted\n\nSupersedes [ADR-10](0010-queues.md)', 'Topics.'),
    'doc/adr/0013-old-auth.md': adr('0013', 'Old auth', 'Superseded by [14. New auth](0014-new-auth.md)', 'Sessions.'),
    'doc/adr/0014-new-auth.md': adr('0014', 'New auth', 'Accepted\n\nSupersedes [13. Old auth](0013-old-auth.md)', 'Tokens. The code lives in `src/`, the notes in `docs/`, the handlers in `src/auth/`.'),
    'doc/rst/0001-synopsis-first.rst': 'Synopsis\n========\n\nWe build docs with Sphinx.\n\nStatus\n======\n\nAccepted\n',
    'doc/rst/0002-overlined.rst': 'Status\n------\n\nAccepted\n\n==================\nUse Sphinx themes\n==================\n\nContext\n-------\n\nThemes.\n',
    'doc/madr/0001-use-vite.md': '---\ntitle: Use Vite for bundling\nstatus: accepted\n---\n\n## Context and Problem Statement\n\nBundling is slow.\n\n## Decision Outcome\n\nChosen option: Vite.\n',
    'doc/madr/0002-status-heading.md': '# Status\n\nAccepted\n\n# Context\n\nSomething.\n',
    'src/auth/tokens.ts': 'export const token = 1;\n',
    'docs/readme.md': '# notes\n',
    ...extra,
  });
  repo.commit('fixture');
  return repo;
}

describe('relations from prose, titles and mentions (issue 30 item 5)', () => {
  it('turns each cross-reference wording into a typed relation with its direction', async () => {
    const set = await load(fixture().dir);
    const rel = (id: string) => set.byId.get(id)!.relations;
    const g = buildGraph(set);
    // "See [0009-…] for updates!" in a deprecated record: 0009 amends it (a successor to follow)
    expect(rel('ADR-0009')).toMatchObject({ amends: ['ADR-0001'] });
    expect(reverseEdges(g, 'ADR-0001')).toMatchObject({ amended_by: ['ADR-0009'] });
    // "Please refer to the [0011-…] for the latest change"
    expect(rel('ADR-0011')).toMatchObject({ amends: ['ADR-0002'] });
    // "This updates some of the content in [ADR #2]"
    expect(rel('ADR-0003')).toEqual({ amends: ['ADR-0002'] });
    // "a refinement of 0003-…" (a numbered reference without a link)
    expect(rel('ADR-0004')).toEqual({ amends: ['ADR-0003'] });
    expect(rel('ADR-0005')).toEqual({ depends_on: ['ADR-0004'] });
    expect(rel('ADR-0006')).toEqual({ relates_to: ['ADR-0005'] });
    expect(rel('ADR-0007')).toEqual({ supersedes: ['ADR-0001'] });
    // a plain link and an unclear mention of another record: relates_to, never a supersession
    expect(rel('ADR-0008')).toEqual({ relates_to: ['ADR-0002', 'ADR-0011'] });
    expect(reverseEdges(g, 'ADR-0002')).toMatchObject({ amended_by: expect.arrayContaining(['ADR-0003']) });
  });

  it('draws a supersession both records agree on, and reports one they dispute', async () => {
    const set = await load(fixture().dir);
    expect(set.byId.get('ADR-0014')!.relations).toEqual({ supersedes: ['ADR-0013'] });
    expect(set.byId.get('ADR-0013')!.relations.supersedes).toBeUndefined();
    expect(reverseEdges(buildGraph(set), 'ADR-0013')).toEqual({ superseded_by: ['ADR-0014'] });
    // 0010 and 0012 each claim to supersede the other: no supersession, a finding
    expect(set.byId.get('ADR-0010')!.relations).toEqual({ relates_to: ['ADR-0012'] });
    expect(set.byId.get('ADR-0012')!.relations).toEqual({ relates_to: ['ADR-0010'] });
    const found = set.problems.filter((p) => p.rule === 'supersession-disagrees');
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toMatch(/ADR-0010 and ADR-0012 each say they supersede the other|ADR-0012 and ADR-0010 each say/);
  });

  it("a supersession only the older record states is shown as that record's word: show, show --json and the map say who said it", async () => {
    // the newer record says nothing of the older one; the older one's Status says "Superseded by"
    const repo = fixture({
      'doc/adr/0015-user-model.md': adr('0015', 'User model', 'Superseded by [16. User model revisited](0016-user-model-revisited.md)', 'Profiles.'),
      'doc/adr/0016-user-model-revisited.md': adr('0016', 'User model revisited', 'Accepted', 'Accounts and contacts.'),
    });
    const set = await load(repo.dir);
    expect(set.byId.get('ADR-0016')!.relations).toEqual({ supersedes: ['ADR-0015'] });
    const human = runCli(['show', 'ADR-0016'], { cwd: repo.dir });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain("supersedes: ADR-0015 (ADR-0015's text says it is superseded by ADR-0016; this record's text does not say so)");
    expect(human.stdout).not.toContain('supersedes (from the text)');
    const json = JSON.parse(runCli(['show', 'ADR-0016', '--json'], { cwd: repo.dir }).stdout) as { relationsFromText?: unknown; relationsStatedByOthers?: unknown };
    expect(json.relationsFromText).toBeUndefined();
    expect(json.relationsStatedByOthers).toEqual([{ kind: 'supersedes', id: 'ADR-0015', statedBy: 'ADR-0015' }]);
    // both records state it (0014 "Supersedes 13", 0013 "Superseded by 14"): 0014's own word
    const both = JSON.parse(runCli(['show', 'ADR-0014', '--json'], { cwd: repo.dir }).stdout) as { relationsFromText?: unknown; relationsStatedByOthers?: unknown };
    expect(both.relationsFromText).toEqual({ supersedes: ['ADR-0013'] });
    expect(both.relationsStatedByOthers).toBeUndefined();
    const map = JSON.parse(runCli(['map', '--json', '--no-staleness'], { cwd: repo.dir }).stdout) as { edges: { source: string; target: string; kind: string; statedBy?: string }[] };
    expect(map.edges.find((e) => e.source === 'ADR-0016' && e.target === 'ADR-0015')).toMatchObject({ kind: 'supersedes', statedBy: 'ADR-0015' });
    expect(map.edges.find((e) => e.source === 'ADR-0014' && e.target === 'ADR-0013')?.statedBy).toBeUndefined();
  });

  it('a wording that ends its line is the wording of the reference opening the next line ("Superseded by" ⏎ "[16. …](…)"), never across a blank line', async () => {
    const repo = fixture({
      'doc/adr/0015-sessions.md': adr('0015', 'Sessions', 'Superseded by\n[16. Tokens](0016-tokens.md).', 'Sessions.'),
      'doc/adr/0016-tokens.md': adr('0016', 'Tokens', 'Accepted', 'This record amends\n[the schema record](0003-event-schema.md) for token events. Retention is replaced by\n\n[ADR 11](0011-event-retention.md) in no way: a new paragraph, no wording.'),
    });
    const set = await load(repo.dir);
    expect(set.byId.get('ADR-0015')!.status).toBe('superseded');
    expect(set.byId.get('ADR-0015')!.statusText).toBe('Superseded by 16. Tokens.');
    expect(set.byId.get('ADR-0016')!.relations).toEqual({ supersedes: ['ADR-0015'], amends: ['ADR-0003'], relates_to: ['ADR-0011'] });
    expect(reverseEdges(buildGraph(set), 'ADR-0015')).toEqual({ superseded_by: ['ADR-0016'] });
  });

  it('takes titles from the record title, never from a Status or Synopsis heading', async () => {
    const set = await load(fixture().dir);
    expect(set.byId.get('RST-0001')!.title).toBe('Synopsis first');
    expect(set.byId.get('RST-0002')!.title).toBe('Use Sphinx themes');
    expect(set.byId.get('MADR-0001')!.title).toBe('Use Vite for bundling');
    expect(set.byId.get('MADR-0002')!.title).toBe('Status heading');
    expect(set.byId.get('ADR-0014')!.title).toBe('New auth');
  });

  it('reads the title of a record without a level-1 heading from its first heading or its Title section, not a section name', async () => {
    // SAP/cloud-sdk-js heads some records at level 2 ("## Count Method on Entities"), or writes
    // a "## Title" section whose first line is the title
    const repo = fixture({
      'doc/adr/0015-count.md': '## Count Method on Entities\n\nThis is about the count method.\n\n## Decision\n\nCount with a request of its own.\n',
      'doc/adr/0016-enum.md': '## Title\n\nHandle enum types of the v4 protocol\n\n## Status\n\naccepted\n\n## Context\n\nEnums.\n',
      'doc/adr/0017-variadic.md': '## Motivation\n\nSome functions take many arguments.\n\n## Decision\n\nTake an array.\n',
      'doc/adr/0018-csrf.md': '## Status\n\naccepted\n\n## Context\n\nTokens for unsafe requests.\n',
      'doc/adr/0019-lead.md': 'A lead paragraph before any heading.\n\n## Background\n\nText.\n',
    });
    const set = await load(repo.dir);
    expect(set.byId.get('ADR-0015')!.title).toBe('Count Method on Entities');
    expect(set.byId.get('ADR-0016')!.title).toBe('Handle enum types of the v4 protocol');
    // a section's name is no title: the file's name is
    expect(set.byId.get('ADR-0017')!.title).toBe('Variadic');
    expect(set.byId.get('ADR-0018')!.title).toBe('Csrf');
    expect(set.byId.get('ADR-0019')!.title).toBe('Lead');
    expect(set.byId.get('ADR-0016')!.status).toBe('accepted');
  });

  it('reads a file of code alone beside the records (no heading, no metadata, no prose) as no record', async () => {
    // SAP/cloud-sdk-js keeps 0017-code-snippets.md, one fenced block, beside 0017-builder-methods.md
    const repo = fixture({
      'doc/adr/0017-builder-methods.md': '# 17. Builder methods called twice\n\n## Status\n\nAccepted\n\n## Decision\n\nThe second call wins; see [the snippets](0017-code-snippets.md).\n',
      'doc/adr/0017-code-snippets.md': '```ts\nclass Builder {\n  filter(): this {\n    return this;\n  }\n}\n```\n',
      'doc/adr/0018-short.md': 'We keep one queue per tenant.\n',
    });
    const set = await load(repo.dir);
    expect(set.artifacts.map((a) => a.file)).not.toContain('doc/adr/0017-code-snippets.md');
    expect(set.byId.get('ADR-0017')!.title).toBe('Builder methods called twice');
    // a record of prose alone, without a heading, is still a record
    expect(set.byId.get('ADR-0018')!.title).toBe('Short');
    const check = runCli(['check', '--json'], { cwd: repo.dir });
    expect(check.stdout).not.toMatch(/0017-code-snippets\.md[^\n]*(?:renumber|same number)/i);
  });

  it('reads a title whose template number was left unfilled ("# n. Django Templates") without the placeholder', async () => {
    // cisagov/manage.get.gov's 0010 and 0011 kept the adr-tools template's "n." for their number
    const repo = fixture({
      'doc/adr/0015-django-templates.md': '# n. Django Templates\n\nDate: 2022-09-26\n\n## Status\n\nApproved\n\n## Decision\n\nTo use the built-in engine.\n',
      'doc/adr/0016-login.md': '# NNNN. Sign in with Login.gov\n\n## Status\n\nApproved\n',
      'doc/adr/0017-n-plus-one.md': '# 17. N+1 queries in the admin\n\n## Status\n\nAccepted\n',
    });
    const set = await load(repo.dir);
    expect(set.byId.get('ADR-0015')!.title).toBe('Django Templates');
    expect(set.byId.get('ADR-0016')!.title).toBe('Sign in with Login.gov');
    // a title that starts with the letter n is not a placeholder
    expect(set.byId.get('ADR-0017')!.title).toBe('N+1 queries in the admin');
    const list = runCli(['list', '--json'], { cwd: repo.dir });
    expect(list.code, list.stderr).toBe(0);
    const titles = (JSON.parse(list.stdout) as { artifacts: { id: string; title: string }[] }).artifacts.filter((a) => a.id === 'ADR-0015').map((a) => a.title);
    expect(titles).toEqual(['Django Templates']);
  });

  it('a record linked by its GitHub address is a reference when this repository has that record; another repository\'s file is none, and no broken link', async () => {
    // cisagov/manage.get.gov's 0031 links 0008 and 0027 by https://github.com/…/blob/main/docs/…
    const body = 'See [the REST record](https://github.com/acme/shop/blob/main/doc/adr/0001-use-rest.md) for context. We also read [their notes](https://github.com/other/lib/blob/main/doc/adr/0042-caching.md) and [a GitLab copy](https://gitlab.com/acme/shop/-/blob/v2/doc/adr/0011-event-retention.md).';
    const repo = fixture({ 'doc/adr/0015-web.md': adr('0015', 'Web', 'Accepted', body) });
    const set = await load(repo.dir);
    expect(set.byId.get('ADR-0015')!.relations).toEqual({ relates_to: ['ADR-0001', 'ADR-0011'] });
    expect(reverseEdges(buildGraph(set), 'ADR-0001')).toMatchObject({ relates_to: expect.arrayContaining(['ADR-0015']) });
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const found = (await runCheck({ snapshot, now: new Date('2026-01-01T00:00:00Z') })).findings.filter((f) => f.id === 'ADR-0015' && f.severity === 'error');
      expect(found).toEqual([]);
    } finally {
      snapshot.close();
    }
  });

  it('a record number named in passing that no record has ("[#2263 ADR-0042][pr-2263]", a pull request) is no relation and no broken link; one a record has still relates', async () => {
    const body = 'Reviewed in ([#2263 ADR-0042][pr-2263], [#2320 ADR-0009][pr-2320]).\n\n[pr-2263]: https://github.com/acme/shop/pull/2263\n[pr-2320]: https://github.com/acme/shop/pull/2320';
    const repo = fixture({ 'doc/adr/0015-web.md': adr('0015', 'Web', 'Accepted', body), 'doc/adr/0016-cache.md': adr('0016', 'Cache', 'Accepted', 'Superseded in spirit? No: this replaces ADR-0043 for reads.') });
    const set = await load(repo.dir);
    expect(set.byId.get('ADR-0015')!.relations).toEqual({ relates_to: ['ADR-0009'] });
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const findings = (await runCheck({ snapshot, now: new Date('2026-01-01T00:00:00Z') })).findings;
      expect(findings.filter((f) => f.id === 'ADR-0015')).toEqual([]);
      // a worded reference to a record that does not exist is still a broken link
      expect(findings.filter((f) => f.id === 'ADR-0016' && f.severity === 'error').map((f) => f.message).join('\n')).toMatch(/ADR-0043/);
    } finally {
      snapshot.close();
    }
  });

  it('a MADR frontmatter status "superseded by MADR-0001" draws the supersession, with its successor followed', async () => {
    const repo = fixture({ 'doc/madr/0003-use-webpack.md': '---\nstatus: "superseded by MADR-0001"\ndate: 2023-01-01\n---\n# Use Webpack for bundling\n\n## Decision Outcome\n\nChosen option: Webpack.\n' });
    const set = await load(repo.dir);
    // drawn as the newer record's supersession (the older one states it), as for a Status section
    expect(set.byId.get('MADR-0001')!.relations).toEqual({ supersedes: ['MADR-0003'] });
    expect(reverseEdges(buildGraph(set), 'MADR-0003')).toEqual({ superseded_by: ['MADR-0001'] });
    const show = runCli(['show', 'MADR-0003'], { cwd: repo.dir });
    expect(show.stdout).toMatch(/superseded_by \(computed\): MADR-0001/);
  });

  it('a wording counts for a reference only in the same sentence: "form updates … etc. We … (see [0001])" relates, it does not amend', async () => {
    // cisagov/manage.get.gov's 0031 read as amending 0008 through the noun "updates" a sentence earlier
    const line = 'Templates handle forms but not dynamic form updates, hidden elements, etc. We load plain scripts (see [the REST record](0001-use-rest.md) for additional context). Later work [refines ADR 3](0003-event-schema.md) where needed.';
    const repo = fixture({ 'doc/adr/0015-frontend.md': adr('0015', 'Frontend', 'Accepted', line) });
    const set = await load(repo.dir);
    expect(set.byId.get('ADR-0015')!.relations).toEqual({ relates_to: ['ADR-0001'], amends: ['ADR-0003'] });
  });

  it("a link's target decides which record it references, not the record its text names; a disagreement is a finding", async () => {
    // a link titled with one record's number that leads to another record's file, or to its page
    // on the project's documentation site (the site drops the number from the file name)
    const body = [
      'As agreed in [ADR-0011](0012-topics.md), topics carry the events.',
      'The replay rules follow [ADR 9](https://docs.example.org/architecture/adr/event-retention/).',
      'Our [earlier notes](https://docs.example.org/blog/event-retention) are no record.',
      'The schema is in [ADR-3](https://docs.example.org/architecture/adr/no-such-page).',
    ].join('\n');
    const repo = fixture({ 'doc/adr/0015-streams.md': adr('0015', 'Streams', 'Accepted', body) });
    const set = await load(repo.dir);
    // 0012 by its file, 0011 by its page (its text says 9), 0003 by the text of a link leading to no record
    expect(set.byId.get('ADR-0015')!.relations).toEqual({ relates_to: ['ADR-0012', 'ADR-0011', 'ADR-0003'] });
    const found = set.problems.filter((p) => p.rule === 'reference-disagrees' && p.file === 'doc/adr/0015-streams.md');
    expect(found.map((p) => p.line).sort()).toEqual([11, 12]);
    expect(found.find((p) => p.line === 11)!.message).toContain('names ADR-0011 but it leads to doc/adr/0012-topics.md (ADR-0012)');
    expect(found.find((p) => p.line === 12)!.message).toContain('names ADR-0009 but it leads to doc/adr/0011-event-retention.md (ADR-0011)');
  });

  it('counts a mention only when it names a file or a folder below the top level', async () => {
    const set = await load(fixture().dir);
    expect(set.byId.get('ADR-0014')!.mentions).toEqual([{ target: 'src/auth', line: 13 }]);
  });

  it("a link to a heading of a document (`[this README](readme.md#index)`) mentions the document, never a symbol anchor that check or stale would call dead", async () => {
    const repo = fixture({ 'doc/adr/0015-index.md': adr('0015', 'Keep an index', 'Accepted', 'See [the notes](../../docs/readme.md#getting-started) and [their index](../../docs/readme.md#index) for the list; the token code is `src/auth/tokens.ts#token`.') });
    const set = await load(repo.dir);
    expect(set.byId.get('ADR-0015')!.mentions).toEqual([
      { target: 'docs/readme.md', line: 11 },
      { target: 'src/auth/tokens.ts#token', line: 11 },
    ]);
  });
});

describe('successor following from prose (issue 30 item 5)', () => {
  it('a deprecated record found by a search leads to the record that amends it ("See … for updates")', async () => {
    const { retrieveForText } = await import('../../src/retrieve/engine.js');
    const repo = fixture({ 'doc/adr/0015-soap.md': adr('0015', 'SOAP for partners', 'Deprecated\n\n**See [0009-use-graphql](0009-use-graphql.md) for updates!**', 'Partners integrate through SOAP envelopes.') });
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const r = await retrieveForText({ snapshot, set, text: 'partners send SOAP envelopes', staleness: false });
      expect(r.results.some((x) => x.id === 'ADR-0015')).toBe(false);
      const succ = r.results.find((x) => x.id === 'ADR-0009');
      expect(succ?.slot).toBe('links');
      expect(succ?.why[0]).toMatchObject({ kind: 'successor', path: ['ADR-0009', 'amends', 'ADR-0015'] });
    } finally {
      snapshot.close();
    }
  });

  it('check: a link to a document of the tree that is no record is not broken; a path of the author\'s machine is, with the record it meant', async () => {
    const repo = fixture({
      'doc/adr/0015-cache.md': adr('0015', 'Cache', 'Accepted', 'The details are in the [design notes](../cache-design.md); a [missing page](../gone.md) is not.'),
      'doc/cache-design.md': '# Cache design\n\nHow entries expire.\n',
      'doc/adr/0016-cache-keys.md': adr('0016', 'Cache keys', 'Accepted', 'Keys as in the [cache record](/home/someone/work/project/doc/adr/0015-cache.md).'),
    });
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const broken = (await runCheck({ snapshot, now: new Date('2026-01-01T00:00:00Z') })).findings.filter((f) => f.rule === 'broken-link');
      expect(broken.filter((f) => f.message.includes('cache-design.md'))).toEqual([]);
      expect(broken.find((f) => f.id === 'ADR-0015' && f.message.includes('doc/gone.md'))).toBeDefined();
      const machine = broken.find((f) => f.id === 'ADR-0016');
      expect(machine?.message).toContain('ending with doc/adr/0015-cache.md: link it relatively to reach ADR-0015');
    } finally {
      snapshot.close();
    }
    // the map agrees with check: the design note is a document it links, the missing page is broken
    const map = runCli(['map', '--json', '--no-staleness'], { cwd: repo.dir });
    expect(map.code, map.stderr).toBe(0);
    const data = JSON.parse(map.stdout) as { broken: { source: string; target: string }[]; documents?: { source: string; target: string }[] };
    expect(data.broken.filter((b) => b.source === 'ADR-0015').map((b) => b.target)).toEqual(['doc/gone.md']);
    expect(data.documents).toEqual([{ source: 'ADR-0015', target: 'doc/cache-design.md', kind: 'relates_to' }]);
    expect(runCli(['map', '--no-staleness', '-o', `${repo.dir}/.git/map.html`], { cwd: repo.dir }).stderr).toMatch(/2 broken links/);
  });

  it('a link inside a fenced example, also one quoted ("> ```markdown"), is the example\'s: no relation and no broken link', async () => {
    // carbon-aware-sdk's 0004-documentation.md shows what a sub-README should hold, links and all
    const example = ['All other README.md files only link back to the docs. EG:', '', '> `./src/api/README.md`', '>', '> ```markdown', '> # Api', '>', '> - [Architecture](/docs/architecture/overview.md)', '> - [Old notes](0011-event-retention.md)', '> ```', '', '```md', 'See [the retention record](0011-event-retention.md).', '```', '', 'Outside the examples: see [the schema](0003-event-schema.md).'].join('\n');
    const repo = fixture({ 'doc/adr/0017-docs.md': adr('0017', 'Docs', 'Accepted', example) });
    const set = await load(repo.dir);
    const docs = set.artifacts.find((a) => a.id === 'ADR-0017')!;
    expect(docs.relations).toEqual({ relates_to: ['ADR-0003'] });
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const broken = (await runCheck({ snapshot, now: new Date('2026-01-01T00:00:00Z') })).findings.filter((f) => f.rule === 'broken-link' && f.id === 'ADR-0017');
      expect(broken).toEqual([]);
    } finally {
      snapshot.close();
    }
  });

  it('a link whose % is no escape ("100%-done") is read as written: no crash, the record it names is related', () => {
    const repo = makeRepo({
      'doc/adr/0001-record.md': adr('0001', 'Record', 'Accepted', 'See [the other record](0002-100%-done.md) for updates.'),
      'doc/adr/0002-100%-done.md': adr('0002', 'Hundred percent done', 'Accepted', 'Done.'),
    });
    repo.commit('records');
    const r = runCli(['check', '--json'], { cwd: repo.dir });
    expect(r.stderr).not.toContain('unexpected error');
    expect(r.code, r.stderr).toBe(0);
    const shown = runCli(['show', 'ADR-0001', '--json'], { cwd: repo.dir });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('ADR-0002');
  });

  it("a relation is located where it is written, not at a title that names the record's own id", async () => {
    const rec = (n: string, title: string, body: string) => `# ADR-${n}: ${title}\n\n- **Status:** Accepted\n- **Date:** 2024-05-01\n\n## Context\n\n${body}\n\n## Decision\n\nWe will do it.\n`;
    const repo = makeRepo({
      'docs/adr/0001-lookups.md': rec('0001', 'Lookups go through the registry', 'Every lookup goes through the registry.'),
      'docs/adr/0002-retire-bridge.md': rec('0002', 'Retire the old bridge', 'The bridge is retired step by step.\n\n- Lookups: registry only ([ADR-0001](0001-lookups.md)).'),
    });
    repo.commit('records');
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
    const a = set.byId.get('ADR-0002')!;
    expect(a.relations.relates_to).toEqual(['ADR-0001']);
    expect(a.keyLines.relations).toBe(10);
    const impact = runCli(['impact', 'ADR-0001'], { cwd: repo.dir });
    expect(impact.stdout).toContain('ADR-0002 relates_to ADR-0001 [docs/adr/0002-retire-bridge.md:10]');
  });
});

