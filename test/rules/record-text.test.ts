import { describe, expect, it } from 'vitest';
import { parseAdr } from '../../src/artifacts/sources/adr.js';
import { expandBraces } from '../../src/rules/export.js';
import { isMetaRecord, recordIndex, relinkText, rstToMarkdown, ruleText, summaryRepeats } from '../../src/rules/text.js';

const adr = (file: string, text: string) => parseAdr(file, Buffer.from(text), { prefix: 'ADR-', type: 'decision' }).artifact!;

describe('what a record decides (ruleText)', () => {
  it('rewrites links per folder, but not inside code blocks', () => {
    const a = adr('docs/adr/0003-x.md', '# 3. X\n\n## Decision\n\nSee [the guide](../guide.md#top).\n\n```md\n[kept](../guide.md)\n```\n');
    const { text } = ruleText(a, recordIndex([a]));
    expect(relinkText(text, '.')).toContain('[the guide](docs/guide.md#top)');
    expect(relinkText(text, '.kiro/steering')).toContain('[the guide](../../docs/guide.md#top)');
    expect(relinkText(text, '.')).toContain('```md\n[kept](../guide.md)\n```');
  });

  it('takes a decision section that opens the body, numbered headings, and MADR without its consequences', () => {
    const a = adr('adr/0004-y.md', '## 2. Decision:\n\nUse Y.\n\n## 3. Consequences\n\nMore Y.\n');
    expect(ruleText(a, recordIndex([a])).text).toBe('Use Y.');
    const b = adr('adr/0005-z.md', '# Z\n\n## Decision Outcome\n\nChosen option: "Z".\n\n### Confirmation\n\nReview.\n\n### Rollout\n\nIn May.\n');
    expect(ruleText(b, recordIndex([b])).text).toBe('Chosen option: "Z".\n\n**Rollout**\n\nIn May.');
  });

  it("leaves out MADR's template justification, whose 'see below' points at nothing in a rule file", () => {
    const a = adr('docs/decisions/0007-logging.md', '# Logging\n\n## Decision Outcome\n\nChosen option: "SLF4J with Log4j2 binding", because comes out best (see below).\n');
    expect(ruleText(a, recordIndex([a])).text).toBe('Chosen option: "SLF4J with Log4j2 binding".');
    const b = adr('docs/decisions/0008-db.md', '# Database\n\n## Decision Outcome\n\nChosen option: "Use MariaDB Connector", because comes out best \\(see below\\).\n');
    expect(ruleText(b, recordIndex([b])).text).toBe('Chosen option: "Use MariaDB Connector".');
    const c = adr('docs/decisions/0009-ui.md', '# UI\n\n## Decision Outcome\n\nChosen option: "JavaFX", because it is the only toolkit we know.\n');
    expect(ruleText(c, recordIndex([c])).text).toBe('Chosen option: "JavaFX", because it is the only toolkit we know.');
  });

  it('renders reStructuredText directives, roles and literal blocks as markdown', () => {
    const md = rstToMarkdown('Title\n=====\n\n.. code-block:: sql\n\n   SELECT 1;\n\nUse :doc:`the guide <guide>` and ``x``.\n\n.. _target: https://example.com\n\n#. first\n');
    expect(md).toContain('# Title');
    expect(md).toContain('```sql\nSELECT 1;\n```');
    expect(md).toContain('Use `the guide` and `x`.');
    expect(md).not.toContain('.. _target');
    expect(md).toContain('1. first');
  });

  it('knows the meta-records and repeated summaries', () => {
    for (const title of ['Record architecture decisions', '1. Record Architecture Decisions', 'Use Markdown Architectural Decision Records', 'Use MADR 4.0', 'Document architecture decisions in this repository', 'Use Log4brains to manage the ADRs', 'Use adr-tools for architecture decisions', 'Use pyadr to write decision records'])
      expect(isMetaRecord(adr('adr/0001-a.md', `# ${title}\n\nx\n`), 'x'), title).toBe(true);
    for (const title of ['Record audit events', 'Use PostgreSQL', 'Decision records for pricing rules', 'Use Kafka to manage events', 'Use Postgres for decision records of the pricing engine', 'Use a rules engine for pricing decisions'])
      expect(isMetaRecord(adr('adr/0002-a.md', `# ${title}\n\nx\n`), 'x'), title).toBe(false);
    expect(isMetaRecord(adr('adr/0003-a.md', '# Our process\n\nx\n'), 'We will use Architecture Decision Records, as described by Michael Nygard.')).toBe(true);
    expect(summaryRepeats('Use **Y** for all.', 'We decided: use Y for all. More.')).toBe(true);
    expect(summaryRepeats('Use Y for all…', 'Use Y for all services.')).toBe(true);
    expect(summaryRepeats('Use Z.', 'Use Y.')).toBe(false);
  });

  it('spells out brace globs, nested ones too', () => {
    expect(expandBraces('src/*.{ts,tsx}')).toEqual(['src/*.ts', 'src/*.tsx']);
    expect(expandBraces('{a,b}/{c,d}.js')).toEqual(['a/c.js', 'a/d.js', 'b/c.js', 'b/d.js']);
    expect(expandBraces('x/{only}.js')).toEqual(['x/{only}.js']);
    expect(expandBraces('src/**')).toEqual(['src/**']);
  });
});
