import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArtifact } from '../../src/artifacts/parse.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';
import { connect, fixtureRepo } from '../mcp/helpers.js';

const CONFIDENCE_WORDS = /confidence|owner_confirmed|ai_inferred|auto_generated/i;
const WEBHOOK = { decision: 'Verify webhook signatures before processing any webhook payload.', rationale: 'came up while fixing the Stripe handler' };
// a near-duplicate of DEC-BILLING-001 ("Banker's rounding")
const DUP = { decision: "Round invoice totals half to even (banker's rounding), not half up.", rationale: 'totals must match the ledger' };

const read = (dir: string, file: string) => readFileSync(path.join(dir, file), 'utf8');

const NYGARD = (n: number, title: string, status: string) => `# ${n}. ${title}\n\nDate: 2024-01-0${n}\n\n## Status\n\n${status}\n\n## Context\n\nSome context.\n\n## Decision\n\nWe do it.\n\n## Consequences\n\nFine.\n`;

function adrOnlyRepo() {
  const repo = makeRepo({
    '.contextia/config.yaml': 'sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n',
    'docs/adr/0001-record-architecture-decisions.md': NYGARD(1, 'Record architecture decisions', 'Accepted'),
    'docs/adr/0002-use-postgres.md': NYGARD(2, 'Use Postgres for reporting', 'Accepted'),
  });
  repo.commit('adrs');
  return repo;
}

