import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';
import { adocToMarkdown, learnAdocShape, renderAdoc } from '../../src/artifacts/sources/adoc-record.js';
import { parseAdr } from '../../src/artifacts/sources/adr.js';

/**
 * A team that keeps its decision records in AsciiDoc (DEC-128): a fictional ticket service,
 * "Lantern", with three `.adoc` records and one markdown record in the same folder.
 */
const LANTERN = {
  'docs/adr/0001-choose-a-ticket-queue.adoc': [
    '= 1. Choose a ticket queue',
    ':revdate: 2025-02-11',
    ':status: Accepted',
    ':toc:',
    '',
    '== Context',
    '',
    'Ticket purchases arrive in bursts when a concert goes on sale.',
    '',
    '== Decision',
    '',
    'Purchases wait in a *bounded* in-process queue drained by `TicketWorker`, see link:https://example.invalid/queues[the queue notes].',
    '',
    '== Consequences',
    '',
    '* A full queue answers "try again" instead of timing out.',
    '',
  ].join('\n'),
  'docs/adr/0002-keep-sessions-in-memory.adoc': [
    '= 2. Keep sessions in memory',
    'Date: 2025-03-02',
    '',
    '== Status',
    '',
    'Superseded by xref:0003-store-sessions-in-valkey.adoc[3. Store sessions in Valkey]',
    '',
    '== Context',
    '',
    'Lantern runs on a single node.',
    '',
    '// draft note: this supersedes xref:0001-choose-a-ticket-queue.adoc[the queue record]',
    '////',
    'Amends <<0001-choose-a-ticket-queue#,1. Choose a ticket queue>>',
    '////',
    '',
    '== Decision',
    '',
    'Sessions live in a map inside the ticket node.',
    '',
    '== Consequences',
    '',
    'A restart logs everyone out.',
    '',
  ].join('\n'),
  'docs/adr/0003-store-sessions-in-valkey.adoc': [
    '= 3. Store sessions in Valkey',
    'Date: 2025-06-17',
    '',
    '== Status',
    '',
    'Accepted',
    '',
    'Supersedes <<0002-keep-sessions-in-memory#,2. Keep sessions in memory>>',
    '',
    '== Context',
    '',
    'A second ticket node arrived for the spring sale and sticky routing broke checkout twice.',
    '',
    '== Decision',
    '',
    'Sessions are stored in _Valkey_ with a thirty minute expiry, written through `src/main/java/com/lantern/SessionStore.java`.',
    '',
    '[source,java]',
    '----',
    '// supersedes xref:0001-choose-a-ticket-queue.adoc[] (code, not the record)',
    'var store = new ValkeySessionStore(pool, Duration.ofMinutes(30));',
    '----',
    '',
    '== Consequences',
    '',
    '* Nodes restart without logging anyone out.',
    '* Valkey is one more service to run.',
    '',
  ].join('\n'),
  'docs/adr/0004-log-as-json-lines.md':
    '# 4. Log as JSON lines\n\nDate: 2025-07-01\n\n## Status\n\nAccepted\n\n## Context\n\nThe queue is hard to follow in plain logs.\n\n## Decision\n\nEvery service logs JSON lines. This amends [1. Choose a ticket queue](0001-choose-a-ticket-queue.adoc) with a log line per purchase.\n',
  'src/main/java/com/lantern/SessionStore.java': 'package com.lantern;\n\npublic interface SessionStore {}\n',
  'README.md': '# lantern\n',
};

const NOTICE = 'git-ctx: no .contextia/config.yaml: read decision records from docs/adr/ (found by folder name); `git ctx init` pins them\n';
const cli = (dir: string, ...args: string[]) => runCli(args, { cwd: dir });

function lantern() {
  const repo = makeRepo();
  repo.commit('records', LANTERN);
  return repo;
}

interface Shown {
  title: string;
  status: string | null;
  statusWritten?: string;
  frontmatter: Record<string, unknown>;
  relationsFromText?: Record<string, string[]>;
  reverse: Record<string, string[]>;
  body?: string;
}
const show = (dir: string, id: string) => JSON.parse(cli(dir, 'show', id, '--json').stdout) as Shown;

