import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

// SAP/cloud-sdk-js's template.md opens with how to use it ("# ADR template by …", a paragraph,
// "In each ADR file, write these sections:") and then the record's shape under "# Title": a new
// record got the instructions, the new title on the instructions' heading and "# Title" again.
describe('a template led by its instructions', () => {
  it('gives a new record the shape under its own title placeholder', () => {
    const repo = makeRepo({
      'handbook/adr/template.md': '# How we write decision records\n\nCopy the part below into a new numbered file.\n\nWrite these sections:\n\n# Title\n\n## Status\n\nWhich status it has.\n\n## Context\n\nWhat forces us to decide.\n\n## Decision\n\nWhat we do.\n\n## Consequences\n\nWhat follows.\n',
      'handbook/adr/0001-keep-records.md': '# Keep decision records\n\n## Status\n\naccepted\n\n## Context\n\nDecisions get lost.\n\n## Decision\n\nWe write them down.\n\n## Consequences\n\nMore writing.\n',
    });
    repo.commit('records');
    const r = runCli(['new', 'decision', 'Retire the old importer'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(path.join(repo.dir, 'handbook/adr/0002-retire-the-old-importer.md'), 'utf8');
    expect(text.startsWith('# Retire the old importer\n\n## Status\n\nProposed\n')).toBe(true);
    expect(text).not.toContain('Copy the part below');
    expect(text).not.toContain('# Title');
  });
});
