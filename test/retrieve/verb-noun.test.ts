import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

type Answer = { results: { id: string }[] };

// "authenticate" and "Authentication" are one word (DEC-115): a question in the verb found
// nothing beside the record titled with the noun (trials29).
describe('a question in the verb, a record in the noun', () => {
  it('finds the record', () => {
    const repo = makeRepo({
      'docs/adr/0001-cloud-authentication.md': '# Cloud account authentication\n\n## Status\n\nAccepted\n\n## Decision\n\nThe dashboard and its services reach the cloud accounts through short-lived role credentials issued at start-up; no long-lived access keys are stored.\n',
      'docs/adr/0002-estimates-cache.md': '# Keep estimates in a file cache\n\n## Status\n\nAccepted\n\n## Decision\n\nEstimates the dashboard computes are written to a cache file in object storage and read back on the next run.\n',
      'docs/adr/0003-chart-library.md': '# Charts with one plotting library\n\n## Status\n\nAccepted\n\n## Decision\n\nEvery chart in the dashboard is drawn with the same plotting library.\n',
    });
    repo.commit('records');
    const r = runCli(['search', 'how does the dashboard authenticate', '--format', 'json'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Answer).results.map((x) => x.id)[0]).toBe('ADR-0001');
  });
});