describe('AsciiDoc decision records', () => {
  it('zero-config finds the folder of .adoc records beside a markdown one; list, for, search and check read them', () => {
    const repo = lantern();
    const list = cli(repo.dir, 'list');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr).toBe(NOTICE);
    expect(list.stdout).toMatch(/ADR-0001\s+decision\s+accepted\s+Choose a ticket queue/);
    expect(list.stdout).toMatch(/ADR-0004\s+decision\s+accepted\s+Log as JSON lines/);
    expect(list.stdout).toMatch(/ADR-0002\s+decision\s+superseded\s+Keep sessions in memory/);

    const forFile = cli(repo.dir, 'for', 'src/main/java/com/lantern/SessionStore.java');
    expect(forFile.code, forFile.stderr).toBe(0);
    expect(forFile.stdout).toContain('ADR-0003');
    expect(forFile.stdout).not.toContain('nothing found');

    const search = cli(repo.dir, 'search', 'where are sessions stored');
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toContain('ADR-0003');
    expect(search.stdout).toContain('Sessions are stored in Valkey with a thirty minute expiry');

    const check = cli(repo.dir, 'check');
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toContain('✓ 4 artifacts checked: 0 errors, 0 warnings');
  });

  it('reads title, status and date from the title line, Status section, attributes and Date lines', () => {
    const repo = lantern();
    const one = show(repo.dir, 'ADR-0001');
    expect(one.title).toBe('Choose a ticket queue');
    expect(one.status).toBe('accepted');
    expect(one.frontmatter.date).toBe('2025-02-11');
    const two = show(repo.dir, 'ADR-0002');
    expect(two.status).toBe('superseded');
    expect(two.frontmatter.date).toBe('2025-03-02');
    const three = show(repo.dir, 'ADR-0003');
    expect(three.title).toBe('Store sessions in Valkey');
    expect(three.status).toBe('accepted');
    expect(three.frontmatter.date).toBe('2025-06-17');
    // the body is read as markdown, code kept as code
    expect(three.body).toContain('## Decision');
    expect(three.body).toContain('```java\n// supersedes');
  });

  it('relations through xref, <<…#,…>> and markdown links resolve to the records, both ways; comments and code name nothing', () => {
    const repo = lantern();
    const two = show(repo.dir, 'ADR-0002');
    expect(two.reverse).toEqual({ superseded_by: ['ADR-0003'] });
    expect(two.relationsFromText).toBeUndefined();
    const three = show(repo.dir, 'ADR-0003');
    expect(three.relationsFromText).toEqual({ supersedes: ['ADR-0002'] });
    const one = show(repo.dir, 'ADR-0001');
    // only the markdown record amends it: the commented-out wordings of 0002 and the listing of 0003 are no relations
    expect(one.reverse).toEqual({ amended_by: ['ADR-0004'] });
    expect(one.relationsFromText).toBeUndefined();
    const text = cli(repo.dir, 'show', 'ADR-0001');
    expect(text.stdout).not.toMatch(/ADR-0002|ADR-0003/);
  });

  it('init pins the folder, and new decision writes one more .adoc record in the folder\'s shape', () => {
    const repo = lantern();
    const init = cli(repo.dir, 'init');
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/docs\/adr\/\s+4 records, ids ADR-<number>/);
    expect(readFileSync(path.join(repo.dir, '.contextia/config.yaml'), 'utf8')).toMatch(/- dir: docs\/adr\n\s+format: adr\n\s+prefix: ADR-/);
    repo.commit('init');
    const made = cli(repo.dir, 'new', 'decision', 'Expire idle sessions after an hour', '--json');
    expect(made.code, made.stderr).toBe(0);
    const file = path.join(repo.dir, 'docs/adr/0005-expire-idle-sessions-after-an-hour.adoc');
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^= 5\. Expire idle sessions after an hour\nDate: \d{4}-\d\d-\d\d\n\n== Status\n\nProposed\n\n== Context\n\n== Decision\n\n== Consequences\n$/);
    repo.commit('new record');
    expect(cli(repo.dir, 'list').stdout).toMatch(/ADR-0005\s+decision\s+proposed\s+Expire idle sessions after an hour/);
    const check = cli(repo.dir, 'check');
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });

  it('a confirmation given to new decision is written as an AsciiDoc listing and read back', () => {
    const repo = lantern();
    const made = cli(repo.dir, 'new', 'decision', 'Round prices at checkout only', '--forbid-call', 'Math.round');
    expect(made.code, made.stderr).toBe(0);
    const text = readFileSync(path.join(repo.dir, 'docs/adr/0005-round-prices-at-checkout-only.adoc'), 'utf8');
    expect(text).toContain('\n== Confirmation\n\n[source,git-ctx]\n----\nconfirm:\n  - forbid-call: "Math.round"\n----\n');
    repo.commit('record');
    const shown = JSON.parse(cli(repo.dir, 'show', 'ADR-0005', '--json').stdout) as { confirm: { kind: string; pattern: string }[] };
    expect(shown.confirm.map((c) => [c.kind, c.pattern])).toEqual([['forbid-call', 'Math.round']]);
  });

  it('a folder of any name whose .adoc records are named as ADRs is found by their file names', () => {
    const record = (n: string, title: string) => `= ADR-${n}: ${title}\n:status: Accepted\n\n== Context\n\nThe broker question came up again.\n\n== Decision\n\nWe ${title.toLowerCase()}.\n`;
    const repo = makeRepo();
    repo.commit('records', {
      'docs/arch/adr-001-pick-a-message-broker.adoc': record('001', 'Pick a message broker'),
      'docs/arch/adr-002-partition-by-venue.adoc': record('002', 'Partition by venue'),
      'docs/arch/overview.adoc': '= Overview\n\nThe big picture.\n',
    });
    const list = cli(repo.dir, 'list');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr).toContain('read decision records from docs/arch/ (found by file names)');
    expect(list.stdout).toMatch(/ADR-001\s+decision\s+accepted\s+Pick a message broker/);
    expect(list.stdout).toMatch(/ADR-002\s+decision\s+accepted\s+Partition by venue/);
    const init = cli(repo.dir, 'init');
    expect(init.code, init.stderr).toBe(0);
    expect(readFileSync(path.join(repo.dir, '.contextia/config.yaml'), 'utf8')).toContain('- dir: docs/arch\n');
  });

  it('supersede writes the relation into both AsciiDoc records as xrefs, and they read back', () => {
    const repo = lantern();
    const r = cli(repo.dir, 'supersede', 'ADR-0001', '--by', 'ADR-0003');
    expect(r.code, r.stderr).toBe(0);
    const one = readFileSync(path.join(repo.dir, 'docs/adr/0001-choose-a-ticket-queue.adoc'), 'utf8');
    expect(one).toContain('\n:status: Superseded by xref:0003-store-sessions-in-valkey.adoc[Store sessions in Valkey]\n');
    const three = readFileSync(path.join(repo.dir, 'docs/adr/0003-store-sessions-in-valkey.adoc'), 'utf8');
    expect(three).toContain('== Status\n\nAccepted\n\nSupersedes xref:0001-choose-a-ticket-queue.adoc[Choose a ticket queue]\n');
    repo.commit('supersede');
    expect(show(repo.dir, 'ADR-0001').status).toBe('superseded');
    expect(show(repo.dir, 'ADR-0003').relationsFromText).toEqual({ supersedes: ['ADR-0001', 'ADR-0002'] });
    const check = cli(repo.dir, 'check');
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });

  it('the numbered chapters of an arc42 document are no records, and a record folder beside them still is', () => {
    const chapter = (t: string) => `[[section-${t}]]\n== ${t}\n\nA chapter of the architecture document.\n`;
    const repo = makeRepo();
    repo.commit('arc42', {
      'docs/architecture/arc42.adoc': '= Lantern architecture\n\ninclude::01_introduction_and_goals.adoc[]\n',
      'docs/architecture/01_introduction_and_goals.adoc': chapter('Introduction and Goals'),
      'docs/architecture/04_solution_strategy.adoc': chapter('Solution Strategy'),
      'docs/architecture/09_architecture_decisions.adoc': chapter('Architecture Decisions'),
      'docs/architecture/12_glossary.adoc': chapter('Glossary'),
      'docs/adr/0001-choose-a-ticket-queue.adoc': LANTERN['docs/adr/0001-choose-a-ticket-queue.adoc'],
      'docs/adr/03-context-and-scope-of-billing.adoc': '= 3. Context and scope of billing\n:status: Proposed\n\n== Decision\n\nBilling stays out of Lantern.\n',
    });
    const list = cli(repo.dir, 'list');
    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr).toBe(NOTICE);
    expect(list.stdout).toMatch(/ADR-0001\s+decision\s+accepted\s+Choose a ticket queue/);
    expect(list.stdout).toMatch(/ADR-03\s+decision\s+proposed\s+Context and scope of billing/);
    expect(list.stdout).not.toMatch(/Glossary|Solution Strategy|Lantern architecture/);
  });

  it('a record written with a :status: attribute gets one more written so', () => {
    const shape = learnAdocShape(LANTERN['docs/adr/0001-choose-a-ticket-queue.adoc'])!;
    expect(renderAdoc(shape, { number: '0007', title: 'Cap the queue at ten thousand', status: 'Proposed', date: '2025-08-01', context: 'Memory ran out once.' })).toBe(
      '= 7. Cap the queue at ten thousand\n:revdate: 2025-08-01\n:status: Proposed\n\n== Context\n\nMemory ran out once.\n\n== Decision\n\n== Consequences\n',
    );
  });
});

