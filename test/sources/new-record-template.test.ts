import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

// DEC-093: a records folder that keeps the team's template gets new records written from it —
// its lines and sections, the status and date filled where it keeps them, the title numbered as
// the folder's records are — not a copy of the newest record. The template is never a record.

const cli = (dir: string, ...args: string[]) => runCli(args, { cwd: dir });
const listed = (stdout: string) => (JSON.parse(stdout) as { artifacts: { id: string; file: string; status: string | null }[] }).artifacts;
const plan = (stdout: string) => JSON.parse(stdout) as { id: string; file: string; text: string; style: string; template?: string };

// adr-tools: the template in templates/, placeholders NUMBER, TITLE, DATE and STATUS
const ADR_TOOLS_TEMPLATE = '# NUMBER. TITLE\n\nDate: DATE\n\n## Status\n\nSTATUS\n\n## Context\n\nThe forces at play.\n\n## Decision\n\nWhat we will do.\n\n## Consequences\n\nWhat becomes easier or harder.\n\n## Reviewers\n\n- who reviewed it\n';
const adrTools = (n: number, title: string) => `# ${n}. ${title}\n\nDate: 2024-03-0${n}\n\n## Status\n\nAccepted\n\n## Context\n\nWhy ${title}.\n\n## Decision\n\n${title}.\n\n## Consequences\n\nFewer surprises.\n`;

// MADR 4 kept by a Jekyll site: the template's own title and menu order, status and date commented out
const MADR_SITE_TEMPLATE = [
  '---',
  '# Site configuration: remove when writing a record',
  'title: ADR Template',
  'nav_order: 100',
  'parent: Decision Records',
  '# status: "{proposed | rejected | accepted | deprecated | … | superseded by ADR-0123}"',
  '# date: {YYYY-MM-DD when the decision was last updated}',
  '# decision-makers: {everyone involved}',
  '---',
  '# {short title of solved problem and solution}',
  '',
  '## Context and Problem Statement',
  '',
  '{Two or three sentences on the problem.}',
  '',
  '<!-- This is an optional element. Feel free to remove. -->',
  '## Considered Options',
  '',
  '* {option 1}',
  '',
  '## Decision Outcome',
  '',
  'Chosen option: "{option 1}", because {justification}.',
  '',
  '### Consequences',
  '',
  '* Good, because {positive consequence}',
  '',
  '### Confirmation',
  '',
  '{How compliance is confirmed.}',
  '',
].join('\n');
const madrSite = (n: number, title: string) => `---\nnav_order: ${n}\nparent: Decision Records\nstatus: accepted\ndate: 2023-01-0${n}\n---\n# ${title}\n\n## Context and Problem Statement\n\nWhy.\n\n## Decision Outcome\n\nChosen option: "${title}".\n`;

