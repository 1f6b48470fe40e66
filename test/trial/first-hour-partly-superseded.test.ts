import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

/**
 * A new user's first hour on alphagov/govuk-aws's shape (`.adr-dir` naming docs/architecture/decisions):
 * ADR 3 "Partly superseded", its IP ranges "superseded by [ADR #0033]", and ADR 33 "in part supersedes
 * [0003]". The older record still stands for the rest: an amendment, not a supersession that check
 * asks to write as "superseded".
 */
function fixture() {
  const repo = makeRepo({
    '.adr-dir': 'docs/architecture/decisions\n',
    'docs/architecture/decisions/0003-aws-networking-outline.md':
      '# 3. Networking Outline\n \nDate: 2017-06-30\n \n## Status\n \nPartly superseded\n \n## Context\n \nAs part of the migration to AWS we need to define our IP addressing strategy.\n\n## Decision\n\n**These IP ranges have been superseded by [ADR #0033](0033-ip-ranges.md).**\n\nEach environment has its own VPC with three availability zones.\n',
    'docs/architecture/decisions/0004-dns-definitions.md': '# 4. DNS definitions for hosts and services\n\nDate: 2017-07-14\n\n## Status\n\nSuperseded by [DNS Infrastructure](0015-dns-infrastructure.md)\n\n## Context\n\nHosts need names.\n',
    'docs/architecture/decisions/0015-dns-infrastructure.md': '# 15. DNS infrastructure\n\nDate: 2018-03-06\n\n## Status\n\nAccepted\n\n## Context\n\nRoute 53 zones per environment.\n',
    'docs/architecture/decisions/0033-ip-ranges.md':
      '# 33. IP ranges\n \nDate: 2018-09-26\n \n## Status\n \nPending\n \n## Context\n\nThis ADR in part supersedes [0003](0003-aws-networking-outline.md).\n\n## Decision\n\nStaging and production take new ranges.\n',
  });
  repo.commit('records');
  return repo;
}

describe('first hour on a record superseded in part, without init', () => {
  it('reads "Partly superseded" as standing and "in part supersedes" as amends, both ways; a whole supersession stays one', () => {
    const repo = fixture();
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.code).toBe(0);
    expect(check.stdout).not.toContain('status-unmapped');
    expect(check.stdout).not.toContain('superseded-still-active');
    const three = runCli(['show', '3'], { cwd: repo.dir });
    expect(three.stdout).toContain('status: accepted (written "Partly superseded")');
    expect(three.stdout).toContain('amended_by (computed): ADR-0033');
    expect(three.stdout).not.toContain('superseded_by');
    const thirtyThree = runCli(['show', '33'], { cwd: repo.dir });
    expect(thirtyThree.stdout).toContain('amends (from the text): ADR-0003');
    expect(thirtyThree.stdout).not.toMatch(/^supersedes/m);
    const four = runCli(['show', '4'], { cwd: repo.dir });
    expect(four.stdout).toContain('superseded_by (computed): ADR-0015');
  });
});
