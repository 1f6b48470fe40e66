import { describe, expect, it } from 'vitest';
import { derivedSummary } from '../../src/artifacts/sources/parts.js';

/**
 * trials27, DependencyTrack/hyades: a Decision that only names an option of its Context by
 * letter ("We will follow option *D*.") was the whole summary, shown by for, search and the
 * hook. The option's heading names it.
 */
describe('a decision naming an option by its letter', () => {
  const record = (decision: string) =>
    `| Status | Date |\n|:--|:--|\n| Accepted | 2025-01-16 |\n\n## Context\n\nJobs pile up.\n\n### Possible solutions\n\n#### A: Adopt a scheduler library\n\nHeavy.\n\n#### B: Build our own queue\n\nSmall.\n\n## Decision\n\n${decision}\n\n## Consequences\n\nWe own it.\n`;

  it('says the option\'s name with its letter', () => {
    expect(derivedSummary(record('We will follow option *B*.'))).toBe('We will follow option B (Build our own queue).');
    expect(derivedSummary('# 3. Storage\n\n## Considered Options\n\n### Option 2. Keep files in Postgres\n\nOne store.\n\n## Decision\n\nChosen: option 2\n')).toBe('Chosen: option 2 (Keep files in Postgres).');
  });

  it('leaves a decision that says more, or names no heading, as written', () => {
    expect(derivedSummary(record('We will follow option B, because a library brings a second database we would have to run and upgrade ourselves.'))).toBe('We will follow option B, because a library brings a second database we would have to run and upgrade ourselves.');
    expect(derivedSummary(record('We will follow option C.'))).toBe('We will follow option C.');
  });
});

/**
 * trials27, DependencyTrack/hyades: records write reference links (`[transactional outbox]`,
 * defined at the bottom); the summary kept the brackets ("a classic [transactional outbox]
 * design"). A reference the record defines reads as its text; brackets nothing defines stay.
 */
describe('a decision with reference links', () => {
  it('reads a defined reference as its text', () => {
    const text = '# 11. Outbox\n\n## Decision\n\nWe will use a [transactional outbox] checked by [CEL][cel-spec] rules, not [WIP] ones.\n\n## Consequences\n\nOne more table.\n\n[transactional outbox]: https://example.invalid/outbox\n[cel-spec]: https://example.invalid/cel\n';
    expect(derivedSummary(text)).toBe('We will use a transactional outbox checked by CEL rules, not [WIP] ones.');
  });
});
