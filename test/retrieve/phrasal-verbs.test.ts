import { describe, expect, it } from 'vitest';
import { joinPhrasal } from '../../src/retrieve/phrasal.js';
import { terms } from '../../src/retrieve/text.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

type Answer = { results: { id: string }[]; weak?: { id: string }[] };

// "log in" is login, not logging (DEC-126): read word by word, a question about signing in
// found the record adopting a tool for the decision log (trials28).
describe('a verb and its particle written apart', () => {
  it('read as the compound noun, in prose and in code names, in any of the verb\'s forms', () => {
    expect(terms('how do users log in')).toEqual(['user', 'login']);
    expect(terms('after the user logged out')).toEqual(['after', 'user', 'logout']);
    expect(terms('logIn(user)')).toEqual(['login', 'user']);
    expect(terms('the request times out')).toEqual(['request', 'timeout']);
    expect(terms('we roll back the release')).toEqual(['rollback', 'releas']);
    expect(terms('checked out the branch')).toEqual(['checkout', 'branch']);
    expect(terms('setUp()')).toEqual(['setup']);
    // the verb without its particle, or another particle, stays the verb
    expect(terms('we log every request')).toEqual(['log', 'every', 'request']);
    expect(terms('set the limit')).toEqual(['set', 'limit']);
    expect(terms('logs in the database')).toEqual(['login', 'databas']);
  });

  it('keeps the two words where a word table has no compound', () => {
    expect(joinPhrasal(['log', 'in'], (w) => w !== 'login')).toEqual(['log', 'in']);
    expect(joinPhrasal(['log', 'in'], () => true)).toEqual(['login']);
    expect(joinPhrasal(['log'])).toEqual(['log']);
  });

  it('a question about logging in finds the sign-in record, not the decision log', () => {
    const repo = makeRepo({
      'docs/adr/0001-keep-a-decision-log.md': '# Keep a decision log with a static site\n\n## Status\n\nAccepted\n\n## Decision\n\nWe keep every decision in a decision log published as a static site, so the log can be read and searched by everyone.\n',
      'docs/adr/0002-single-sign-on.md': '# Single sign-on through the company identity provider\n\n## Status\n\nAccepted\n\n## Decision\n\nThe login page sends users to the identity provider; after login the session cookie lasts eight hours, and logout ends it everywhere.\n',
      'docs/adr/0003-billing-currency.md': '# Invoice in the customer currency\n\n## Status\n\nAccepted\n\n## Decision\n\nInvoices are issued in the currency the customer pays in.\n',
    });
    repo.commit('records');
    const r = runCli(['search', 'how do users log in', '--format', 'json'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const a = JSON.parse(r.stdout) as Answer;
    expect(a.results.map((x) => x.id)[0]).toBe('ADR-0002');
    expect(a.results.map((x) => x.id)).not.toContain('ADR-0001');
  });
});
