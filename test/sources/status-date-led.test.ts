import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

const rec = (title: string, head: string, body: string) => `# ${title}\n\n${head}\n\n## Context\n\n${body}\n`;

// guardian/dotcom-rendering's third-party reviews carry "- Current status 01/03/2021: Removed from
// AMP following proof of concept, next steps TBD)"; in a Status section the line was the status,
// and "Current …" mapped to accepted. A date-led line states a status only when a status word follows.
describe('a date-led status line', () => {
  it('states no status when a note follows the date, the status word when one does; check and supersede agree', async () => {
    const repo = makeRepo({
      '.contextia/config.yaml': 'sources:\n  - dir: doc/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
      'doc/adr/001-modi.md': rec('MoDI Proof of Concept', '## Metadata\n\n- Date: 17/08/2020\n- Author: Mariot Chauvin\n- Current status 01/03/2021: Removed from AMP following proof of concept, next steps TBD)', 'Analytics tracker for one section of the site.'),
      'doc/adr/002-tagging.md': rec('Ipsos tagging', '## Status\n\nCurrent status 01/03/2021: Removed from AMP following proof of concept, next steps TBD)', 'Audience measurement tag on article pages.'),
      'doc/adr/003-dated.md': rec('Dated acceptance', '## Status\n\n01/03/2021: Accepted', 'Server-side rendering of the navigation.'),
      'doc/adr/004-label.md': rec('Dated label', '- Status 01/03/2021: Proposed', 'Image resizing through the CDN.'),
      'doc/adr/005-iso.md': rec('Replaced later', '## Status\n\n2021-03-01 Superseded by [ADR-003](003-dated.md)', 'Client-side rendering of the navigation.'),
      'doc/adr/006-plain.md': rec('Plain status', '## Status\n\nAccepted 2020-01-02', 'Fonts are self-hosted.'),
    });
    repo.commit('records');
    const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
    try {
      const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
      const status = Object.fromEntries(set.artifacts.map((a) => [a.id, a.status ?? null]));
      expect(status).toEqual({ 'ADR-001': null, 'ADR-002': null, 'ADR-003': 'accepted', 'ADR-004': 'proposed', 'ADR-005': 'superseded', 'ADR-006': 'accepted' });
    } finally {
      snapshot.close();
    }
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.stdout).not.toContain('status-unmapped');
    expect(check.stdout).not.toContain('superseded-still-active');
    const list = runCli(['list', '--json'], { cwd: repo.dir });
    expect((JSON.parse(list.stdout) as { artifacts: { id: string; status: string | null }[] }).artifacts.find((a) => a.id === 'ADR-002')!.status).toBeNull();
    // the status read after a date is the word a status change rewrites, the date kept
    const dep = runCli(['deprecate', 'ADR-003'], { cwd: repo.dir });
    expect(dep.code, dep.stderr).toBe(0);
    expect(readFileSync(path.join(repo.dir, 'doc/adr/003-dated.md'), 'utf8')).toContain('## Status\n\n01/03/2021: Deprecated\n');
  });
});
