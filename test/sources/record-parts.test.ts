import { describe, expect, it } from 'vitest';
import { parseAdr } from '../../src/artifacts/sources/adr.js';
import { derivedSummary, recordParts } from '../../src/artifacts/sources/parts.js';
import { buildKeywordIndex, queryOf, searchKeywords } from '../../src/retrieve/bm25.js';

const opts = { prefix: 'ADR-', type: 'decision' };

/** A payments record whose body is mostly a pasted webhook log (the shape issue 30 met). */
const LOG_RECORD = `# 4. Record webhook payloads

Date: 2021-03-02

## Status

Accepted

## Context

We debugged refunds from the provider's webhooks. Here is what the provider sent:

\`\`\`json
${Array.from({ length: 60 }, (_, i) => `{"event": "refund.updated", "transaction": {"id": "tx_${i}", "idempotency_key": "key_${i}", "amount": ${i * 100}, "currency": "EUR", "charge": "ch_${i}"}}`).join('\n')}
\`\`\`

    2021-03-01T10:00:00Z INFO refund retried transaction tx_1 idempotency key reused
    2021-03-01T10:00:01Z WARN refund retried transaction tx_2 idempotency key reused

## Decision

We store every webhook payload in the audit table before handling it.

## Consequences

The audit table grows by a few megabytes a day.
`;

const KEY_RECORD = `# 7. Idempotent refunds

## Status

Accepted

## Context

A refund that is retried must not pay out twice.

## Decision

We picked \`transaction.id\` as the idempotency key of every refund request.

## Consequences

Retried refunds are safe.
`;

const CONTEXT_ONLY = `# 9. Currency rounding

## Context

Totals in EUR were off by a cent; transaction amounts and the idempotency of refunds were discussed at length.

## Decision

Round half to even, in minor units.
`;

const parse = (file: string, text: string) => parseAdr(file, Buffer.from(text), opts).artifact!;

