import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// DEC-108: the function words of French, Spanish, Portuguese, German and Dutch records are not
// shown as matched and do not count as a question's telling words.

const rec = (n: number, title: string, body: string) => `# 00${n} - ${title}\n\n* Date : 2024-01-0${n}\n* Statut : ACCEPTÉ\n\n## Contexte\n\n${body}\n\n## Décision\n\n${title}.\n`;

describe('records in French', () => {
  it('answers a French question by its subject words, not by les, dans or pourquoi, and answers nothing off-topic', () => {
    const repo = makeRepo({
      'docs/adr/001_redis.md': rec(1, 'Les sessions dans Redis', 'Les utilisateurs sont déconnectés à chaque déploiement : les sessions vivent dans les conteneurs, qui sont recréés. Nous gardons les sessions dans Redis.'),
      'docs/adr/002_geocodage.md': rec(2, 'Un service de géocodage', 'Pour placer les arrêtés sur la carte, il faut convertir une adresse en coordonnées dans tous les départements.'),
      'docs/adr/003_donnees.md': rec(3, "Le format d'échange des données", 'Les collectivités publient leurs arrêtés dans des formats divers ; nous retenons un format ouvert pour les données échangées.'),
    });
    repo.commit('records');
    const ask = (q: string) => JSON.parse(runCli(['search', q, '--json'], { cwd: repo.dir }).stdout) as { results: { id: string; why: { kind: string; text: string }[] }[] };
    const r = ask('pourquoi garder les sessions dans Redis');
    expect(r.results[0]?.id).toBe('ADR-001');
    // the explanation names the words worth reading (JSON `terms` keep every matched term, for add's judge)
    const shown = r.results.slice(0, 1).flatMap((x) => x.why.filter((w) => w.kind === 'keywords').flatMap((w) => w.text.replace(/^matches /, '').split(', ')));
    expect(shown).toContain('redis');
    for (const w of ['les', 'dans', 'pourquoi']) expect(shown).not.toContain(w);
    // met only in les, dans and pour: no answer
    expect(ask('pourquoi entraîner les modèles dans le cloud pour la recommandation').results).toEqual([]);
  });
});
