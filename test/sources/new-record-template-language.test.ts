import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSet } from '../helpers/artifact-set.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

/**
 * trials31 (HubEvolution/EvolutionHub's shape, DEC-132): a German template with frontmatter of
 * its own, whose Status section offers "Vorgeschlagen | **Akzeptiert** | …" and whose
 * `description:` describes the template. A new record got "Proposed" and the template's
 * description.
 */
describe('a new record from a template in another language', () => {
  it('writes the status in the template\'s language and leaves the template\'s description out', async () => {
    const repo = makeRepo({
      'docs/architektur/adrs/0000-adr-template.md': "---\nstatus: draft\ndate: '2025-01-01'\ndescription: 'Vorlage für neue Entscheidungen des Teams.'\nowner: 'team:plattform'\n---\n\n# ADR-0000: Vorlage\n\n## Status\n\nVorgeschlagen | **Akzeptiert** | Abgelehnt | Ersetzt\n\n## Kontext\n\nWas ist das Problem?\n\n## Entscheidung\n\nWas wurde entschieden?\n",
      'docs/architektur/adrs/0001-statische-seiten.md': "---\nstatus: active\ndate: '2025-02-01'\ndescription: 'Seiten werden vorab gebaut.'\nowner: 'team:plattform'\n---\n\n# ADR-0001: Statische Seiten\n\n## Status\n\nAkzeptiert\n\n## Kontext\n\nSeiten laden langsam.\n\n## Entscheidung\n\nSeiten werden vorab gebaut.\n",
    });
    repo.commit('records');
    const r = runCli(['new', 'decision', 'Sitzungen im Cache halten', '--date', '2026-03-07', '--json'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { file: string };
    const text = readFileSync(path.join(repo.dir, out.file), 'utf8');
    expect(text).toContain('## Status\n\nVorgeschlagen\n');
    expect(text).toContain("description: ''\n");
    expect(text).toContain("owner: 'team:plattform'\n");
    expect(text).not.toContain('Vorlage für');
    const set = await loadSet(repo.dir);
    expect(set.byId.get('ADR-0002')!.status).toBe('proposed');
  });

  it('without a template, a record shaped like the newest one keeps its German parts and gets no English ones after them', () => {
    const repo = makeRepo({
      'docs/architektur/adrs/0001-statische-seiten.md': "---\nstatus: active\ndate: '2025-02-01'\n---\n\n# ADR-0001: Statische Seiten\n\n## Status\n\nAkzeptiert\n\n## Kontext\n\nSeiten laden langsam.\n\n## Entscheidung\n\nSeiten werden vorab gebaut.\n\n## Konsequenzen\n\nDer Build dauert länger.\n",
    });
    repo.commit('records');
    const r = runCli(['new', 'decision', 'Sitzungen im Cache halten', '--date', '2026-03-07', '--json'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(path.join(repo.dir, (JSON.parse(r.stdout) as { file: string }).file), 'utf8');
    expect(text).toContain('## Kontext');
    expect(text).toContain('## Konsequenzen');
    expect(text).not.toMatch(/## (?:Context|Decision|Consequences)/);
  });
});
