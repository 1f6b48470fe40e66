import { describe, expect, it } from 'vitest';
import { adrEntry, adrText } from '../helpers/adr.js';
import { makeRepo } from '../helpers/git-repo.js';
import { gitRun, install } from './helpers.js';

/**
 * What reading the records finds is said at commit time for the commit's own records (DEC-133):
 * a record staged with a mistyped status ("Acepted") used to commit with "✓ … 0 other findings"
 * while `git ctx check` warned of it. It is said, and does not block (a warning).
 */
describe('pre-commit hook: the records\' own warnings (DEC-133)', () => {
  const records = () =>
    makeRepo(
      Object.fromEntries([
        ['.contextia/config.yaml', 'sources:\n  - dir: doc/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n'],
        adrEntry('doc/adr', 1, 'record-architecture-decisions', 'Record architecture decisions', 'We need to record decisions.', 'We will use ADRs.', 'Decisions are written down.'),
        adrEntry('doc/adr', 2, 'use-postgres', 'Use PostgreSQL', 'Orders need a store.', 'Orders are kept in PostgreSQL.', 'One database to run.'),
      ]),
    );

  it('names a mistyped status of a staged record under "In this commit" and lets the commit through', () => {
    const repo = records();
    repo.commit('records');
    install(repo);
    repo.write({ 'doc/adr/0003-queue-emails.md': adrText(3, 'Queue outgoing emails', 'Sending mail inline slowed requests.', 'Emails go through a job queue.', 'A worker runs beside the web server.').replace('Accepted', 'Acepted') });
    repo.git('add', 'doc/adr/0003-queue-emails.md');
    const r = gitRun(repo, ['commit', '-m', 'queue emails']);
    expect(r.code).toBe(0);
    expect(r.output).toContain('In this commit:');
    expect(r.output).toMatch(/doc\/adr\/0003-queue-emails\.md:\d+ +warning +.*"Acepted".*status-unmapped/);
    expect(r.output).toContain('(blocking rules and record warnings): 0 errors, 1 other finding');
    expect(r.output).toContain('commit allowed');
    expect(repo.git('log', '--format=%s', '-1')).toBe('queue emails');
  });

  it('leaves a record of an earlier commit to the count, not the commit\'s list, and blocks on it only when configured as an error', () => {
    const repo = records();
    repo.write({ 'doc/adr/0003-queue-emails.md': adrText(3, 'Queue outgoing emails', 'Sending mail inline slowed requests.', 'Emails go through a job queue.', 'A worker runs beside the web server.').replace('Accepted', 'Acepted') });
    repo.commit('records, one with a typo');
    install(repo);
    repo.write({ 'README.md': '# orders\n' });
    repo.git('add', 'README.md');
    const r = gitRun(repo, ['commit', '-m', 'readme']);
    expect(r.code).toBe(0);
    expect(r.output).not.toContain('In this commit:');
    expect(r.output).toMatch(/1 finding below error in other files/);

    repo.write({ '.contextia/config.yaml': 'sources:\n  - dir: doc/adr\n    format: adr\n    prefix: ADR-\n    type: decision\nrules:\n  status-unmapped: error\n' });
    repo.git('add', '.contextia/config.yaml');
    const blocked = gitRun(repo, ['commit', '-m', 'stricter']);
    expect(blocked.code).not.toBe(0);
    expect(blocked.output).toMatch(/status-unmapped/);
    expect(blocked.output).toContain('commit blocked');
  });
});
