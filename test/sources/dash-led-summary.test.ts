import { describe, expect, it } from 'vitest';
import { derivedSummary } from '../../src/artifacts/sources/parts.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

// trials29, cloud-carbon-footprint: two records write each section as one dash-led line
// ("— Adding feature to …"); the summaries shown by for and search began with the dash.
describe('a summary derived from a dash-led section', () => {
  it('leaves out the leading dash, keeps a dash inside the sentence', () => {
    const repo = makeRepo({
      '.adr-dir': '.adr\n',
      '.adr/0004-report-export.md': '# 4. Report export\n\nDate: 2021-04-02\n\n## Status\n\nAccepted\n\n## Decision \n\n— Adding an endpoint that exports the monthly report as CSV\n\n## Context \n\n— finance copies the table by hand\n',
      '.adr/0005-keep-raw-readings.md': '# 5. Keep raw readings\n\nDate: 2021-05-10\n\n## Status\n\nAccepted\n\n## Decision\n\nKeep the raw meter readings — not only the daily totals — for a year.\n',
    });
    repo.commit('records');
    const list = runCli(['list', '--json'], { cwd: repo.dir });
    expect(list.code, list.stderr).toBe(0);
    const summaries = Object.fromEntries((JSON.parse(list.stdout) as { artifacts: { id: string; summary?: string }[] }).artifacts.map((a) => [a.id, a.summary]));
    expect(summaries['ADR-0004']).toBe('Adding an endpoint that exports the monthly report as CSV');
    expect(summaries['ADR-0005']).toBe('Keep the raw meter readings — not only the daily totals — for a year.');
  });

  it('an en dash bullet too', () => {
    expect(derivedSummary('# 1. X\n\n## Decision\n\n– Nightly backups to a second region\n')).toBe('Nightly backups to a second region');
  });
});
