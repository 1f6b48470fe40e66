import { describe, expect, it } from 'vitest';
import { suggestionMarker } from '../../src/action/suggestions.js';
import { COMMENT_MARKER, COMMENT_MAX_CHARS } from '../../src/pr/render.js';
import { makeRepo } from '../helpers/git-repo.js';
import { paymentsScenario } from '../pr/payments-scenario.js';
import { BOT, pullRequestEvent, useFakeGitHub } from './run-action.js';

const T = 90_000;
const github = useFakeGitHub();

describe('GitHub Action: the comment a reviewer reads (bundle, real process, fake GitHub)', () => {
  it('made stale first with commands, the stamp suggestion on the diff, the footnote; the job summary has the same and more', { timeout: T }, async () => {
    const s = await paymentsScenario();
    const event = pullRequestEvent({ number: 21, base: s.base, head: s.head });
    const r = await github.run({ workspace: s.repo.dir, event, inputs: { 'fail-on': 'stale' } });

    const [comment] = github.server.commentsBy(21, BOT);
    const body = comment!.body;
    expect(body.startsWith(COMMENT_MARKER)).toBe(true);
    const stale = body.indexOf('#### Made stale by this PR');
    expect(stale).toBeGreaterThan(0);
    expect(stale).toBeLessThan(body.indexOf('#### Governing artifacts'));
    expect(body).toContain('This PR changes code governed by `DEC-PAY-001` without re-stamping it: `src/payments/charge.ts#createCharge` changed');
    expect(body).toContain('then `git ctx ack DEC-PAY-002` and commit the stamp.');
    expect(body).toContain('```suggestion\n');
    expect(body).toContain('<sub>Not scored: 7 changed files no record can govern — ');
    for (const p of ['package-lock.json', 'vendor/uuid/index.js', 'src/gen/openapi.ts']) {
      expect(body).toContain(`\`${p}\``);
      // no annotation on a file no record can govern
      expect(r.annotations.some((a) => a.props.file === p)).toBe(false);
    }
    expect(body.length).toBeLessThanOrEqual(COMMENT_MAX_CHARS);

    // the summary carries everything the comment does, without the marker
    expect(r.summary).not.toContain(COMMENT_MARKER);
    for (const part of ['#### Made stale by this PR', '`git ctx ack DEC-PAY-001`', '<sub>Not scored: 7 changed files', '| `SPEC-PAY-001` Payments API']) expect(r.summary).toContain(part);

    // the suggestion, where GitHub lets the author apply it: a review comment on the stamp's lines at head
    expect(github.server.reviewComments).toHaveLength(1);
    const rc = github.server.reviewComments[0]!;
    expect(rc).toMatchObject({ pull: 21, path: '.contextia/system/rationale/DEC-PAY-001.md', commit_id: s.head, start_line: 10, line: 12, side: 'RIGHT', user: { login: BOT } });
    expect(rc.body.startsWith(suggestionMarker('DEC-PAY-001'))).toBe(true);
    expect(rc.body).toContain(`\`\`\`suggestion\n  commit: ${s.head}\n  fingerprints:\n    src/payments/charge.ts#createCharge: `);
    expect(r.stdout).toContain('git-ctx: stamp suggestions: 1 posted, 0 unchanged, 0 outdated removed');
    // fail-on stale: three records made stale
    expect(r.code).toBe(1);
    expect(r.outputs['unstamped-count']).toBe('1');

    // a re-run posts nothing new
    const before = github.server.writes().length;
    const again = await github.run({ workspace: s.repo.dir, event, inputs: { 'fail-on': 'never' } });
    expect(again.code).toBe(0);
    expect(github.server.writes().length).toBe(before);
    expect(again.stdout).toContain('git-ctx: stamp suggestions: 0 posted, 1 unchanged, 0 outdated removed');
  });

  it('a read-only token: no review comment is tried, the suggestion stays in the job summary, the job not failed by it', { timeout: T }, async () => {
    await github.restart({ readOnly: true });
    const s = await paymentsScenario();
    const r = await github.pr(s.repo.dir, { number: 22, base: s.base, head: s.head, fork: true }, { inputs: { 'fail-on': 'never' } });
    expect(r.code).toBe(0);
    expect(github.server.reviewComments).toHaveLength(0);
    expect(github.server.requests.some((q) => q.path.endsWith('/pulls/22/comments'))).toBe(false);
    expect(r.outputs['comment-action']).toBe('forbidden');
    expect(r.summary).toContain('```suggestion');
  });

  it(`a wide PR: the comment stays within ${COMMENT_MAX_CHARS} characters and names the job summary and \`git ctx pr --all\`; the summary lists every record`, { timeout: T }, async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 120; i++) {
      files[`.contextia/system/rationale/DEC-W${i}.md`] = `---\nid: DEC-W${i}\ntype: decision\nstatus: accepted\ntitle: Widget ${i} validates its input at the edge and nowhere else\nsummary: ${'One careful line of why, as reviewers like to read it. '.repeat(2)}\npaths: [src/w${i}/**]\n---\n# W${i}\n`;
      files[`src/w${i}/index.ts`] = `export const w${i} = ${i};\n`;
    }
    files['package-lock.json'] = '{}\n';
    const repo = makeRepo(files);
    const base = repo.commit('base');
    repo.git('checkout', '-q', '-b', 'wide');
    const change: Record<string, string> = { 'package-lock.json': '{ "lockfileVersion": 3 }\n' };
    for (let i = 0; i < 120; i++) change[`src/w${i}/index.ts`] = `export const w${i} = ${i + 1};\n`;
    const head = repo.commit('touch every widget', change);
    const r = await github.pr(repo.dir, { number: 23, base, head }, { inputs: { 'fail-on': 'never' } });
    expect(r.code).toBe(0);
    const body = github.comment(23)!;
    expect(body.length).toBeLessThanOrEqual(COMMENT_MAX_CHARS);
    expect(body).toContain(`to keep this comment short: the full list is in the [job summary](https://github.example/acme/widgets/actions/runs/4242) and in \`git ctx pr --all --base ${base} --head ${head}\`.`);
    expect(body).toContain('<sub>Not scored: 1 changed file no record can govern — 1 lockfile (`package-lock.json`).</sub>');
    const shown = new Set(body.match(/`DEC-W\d+`/g));
    expect(shown.size).toBeLessThan(120);
    for (let i = 0; i < 120; i++) expect(r.summary).toContain(`| \`DEC-W${i}\` Widget ${i} validates`);
    expect(r.summary).not.toContain('left out');
  });
});
