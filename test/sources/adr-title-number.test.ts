import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// A record's title starts with its own number as its author typed it, a wrong one too: the
// eighth record of dasch-swiss/dsp-api is headed "# ADR-0006 Replace …" (copied from the
// sixth). The title read right ("Replace …"), but the number was read as a reference, and
// `show` listed "relates_to (from the text): ADR-0006", a relation no one wrote.
const rec = (heading: string, body: string) => `# ${heading}\n\n## Status\n\nAccepted\n\n## Context\n\n${body}\n\n## Decision\n\nWe do it.\n`;

describe("a title's leading number is the record's own, never a reference", () => {
  it('a wrong number at the head of the title relates to nothing; a record named later in the title still does', () => {
    const repo = makeRepo({
      'docs/adr/ADR-0001-use-a-message-bus.md': rec('ADR-0001 Use a message bus', 'Services call each other directly.'),
      'docs/adr/ADR-0002-use-the-bus-for-billing.md': rec('ADR-0001 Use the bus for billing', 'Billing polls the ledger.'),
      'docs/adr/ADR-0003-retire-polling.md': rec('ADR-0003: Retire polling after ADR-0002', 'Polling is slow.'),
      'docs/adr/ADR-0004-dead-letters.md': rec('\u{1F4C4} ADR-0001 Dead letters', 'Messages fail.'),
    });
    repo.commit('records');
    const list = JSON.parse(runCli(['list', '--json'], { cwd: repo.dir }).stdout) as { artifacts: { id: string; title: string }[] };
    expect(list.artifacts.find((a) => a.id === 'ADR-0002')?.title).toBe('Use the bus for billing');
    const relations = (id: string) => (JSON.parse(runCli(['show', id, '--json'], { cwd: repo.dir }).stdout) as { relationsFromText?: Record<string, string[]> }).relationsFromText ?? {};
    expect(relations('ADR-0002')).toEqual({});
    expect(relations('ADR-0004')).toEqual({});
    expect(relations('ADR-0003')).toEqual({ relates_to: ['ADR-0002'] });
    expect(runCli(['show', 'ADR-0002'], { cwd: repo.dir }).stdout).not.toContain('from the text');
  });
});
