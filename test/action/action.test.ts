import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { COMMENT_MARKER } from '../../src/pr/render.js';
import { makeRepo } from '../helpers/git-repo.js';
import { governanceScenario } from '../pr/scenario.js';
import { BOT, pullRequestEvent, useFakeGitHub } from './run-action.js';

const github = useFakeGitHub();

describe('GitHub Action (committed bundle, real process, fake GitHub)', () => {
  it('first run creates the sticky comment, writes summary, outputs and bounded annotations', async () => {
    const s = await governanceScenario();
    const r = await github.pr(s.repo.dir, { number: 7, base: s.base, head: s.head });
    const mine = github.server.commentsBy(7, BOT);
    expect(mine).toHaveLength(1);
    const body = mine[0]!.body;
    expect(body.startsWith(COMMENT_MARKER)).toBe(true);
    expect(body).toContain('`DEC-BILLING-001`');
    expect(body).toContain('This PR changes code governed by `DEC-BILLING-001` without re-stamping it');
    expect(body).toContain(`reproduce locally: \`git ctx pr --base ${s.base} --head ${s.head}\``);
    // quoted repository text is escaped: no ping, no HTML, no broken table cell
    expect(body).not.toMatch(/@billing-team/);
    expect(body).toContain('@\u200dbilling\\-team');
    expect(body).not.toContain('<script>');
    expect(body).toContain('\\|');

    expect(r.outputs['comment-action']).toBe('created');
    expect(r.outputs['comment-id']).toBe(String(mine[0]!.id));
    expect(r.outputs['comment-url']).toBe(mine[0]!.html_url);
    expect(r.outputs['governing-ids']).toBe('DEC-BILLING-001,SPEC-API-001');
    expect(r.outputs['artifact-ids']!.split(',')).toEqual(['DEC-BILLING-001', 'SPEC-API-001', 'SPEC-API-002', 'NORM-ERROR-001', 'DEC-BILLING-000']);
    expect(Number(r.outputs['stale-count'])).toBeGreaterThanOrEqual(1);
    expect(r.outputs['unstamped-count']).toBe('1');
    expect(r.summary).toContain('### git-ctx: context for this pull request');
    expect(r.summary).not.toContain(COMMENT_MARKER);

    const warn = r.annotations.filter((a) => a.level === 'warning');
    expect(warn.find((a) => a.props.file === 'src/billing/invoice.ts')).toMatchObject({ props: { line: '4', endLine: '8' } });
    expect(r.annotations.find((a) => a.level === 'error' && a.props.file === '.contextia/system/specs/SPEC-API-002.md')).toBeDefined();
    // the PR adds a broken link: fail-on error (default) fails the job
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('::error::git-ctx: the pull request introduces 1 coherence error, 1 warning (fail-on: error)');
    // the token's login was looked up (GraphQL, then REST) before any comment was touched
    expect(github.server.requests.map((q) => `${q.method} ${q.path}`).slice(0, 2)).toEqual(['POST /graphql', 'GET /user']);
  });

  it('a re-run updates that one comment in place, and leaves it alone when nothing changed', async () => {
    const s = await governanceScenario();
    // someone else's comment quoting the marker, and enough chatter to need a second page
    const other = github.server.addComment(7, 'mallory', `${COMMENT_MARKER} not the bot`);
    for (let i = 0; i < 120; i++) github.server.addComment(7, 'alice', `comment ${i}`);
    const event = pullRequestEvent({ number: 7, base: s.base, head: s.head });
    const inputs = { 'fail-on': 'never' };
    const first = await github.run({ workspace: s.repo.dir, event, inputs });
    expect(first.code).toBe(0);
    const id = first.outputs['comment-id'];

    const same = await github.run({ workspace: s.repo.dir, event, inputs });
    expect(same.outputs['comment-action']).toBe('unchanged');
    expect(same.outputs['comment-id']).toBe(id);

    // a new push: the comment changes, in place
    const head2 = s.repo.commit('fix the link', { '.contextia/system/specs/SPEC-API-002.md': '---\nid: SPEC-API-002\ntype: spec\ntitle: Fixed\nstatus: active\nlinks: { specs: [SPEC-API-001] }\n---\n# Fixed\n' });
    const writesBefore = github.server.writes().length;
    const again = await github.pr(s.repo.dir, { number: 7, base: s.base, head: head2 }, { inputs });
    expect(again.outputs['comment-action']).toBe('updated');
    expect(again.outputs['comment-id']).toBe(id);
    expect(github.server.writes().slice(writesBefore).map((w) => w.method)).toEqual(['PATCH']);
    const mine = github.server.commentsBy(7, BOT);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.body).toContain(head2.slice(0, 12));
    expect(mine[0]!.body).not.toContain('broken-link');
    expect(github.server.comments.find((c) => c.id === other.id)!.body).toBe(`${COMMENT_MARKER} not the bot`);
    // the listing was paginated (122 comments, 100 per page)
    expect(github.server.requests.some((q) => q.path.endsWith('/issues/7/comments') && q.query.page === '2')).toBe(true);
  });

  it('duplicates left by concurrent runs are removed, keeping the oldest', async () => {
    const s = await governanceScenario();
    const a = github.server.addComment(7, BOT, `${COMMENT_MARKER}\nold 1`);
    github.server.addComment(7, BOT, `${COMMENT_MARKER}\nold 2`);
    const r = await github.pr(s.repo.dir, { number: 7, base: s.base, head: s.head }, { inputs: { 'fail-on': 'never' } });
    expect(r.outputs['comment-id']).toBe(String(a.id));
    expect(github.server.commentsBy(7, BOT).map((c) => c.id)).toEqual([a.id]);
  });

  it('nothing applies: no new comment; an earlier one collapses to a short note', async () => {
    const s = await governanceScenario();
    s.repo.git('checkout', '-q', '-b', 'docs', s.base);
    const head = s.repo.commit('docs only', { 'src/readme.txt': 'plain text, changed\n' });
    const event = pullRequestEvent({ number: 8, base: s.base, head });
    const r = await github.run({ workspace: s.repo.dir, event });
    expect(r.code).toBe(0);
    expect(r.outputs['comment-action']).toBe('skipped');
    expect(r.outputs['comment-id']).toBe('');
    expect(github.server.commentsBy(8, BOT)).toHaveLength(0);
    expect(r.summary).toContain('no decision, spec or norm governs the code this PR changes');

    const earlier = github.server.addComment(8, BOT, `${COMMENT_MARKER}\n### git-ctx: context for this pull request\nlong old table`);
    const r2 = await github.run({ workspace: s.repo.dir, event });
    expect(r2.outputs['comment-action']).toBe('updated');
    const body = github.comment(8)!;
    expect(github.server.commentsBy(8, BOT)[0]!.id).toBe(earlier.id);
    expect(body).toContain('no decision, spec or norm governs the code this PR changes (1 file checked)');
    expect(body.length).toBeLessThan(600);
  });

  it('no record declares the change but retrieval finds one: the comment says so and lists it, numbered, linked to the record at head', async () => {
    const repo = makeRepo({
      'src/webhooks/limiter.ts': '// throttle webhook deliveries with a token bucket\nexport function throttle(sender: string) {\n  return sender;\n}\n',
      '.contextia/system/rationale/DEC-RATE.md': '---\nid: DEC-RATE\ntype: decision\ntitle: Throttle webhooks per sender\nstatus: accepted\nkeywords: [throttle, webhook, token bucket]\n---\n\n# Throttle webhooks\n\nWebhook deliveries are throttled per sender.\n',
      // retrieval over the change weighs words by how rare they are among the records: a set of one says nothing (DEC-059)
      ...Object.fromEntries(['Invoices keep cents', 'Logs are JSON lines', 'Reports render monthly'].map((t, i) => [`.contextia/system/rationale/DEC-OTHER-${i}.md`, `---\nid: DEC-OTHER-${i}\ntype: decision\ntitle: ${t}\nstatus: accepted\n---\n\n# ${t}\n\n${t}.\n`])),
    });
    const base = repo.commit('base');
    repo.git('checkout', '-q', '-b', 'tweak');
    const head = repo.commit('tweak', { 'src/webhooks/limiter.ts': '// throttle webhook deliveries with a token bucket\nexport function throttle(sender: string) {\n  return sender.trim();\n}\n' });
    const event = pullRequestEvent({ number: 9, base, head });
    const earlier = github.server.addComment(9, BOT, `${COMMENT_MARKER}\n### git-ctx: context for this pull request\nlong old table`);
    const r = await github.run({ workspace: repo.dir, event });
    expect(r.code).toBe(0);
    expect(r.outputs['comment-action']).toBe('updated');
    const body = github.comment(9)!;
    expect(github.server.commentsBy(9, BOT)[0]!.id).toBe(earlier.id);
    // found by the change's words is an answer, not "nothing governs": said plainly, the record listed open
    expect(body).not.toContain('no decision, spec or norm governs');
    expect(body).toContain('No record declares the code this PR changes (1 changed file); **1 record** matches its lines, paths or description.');
    expect(body).toContain('#### Decisions this change concerns, strongest first');
    expect(body).toMatch(new RegExp(`\\n1\\. \\[\\*\\*DEC\\\\-RATE\\*\\*\\]\\(https://github\\.example/acme/widgets/blob/${head}/\\.contextia/system/rationale/DEC-RATE\\.md\\) Throttle webhooks per sender \\(accepted\\) — .*\`src/webhooks/limiter\\.ts:3\``));
    expect(r.summary).toContain('#### Decisions this change concerns, strongest first');
    // a pull request without an earlier comment gets one: a found record is worth posting
    const fresh = await github.run({ workspace: repo.dir, event: pullRequestEvent({ number: 10, base, head }) });
    expect(fresh.outputs['comment-action']).toBe('created');
    expect(github.comment(10)).toContain('#### Decisions this change concerns, strongest first');
  });

  it('the pull request\'s title and body are part of what retrieval over the change asks with', async () => {
    const repo = makeRepo({
      'src/jobs/worker.ts': 'export function run(job: string) {\n  return job;\n}\n',
      '.contextia/system/rationale/DEC-RATE.md': '---\nid: DEC-RATE\ntype: decision\ntitle: Throttle webhooks per sender\nstatus: accepted\nkeywords: [throttle, webhook, token bucket]\n---\n\n# Throttle webhooks\n\nWebhook deliveries are throttled per sender with a token bucket.\n',
      ...Object.fromEntries(['Invoices keep cents', 'Logs are JSON lines', 'Reports render monthly'].map((t, i) => [`.contextia/system/rationale/DEC-OTHER-${i}.md`, `---\nid: DEC-OTHER-${i}\ntype: decision\ntitle: ${t}\nstatus: accepted\n---\n\n# ${t}\n\n${t}.\n`])),
    });
    const base = repo.commit('base');
    repo.git('checkout', '-q', '-b', 'tweak');
    const head = repo.commit('tweak', { 'src/jobs/worker.ts': 'export function run(job: string) {\n  return job.trim();\n}\n' });
    // the same change, described: the description names what the change is for
    const described = await github.run({
      workspace: repo.dir,
      event: pullRequestEvent({ number: 11, base, head, title: 'Throttle webhook deliveries', body: 'Each sender gets a token bucket so one noisy webhook sender cannot starve the others.' }),
      inputs: { 'fail-on': 'never' },
    });
    expect(described.code).toBe(0);
    // no declared record: no new comment, the job summary carries the retrieved list
    expect(described.summary).toMatch(/DEC\\?-RATE/);
    // undescribed, nothing in the changed lines points at it
    const bare = await github.pr(repo.dir, { number: 12, base, head, title: 'tweak' }, { inputs: { 'fail-on': 'never' } });
    expect(bare.code).toBe(0);
    expect(`${github.server.commentsBy(12, BOT)[0]?.body ?? ''}${bare.summary}`).not.toMatch(/DEC\\?-RATE/);
  });

  it('fork pull request with a read-only token: 403 on comment degrades to summary + annotations, job not failed', async () => {
    await github.restart({ readOnly: true });
    const s = await governanceScenario();
    const r = await github.pr(s.repo.dir, { number: 9, base: s.base, head: s.head, fork: true }, { inputs: { 'fail-on': 'never' } });
    expect(r.code).toBe(0);
    expect(r.outputs['comment-action']).toBe('forbidden');
    expect(github.server.comments).toHaveLength(0);
    expect(r.stdout).toMatch(/::warning::git-ctx: GitHub answered 403/);
    expect(r.summary).toContain('`DEC-BILLING-001`');
    expect(r.annotations.some((a) => a.level === 'warning' && a.props.file === 'src/billing/invoice.ts')).toBe(true);
  });

  it('a user token: the login comes from GraphQL viewer and only that user\'s comment is edited', async () => {
    await github.restart({ userLogin: 'ctx-bot' });
    const s = await governanceScenario();
    const foreign = github.server.addComment(7, BOT, `${COMMENT_MARKER}\nwritten by another token`);
    const r = await github.pr(s.repo.dir, { number: 7, base: s.base, head: s.head }, { inputs: { 'fail-on': 'never' } });
    expect(r.outputs['comment-action']).toBe('created');
    expect(github.server.commentsBy(7, 'ctx-bot')).toHaveLength(1);
    expect(github.server.comments.find((c) => c.id === foreign.id)!.body).toContain('written by another token');
    expect(github.server.requests.filter((q) => q.path === '/user')).toHaveLength(0);
  });

  it('a shallow checkout is deepened until base and head meet', async () => {
    const s = await governanceScenario();
    // more history on both sides than the first fetch brings
    s.repo.git('checkout', '-q', 'main');
    for (let i = 0; i < 3; i++) s.repo.commit(`main ${i}`, { [`docs/main-${i}.txt`]: `${i}\n` });
    const base = s.repo.git('rev-parse', 'HEAD');
    const work = makeRepo();
    execFileSync('git', ['clone', '-q', '--depth=1', '--branch', 'main', `file://${s.repo.dir}`, `${work.dir}/ws`], { env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });
    const ws = `${work.dir}/ws`;
    const r = await github.pr(ws, { number: 7, base, head: s.head }, { inputs: { 'fail-on': 'never', comment: 'false' } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.outputs['comment-action']).toBe('disabled');
    expect(r.outputs['governing-ids']).toBe('DEC-BILLING-001,SPEC-API-001');
    expect(r.summary).not.toContain('Could not judge');
  });

  it('a 1,000-file pull request stays within the comment size cap and points to the job summary', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 400; i++) {
      files[`.contextia/system/specs/SPEC-M${i}.md`] = `---\nid: SPEC-M${i}\ntype: spec\nstatus: active\ntitle: Module ${i} keeps a long and careful title so that rows are not tiny, with words ${'x'.repeat(60)}\npaths: [src/m${i}/**]\n---\n# M${i}\n`;
    }
    for (let i = 0; i < 1000; i++) files[`src/m${i % 400}/f${i}.ts`] = `export const v${i} = ${i};\n`;
    const repo = makeRepo(files);
    const base = repo.commit('base');
    repo.git('checkout', '-q', '-b', 'big');
    const change: Record<string, string> = {};
    for (let i = 0; i < 1000; i++) change[`src/m${i % 400}/f${i}.ts`] = `export const v${i} = ${i + 1};\n`;
    const head = repo.commit('touch everything', change);
    const r = await github.pr(repo.dir, { number: 10, base, head }, { inputs: { 'max-items': '100000', 'fail-on': 'never' } });
    expect(r.code).toBe(0);
    const body = github.comment(10)!;
    expect(body.length).toBeLessThanOrEqual(50_000);
    expect(body).toContain('the full list is in the [job summary](https://github.example/acme/widgets/actions/runs/4242)');
    expect(body).toContain('(1000 of 1000 changed files)');
    // the summary has every artifact
    for (const i of [0, 199, 399]) expect(r.summary).toContain(`\`SPEC-M${i}\``);
    expect(r.outputs['governing-ids']!.split(',')).toHaveLength(400);
    expect(r.annotations.length).toBeLessThanOrEqual(30);
  });
});
