import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

type Listed = { id: string; status: string | null; summary?: string };

// MTES-MCT/dialog writes its records in French: "* Statut : ACCEPT\u00c9 <!-- [BROUILLON|…] -->" under
// the title, then "## Contexte", "## D\u00e9cision", "## Cons\u00e9quences". No status was read (every
// record "-"), and the summary was the metadata list, HTML comment and all.
describe('records written in French, Spanish and German', () => {
  it('read their status from a translated label or section, and their summary from the decision section', () => {
    const fr = (title: string, status: string, decision: string) =>
      `# ${title}\n\n* Date : 2023-04-02\n* Personnes impliqu\u00e9es : l'\u00e9quipe\n* Statut : ${status}\n\n## Contexte\n\nLes tuiles de la carte sont lentes.\n\n## D\u00e9cision\n\n${decision}\n\n## Cons\u00e9quences\n\nUn service de plus \u00e0 surveiller.\n`;
    const repo = makeRepo({
      'docs/adr/001_tuiles.md': fr('001 - Serveur de tuiles', 'ACCEPT\u00c9 <!-- [BROUILLON|ACCEPT\u00c9|REJET\u00c9|D\u00c9PR\u00c9CI\u00c9] -->', 'Nous servirons les tuiles depuis notre propre serveur.'),
      'docs/adr/002_cache.md': fr('002 - Cache des tuiles', 'Brouillon', 'Les tuiles seront gard\u00e9es une semaine.'),
      'docs/adr/003_ancien.md': fr('003 - Ancien fond de carte', 'Remplac\u00e9 par [001](001_tuiles.md)', 'Nous utilisions un fond de carte public.'),
      'docs/adr/004_vieux.md': `# 004 - Vieux format\n\n## \u00c9tat\n\nD\u00e9pr\u00e9ci\u00e9\n\n## Contexte\n\nUn format d'export ancien.\n`,
      'docs/adr/005_cola.md': `# 005 - Cola de trabajos\n\n## Estado\n\nRechazado\n\n## Contexto\n\nLos env\u00edos tardan.\n\n## Decisi\u00f3n\n\nNo usaremos una cola externa.\n`,
      'docs/adr/006_suche.md': `# 006 - Volltextsuche\n\n## Status\n\nAkzeptiert\n\n## Kontext\n\nDie Suche ist langsam.\n\n## Entscheidung\n\nWir nutzen einen Suchindex.\n`,
    });
    repo.commit('records');
    const list = runCli(['list', '--json'], { cwd: repo.dir });
    const arts = (JSON.parse(list.stdout) as { artifacts: Listed[] }).artifacts;
    expect(Object.fromEntries(arts.map((a) => [a.id, a.status]))).toEqual({
      'ADR-001': 'accepted',
      'ADR-002': 'proposed',
      'ADR-003': 'superseded',
      'ADR-004': 'deprecated',
      'ADR-005': 'rejected',
      'ADR-006': 'accepted',
    });
    const summary = Object.fromEntries(arts.map((a) => [a.id, a.summary]));
    expect(summary['ADR-001']).toBe('Nous servirons les tuiles depuis notre propre serveur.');
    expect(summary['ADR-005']).toBe('No usaremos una cola externa.');
    expect(summary['ADR-006']).toBe('Wir nutzen einen Suchindex.');
    const show = runCli(['show', 'ADR-001'], { cwd: repo.dir });
    // the status as written, without the comment that follows it on its line
    expect(show.stdout.slice(0, show.stdout.indexOf('\n# '))).toContain('status: accepted (written "ACCEPT\u00c9")');
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.stdout).not.toContain('status-unmapped');
  });
});
