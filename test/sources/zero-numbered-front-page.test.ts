import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

const tableRecord = (status: string, title: string) =>
  `| Status   | Date       | Author(s)           |\n|:---------|:-----------|:--------------------|\n| ${status} | 2025-02-03 | [@ana](https://example.invalid/ana) |\n\n## Context\n\nWhy we ${title}.\n\n## Decision\n\nWe ${title}.\n\n## Consequences\n\nFewer moving parts.\n`;

const rstRecord = (n: string, title: string) =>
  `ADR-${n}: ${title}\n${'='.repeat(9 + title.length)}\n\nStatus\n------\nAccepted\n\nContext\n-------\nWhy ${title}.\n\nDecision\n--------\nWe use ${title}.\n\nRelated ADRs\n------------\n- [ADR-000: Introduction](000-intro)\n`;

/**
 * trials27: DependencyTrack/hyades keeps `000-index.md` (where the records live, and the
 * template inside a fenced block) and smarter-sh/smarter `000-intro.rst` (guidelines for
 * writing records, linked from every record's "Related ADRs") beside their numbered records.
 * Both were listed as "ADR-000", found by search, and in smarter every record related to it.
 * A page numbered zero with no status and no record part outside a fence is no record, and a
 * link to it no relation; a record numbered zero with a status stays one.
 */
describe('a front page numbered zero among the records', () => {
  it('markdown: 000-index.md with a fenced template is no record; 0000 with a status is', () => {
    const repo = makeRepo({
      'docs/architecture/decisions/000-index.md': 'This is where the decision records live.\n\n## Template\n\nCopy this when adding one:\n\n```markdown\n| Status | Date | Author(s) |\n|:--|:--|:--|\n| Proposed | yyyy-mm-dd | @you |\n\n## Context\n\nWhat moves us?\n\n## Decision\n\nWhat do we do?\n\n## Consequences\n\nWhat changes?\n```\n',
      'docs/architecture/decisions/001-drop-the-broker.md': tableRecord('Proposed', 'drop the message broker'),
      'docs/architecture/decisions/002-store-files-in-a-bucket.md': tableRecord('Accepted', 'store large files in a bucket'),
      'docs/architecture/decisions/003-one-user-table.md': tableRecord('Accepted', 'keep one user table'),
      'docs/adr/0000-use-adrs.md': '# 0. Use ADRs\n\n## Status\n\nAccepted\n\n## Context\n\nWe forget why.\n\n## Decision\n\nWe write records.\n',
      'docs/adr/0001-pick-a-queue.md': '# 1. Pick a queue\n\n## Status\n\nAccepted\n\n## Decision\n\nOne queue.\n',
      'docs/adr/0002-pick-a-logger.md': '# 2. Pick a logger\n\n## Status\n\nAccepted\n\n## Decision\n\nOne logger.\n',
    });
    repo.commit('records');
    const init = runCli(['init'], { cwd: repo.dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain('docs/architecture/decisions/  3 records');
    const list = JSON.parse(runCli(['list', '--json'], { cwd: repo.dir }).stdout) as { artifacts: { id: string; file: string }[] };
    const files = list.artifacts.map((a) => a.file).filter((f) => !f.startsWith('.contextia/'));
    expect(files).not.toContain('docs/architecture/decisions/000-index.md');
    expect(files).toContain('docs/adr/0000-use-adrs.md');
    const search = runCli(['search', '--json', 'where', 'do', 'the', 'decision', 'records', 'live'], { cwd: repo.dir });
    expect(search.stdout).not.toContain('000-index');
    expect(runCli(['check'], { cwd: repo.dir }).code).toBe(0);
  });

  it('reStructuredText: 000-intro.rst is no record, and the records linking it relate to nothing', () => {
    const repo = makeRepo({
      'docs/source/adr/000-intro.rst': 'Record Introduction\n===================\n\nShort documents, one decision each.\n\nGuidelines for Writing Records\n------------------------------\n\n- One decision per record.\n- Keep it brief.\n',
      'docs/source/adr/001-web-framework.rst': rstRecord('001', 'one web framework'),
      'docs/source/adr/002-containers.rst': rstRecord('002', 'containers everywhere'),
      'docs/source/adr/003-task-queue.rst': rstRecord('003', 'a task queue'),
    });
    repo.commit('records');
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.stdout + check.stderr).not.toContain('broken-link');
    expect(check.code, check.stdout).toBe(0);
    const list = JSON.parse(runCli(['list', '--json'], { cwd: repo.dir }).stdout) as { artifacts: { id: string }[] };
    expect(list.artifacts.map((a) => a.id)).toEqual(['ADR-001', 'ADR-002', 'ADR-003']);
    const show = JSON.parse(runCli(['show', '2', '--json'], { cwd: repo.dir }).stdout) as { relationsFromText?: unknown; reverse: unknown };
    expect(show.relationsFromText).toBeUndefined();
  });
});
