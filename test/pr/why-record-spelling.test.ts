import { describe, expect, it } from 'vitest';
import { analyzePullRequest } from '../../src/pr/analyze.js';
import { renderPrComment } from '../../src/pr/render.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

/*
 * "shares the words …" shows the words as the record writes them (DEC-053/069/080): a change
 * writing "csl-json" and "entry-type" found a record that writes "JSON" and "entry type"; the
 * reason named the change's compounds, which the record never wrote.
 */

const rec = (id: string, title: string, body: string) => `---\nid: ${id}\ntype: decision\ntitle: ${title}\nstatus: accepted\n---\n\n# ${title}\n\n${body}\n`;

describe('the words a found record shares with the change', () => {
  it('are spelled as the record writes them, not as the change does', async () => {
    const repo = makeRepo({
      '.contextia/config.yaml': 'version: 1\n',
      '.contextia/system/rationale/DEC-BIB.md': rec('DEC-BIB', 'Export bibliography entries as JSON', 'The exporter writes each bibliography entry as one JSON object. The entry type of a reference decides which fields the JSON object carries; an unknown entry type is exported as a generic document.'),
      '.contextia/system/rationale/DEC-AUTH.md': rec('DEC-AUTH', 'Sessions expire after a day', 'A login session expires after twenty-four hours; the refresh token is rotated on each use.'),
      'src/export/bibliography.ts': 'export function exportEntries(entries: unknown[]) {\n  return entries;\n}\n',
    });
    repo.commit('bibliography export');
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write({
      'src/export/bibliography.ts': [
        '// csl-json: each bibliography entry becomes one csl-json object',
        '// the entry-type of a reference picks the csl-json fields; an unknown entry-type is a generic document',
        'export function exportEntries(entries: { entryType: string }[]) {',
        "  return entries.map((e) => ({ type: e.entryType || 'document' }));",
        '}',
        '',
      ].join('\n'),
    });
    repo.commit('Export bibliography entries as csl-json by entry-type');
    const r = await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'feature', cache: false, check: false });
    const bib = r.ranked.find((x) => x.id === 'DEC-BIB');
    expect(bib, JSON.stringify(r.ranked)).toBeDefined();
    expect(bib!.why).toMatch(/^shares the words /);
    const words = bib!.why.replace(/^shares the words /, '').replace(/ with this change.*$/, '').split(', ');
    // every word shown is written so in the record
    const body = '.contextia/system/rationale/DEC-BIB.md';
    const text = repo.git('show', `feature:${body}`).toLowerCase();
    for (const w of words) expect(text, w).toContain(w);
    expect(words).not.toContain('csl-json');
    expect(words).not.toContain('entry-type');
    expect(renderPrComment(r)).not.toMatch(/shares the words [^\n]*(csl-json|entry-type)/);

    const cli = JSON.parse(runCli(['for', '--diff', 'main...feature', '--json'], { cwd: repo.dir }).stdout);
    expect(cli.ranked.find((x: { id: string }) => x.id === 'DEC-BIB').why).toBe(bib!.why);
  });
});