describe('new records written from the team template', () => {
  it('adr-tools: templates/template.md numbered and dated, its extra section kept, the newest record not copied', () => {
    const repo = makeRepo({
      'doc/adr/templates/template.md': ADR_TOOLS_TEMPLATE,
      'doc/adr/0001-record-architecture-decisions.md': adrTools(1, 'Record architecture decisions'),
      'doc/adr/0002-use-gradle-version-catalogs.md': adrTools(2, 'Use Gradle version catalogs'),
      'src/App.kt': 'class App\n',
    });
    repo.commit('records');
    const dry = cli(repo.dir, 'new', 'decision', 'Use Kotlin coroutines', '--date', '2026-11-28', '--dry-run', '--json');
    expect(dry.code, dry.stderr).toBe(0);
    const p = plan(dry.stdout);
    expect(p.file).toBe('doc/adr/0003-use-kotlin-coroutines.md');
    expect(p.template).toBe('doc/adr/templates/template.md');
    expect(p.text).toBe('# 3. Use Kotlin coroutines\n\nDate: 2026-11-28\n\n## Status\n\nProposed\n\n## Context\n\nThe forces at play.\n\n## Decision\n\nWhat we will do.\n\n## Consequences\n\nWhat becomes easier or harder.\n\n## Reviewers\n\n- who reviewed it\n');
    // the template is no record, and its folder reads as before
    const list = cli(repo.dir, 'list', '--json');
    expect(listed(list.stdout).map((a) => a.file)).toEqual(['doc/adr/0001-record-architecture-decisions.md', 'doc/adr/0002-use-gradle-version-catalogs.md']);

    // add fills the parts it was given in the template's sections; the rest keeps the template's guidance
    const add = cli(repo.dir, 'add', '-d', 'Use coroutines for all background work', '-r', 'One concurrency model is easier to test.', '--format', 'json');
    expect(add.code, add.stderr).toBe(0);
    const text = readFileSync(path.join(repo.dir, 'doc/adr/0003-use-coroutines-for-all-background-work.md'), 'utf8');
    expect(text).toMatch(/^# 3\. Use coroutines for all background work\n\nDate: \d{4}-\d\d-\d\d\n\n## Status\n\nAccepted\n\n## Context\n\nOne concurrency model is easier to test\.\n\n## Decision\n\nUse coroutines for all background work\n\n## Consequences\n\nWhat becomes easier or harder\.\n\n## Reviewers\n/);
    const after = cli(repo.dir, 'list', '--json');
    expect(listed(after.stdout).find((a) => a.id === 'ADR-0003')?.status).toBe('accepted');
  });

  it('MADR with a site: status and date put back, title and menu order filled, confirmation under the outcome', () => {
    const repo = makeRepo({
      'docs/decisions/adr-template.md': MADR_SITE_TEMPLATE,
      'docs/decisions/adr-short-template.md': '# {title}\n\n## Context\n\n{context}\n',
      'docs/decisions/0001-use-markdown-records.md': madrSite(1, 'Use Markdown records'),
      'docs/decisions/0002-use-gradle.md': madrSite(2, 'Use Gradle'),
    });
    repo.commit('records');
    const dry = cli(repo.dir, 'new', 'decision', 'Use JUnit 5: no more JUnit 4', '--date', '2026-11-28', '--forbid-import', 'junit.framework*', '--dry-run', '--json');
    expect(dry.code, dry.stderr).toBe(0);
    const p = plan(dry.stdout);
    expect(p.template).toBe('docs/decisions/adr-template.md');
    expect(p.style).toBe('madr');
    expect(p.text).toContain('\ntitle: "Use JUnit 5: no more JUnit 4"\nnav_order: 3\nparent: Decision Records\nstatus: proposed\ndate: 2026-11-28\n# decision-makers: {everyone involved}\n---\n# Use JUnit 5: no more JUnit 4\n');
    expect(p.text).toContain('### Confirmation\n\n```git-ctx\nconfirm:\n  - forbid-import: "junit.framework*"\n```\n');
    const made = cli(repo.dir, 'new', 'decision', 'Use JUnit 5', '--date', '2026-11-28');
    expect(made.code, made.stderr).toBe(0);
    const list = cli(repo.dir, 'list', '--json');
    const records = listed(list.stdout);
    expect(records.map((a) => a.file)).toEqual(['docs/decisions/0001-use-markdown-records.md', 'docs/decisions/0002-use-gradle.md', 'docs/decisions/0003-use-junit-5.md']);
    expect(records[2]!.status).toBe('proposed');
    const check = cli(repo.dir, 'check');
    expect(check.code, check.stdout + check.stderr).toBe(0);
  });

  it('a folder holding only its template: the first record is 0001, from the template; MADR add fills the outcome and keeps its consequences', () => {
    const repo = makeRepo({
      'docs/adr/0000-adr-template.md': '---\nstatus: proposed # proposed | accepted | rejected\ndate: "YYYY-MM-DD" # when it was last updated\n---\n\n# {short title}\n\n## Context and Problem Statement\n\n{The problem.}\n\n## Decision Outcome\n\nChosen option: "{option}".\n\n### Consequences\n\n* Good, because {a}\n',
      'app/Main.kt': 'fun main() {}\n',
    });
    repo.commit('template');
    const add = cli(repo.dir, 'add', '-d', 'Keep one Gradle module per feature', '--title', 'One module per feature', '-r', 'Builds stay incremental.', '--format', 'json');
    expect(add.code, add.stderr).toBe(0);
    const file = 'docs/adr/0001-one-module-per-feature.md';
    const text = readFileSync(path.join(repo.dir, file), 'utf8');
    expect(text).toMatch(/^---\nstatus: accepted # proposed \| accepted \| rejected\ndate: \d{4}-\d\d-\d\d # when it was last updated\n---\n\n# One module per feature\n\n## Context and Problem Statement\n\nBuilds stay incremental\.\n\n## Decision Outcome\n\nKeep one Gradle module per feature\n\n### Consequences\n\n\* Good, because \{a\}\n$/);
    const list = cli(repo.dir, 'list', '--json');
    expect(listed(list.stdout).map((a) => [a.file, a.status])).toEqual([[file, 'accepted']]);
  });

  it('fills a changelog line a template writes with brace placeholders, escaped for MDX or not; the author\'s own stay (DEC-107)', () => {
    const template = '# ADR \\{ADR-NUMBER\\}: \\{TITLE\\}\n\n## Changelog\n\n- \\{date\\}: \\{changelog\\}\n- {date}: reviewed by {reviewer}\n\n## Status\n\n\\{Proposed|Accepted\\}\n\n## Context\n\n> Why.\n\n## Decision\n\n> What.\n\n## Consequences\n\n> So what.\n';
    const record = (n: number, t: string) => `# ADR 00${n}: ${t}\n\n## Changelog\n\n- 2024-05-0${n}: Initial draft\n\n## Status\n\nAccepted\n\n## Context\n\nWhy.\n\n## Decision\n\n${t}.\n\n## Consequences\n\nFine.\n`;
    const repo = makeRepo({ 'docs/architecture/adr.template.md': template, 'docs/architecture/adr-001-channels.md': record(1, 'Channels'), 'docs/architecture/adr-002-fees.md': record(2, 'Fees') });
    repo.commit('records');
    const made = cli(repo.dir, 'new', 'decision', 'Rate limits per channel', '--date', '2026-11-28', '--dry-run', '--json');
    expect(made.code, made.stderr).toBe(0);
    const text = plan(made.stdout).text;
    expect(text).toMatch(/^# ADR 003: Rate limits per channel\n\n## Changelog\n\n- \d{4}-\d\d-\d\d: Initial draft\n- \d{4}-\d\d-\d\d: reviewed by \{reviewer\}\n\n## Status\n\nProposed\n/);
    expect(text).not.toContain('\\{');
  });
});

