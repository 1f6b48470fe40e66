import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

/**
 * trials28, canonical/identity-team: the log4brains template's Links section carries an example
 * inside an HTML comment (`<!-- example: Refined by [xxx](yyyymmdd-xxx.md) -->`). A record made
 * by `new decision` from it failed `check` at once: "links.amends_by names
 * decisions/yyyymmdd-xxx.md, which does not exist". A comment is no text of the record: no
 * relation is read from it, on one line or across lines; a link outside the comment still is.
 */
describe('relations inside HTML comments', () => {
  it('reads no relation from a comment; new decision from such a template passes check', () => {
    const repo = makeRepo({
      '.log4brains.yml': 'project:\n  name: Gate\n  tz: UTC\n  adrFolder: ./decisions\n  packages: []\n',
      'decisions/template.md': '# [short title]\n\n- Status: [draft | proposed | accepted] <!-- optional -->\n- Date: [YYYY-MM-DD] <!-- optional -->\n\n## Context\nWhat is the issue?\n\n## Decision\nWhat do we do?\n\n## Links <!-- optional -->\n- [Link type](link to adr) <!-- example: Refined by [xxx](yyyymmdd-xxx.md) -->\n',
      'decisions/20240105-cache-session-tokens.md': '# Cache session tokens\n\n- Status: accepted\n- Date: 2024-01-05\n\n## Context\nToken checks call the identity service on every request.\n\n## Decision\nKeep verified tokens for five minutes.\n',
      'decisions/20240212-shorter-token-cache.md': '# Shorten the token cache\n\n- Status: accepted\n- Date: 2024-02-12\n\n## Context\nRevoked tokens stayed valid too long.\n\n## Decision\nOne minute instead of five.\n\n## Links\n- Refines [Cache session tokens](20240105-cache-session-tokens.md)\n<!--\n  later: Supersedes [old draft](20231201-missing-draft.md)\n-->\n- <!-- Refined by [x](yyyymmdd-x.md) --> see the runbook\n',
    });
    repo.commit('records');
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.stdout).not.toContain('broken-link');
    expect(check.code).toBe(0);
    const show = runCli(['show', 'ADR-20240212-shorter-token-cache'], { cwd: repo.dir });
    // the metadata lines above the body: the Refines link, no relation from the comment
    const head = show.stdout.split('\n\n')[0]!;
    expect(head).toContain('amends (from the text): ADR-20240105-cache-session-tokens');
    expect(head).not.toMatch(/supersedes|amends_by|missing-draft/);
    const made = runCli(['new', 'decision', '--title', 'Rotate signing keys monthly'], { cwd: repo.dir });
    expect(made.code).toBe(0);
    const again = runCli(['check'], { cwd: repo.dir });
    expect(again.stdout + again.stderr).not.toContain('yyyymmdd');
    expect(again.code).toBe(0);
  });
});
