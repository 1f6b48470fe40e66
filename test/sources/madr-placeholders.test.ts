import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

// MADR's templates write `status: {proposed | rejected | accepted | …}`; teams fill a value in
// and keep the braces. Seen on a C#/Python/Java monorepo's docs/decisions (DEC-086): nine of 78
// records listed with status "[object Object]", its two templates kept unnumbered beside the
// records (`adr-template.md`, `adr-short-template.md`) and a record whose title was still the
// template's "{short title of solved problem and solution}".
const TEMPLATE = `---
# These are optional elements. Feel free to remove any of them.
status: {proposed | rejected | accepted | deprecated | … | superseded by [ADR-0001](0001-madr-architecture-decisions.md)}
contact: {person proposing the ADR}
date: {YYYY-MM-DD when the decision was last updated}
deciders: {list everyone involved in the decision}
---

# {short title of solved problem and solution}

## Context and Problem Statement

{Describe the context and problem statement}
`;

describe('MADR frontmatter values written inside the template braces (zero configuration)', () => {
  it('reads `{accepted}` as accepted, `{ A, B }` as a list, skips unnumbered templates and titles a placeholder-titled record by its file name', () => {
    const repo = makeRepo({
      'dotnet/src/Kernel.cs': 'namespace Kernel;\npublic class Kernel {}\n',
      'docs/decisions/0001-madr-architecture-decisions.md': '---\nstatus: accepted\ndate: 2023-05-29\n---\n\n# Use Markdown Any Decision Records\n\n## Decision Outcome\n\nWe use MADR.\n',
      'docs/decisions/0021-aiservice-metadata.md': '---\nstatus: {proposed}\ndate: {2023-11-10}\ndeciders: SergeyMenshykh, markwallace\n---\n# Add AI Service Metadata\n\n## Decision Outcome\n\nExpose model id in metadata.\n',
      'docs/decisions/0044-otel-semantic-convention.md': '\ufeff---\nstatus: { accepted }\ncontact: { Tao Chen }\nconsulted:\ninformed: \ndate: { 2024-05-02 }\ndeciders: { Stephen Toub, Ben Thomas }\n---\n\n# Use standardized vocabulary for observability\n\n## Decision Outcome\n\nFollow the OpenTelemetry semantic conventions.\n',
      'docs/decisions/0039-set-plugin-name-in-metadata.md': '---\nstatus: accepted\ndate: 2024-03-15\n---\n\n# {short title of solved problem and solution}\n\n## Decision Outcome\n\nSet the plugin name in function metadata.\n',
      'docs/decisions/0057-python-structured-output.md': '---\nstatus: { in-progress }\n---\n\n# Structured output in Python\n\n## Decision Outcome\n\nUse response_format.\n',
      'docs/decisions/0032-agents.md': '---\nstatus: experimental\n---\n\n# Agents overview\n\n## Decision Outcome\n\nAn agent framework beside the kernel.\n',
      'docs/decisions/adr-template.md': TEMPLATE,
      'docs/decisions/adr-short-template.md': TEMPLATE,
      'docs/decisions/0012-email-templates.md': '---\nstatus: accepted\n---\n\n# Email templates\n\n## Decision Outcome\n\nRender emails with Handlebars.\n',
    });
    repo.commit('records');
    const list = runCli(['list', '--json'], { cwd: repo.dir });
    expect(list.code, list.stderr).toBe(0);
    const arts = (JSON.parse(list.stdout) as { artifacts: { id: string; title: string; status?: string | null; file: string }[] }).artifacts;
    const by = new Map(arts.map((a) => [a.id, a]));
    expect(by.get('ADR-0021')?.status).toBe('proposed');
    expect(by.get('ADR-0044')?.status).toBe('accepted');
    // statuses teams write for what is still being tried
    expect(by.get('ADR-0057')?.status).toBe('proposed');
    expect(by.get('ADR-0032')?.status).toBe('proposed');
    expect(by.get('ADR-0039')?.title).toBe('Set plugin name in metadata');
    // a numbered record about templates stays; the unnumbered templates are no records
    expect(by.get('ADR-0012')?.title).toBe('Email templates');
    expect(arts.map((a) => a.file).filter((f) => /template\.md$/.test(f))).toEqual([]);
    expect(list.stderr).not.toMatch(/object Object|frontmatter/);

    const show = runCli(['show', 'ADR-0044'], { cwd: repo.dir });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/^status: accepted$/m);
    expect(show.stdout).toMatch(/^date: 2024-05-02$/m);
    expect(show.stdout).toMatch(/^contact: Tao Chen$/m);
    expect(show.stdout).toMatch(/- Ben Thomas/);
    // keys the template offered and nobody filled are not shown as null
    expect(show.stdout).not.toMatch(/null|consulted|informed/);
    // the record starts with a byte-order mark: its frontmatter is read, not shown again as body text
    expect(show.stdout).not.toContain('{ accepted }');
    expect(show.stdout.match(/^status:/gm)).toHaveLength(1);

    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.stdout + check.stderr).not.toMatch(/status-unmapped|object Object|frontmatter-malformed/);
  });
});
