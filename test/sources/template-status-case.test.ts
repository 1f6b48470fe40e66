import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// log4brains' MADR template writes every placeholder in capitals (`- Status: {{ STATUS }}`),
// which says nothing of the case a status is written in; the folder's records do (16 of
// SSW.CleanArchitecture's 17 write `- Status: accepted`). A new record said "Proposed".
const TEMPLATE = '# {{ SHORT TITLE }}\n\n- Status: {{ STATUS }} <!-- optional: draft | proposed | accepted -->\n- Date: {{ LAST MODIFIED YYYY-MM-DD }}\n\n## Context and Problem Statement\n\n{{ CONTEXT }}\n\n## Decision Outcome\n\nChosen option: "{{ OPTION 1 }}".\n';
const rec = (title: string, status: string, date: string) => `# ${title}\n\n- Status: ${status}\n- Date: ${date}\n\n## Context and Problem Statement\n\nWhy ${title.toLowerCase()}.\n\n## Decision Outcome\n\nChosen option: "${title}".\n`;
const statusLine = (dir: string) => /^- Status: .*$/m.exec(runCli(['new', 'decision', 'Cache the catalogue', '--dry-run'], { cwd: dir }).stdout)?.[0];

describe("a template's status placeholder in capitals", () => {
  it("writes the status in the case the folder's records use", () => {
    const lower = makeRepo({
      '.log4brains.yml': 'project:\n  name: Shop\n  adrFolder: ./docs/adr\n',
      'docs/adr/template.md': TEMPLATE,
      'docs/adr/20240101-use-postgres.md': rec('Use Postgres', 'accepted', '2024-01-01'),
      'docs/adr/20240202-use-queues.md': rec('Use queues', 'accepted', '2024-02-02'),
      'docs/adr/20240303-use-typed-ids.md': rec('Use typed ids', 'Accepted', '2024-03-03'),
    });
    lower.commit('records');
    expect(statusLine(lower.dir)).toBe('- Status: proposed');
    const capital = makeRepo({
      '.log4brains.yml': 'project:\n  name: Shop\n  adrFolder: ./docs/adr\n',
      'docs/adr/template.md': TEMPLATE,
      'docs/adr/20240101-use-postgres.md': rec('Use Postgres', 'Accepted', '2024-01-01'),
    });
    capital.commit('records');
    expect(statusLine(capital.dir)).toBe('- Status: Proposed');
  });

  // trials29 (SFDO-Tooling/CumulusCI): a frontmatter template with `status: STATUS` in a folder
  // whose records write `status: Accepted`; the new record said `status: proposed`
  it('a frontmatter placeholder in capitals follows the records too; a lower-case one stays lower', () => {
    const fm = (status: string) => `---\ndate: DATE\nstatus: ${status}\n---\n\n# NUMBER. TITLE\n\n## Context\n\nWhy.\n\n## Decision\n\nWhat.\n`;
    const rec = (n: number, status: string) => `---\ndate: 2024-0${n}-01\nstatus: ${status}\n---\n\n# ${n}. Record ${n}\n\n## Context\n\nWhy ${n}.\n\n## Decision\n\nWhat ${n}.\n`;
    const made = (template: string, status: string) => {
      const repo = makeRepo({ '.adr-dir': 'docs/decisions\n', 'docs/decisions/templates/template.md': template, 'docs/decisions/0001-record-one.md': rec(1, status), 'docs/decisions/0002-record-two.md': rec(2, status) });
      repo.commit('records');
      return /^status: .*$/m.exec(runCli(['new', 'decision', 'Cache the catalogue', '--dry-run'], { cwd: repo.dir }).stdout)?.[0];
    };
    expect(made(fm('STATUS'), 'Accepted')).toBe('status: Proposed');
    expect(made(fm('STATUS'), 'accepted')).toBe('status: proposed');
    expect(made(fm('"{proposed | accepted}"'), 'Accepted')).toBe('status: proposed');
  });
});
