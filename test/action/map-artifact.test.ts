import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { governanceScenario } from '../pr/scenario.js';
import { FakeResults, runtimeToken } from './fake-results.js';
import { pullRequestEvent, useFakeGitHub } from './run-action.js';

const TOKEN = runtimeToken('11111111-2222-4333-8444-555555555555', '66666666-7777-4888-9999-000000000000');
const github = useFakeGitHub();
let results: FakeResults | undefined;
afterEach(async () => {
  await results?.stop();
  results = undefined;
});

/** The runner's variables for artifact uploads, pointing at the fake results service; github.com so the client does not refuse a GHES host. */
const resultsEnv = (url: string) => ({ ACTIONS_RESULTS_URL: url, ACTIONS_RUNTIME_TOKEN: TOKEN, GITHUB_SERVER_URL: 'https://github.com' });

describe('GitHub Action: the decision map attached to the run (committed bundle, fake results service)', () => {
  it('map: true writes the page of the head commit, uploads it unzipped and links it from the job summary', { timeout: 120_000 }, async () => {
    results = new FakeResults({ token: TOKEN });
    const url = await results.start();
    const s = await governanceScenario();
    const r = await github.pr(s.repo.dir, { number: 7, base: s.base, head: s.head }, { inputs: { map: 'true' }, env: resultsEnv(url) });
    expect(r.stderr).not.toMatch(/TypeError|ReferenceError/);

    const file = r.outputs['map-path']!;
    expect(file).toMatch(/[\\/]\.git[\\/]ctx[\\/]action[\\/]decision-map\.html$/);
    const page = readFileSync(file);
    const text = page.toString('utf8');
    // self-contained: cytoscape inlined from the bundle (the Action has no node_modules), the records in the data
    expect(text).toContain('<meta name="generator" content="git-ctx map">');
    expect(text).toMatch(/cytoscape/i);
    expect(text.length).toBeGreaterThan(300_000);
    expect(text).toContain('"DEC-BILLING-001"');
    expect(text).toContain("default-src 'none'");

    // the protocol, in order: CreateArtifact, block uploads to the signed URL, the block list, FinalizeArtifact
    const kinds = results.requests.map((q) => (q.path.includes('/twirp/') ? q.path.split('/').pop()! : `PUT ${q.query.comp}`));
    expect(kinds[0]).toBe('CreateArtifact');
    expect(kinds.at(-1)).toBe('FinalizeArtifact');
    expect(kinds.slice(1, -1)).toContain('PUT blocklist');
    expect(kinds.slice(1, -2).every((k) => k === 'PUT block')).toBe(true);
    const create = JSON.parse(results.requests[0]!.body.toString('utf8')) as Record<string, unknown>;
    expect(create).toMatchObject({ name: 'decision-map.html', workflow_run_backend_id: '11111111-2222-4333-8444-555555555555', workflow_job_run_backend_id: '66666666-7777-4888-9999-000000000000', mime_type: 'text/html' });

    // the uploaded bytes are the map, byte for byte, and the reported size and hash match them
    expect(results.artifacts).toHaveLength(1);
    const a = results.artifacts[0]!;
    expect(Buffer.compare(a.blob!, page)).toBe(0);
    expect(a.blobContentType).toContain('text/html');
    expect(a.finalized).toEqual({ size: String(page.length), hash: `sha256:${createHash('sha256').update(page).digest('hex')}` });

    expect(r.outputs['map-artifact-id']).toBe(String(a.id));
    expect(r.summary).toContain('### Decision map');
    expect(r.summary).toContain(`[decision-map.html](https://github.com/acme/widgets/actions/runs/4242/artifacts/${a.id})`);
    // the pull-request report is unchanged: the job still fails on the coherence error the PR adds
    expect(r.code).toBe(1);
    expect(r.outputs['comment-action']).toBe('created');
  });

  it('an upload the service refuses is a warning: the page is still written, its path output, the summary says how to attach it', { timeout: 120_000 }, async () => {
    results = new FakeResults({ token: TOKEN, failCreate: true });
    const url = await results.start();
    const s = await governanceScenario();
    const r = await github.run({
      workspace: s.repo.dir,
      event: pullRequestEvent({ number: 7, base: s.base, head: s.head }),
      inputs: { map: 'true', 'fail-on': 'never' },
      env: { ...resultsEnv(url), ACTIONS_ARTIFACT_UPLOAD_TIMEOUT_MS: '20000' },
    });
    expect(r.code).toBe(0);
    expect(existsSync(r.outputs['map-path']!)).toBe(true);
    expect(r.outputs['map-artifact-id']).toBe('');
    expect(r.annotations.find((x) => x.level === 'warning' && x.message.includes('the decision map was written but not uploaded'))).toBeDefined();
    expect(r.summary).toContain('but not uploaded');
    expect(r.summary).toContain('actions/upload-artifact');
  });

  it('without the map input nothing is written or uploaded, and a wrong value is a usage error naming the input', { timeout: 120_000 }, async () => {
    results = new FakeResults({ token: TOKEN });
    const url = await results.start();
    const s = await governanceScenario();
    const off = await github.pr(s.repo.dir, { number: 7, base: s.base, head: s.head }, { inputs: { 'fail-on': 'never' }, env: resultsEnv(url) });
    expect(off.code).toBe(0);
    expect(off.outputs['map-path']).toBeUndefined();
    expect(off.summary).not.toContain('Decision map');
    expect(results.requests).toHaveLength(0);
    const bad = await github.pr(s.repo.dir, { number: 7, base: s.base, head: s.head }, { inputs: { map: 'ture' }, env: resultsEnv(url) });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('::error::input map must be true or false (got "ture")');
  });
});
