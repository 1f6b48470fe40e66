import { describe, expect, it } from 'vitest';
import { mapStatus } from '../../src/artifacts/sources/status.js';
import { defaultConfig } from '../../src/config.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// adr-tools records whose Status section says "Inprogress" (cloudfoundry/bosh-bootloader), the
// words run together as an enum writes them: "in progress" and "in-progress" were proposed,
// this one a status-unmapped warning on a repository that had not written a config.yaml.
describe('a status written run together', () => {
  it('"Inprogress" is proposed, as "in progress" is', () => {
    const config = defaultConfig();
    for (const s of ['Inprogress', 'InProgress', 'in progress', 'In-Progress']) expect(mapStatus(config, 'decision', s), s).toMatchObject({ status: 'proposed', unmapped: false });
  });

  it('check reports nothing on such a record, and list shows it proposed', () => {
    const rec = (n: number, title: string, status: string) => `# ${n}. ${title}\n\nDate: 2023-02-21\n\n## Status\n\n${status}\n\n## Context\n\nThe asset bundler we use is archived.\n\n## Decision\n\nEmbed the assets with the standard library.\n\n## Consequences\n\nOne tool fewer.\n`;
    const repo = makeRepo({ 'doc/adr/0001-embed-assets.md': rec(1, 'Embed assets with the standard library', 'Inprogress') });
    repo.commit('records');
    const check = runCli(['check', '--format', 'json'], { cwd: repo.dir });
    expect((JSON.parse(check.stdout) as { findings: { rule: string }[] }).findings.map((f) => f.rule)).not.toContain('status-unmapped');
    const list = JSON.parse(runCli(['list', '--json'], { cwd: repo.dir }).stdout) as { artifacts: { id: string; status: string }[] };
    expect(list.artifacts.find((a) => a.id === 'ADR-0001')?.status).toBe('proposed');
  });
});
