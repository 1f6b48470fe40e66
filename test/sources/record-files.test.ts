import { describe, expect, it } from 'vitest';
import { isAdrFile } from '../../src/artifacts/sources/files.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

// Green-Software-Foundation/carbon-aware-sdk keeps its template beside the records as
// 0000-ladr-template.md: numbered zero so it sorts first. It is no decision, yet it was read as
// ADR-0000 ("18 records" for 17, a node on the map, a search result for off-topic questions).
describe('which files of a record folder are records', () => {
  it('a template numbered zero is not a record; a real record zero and a later record about templates are', () => {
    for (const f of ['0000-ladr-template.md', '0000-template.md', '000-adr-template.md', '0-madr-template.md', '0000_Template.rst', '0000-template-long-form.md']) {
      expect(isAdrFile(`docs/adr/${f}`), f).toBe(false);
    }
    for (const f of ['0000-use-markdown-architectural-decision-records.md', '0012-email-templates.md', '0003-template-engine.md', '0001-record-architecture-decisions.md', '0000-contemplate-caching.md']) {
      expect(isAdrFile(`docs/adr/${f}`), f).toBe(true);
    }
    // as before: a README, index or template without a number is not a record
    for (const f of ['README.md', 'template.md', 'adr-template.md', 'index.md']) expect(isAdrFile(`docs/adr/${f}`), f).toBe(false);
  });

  it('init counts, and list shows, the records without the template', () => {
    const repo = makeRepo();
    repo.commit('records', {
      'docs/architecture/decisions/0000-ladr-template.md': '# NNNN. Title\n\n## Status\n\nProposed | Accepted\n\n## Context\n\nWhat is the issue?\n\n## Decision\n\nWhat is the change?\n',
      'docs/architecture/decisions/0001-record-architecture-decisions.md': '# 1. Record Architecture Decisions\n\n## Status\n\nAccepted\n\n## Decision\n\nWe will use Architecture Decision Records.\n',
      'docs/architecture/decisions/0002-dev-containers.md': '# 2. Dev Containers\n\n## Status\n\nAccepted\n\n## Decision\n\nAll developer documentation focuses on the dev container.\n',
    });
    const init = runCli(['init'], { cwd: repo.dir });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toMatch(/docs\/architecture\/decisions\/\s+2 records/);
    const list = runCli(['list', '--json'], { cwd: repo.dir });
    expect(list.code, list.stderr).toBe(0);
    const ids = (JSON.parse(list.stdout) as { artifacts: { id: string }[] }).artifacts.map((a) => a.id);
    expect(ids.filter((id) => id.startsWith('ADR-')).sort()).toEqual(['ADR-0001', 'ADR-0002']);
  });

  // smorinlabs/envgen keeps docs/adr/AGENTS.md: how an agent should write the next record. Its
  // template line made it "ADR-agents", a proposal waiting for a person, in proposals and search.
  it('the agents\' instruction files of a record folder are not records, nor proposals', () => {
    for (const f of ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md', 'agents.md']) expect(isAdrFile(`docs/adr/${f}`), f).toBe(false);
    const repo = makeRepo();
    repo.commit('records', {
      'docs/adr/AGENTS.md': '# Working on the records here\n\nNumber each record four digits wide.\n\n- Status: `Proposed` | `Accepted` | `Superseded`\n',
      'docs/adr/0001-keep-one-queue.md': '# 0001: Keep one queue\nDate: 2026-01-02\nStatus: Accepted\n\n## Decision\n\nAll jobs go through one queue.\n',
      'docs/adr/0002-retry-twice.md': '# 0002: Retry twice\nDate: 2026-01-03\nStatus: Proposed\n\n## Decision\n\nA failed job is retried twice.\n',
    });
    const proposals = runCli(['proposals', '--json'], { cwd: repo.dir });
    expect(proposals.code, proposals.stderr).toBe(0);
    expect((JSON.parse(proposals.stdout) as { proposals: { id: string }[] }).proposals.map((p) => p.id)).toEqual(['ADR-0002']);
    const list = runCli(['list', '--json'], { cwd: repo.dir });
    expect((JSON.parse(list.stdout) as { artifacts: { id: string }[] }).artifacts.map((a) => a.id).sort()).toEqual(['ADR-0001', 'ADR-0002']);
  });
});