describe('propose_decision (real MCP client)', () => {
  it('writes a proposed record with provenance into a .contextia repository; the agent never sees the confidence', async () => {
    const repo = fixtureRepo();
    const head = repo.git('rev-parse', 'HEAD').trim();
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('propose_decision', { ...WEBHOOK, session_id: 'sess-42' });
    expect(r.isError, r.text).toBeFalsy();
    expect(r.data).toMatchObject({ outcome: 'written', id: 'DEC-001', status: 'proposed', session_id: 'sess-42' });
    expect(r.text).toContain('git ctx confirm DEC-001');
    expect(JSON.stringify(r.data) + r.text).not.toMatch(CONFIDENCE_WORDS);
    const file = r.data.file as string;
    const { artifact } = parseArtifact(file, readFileSync(path.join(repo.dir, file)));
    expect(artifact).toMatchObject({ id: 'DEC-001', status: 'proposed', source: 'ai_chat', owner: 'author@example.com' });
    expect(artifact!.data).toMatchObject({ confidence: 'ai_inferred', session_id: 'sess-42', commit: head, created: new Date().toISOString().slice(0, 10) });
    // read back by the agent: provenance yes, confidence no
    const back = await c.call('read_artifact', { id: 'DEC-001' });
    expect(back.text).toContain('session_id: sess-42');
    expect(back.text).not.toMatch(CONFIDENCE_WORDS);
  });

  it('writes nothing on a near-duplicate and returns the similar records', async () => {
    const repo = fixtureRepo();
    const before = repo.git('status', '--porcelain');
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('propose_decision', DUP);
    expect(r.data).toMatchObject({ outcome: 'conflict' });
    expect((r.data.similar as { id: string }[]).map((s) => s.id)).toEqual(['DEC-BILLING-001']);
    expect(r.text).toContain('Not proposed');
    expect(repo.git('status', '--porcelain')).toBe(before);
  });

  it('writes an ADR in the folder\'s own style into an ADR-only repository, provenance in the sidecar', async () => {
    const repo = adrOnlyRepo();
    const head = repo.git('rev-parse', 'HEAD').trim();
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('propose_decision', { ...WEBHOOK, session_id: 'sess-7' });
    expect(r.isError, r.text).toBeFalsy();
    expect(r.data).toMatchObject({ outcome: 'written', id: 'ADR-0003' });
    const file = r.data.file as string;
    expect(file).toMatch(/^docs\/adr\/0003-verify-webhook-signatures/);
    const text = read(repo.dir, file);
    expect(text).toMatch(/^# 3\. Verify webhook signatures/);
    expect(text).toContain('## Status\n\nProposed\n');
    expect(text).not.toMatch(CONFIDENCE_WORDS);
    const side = read(repo.dir, '.contextia/provenance.jsonl').trim().split('\n').map((l) => JSON.parse(l));
    expect(side).toEqual([{ id: 'ADR-0003', owner: 'author@example.com', session_id: 'sess-7', commit: head, source: 'ai_chat', confidence: 'ai_inferred', date: new Date().toISOString().slice(0, 10) }]);
    const back = await c.call('read_artifact', { id: 'ADR-0003' });
    expect(back.text).toContain('session_id: sess-7');
    expect(back.text).not.toMatch(CONFIDENCE_WORDS);
    // git-ctx commits nothing: the proposal is untracked in the agent's work tree
    expect(repo.git('log', '--oneline').trim().split('\n')).toHaveLength(1);
  });
});

describe('proposals, confirm, reject (CLI)', () => {
  it('round trips an ADR record: only the status word and the sidecar change', () => {
    const repo = adrOnlyRepo();
    const p = runCli(['add', '--propose', '--session', 'cli-1', '--decision', WEBHOOK.decision], { cwd: repo.dir });
    expect(p.code, p.stderr).toBe(0);
    const file = p.stdout.trim();
    const before = read(repo.dir, file);
    const list = runCli(['proposals', '--json'], { cwd: repo.dir });
    expect(list.code, list.stderr).toBe(0);
    const items = JSON.parse(list.stdout).proposals;
    expect(items).toEqual([expect.objectContaining({ id: 'ADR-0003', status: 'proposed', age_days: 0, provenance: expect.objectContaining({ session_id: 'cli-1', source: 'ai_chat', confidence: 'ai_inferred' }) })]);
    const human = runCli(['proposals'], { cwd: repo.dir });
    expect(human.stdout).toContain('session cli-1');
    expect(human.stdout).toContain('today');

    const c = runCli(['confirm', 'ADR-0003'], { cwd: repo.dir });
    expect(c.code, c.stderr).toBe(0);
    expect(read(repo.dir, file)).toBe(before.replace('## Status\n\nProposed\n', '## Status\n\nAccepted\n'));
    expect(JSON.parse(read(repo.dir, '.contextia/provenance.jsonl').trim())).toMatchObject({ id: 'ADR-0003', confidence: 'owner_confirmed', session_id: 'cli-1' });
    expect(JSON.parse(runCli(['proposals', '--json'], { cwd: repo.dir }).stdout).proposals).toEqual([]);
    // provenance from the sidecar filters retrieval: owner and capture source
    const ids = (args: string[]) => (JSON.parse(runCli(['search', 'verify webhook signatures', '--format', 'json', ...args], { cwd: repo.dir }).stdout).results as { id: string }[]).map((x) => x.id);
    expect(ids([])).toContain('ADR-0003');
    expect(ids(['--owner', 'author@example.com'])).toEqual(['ADR-0003']);
    expect(ids(['--source', 'ai_chat'])).toEqual(['ADR-0003']);
    // records people wrote in the folder read as manual
    expect(ids(['--source', 'manual'])).not.toContain('ADR-0003');
    expect(ids(['--source', 'adr'])).toContain('ADR-0003');
    const show = runCli(['show', 'ADR-0003'], { cwd: repo.dir });
    expect(show.stdout).toContain('confidence: owner_confirmed');
    expect(show.stdout).toContain('session_id: cli-1');
  });

  it('round trips frontmatter records: confirm and reject edit only their keys', () => {
    const repo = fixtureRepo();
    const a = runCli(['add', '--propose', '--decision', WEBHOOK.decision, '--rationale', 'keeps   spacing'], { cwd: repo.dir });
    expect(a.code, a.stderr).toBe(0);
    const b = runCli(['add', '--propose', '--decision', 'Retries reuse the transaction id of the first attempt.'], { cwd: repo.dir });
    expect(b.code, b.stderr).toBe(0);
    const fa = a.stdout.trim();
    const fb = b.stdout.trim();
    // hand edits of the reviewer are kept byte for byte
    const edited = read(repo.dir, fa).replace('## Decision', '<!-- reviewed -->\n## Decision');
    repo.write({ [fa]: edited });
    const beforeB = read(repo.dir, fb);

    expect(runCli(['confirm', 'DEC-001'], { cwd: repo.dir }).code).toBe(0);
    expect(read(repo.dir, fa)).toBe(edited.replace('status: proposed', 'status: accepted').replace('confidence: ai_inferred', 'confidence: owner_confirmed'));
    const r = runCli(['reject', 'DEC-002', '--format', 'json'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 'DEC-002', status: 'rejected', changed: true });
    expect(read(repo.dir, fb)).toBe(beforeB.replace('status: proposed', 'status: rejected'));

    const list = runCli(['list', '--type', 'decision'], { cwd: repo.dir });
    expect(list.stdout).toMatch(/DEC-001 .*\(owner_confirmed\)/);
    // rejecting what its owner confirmed says so: no proposal turned down, a decision turned over (DEC-143)
    const over = runCli(['reject', 'DEC-001'], { cwd: repo.dir });
    expect(over.stdout).toBe(`DEC-001: status rejected (was accepted, confirmed by its owner)  ${fa}\n`);
    expect(JSON.parse(runCli(['reject', 'DEC-001', '--json'], { cwd: repo.dir }).stdout)).toMatchObject({ changed: false, previous: { status: 'rejected', confirmed: true } });
    // a person's add carries provenance too, without a confidence
    const m = runCli(['add', '--decision', 'Deploy billing on Kubernetes with one Helm chart.'], { cwd: repo.dir });
    const { artifact } = parseArtifact(m.stdout.trim(), readFileSync(path.join(repo.dir, m.stdout.trim())));
    expect(artifact).toMatchObject({ status: 'accepted', source: 'manual', owner: 'author@example.com' });
    expect(artifact!.data.confidence).toBeUndefined();
    const n = runCli(['new', 'decision', '--title', 'Use one Helm chart'], { cwd: repo.dir });
    expect(parseArtifact(n.stdout.trim(), readFileSync(path.join(repo.dir, n.stdout.trim()))).artifact).toMatchObject({ source: 'manual', owner: 'author@example.com', data: { commit: repo.git('rev-parse', 'HEAD').trim() } });
  });
});
