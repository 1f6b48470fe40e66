import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { badgeMessage, imageText } from '../../src/artifacts/sources/status.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

const rec = (title: string, status: string, body: string) => `# ${title}\n\n## Status\n\n${status}\n\n## Context\n\n${body}\n\n## Decision\n\nWe do it.\n`;

// uktrade/trade-remedies-api states every status as a badge linked to its README
// ("[![Generic badge](https://badgen.net/badge/ADR/approved/green/)](…)"): the status was read
// as "![Generic badge](…README.md)", unmapped, on every record.
describe('a status shown as a badge', () => {
  it('reads the message of badgen and shields.io addresses, else the alt text', () => {
    expect(badgeMessage('https://badgen.net/badge/ADR/approved/green/')).toBe('approved');
    expect(badgeMessage('https://img.shields.io/badge/status-superseded_by_0007-lightgrey')).toBe('superseded by 0007');
    expect(badgeMessage('https://img.shields.io/badge/in--review-yellow.svg')).toBe('in-review');
    expect(badgeMessage('https://img.shields.io/static/v1?label=status&message=proposed&color=orange')).toBe('proposed');
    expect(badgeMessage('https://example.org/diagram.png')).toBeUndefined();
    expect(imageText('[![Some badge](https://badgen.net/badge/decision/rejected/red)](../README.md)')).toBe('rejected');
    expect(imageText('![Accepted](images/tick.png)')).toBe('Accepted');
  });

  it('gives each record its status, check has nothing to say, and deprecate rewrites the badge', () => {
    const repo = makeRepo({
      'docs/adr/adr-001-queue.md': rec('ADR-001: Queue for outgoing letters', '[![Generic badge](https://badgen.net/badge/ADR/approved/green/)](https://example.org/adr/README.md)', 'Letters are printed by a partner overnight.'),
      'docs/adr/adr-002-cache.md': rec('ADR-002: Page cache', '![status](https://img.shields.io/badge/status-proposed-orange)', 'Search pages are slow at month end.'),
      'docs/adr/adr-003-fonts.md': rec('ADR-003: Bundled fonts', '[![Generic badge](https://badgen.net/badge/ADR/deprecated/black/)](https://example.org/adr/README.md)', 'Fonts came from a third-party host.'),
    });
    repo.commit('records');
    const list = runCli(['list', '--json'], { cwd: repo.dir });
    const status = Object.fromEntries((JSON.parse(list.stdout) as { artifacts: { id: string; status: string }[] }).artifacts.map((a) => [a.id, a.status]));
    expect(status).toEqual({ 'ADR-001': 'accepted', 'ADR-002': 'proposed', 'ADR-003': 'deprecated' });
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.stdout).not.toContain('status-unmapped');
    const dep = runCli(['deprecate', 'ADR-001'], { cwd: repo.dir });
    expect(dep.code, dep.stderr).toBe(0);
    expect(readFileSync(path.join(repo.dir, 'docs/adr/adr-001-queue.md'), 'utf8')).toContain('## Status\n\n[![Generic badge](https://badgen.net/badge/ADR/deprecated/lightgrey/)](https://example.org/adr/README.md)\n');
  });
});
