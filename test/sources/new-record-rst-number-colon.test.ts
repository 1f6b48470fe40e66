import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const rst = (head: string, label = '') => `${label}${head}\n${'#'.repeat(head.length)}\n\nStatus\n******\n\n**Accepted**\n\nContext\n*******\n\nWhy it matters.\n\nDecision\n********\n\nWhat we do.\n\nConsequences\n************\n\nWhat follows.\n`;

/**
 * trials30 (openedx/openedx-events' shape): rst records titled "17. Title", the newest
 * "0018: Title" (its number padded like the file name, then a colon); a new record's title had
 * no number. It is led by its number as the newest writes it, and reads back without it.
 */
describe('new decision after an rst record titled "0018: Title"', () => {
  it('leads the new title with its padded number and a colon', () => {
    const repo = makeRepo({
      'docs/decisions/0017-retry-delivery.rst': rst('17. Retry delivery'),
      'docs/decisions/0018-subdomain-modules.rst': rst('0018: Subdomain modules', '.. _ADR-18:\n\n'),
    });
    repo.commit('records');
    const r = runCli(['new', 'decision', '--title', 'Publish schemas with the package'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(path.join(repo.dir, 'docs/decisions/0019-publish-schemas-with-the-package.rst'), 'utf8');
    expect(text.split('\n')[0]).toBe('0019: Publish schemas with the package');
    repo.commit('new record');
    const list = runCli(['list'], { cwd: repo.dir });
    expect(list.stdout).toMatch(/ADR-0019\s+decision\s+proposed\s+Publish schemas with the package/);
    expect(list.stdout).toMatch(/ADR-0018\s+decision\s+accepted\s+Subdomain modules/);
  });
});
