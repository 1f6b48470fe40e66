import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSet } from '../helpers/artifact-set.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

/**
 * trials32 (SocialGouv/pass-emploi-api's shape, DEC-136): MADR 2 translated into French,
 * `ADR-NNN-slug.md` records under docs/decisions/ beside the team's `adr-template.md`. The
 * authors kept the template's brackets around their titles (`# [Gestion du cache]`), the
 * records weigh "Facteurs de Décision" before their "Résultat de la Décision", and the
 * template's status line is `* Statut: [proposé | rejeté | accepté | …]`.
 */
const TEMPLATE = [
  '# [titre court du problème traité et de la solution]',
  '',
  '* Statut: [proposé | rejeté | accepté | déprécié | … | remplacé par [ADR-0009](0009-exemple.md)] <!-- optionnel -->',
  '* Décideurs: [qui a pris part à la décision] <!-- optionnel -->',
  '* Date: [YYYY-MM-DD de la dernière modification] <!-- optionnel -->',
  '',
  '## Contexte et Définition du Problème',
  '',
  '[Décrire le contexte en deux ou trois phrases.]',
  '',
  '## Facteurs de Décision <!-- optionnel -->',
  '',
  '* [facteur 1, e.g., une contrainte, …]',
  '',
  '## Solutions Étudiées',
  '',
  '* [solution 1]',
  '* [solution 2]',
  '',
  '## Résultat de la Décision',
  '',
  'Solution retenue: "[solution 1]", car [justification].',
  '',
  '### Impacts Positifs <!-- optionnel -->',
  '',
  '* [e.g., ce qui s\'améliore, …]',
  '',
  '## Liens <!-- optionnel -->',
  '',
  '* [Lien vers une ADR] <!-- exemple: Complété par [ADR-0009](0009-exemple.md) -->',
  '',
].join('\n');

const files = {
  'docs/decisions/adr-template.md': TEMPLATE,
  'docs/decisions/ADR-001-cache-sessions.md': [
    '# [Sessions : un cache partagé entre les instances]',
    '',
    '* Statut : accepté',
    '* Date : 2023-03-02',
    '',
    '## Contexte et définition du problème',
    '',
    'Chaque instance garde ses sessions en mémoire et un utilisateur perd la sienne quand la répartition de charge change d\'instance.',
    '',
    '## Facteurs de Décision',
    '',
    '* Ne pas déconnecter les utilisateurs lors d\'un déploiement',
    '* Garder une latence faible',
    '',
    '## Solutions Étudiées',
    '',
    '* Sessions collantes sur la répartition de charge',
    '* Un cache partagé',
    '',
    '## Résultat de la Décision',
    '',
    'Les sessions sont gardées dans un cache partagé par toutes les instances, avec une durée de vie de deux heures.',
    '',
    '### Impacts Positifs',
    '',
    '* Un déploiement ne déconnecte plus personne',
    '',
  ].join('\n'),
  'docs/decisions/ADR-002-format-des-journaux.md': [
    '# [titre court du problème traité et de la solution]',
    '',
    '- Statut: proposé',
    '- Date: 2023-05-10',
    '',
    '## Contexte et Définition du Problème',
    '',
    'Les journaux des services sont écrits en texte libre et difficiles à interroger.',
    '',
    '## Résultat de la Décision',
    '',
    'Les services écrivent leurs journaux en JSON, un objet par ligne.',
    '',
  ].join('\n'),
};

describe('French MADR records kept in the template\'s brackets (trials32)', () => {
  it('reads a bracketed title as the title, the template\'s prompt as none, and the summary from the outcome, not the drivers', async () => {
    const repo = makeRepo(files);
    repo.commit('records');
    const set = await loadSet(repo.dir);
    const one = set.byId.get('ADR-001')!;
    expect(one.title).toBe('Sessions : un cache partagé entre les instances');
    expect(one.status).toBe('accepted');
    expect(one.summary).toMatch(/^Les sessions sont gardées dans un cache partagé/);
    const two = set.byId.get('ADR-002')!;
    expect(two.title).not.toMatch(/titre court/);
    expect(two.summary).toMatch(/^Les services écrivent leurs journaux en JSON/);
    expect(set.byId.has('ADR-000')).toBe(false);
  });

  it('fills the template\'s French status line and outcome, and names the file without broken accents', () => {
    const repo = makeRepo(files);
    repo.commit('records');
    const r = runCli(['new', 'decision', 'Planifier les tâches répétées', '--date', '2026-03-07', '--json'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { file: string };
    expect(out.file).toBe('docs/decisions/ADR-003-planifier-les-taches-repetees.md');
    const text = readFileSync(path.join(repo.dir, out.file), 'utf8');
    expect(text).toMatch(/^\* Statut: proposé$/m);
    expect(text).toContain('* Date: 2026-03-07');

    const fresh = makeRepo(files);
    fresh.commit('records');
    const a = runCli(['add', 'Les tâches répétées sont planifiées par une file de travaux persistante', '--json'], { cwd: fresh.dir });
    expect(a.code, a.stderr).toBe(0);
    const added = readFileSync(path.join(fresh.dir, (JSON.parse(a.stdout) as { file: string }).file), 'utf8');
    expect(added).toMatch(/^\* Statut: accepté$/m);
    expect(added).toMatch(/## Résultat de la Décision\n\nLes tâches répétées sont planifiées par une file de travaux persistante/);
    expect(added).not.toMatch(/^## Decision$/m);
  });

  it('follows a MADR 4 template\'s word to remove its site title and its markdownlint lines (JabRef/jabref\'s shape)', () => {
    const repo = makeRepo({
      'docs/decisions/adr-template.md': [
        '---',
        '# Settings for the documentation site\'s menu',
        '# Remove it when creating a new ADR',
        'title: The record template',
        '',
        'nav_order: 100',
        'parent: Records',
        '',
        '# status: "{proposed | rejected | accepted}"',
        '---',
        '<!-- The template page is listed under another heading than the records are. -->',
        '<!-- Remove these three lines when creating a real ADR. -->',
        '<!-- markdownlint-disable-next-line MD025 -->',
        '# {short title of the problem and the solution}',
        '',
        '## Context and Problem Statement',
        '',
        '{Say what forces the decision.}',
        '',
        '## Decision Outcome',
        '',
        'Chosen option: "{option}", because {reason}.',
        '',
      ].join('\n'),
      'docs/decisions/0001-keep-a-changelog.md': '---\nnav_order: 1\nparent: Records\n---\n\n# Keep a changelog by hand\n\n## Context and Problem Statement\n\nReleases need notes.\n\n## Decision Outcome\n\nChosen option: "a hand-written changelog", because generated ones read badly.\n',
    });
    repo.commit('records');
    const r = runCli(['new', 'decision', 'Sign every release', '--date', '2026-03-07', '--json'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(path.join(repo.dir, (JSON.parse(r.stdout) as { file: string }).file), 'utf8');
    expect(text).not.toMatch(/^title:/m);
    expect(text).not.toContain('Remove');
    expect(text).not.toContain('markdownlint');
    expect(text).toContain('nav_order: 2\n');
    expect(text).toContain('parent: Records\n');
    expect(text).toMatch(/\n# Sign every release\n/);
  });
});
