import { describe, expect, it } from 'vitest';
import { decisionSection } from '../../src/authoring/similar.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// reStructuredText records (openedx's docs/decisions shape): the title over `===`, sections
// over `---`. The near-duplicate rule compares records by their Decision part; read as ATX
// headings only, an .rst record had none, and its first 1,500 characters (title, status and a
// context full of the project's own words) stood for it: two records of one domain, one about
// overriding receipt e-mails and one about moving ticketing into its own service, were
// reported as the same decision (0.83 on openedx/edx-proctoring's records).
const DIR = 'docs/decisions';
const rst = (title: string, context: string, decision: string, consequences: string) =>
  `${title}\n${'='.repeat(title.length)}\n\nStatus\n------\n\nAccepted\n\nContext\n-------\n\n${context}\n\nDecision\n--------\n\n${decision}\n\nConsequences\n------------\n\n${consequences}\n`;
const DOMAIN =
  'The ticketing subsystem sells seats for events on behalf of venues. Each venue chooses a payment provider, and the ticketing subsystem talks to that payment provider through a small plugin. A buyer receives e-mails from the ticketing subsystem about their order, their seats and their payment. Venues, buyers and payment providers all depend on the ticketing subsystem behaving the same way for every event.';
const FILES = {
  [`${DIR}/0001-record-architecture-decisions.rst`]: rst('Record Architecture Decisions', 'We want to remember why the ticketing subsystem is built the way it is.', 'We keep short decision records in this folder, one file per decision.', 'Reviewers can read why a part was built so.'),
  [`${DIR}/0002-receipt-email-overrides.rst`]: rst(
    'Receipt E-mail Overrides',
    `${DOMAIN} Some payment providers need their own wording or a support address in the receipt.`,
    '- The host application overrides a receipt block through template inheritance, in a folder named after the payment provider.\n- Provider plugins never ship e-mail text of their own.',
    '- Wording per payment provider lives in the host application.',
  ),
  [`${DIR}/0003-ticketing-as-a-service.rst`]: rst(
    'Ticketing as an Independently Deployed Service',
    `${DOMAIN} Releasing the ticketing subsystem takes a version bump, a tag and a host release, half a day for the smallest change.`,
    '- A new repository and deployable service owns seat holds, orders and the payment provider integrations.\n- The host application sends event configuration to its REST API on publish and never imports its code.',
    '- Two implementations run side by side until every venue has moved.',
  ),
};

describe('decision-near-duplicate on reStructuredText records', () => {
  it('compares their Decision sections: two decisions of one domain are not one decision', () => {
    const repo = makeRepo(FILES);
    repo.commit('records');
    const r = runCli(['check', '--format', 'json'], { cwd: repo.dir });
    const found = (JSON.parse(r.stdout) as { findings: { rule: string; id: string }[] }).findings.filter((f) => f.rule === 'decision-near-duplicate');
    expect(found).toEqual([]);
  });

  it('reads the Decision part under a setext or rst heading, not the record from its start', () => {
    const body = FILES[`${DIR}/0002-receipt-email-overrides.rst`]!;
    const part = decisionSection(body);
    expect(part).toMatch(/^- The host application overrides a receipt block/);
    expect(part).not.toContain('Consequences');
    expect(part).not.toContain('Receipt E-mail Overrides');
    const md = '# Use Redis\n\nContext\n-------\n\nSlow pages.\n\nDecision\n========\n\nCache pages in Redis.\n\nConsequences\n------------\n\nOne more service.\n';
    expect(decisionSection(md).trim()).toBe('Cache pages in Redis.');
    // an ATX record and one without a Decision heading read as before
    expect(decisionSection('# T\n\n## Decision\n\nUse X.\n\n## Consequences\n\nY.\n').trim()).toBe('Use X.');
    expect(decisionSection('# T\n\nJust prose.')).toBe('# T\n\nJust prose.');
  });
});
