import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

// A team that decides by pull request marks a record "merged" once its pull request is merged
// (trials32: a French MADR folder whose statuses are "merg\u00e9" and "propos\u00e9"). Merged into the
// main branch, the decision is in force: read as accepted, and check has nothing to map.
describe('a status saying the record was merged', () => {
  it('reads as accepted, in English and in French', () => {
    const madr = (title: string, label: string, status: string) => `# ${title}\n\n* ${label} : ${status}\n* Date : 2024-05-02\n\n## Contexte\n\nDeux biblioth\u00e8ques faisaient la m\u00eame chose.\n\n## R\u00e9sultat de la D\u00e9cision\n\nUne seule est gard\u00e9e.\n`;
    const repo = makeRepo({
      'docs/decisions/0001-une-bibliotheque.md': madr('Une biblioth\u00e8que', 'Statut', 'merg\u00e9'),
      'docs/decisions/0002-one-queue.md': madr('One queue', 'Status', 'Merged'),
      'docs/decisions/0003-un-cache.md': madr('Un cache', 'Statut', 'Merg\u00e9e'),
    });
    repo.commit('records');
    const arts = (JSON.parse(runCli(['list', '--json'], { cwd: repo.dir }).stdout) as { artifacts: { id: string; status: string | null }[] }).artifacts;
    expect(Object.fromEntries(arts.map((a) => [a.id, a.status]))).toEqual({ 'ADR-0001': 'accepted', 'ADR-0002': 'accepted', 'ADR-0003': 'accepted' });
    expect(runCli(['check'], { cwd: repo.dir }).stdout).not.toContain('status-unmapped');
  });
});
