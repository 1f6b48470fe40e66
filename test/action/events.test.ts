import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { governanceScenario } from '../pr/scenario.js';
import { pullRequestEvent, useFakeGitHub } from './run-action.js';

const github = useFakeGitHub();

const repository = { full_name: 'acme/widgets', name: 'widgets', owner: { login: 'acme' }, default_branch: 'main' };

describe('GitHub Action: events and inputs (committed bundle, real process)', () => {
  it('runs on node24', () => {
    expect(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')).toMatch(/^\s+using: node24$/m);
  });

  it('push: analyses before..after, reports through summary and annotations, never comments', async () => {
    const s = await governanceScenario();
    const event = { ref: 'refs/heads/feature', before: s.base, after: s.head, repository, pusher: { name: 'alice' } };
    const r = await github.run({ workspace: s.repo.dir, event, eventName: 'push', env: { GITHUB_SHA: s.head } });
    expect(r.summary).toContain('### git-ctx: context for this pull request');
    expect(r.outputs['governing-ids']).toBe('DEC-BILLING-001,SPEC-API-001');
    expect(r.outputs['comment-action']).toBe('disabled');
    expect(github.server.requests.filter((q) => q.path.includes('/comments'))).toHaveLength(0);
    expect(r.annotations.some((a) => a.props.file === 'src/billing/invoice.ts')).toBe(true);
    // the broken link still fails the job (fail-on: error), named for the push
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('::error::git-ctx: the push to refs/heads/feature introduces 1 coherence error');
    expect(r.stdout + r.stderr).not.toMatch(/\n\s+at \S+/);
  });

  it('push of a new branch, and workflow_dispatch: one notice line, success, no stack', async () => {
    const s = await governanceScenario();
    const created = await github.run({ workspace: s.repo.dir, event: { ref: 'refs/heads/new', before: '0'.repeat(40), after: s.head, repository }, eventName: 'push' });
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('::notice::git-ctx: push creating refs/heads/new: there is no earlier commit to compare with');
    const dispatch = await github.run({ workspace: s.repo.dir, event: { inputs: {}, ref: 'refs/heads/main', repository }, eventName: 'workflow_dispatch' });
    expect(dispatch.code).toBe(0);
    expect(dispatch.stdout).toContain('::notice::git-ctx: nothing to analyse on workflow_dispatch event');
    expect(dispatch.stdout + dispatch.stderr).not.toMatch(/\n\s+at \S+/);
  });

  it('merge_group: analyses the queued commit against its base', async () => {
    const s = await governanceScenario();
    const event = { action: 'checks_requested', merge_group: { base_sha: s.base, head_sha: s.head, head_ref: 'refs/heads/gh-readonly-queue/main/pr-7-abc', base_ref: 'refs/heads/main' }, repository };
    const r = await github.run({ workspace: s.repo.dir, event, eventName: 'merge_group', inputs: { 'fail-on': 'never' } });
    expect(r.code).toBe(0);
    expect(r.outputs['governing-ids']).toBe('DEC-BILLING-001,SPEC-API-001');
    expect(r.outputs['error-count']).toBe('1');
    expect(github.server.requests.filter((q) => q.path.includes('/comments'))).toHaveLength(0);
  });

  it('every input is validated with one clear line and a suggestion, never a stack', async () => {
    const s = await governanceScenario();
    const event = pullRequestEvent({ number: 7, base: s.base, head: s.head });
    const cases: [Record<string, string>, string][] = [
      [{ 'fail-on': 'eror' }, 'input fail-on must be error, warning, stale or never (got "eror"); did you mean error?'],
      [{ 'max-items': 'ten' }, 'input max-items must be a non-negative integer (got "ten")'],
      [{ 'max-items': '-1' }, 'input max-items must be a non-negative integer (got "-1")'],
      [{ comment: 'tru' }, 'input comment must be true or false (got "tru"); did you mean true?'],
      [{ 'include-stale': 'maybe' }, 'input include-stale must be true or false (got "maybe")'],
      [{ 'working-directory': 'no/such/dir' }, 'input working-directory must be a directory inside the workspace'],
      [{ 'github-token': '' }, 'input github-token is empty'],
    ];
    for (const [inputs, message] of cases) {
      const r = await github.run({ workspace: s.repo.dir, event, inputs });
      expect(r.code, JSON.stringify(inputs)).toBe(1);
      expect(r.stdout).toContain(`::error::${message}`);
      expect(r.stdout + r.stderr, JSON.stringify(inputs)).not.toMatch(/\n\s+at \S+/);
    }
    expect(github.server.requests).toHaveLength(0);
  }, 120_000);
});
