import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

/**
 * trials26, oasisprotocol/oasis-core: the template's Changelog section is one line git-ctx fills
 * (`- {date}: {changelog}` → "- 2026-11-29: Initial draft"), yet `new` listed Changelog among
 * the sections still to write. Only sections that keep the template's own text are listed.
 */
describe('a template section whose placeholders are all filled', () => {
  it('is not listed as still to write', () => {
    const template = '# ADR {ADR-NUMBER}: {TITLE}\n\n## Changelog\n\n- {date}: {changelog}\n\n## Status\n\n{Proposed|Accepted}\n\n## Context\n\n> What the reader needs to know first.\n\n## Decision\n\n> What we do.\n';
    const record = (n: number, t: string) => `# ADR 000${n}: ${t}\n\n## Changelog\n\n- 2021-0${n}-10: Initial version\n\n## Status\n\nAccepted\n\n## Context\n\nWhy ${t}.\n\n## Decision\n\n${t}.\n`;
    const repo = makeRepo({ 'docs/adr/template.md': template, 'docs/adr/0001-root-hashes.md': record(1, 'Root hashes'), 'docs/adr/0002-release-tags.md': record(2, 'Release tags') });
    repo.commit('records');
    const r = runCli(['new', 'decision', '--title', 'Batch verification', '--dry-run', '--json'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { text: string; guidance?: string[] };
    expect(out.text).toMatch(/## Changelog\n\n- \d{4}-\d\d-\d\d: Initial draft\n/);
    expect(out.guidance).toEqual(['Context', 'Decision']);
  });
});
