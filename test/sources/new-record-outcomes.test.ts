import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

// A Kotlin Android monorepo's docs/engineering/adr (DEC-086): each record has "## Status" with
// "- **Accepted**", then Context, Decision and "## Outcomes" with Positive/Negative Outcomes
// under it. `new decision` wrote "Proposed" bare and added a "## Consequences" after the
// record's own "## Outcomes"; a long title's file name was cut inside a word.
const record = (title: string, decision: string) =>
  `# ${title}\n\n- Pull Request: [#7221](https://example.org/pull/7221)\n\n## Status\n\n- **Accepted**\n\n## Context\n\nWhy.\n\n## Decision\n\n${decision}\n\n## Outcomes\n\n### Positive Outcomes\n\n- Good.\n\n### Negative Outcomes\n\n- Cost.\n`;

describe('a new record in a folder whose records weigh "Outcomes" and decorate their status', () => {
  it('writes the status as the folder does and keeps Outcomes, with no second Consequences section; the file name ends on a whole word', () => {
    const repo = makeRepo({
      'app/src/main/kotlin/App.kt': 'package net.example\n\nclass App\n',
      'docs/engineering/adr/0000-adr-template.md': '# ADR: Descriptive Title\n\n- Issue: [#NNNN](https://example.org/issues/NNNN)\n- Status: **Proposed**\n\n## Context\n\nWhat the decision addresses.\n\n## Decision\n\nWhat was decided.\n\n## Outcomes\n\nIts effects.\n\n### Positive Outcomes\n\n- outcome 1\n\n### Negative Outcomes\n\n- outcome 1\n',
      'docs/engineering/adr/0001-switch-from-java-to-kotlin.md': record('Switch from Java to Kotlin', 'Write all new code in Kotlin.'),
      'docs/engineering/adr/0002-switch-test-assertions-to-assertk.md': record('Switch Test Assertions from Truth to assertk', 'Use assertk in tests.'),
    });
    repo.commit('records');

    const dry = runCli(['new', 'decision', 'Use Koin for dependency injection', '--dry-run', '--json'], { cwd: repo.dir });
    expect(dry.code, dry.stderr).toBe(0);
    const plan = JSON.parse(dry.stdout) as { id: string; file: string; text: string };
    expect(plan.id).toBe('ADR-0003');
    // the team's template is how it wants a new record to look (DEC-093): its status line keeps its emphasis
    expect(plan.text).toMatch(/^# Use Koin for dependency injection\n\n- Issue: \[#NNNN\]\(https:\/\/example.org\/issues\/NNNN\)\n- Status: \*\*Proposed\*\*\n/);
    expect(plan.text.match(/^#{2,3} .+/gm)).toEqual(['## Context', '## Decision', '## Outcomes', '### Positive Outcomes', '### Negative Outcomes']);

    const title = 'Use Koin modules for dependency injection in every feature module of the app';
    const add = runCli(['add', '-d', title, '--title', title, '-r', 'One wiring style everywhere.', '--format', 'json'], { cwd: repo.dir });
    expect(add.code, add.stderr).toBe(0);
    const added = JSON.parse(add.stdout) as { id: string; file: string };
    expect(added.file).toBe('docs/engineering/adr/0003-use-koin-modules-for-dependency-injection-in-every-feature.md');
    const text = readFileSync(path.join(repo.dir, added.file), 'utf8');
    expect(text).toContain('- Status: **Accepted**\n');
    expect(text).toMatch(/## Context\n\nOne wiring style everywhere\.\n\n## Decision\n\nUse Koin modules/);
    expect(text).toMatch(/## Outcomes\n\nIts effects\.\n\n### Positive Outcomes\n/);
    expect(text).not.toContain('## Consequences');
    const list = runCli(['list', '--json'], { cwd: repo.dir });
    expect((JSON.parse(list.stdout) as { artifacts: { id: string; status: string }[] }).artifacts.find((a) => a.id === 'ADR-0003')?.status).toBe('accepted');
  });
});
