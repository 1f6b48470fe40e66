import { describe, expect, it } from 'vitest';
import { joinedTerms } from '../../src/retrieve/text.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

type Answer = { results: { id: string; why: { text: string }[] }[] };
const answer = (stdout: string) => JSON.parse(stdout) as Answer;

// DEC-114: a compound people type as one word ("frontend", "email", "oncall") is written in
// records apart ("Front End Technologies") or with a hyphen ("front-end", "e-mail", "on-call").
// Before, "which frontend framework do we use" never met the record titled "Front End Technologies".
describe('compounds written apart or hyphenated are found by the word run together', () => {
  it('joins a hyphenated compound anywhere, and a title’s neighbouring words, never across punctuation', () => {
    expect(joinedTerms('the front-end, e-mail and on-call rota')).toEqual(['frontend', 'email', 'oncall']);
    // three parts at most, letters only: a version range or a flag is no compound
    expect(joinedTerms('x-y-z-w v1-2 --dry-run')).toEqual([]);
    // neighbouring words are joined only for a title (pairs), within one clause
    expect(joinedTerms('Front End Technologies')).toEqual([]);
    expect(joinedTerms('Front End Technologies', { pairs: true })).toEqual(['frontend', 'endtechnology']);
    expect(joinedTerms('Use (Front End) tools, now', { pairs: true })).toEqual(['frontend']);
    // a hyphenated compound in a title is joined once, not again as a pair
    expect(joinedTerms('Back-end services', { pairs: true })).toEqual(['backend']);
  });

  it('search finds the record titled with the words apart, and the one writing the compound with a hyphen', () => {
    const repo = makeRepo({
      '.contextia/config.yaml': 'sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
      'docs/adr/0001-record-decisions.md': '# 1. Record decisions\n\n## Status\n\nAccepted\n\n## Decision\n\nWe keep decision records in docs/adr, one file per decision.\n',
      'docs/adr/0002-front-end-technologies.md': '# 2. Front End Technologies\n\n## Status\n\nAccepted\n\n## Decision\n\nWe use React, Webpack and Sass for the pages learners see.\n',
      'docs/adr/0003-mail-delivery.md': '# 3. Mail delivery\n\n## Status\n\nAccepted\n\n## Decision\n\nEvery e-mail to a learner goes through the provider’s queue, retried for a day.\n',
      'docs/adr/0004-learner-records.md': '# 4. Learner records\n\n## Status\n\nAccepted\n\n## Decision\n\nLearner records are computed when asked for and kept for an hour.\n',
    });
    repo.commit('records');
    const frontend = runCli(['search', 'which frontend framework do we use', '--format', 'json'], { cwd: repo.dir });
    expect(frontend.code, frontend.stderr).toBe(0);
    expect(answer(frontend.stdout).results[0]?.id).toBe('ADR-0002');
    const email = runCli(['search', 'email retries', '--format', 'json'], { cwd: repo.dir });
    expect(answer(email.stdout).results[0]?.id).toBe('ADR-0003');
    // the explanation names the word as the question wrote it
    expect(answer(email.stdout).results[0]?.why.map((w) => w.text).join(' ')).toMatch(/email/);
  });
});
