import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzePullRequest } from '../../src/pr/analyze.js';
import { renderPrComment } from '../../src/pr/render.js';
import { runCli } from '../helpers/cli.js';
import { pullRequestRepo } from '../helpers/git-repo.js';
import { useFakeGitHub } from './run-action.js';

const FIX = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/authoring-similar/repo');

/** main with the fixture; a feature branch where an agent proposed a decision (add --propose) and committed it. */
function scenario() {
  let file = '';
  const pr = pullRequestRepo({
    fixture: FIX,
    change: (repo) => {
      const p = runCli(['add', '--propose', '--session', 'sess-pr-7', '--decision', 'Verify webhook signatures before processing any webhook payload.'], { cwd: repo.dir });
      expect(p.code, p.stderr).toBe(0);
      file = p.stdout.trim();
    },
  });
  return { ...pr, file };
}

const github = useFakeGitHub();

describe('PR bot: records proposed in the pull request', () => {
  it('analysis lists them with their provenance; the comment says who proposed them and how to confirm', async () => {
    const s = scenario();
    const r = await analyzePullRequest({ cwd: s.repo.dir, base: 'main', head: 'feature', cache: false });
    expect(r.proposals).toEqual([expect.objectContaining({ id: 'DEC-011', file: s.file, source: 'ai_chat', session_id: 'sess-pr-7', commit: s.base })]);
    const md = renderPrComment(r);
    // said on the record's own line under "Records this PR changes" (DEC-084)
    expect(md).not.toContain('#### Proposed decisions to confirm');
    expect(md).toMatch(/- Adds decision \*\*DEC\\-011\*\* Verify webhook signatures before processing any webhook payload[^\n]*\n/);
    expect(md).toContain(`\n  - 📝 proposed by an agent in session \`sess-pr-7\` at \`${s.base.slice(0, 12)}\`. Confirm: \`git ctx confirm DEC-011\` (or \`git ctx reject DEC-011\`), then commit.`);
    expect(md).not.toMatch(/ai_inferred|confidence/);
  });

  it('the Action posts the list in its comment (committed bundle, fake GitHub); a confirmed record is no longer listed', async () => {
    const s = scenario();
    const r = await github.pr(s.repo.dir, { number: 11, base: s.base, head: s.head }, { inputs: { 'fail-on': 'never' } });
    expect(r.code, r.stderr).toBe(0);
    const body = github.comment(11)!;
    expect(body).toContain('proposed by an agent in session `sess-pr-7`');
    expect(body).toContain('`git ctx confirm DEC-011`');

    expect(runCli(['confirm', 'DEC-011'], { cwd: s.repo.dir }).code).toBe(0);
    s.repo.commit('confirmed');
    const after = await analyzePullRequest({ cwd: s.repo.dir, base: 'main', head: 'feature', cache: false });
    expect(after.proposals).toBeUndefined();
  });
});