describe('adocToMarkdown', () => {
  it('keeps one line per line, and reads the title, attributes, lists, blocks, comments and links', () => {
    const text = [
      '= Ignored when a doctitle is given',
      'Ada Writer <ada@example.invalid>',
      'v1.1, 2024-05-06: second pass',
      ':doctitle: 12. Route tickets by venue',
      '',
      '== Status',
      '',
      'Status:: Accepted',
      '',
      '. first step with `code` and link:0003-x.adoc[three]',
      '** nested point',
      '',
      '....',
      'literal <<0004-y#,four>>',
      '....',
      '',
      '[source,python]',
      'print("a paragraph listing")',
      '',
      'See <<anchor-in-this-file>> and https://example.invalid/a[a site].',
    ];
    const md = adocToMarkdown(text.join('\n')).split('\n');
    expect(md).toHaveLength(text.length);
    expect(md.slice(0, 4)).toEqual(['# 12. Route tickets by venue', '', 'Date: 2024-05-06', '']);
    expect(md[5]).toBe('## Status');
    expect(md[7]).toBe('Status: Accepted');
    expect(md[9]).toBe('1. first step with `code` and [three](0003-x.adoc)');
    expect(md[10]).toBe('  - nested point');
    expect(md.slice(12, 15)).toEqual(['```', 'literal <<0004-y#,four>>', '```']);
    expect(md.slice(16, 19)).toEqual(['```python', 'print("a paragraph listing")', '```']);
    expect(md[19]).toBe('See anchor-in-this-file and [a site](https://example.invalid/a).');
  });

  it('reads a status kept in a one-line table row', () => {
    const text = '= 9. Shard the ledger\n\n[cols="1,3"]\n|===\n| Status | Proposed\n| Date | 2025-09-09\n|===\n\n== Context\n\nThe ledger outgrew one disk.\n';
    expect(adocToMarkdown(text).split('\n').slice(3, 7)).toEqual(['', '| Status | Proposed |', '| Date | 2025-09-09 |', '']);
    const r = parseAdr('docs/adr/0009-shard-the-ledger.adoc', Buffer.from(text), { prefix: 'ADR-', type: 'decision' });
    expect(r.artifact?.status).toBe('Proposed');
    expect(r.artifact?.created).toBe('2025-09-09');
  });

  it('parses into a record whose summary drops markup and whose code is no summary', () => {
    const r = parseAdr('docs/adr/0003-store-sessions-in-valkey.adoc', Buffer.from(LANTERN['docs/adr/0003-store-sessions-in-valkey.adoc']), { prefix: 'ADR-', type: 'decision' });
    expect(r.artifact?.summary).toBe('Sessions are stored in Valkey with a thirty minute expiry, written through src/main/java/com/lantern/SessionStore.java.');
    expect(r.artifact?.keyLines.title).toBe(1);
    expect(r.artifact?.keyLines.status).toBe(6);
  });
});
