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
});