describe('records as documents (issue 30 item 1, DEC-053)', () => {
  it('cuts a record into its decision, context, consequences and quoted parts', () => {
    const parts = recordParts(LOG_RECORD);
    const kinds = (k: string) => parts.filter((p) => p.kind === k).map((p) => p.text).join('\n');
    expect(kinds('decision')).toContain('We store every webhook payload');
    expect(kinds('context')).toContain('We debugged refunds');
    expect(kinds('consequences')).toContain('grows by a few megabytes');
    expect(kinds('quoted')).toContain('"idempotency_key": "key_7"');
    expect(kinds('quoted')).toContain('INFO refund retried');
    expect(kinds('context')).not.toContain('idempotency_key');
    expect(kinds('status')).toContain('Accepted');
  });

  it("a lead's metadata lines are status, their keys no words: every adr-tools record's `Date:` does not find a short record for a question about dates", () => {
    const parts = recordParts('# 1. Record decisions\n\nDate: 2016-02-12\n* **Deciders:** Ana, Bo\n\n## Decision\n\nWe record decisions. Date: see below.\n');
    expect(parts.filter((p) => p.kind === 'status').map((p) => p.text)).toEqual(['2016-02-12\nAna, Bo']);
    // a line of prose that starts like metadata inside a section is prose
    expect(parts.find((p) => p.kind === 'decision')?.text).toContain('We record decisions. Date: see below.');
    const nygard = (n: number, title: string, decision: string) => `# ${n}. ${title}\n\nDate: 2016-02-1${n}\n\n## Status\n\nAccepted\n\n## Decision\n\n${decision}\n`;
    const records = [
      parse('doc/adr/0001-record-architecture-decisions.md', nygard(1, 'Record architecture decisions', 'We will use Architecture Decision Records.')),
      parse('doc/adr/0002-markdown-format.md', nygard(2, 'Markdown format', 'Records are written in Markdown.')),
      parse(
        'doc/adr/0008-iso-dates.md',
        nygard(8, 'Use ISO 8601 format for dates', 'The tool writes dates as yyyy-mm-dd. Existing deployments format their dates as dd/mm/yyyy, which readers in other countries confuse; dates in old records are upgraded by a command, and new dates are always ISO.'),
      ),
    ];
    const hits = searchKeywords(buildKeywordIndex(records), queryOf('how are dates written in records'));
    expect(hits[0]!.id).toBe('ADR-0008');
  });

  it('reads reStructuredText sections and literal blocks', () => {
    const rst = 'Use Kafka\n=========\n\nContext\n-------\n\nWe need a queue. Example::\n\n    kafka-topics --create payments\n\nDecision\n--------\n\nWe use Kafka for payment events.\n';
    const parts = recordParts(rst, true);
    expect(parts.find((p) => p.kind === 'decision')?.text).toContain('We use Kafka for payment events.');
    expect(parts.find((p) => p.kind === 'quoted')?.text).toContain('kafka-topics --create payments');
  });

  it('a record whose body is a log dump does not outrank the record whose decision says it', () => {
    const records = [parse('doc/adr/0004-record-webhook-payloads.md', LOG_RECORD), parse('doc/adr/0007-idempotent-refunds.md', KEY_RECORD), parse('doc/adr/0009-currency-rounding.md', CONTEXT_ONLY)];
    const index = buildKeywordIndex(records);
    const hits = searchKeywords(index, queryOf('transaction id idempotency key refund'));
    expect(hits[0]!.id).toBe('ADR-0007');
    // the record that only discusses the words in its context ranks under the one that decided them
    const ranks = hits.map((h) => h.id);
    expect(ranks.indexOf('ADR-0007')).toBeLessThan(ranks.indexOf('ADR-0009'));
  });

  it('a prose line that starts with a markdown link is prose, not data: the sentence stays whole', () => {
    // carbon-aware-sdk's 0007: the summary stopped at "The project will strive toward the", and the
    // rest of the decision was weighed as quoted material
    const text = '# 7. Data Source Interfaces\n\n## Decision\n\nThe project will strive toward the\n[interface segregation principle](https://en.wikipedia.org/wiki/Interface_segregation_principle)\nof [SOLID](https://en.wikipedia.org/wiki/SOLID) design by using separate\ninterfaces for unique roles.\n\n## Context\n\nLogs:\n\n[12:00:01] INFO started\n[\n  1, 2\n]\n';
    expect(derivedSummary(text)).toBe('The project will strive toward the interface segregation principle of SOLID design by using separate interfaces for unique roles.');
    const parts = recordParts(text);
    expect(parts.filter((p) => p.kind === 'decision').map((p) => p.text).join('\n')).toContain('[interface segregation principle]');
    // log lines and JSON brackets still read as quoted
    const quoted = parts.filter((p) => p.kind === 'quoted').map((p) => p.text).join('\n');
    expect(quoted).toContain('[12:00:01] INFO started');
    expect(quoted.split('\n')).toContain('[');
  });

  it('derives a deterministic summary from the decision part, else the context, else the lead', () => {
    expect(parse('doc/adr/0007-idempotent-refunds.md', KEY_RECORD).summary).toBe('We picked transaction.id as the idempotency key of every refund request.');
    expect(derivedSummary('# Notes\n\n## Context\n\nWe had no queue.\n')).toBe('We had no queue.');
    // MADR's template justification says nothing, and its "see below" points at options a summary does not carry
    expect(derivedSummary('# Logging\n\n## Decision Outcome\n\nChosen option: "SLF4J with Log4j2 binding", because comes out best (see below).\n')).toBe('Chosen option: "SLF4J with Log4j2 binding".');
    expect(derivedSummary('# DB\n\n## Decision Outcome\n\nChosen option: "MariaDB Connector", because comes out best \\(see below\\).\n')).toBe('Chosen option: "MariaDB Connector".');
    const lead = '> **Warning**\n> no longer used\n\n# `.env` File\n\nAny values in the `.env` file should not be required to run locally.\n\n## Making Changes\n\nAsk first.\n';
    expect(derivedSummary(lead)).toBe('Any values in the .env file should not be required to run locally.');
    // backslash escapes are the characters they escape (a list flattened into "\\* React \\* Webpack"), code spans kept
    expect(derivedSummary('Title\n=====\n\nDecision\n--------\n\nWe’ll use: \\* React \\* Webpack, and keep `a\\_b` as it is.\n', true)).toBe('We’ll use: React Webpack, and keep a\\_b as it is.');
    const long = `# T\n\n## Decision\n\n${'word '.repeat(80)}end\n`;
    const s = derivedSummary(long)!;
    expect(s.length).toBeLessThanOrEqual(240);
    expect(s.endsWith('…')).toBe(true);
    expect(derivedSummary(long)).toBe(s);
  });

  it('a decision that opens with a short bullet label reads the label with the prose under it', () => {
    // carbon-aware-sdk's 0014 opens its decision with "- Decoupling from SDK" and explains it below
    const labelled = '# 14. Plug-in data sources\n\n## Decision\n\n- Decoupling from SDK\n\nEach data source is built on its own, with no dependency on the SDK.\n\n- Smaller builds\n\nOnly the sources in use ship.\n';
    expect(derivedSummary(labelled)).toBe('Decoupling from SDK: Each data source is built on its own, with no dependency on the SDK.');
    // a list of short items, one per paragraph, keeps its first item; a bullet that is a sentence stays one
    expect(derivedSummary('# 2. Tools\n\n## Decision\n\n- Use Postgres\n\n- Use Redis\n')).toBe('Use Postgres');
    expect(derivedSummary('# 3. DB\n\n## Decision\n\n- We use Postgres.\n\nIt is what we run.\n')).toBe('We use Postgres.');
  });

  it('a sentence that hands over to a list ("We decided that:", "Chosen option: X, because") is finished by the first item, not cut before it', () => {
    expect(derivedSummary('# 3. Model\n\n## Decision\n\nWe decided that:\n\n- Orders are kept per tenant and never\n  shared between tenants.\n- Invoices are immutable.\n')).toBe('We decided that: Orders are kept per tenant and never shared between tenants.');
    expect(derivedSummary('# 0. Records\n\n## Decision Outcome\n\nChosen option: "Plain markdown", because\n\n* Everyone can read it.\n* It diffs well.\n')).toBe('Chosen option: "Plain markdown", because Everyone can read it.');
    expect(derivedSummary('# 7. Queue\n\n## Decision\n\nThe rule is simple:\n\nEvery job is retried twice.\n\nA third failure pages the team.\n')).toBe('The rule is simple: Every job is retried twice.');
    // a colon followed by code is left as it was: the code is no sentence to finish it with
    expect(derivedSummary('# 6. Layout\n\n## Decision\n\nWe lay the folders out like:\n\n```\n- repos\n```\n')).toBe('We lay the folders out like:');
  });

  it('a decision that opens with the chosen option\'s number ("(#2) Use …") is summarised without it', () => {
    // cisagov/manage.get.gov's 0029, 0030 and 0031 open their decision with "(#1)" or "(#2)"
    expect(derivedSummary('# 29. DNS hosting\n\n## Decision\n\n(#2) Use separate services inside existing registrar app\n\n## Considered Options\n\n### 1. Internal Django app\n')).toBe('Use separate services inside existing registrar app');
    expect(derivedSummary('# 9. Flags\n\n## Decision\n\n(Option 3a) Feature flags with Waffle.\n')).toBe('Feature flags with Waffle.');
    // a parenthesis that is no option number stays
    expect(derivedSummary('# 4. Cache\n\n## Decision\n\n(For now) we leave caching off.\n')).toBe('(For now) we leave caching off.');
  });

  it('reads MADR sections by what they hold: Decision Drivers are context, Decision Outcome is the decision, the title opens no section', () => {
    // a MADR 2 record whose title holds the word "Decision" and whose metadata is a list under it
    const madr = [
      '# Keep a Decision Log for the billing service',
      '',
      '* Status: accepted',
      '* Date: 2022-05-04',
      '',
      '## Context and Problem Statement',
      '',
      'Invoices changed shape three times last year and nobody remembers why.',
      '',
      '## Decision Drivers',
      '',
      '* auditors ask for the reasons behind invoice rules',
      '* new joiners need the history',
      '',
      '## Considered Options',
      '',
      '* a wiki page',
      '* records in the repository',
      '',
      '## Decision Outcome',
      '',
      'Chosen option: "records in the repository", because they are reviewed with the code.',
      '',
      '### Negative Consequences',
      '',
      '* one more file per change',
      '',
    ].join('\n');
    const parts = recordParts(madr);
    const kinds = (k: string) => parts.filter((p) => p.kind === k).map((p) => p.text).join('\n');
    expect(kinds('decision')).toContain('Chosen option: "records in the repository"');
    expect(kinds('decision')).not.toContain('auditors ask');
    expect(kinds('decision')).not.toContain('Status: accepted');
    expect(kinds('context')).toContain('auditors ask for the reasons');
    expect(kinds('consequences')).toContain('one more file per change');
    expect(kinds('consequences')).not.toContain('Chosen option');
    expect(parse('docs/adr/0003-keep-a-decision-log.md', madr).summary).toBe('Chosen option: "records in the repository", because they are reviewed with the code.');
    // a record with neither decision nor context prose: the metadata list under the title is no summary
    expect(derivedSummary('# Adopt the queue\n\n* Status: proposed\n* Date: 2023-01-01\n\nWe will put payment events on one queue.\n')).toBe('We will put payment events on one queue.');
    // a first heading that names a section is that section
    expect(recordParts('# Decision\n\nWe use one queue.\n').find((p) => p.kind === 'decision')?.text).toContain('We use one queue.');
  });
});
