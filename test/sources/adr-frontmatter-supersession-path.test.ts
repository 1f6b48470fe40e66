import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// HubEvolution/EvolutionHub's shape (papercuts32): a retired record's frontmatter names its
// successor by a path (`supersededBy: '<path>'`); where nothing is at that path (the page was
// moved, or the path misspelt) DEC-132 dropped the value and check said nothing.
const record = (front: string, title: string): string => `---\n${front}---\n\n# ${title}\n\n## Status\n\nAkzeptiert\n\n## Entscheidung\n\nSo wird es gemacht.\n`;

describe('a frontmatter supersession naming a path that holds no record', () => {
  it('check warns at the key’s line, naming the path; a path to a record or to a page that is there stays silent', () => {
    const repo = makeRepo({
      'docs/adrs/0001-sitzungen.md': record("status: active\nsupersededBy: ''\n", 'ADR-0001: Sitzungen im Cookie'),
      'docs/adrs/0002-schema.md': record("status: active\nsupersededBy: ''\n", 'ADR-0002: Schema mit Migrationen'),
      // a typo: 0004 was meant to be 0002
      'docs/adrs/deprecated/0002-erstes-schema.md': record("status: deprecated\ndate: '2024-03-01'\nsupersededBy: 'docs/adrs/0004-schema.md'\n", 'ADR-0002: Erstes Schema'),
      // a design page that is there: no record, no finding (DEC-132)
      'docs/adrs/deprecated/0001-token.md': record("status: deprecated\nsupersededBy: 'docs/anmeldung.md'\n", 'ADR-0001: Token'),
      'docs/adrs/deprecated/0003-tabellen.md': record("status: deprecated\nsuperseded_by: docs/adrs/0002-schema.md\n", 'ADR-0003: Tabellen'),
      'docs/anmeldung.md': '# Anmeldung\n\nWie man sich anmeldet.\n',
    });
    repo.commit('records');
    const r = runCli(['check'], { cwd: repo.dir });
    expect(r.stdout).toContain('docs/adrs/deprecated/0002-erstes-schema.md:4  warning  supersededBy names docs/adrs/0004-schema.md, which holds no record (no file is there): no supersession is drawn; name the other record by its file\'s path or its id  broken-link');
    expect(r.stdout).not.toContain('anmeldung.md, which');
    expect(r.stdout).not.toContain('0002-schema.md, which');
    expect(r.stdout).toMatch(/0 errors, 1 warning\b/);
    const show = runCli(['show', 'ADR-0002', '--json'], { cwd: repo.dir });
    expect(JSON.stringify(JSON.parse(show.stdout))).toContain('ADR-0003');
  });
});
