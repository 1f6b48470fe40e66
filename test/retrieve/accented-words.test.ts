import { describe, expect, it } from 'vitest';
import { splitWords, surfaceForms, terms } from '../../src/retrieve/text.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

const rec = (n: number, title: string, decision: string) => `# ${n}. ${title}\n\n## Statut\n\nAccept\u00e9\n\n## Contexte\n\n${decision}\n\n## D\u00e9cision\n\n${decision}\n`;

// MTES-MCT/dialog's records are in French: words were split at every accented letter
// ("g\u00e9ocodage" gave "g" and "ocodage"), so a question written with the word matched the
// fragment, and "matches ocodage" was the evidence shown.
describe('words with letters outside ASCII', () => {
  it('stay whole as terms and as the words shown', () => {
    expect(splitWords('le g\u00e9ocodage des donn\u00e9es')).toEqual(['le', 'g\u00e9ocodage', 'des', 'donn\u00e9es']);
    expect(splitWords('Stra\u00dfenName')).toEqual(['stra\u00dfen', 'name']);
    expect(terms('G\u00e9ocodage')).toEqual(terms('g\u00e9ocodage'));
    expect([...surfaceForms('Le g\u00e9ocodage des adresses').values()]).toContain('g\u00e9ocodage');
    // ASCII identifiers split as before
    expect(splitWords('parseHTTPRequest_v2')).toEqual(['parse', 'http', 'request', 'v2']);
  });

  it('let a search in the records\' language find the record that writes the word', () => {
    const repo = makeRepo({
      'docs/adr/001-geocodage.md': rec(1, "Service de g\u00e9ocodage", "Les adresses saisies sont converties en coordonn\u00e9es par un service de g\u00e9ocodage public."),
      'docs/adr/002-sessions.md': rec(2, 'Sessions partag\u00e9es', 'Les sessions des utilisateurs sont gard\u00e9es dans un stockage partag\u00e9 entre les conteneurs.'),
      'docs/adr/003-journal.md': rec(3, 'Journal des modifications', "Chaque modification d'un arr\u00eat\u00e9 est \u00e9crite dans un journal consultable."),
    });
    repo.commit('records');
    const r = runCli(['search', '--json', 'g\u00e9ocodage'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { results: { id: string }[] };
    expect(out.results[0]?.id).toBe('ADR-001');
    const human = runCli(['search', 'g\u00e9ocodage des adresses'], { cwd: repo.dir });
    expect(human.stdout).toContain('g\u00e9ocodage');
    expect(human.stdout).not.toMatch(/[ ,]ocodage/);
  });
});
