import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

/**
 * smorinlabs/envgen's shape (agents33): record 12 keeps status Accepted and opens with a note of its
 * own, "> **Partially superseded.** The tool chosen below is superseded by [record 17](…)"; record 17
 * "supersedes the tool-choice portion of" 12. check told the team to mark 12 superseded, which
 * would take its still-standing rest out of rules export and retrieval, and search showed 12 to an
 * agent as "17 supersedes 12".
 */
function fixture() {
  const repo = makeRepo({
    'docs/adr/0012-one-set-of-quality-gates.md':
      '# 0012: One set of quality gates\nDate: 2026-02-16\nStatus: Accepted\n\n> **Partially superseded.** The hook runner chosen below is superseded by\n> [ADR-0017](0017-switch-hook-runner.md). The rest of this record stands.\n\n## Decision\n\nThe Makefile defines every quality gate; CI and the hook runner call its targets.\n',
    'docs/adr/0017-switch-hook-runner.md':
      '# 0017: Switch the hook runner\nDate: 2026-08-15\nStatus: Accepted\n\nSupersedes the hook-runner portion of ADR-0012. The Makefile rule of ADR-0012 stands.\n\n## Decision\n\nGit hooks run through the new runner, calling the same Makefile targets.\n',
    'docs/adr/0020-drop-old-builds.md': '# 0020: Drop old builds\nDate: 2026-08-20\nStatus: Superseded\n\nSuperseded by [ADR-0021](0021-keep-builds.md).\n',
    'docs/adr/0021-keep-builds.md': '# 0021: Keep builds\nDate: 2026-08-21\nStatus: Accepted\n\n## Decision\n\nBuilds are kept for a year.\n',
  });
  repo.commit('records');
  return repo;
}

describe('a record that notes it is partially superseded, status still accepted', () => {
  it('its "superseded by" is an amendment: check asks nothing, the record stands; a whole supersession stays one', () => {
    const repo = fixture();
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.stdout).not.toContain('superseded-still-active');
    const twelve = runCli(['show', '12'], { cwd: repo.dir });
    expect(twelve.stdout).toContain('amended_by (computed): ADR-0017');
    expect(twelve.stdout).not.toContain('superseded_by');
    const twenty = runCli(['show', '20'], { cwd: repo.dir });
    expect(twenty.stdout).toContain('superseded_by');
  });
});
