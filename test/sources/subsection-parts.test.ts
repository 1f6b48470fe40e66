import { describe, expect, it } from 'vitest';
import { derivedSummary, recordParts, sectionKind } from '../../src/artifacts/sources/parts.js';

// cosmos/ibc-go's records split their Decision into subsections named by what they decide:
// "### State entry denom -> amount" read as the record's status, "### Panic if amount is
// negative" as its consequences, so the summary came from the third subsection.
const RECORD = `# ADR 012: Per-asset reserve counter

## Status

Accepted

## Context

Operators cannot tell how much of each asset sits in the bridge reserve without replaying every transfer.

## Decision

### State key asset -> reserved amount

The reserved amount of each asset is kept in one state entry keyed by the asset name.

### Halt if the amount becomes negative

A negative reserve means a bookkeeping bug, so the handler stops the chain rather than write it.

### Positive Consequences

- Operators read the reserve with one query.

## Consequences

### Negative

- One more write per transfer.
`;

describe('subsections of a decision', () => {
  it('stay in the decision unless a short title names another part', () => {
    const kinds = recordParts(RECORD).filter((p) => p.kind !== 'heading').map((p) => [p.kind, p.text.trim().split('\n')[0]]);
    expect(kinds).toContainEqual(['decision', 'The reserved amount of each asset is kept in one state entry keyed by the asset name.']);
    expect(kinds).toContainEqual(['decision', 'A negative reserve means a bookkeeping bug, so the handler stops the chain rather than write it.']);
    expect(kinds).toContainEqual(['consequences', '- Operators read the reserve with one query.']);
    expect(derivedSummary(RECORD)).toBe('The reserved amount of each asset is kept in one state entry keyed by the asset name.');
  });

  it('name the status only in a title of one or two words', () => {
    expect(sectionKind('Status')).toBe('status');
    expect(sectionKind('Technical Story')).toBe('status');
    expect(sectionKind('State')).toBe('status');
    expect(sectionKind('State entry denom -> amount')).toBeUndefined();
  });
});
