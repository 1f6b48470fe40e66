import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArtifact } from '../../src/artifacts/parse.js';
import { makeRepo } from '../helpers/git-repo.js';
import { connect, fixtureRepo } from './helpers.js';

const RATIONALE = '.contextia/system/rationale';
const decisions = (dir: string) => readdirSync(path.join(dir, RATIONALE)).sort();

// a near-duplicate of DEC-BILLING-001 ("Banker's rounding": round invoice totals half to even)
const DUP = { decision: "Round invoice totals half to even (banker's rounding), not half up.", rationale: 'totals must match the ledger' };

describe('add_decision (real MCP client)', () => {
  it('writes nothing on a conflict and lists the similar records; force: true writes', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    const before = decisions(repo.dir);
    const r = await c.call('add_decision', DUP);
    expect(r.isError).toBeFalsy();
    expect(r.data).toMatchObject({ outcome: 'conflict', threshold: 0.75 });
    const similar = r.data.similar as { id: string; title: string; similarity: number }[];
    expect(similar.map((s) => s.id)).toEqual(['DEC-BILLING-001']);
    expect(similar[0]).toMatchObject({ title: "Banker's rounding" });
    expect(similar[0]!.similarity).toBeGreaterThanOrEqual(0.75);
    expect(r.text).toContain('Not added');
    expect(r.text).toContain('force: true');
    expect(decisions(repo.dir)).toEqual(before);

    const f = await c.call('add_decision', { ...DUP, force: true, paths: ['src/billing/**'], keywords: ['rounding'] });
    expect(f.isError).toBeFalsy();
    expect(f.data).toMatchObject({ outcome: 'written', id: 'DEC-001' });
    const file = f.data.file as string;
    const { artifact } = parseArtifact(file, readFileSync(path.join(repo.dir, file)));
    expect(artifact).toMatchObject({ id: 'DEC-001', status: 'accepted', paths: ['src/billing/**'], keywords: ['rounding'] });
    expect(artifact!.body).toContain('totals must match the ledger');
    // the server sees its own write: the new record is readable at once
    const read = await c.call('read_artifact', { id: 'DEC-001', depth: 'meta' });
    expect(read.isError).toBeFalsy();
  });

  it('writes at once when nothing similar is active; a missing decision is a schema error', async () => {
    const repo = fixtureRepo();
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('add_decision', { decision: 'Deploy the billing service on Kubernetes with one Helm chart.', title: 'Kubernetes for billing' });
    expect(r.data).toMatchObject({ outcome: 'written', similar: [], title: 'Kubernetes for billing' });
    expect(decisions(repo.dir)).toContain(path.basename(r.data.file as string));
    const bad = await c.call('add_decision', { title: 'no decision' });
    expect(bad.isError).toBe(true);
  });

  it('in a repository whose decisions are an adr-tools folder, writes the next record there in its shape; a restatement conflicts', async () => {
    const repo = makeRepo();
    cpSync(path.resolve(import.meta.dirname, '../fixtures/adr-home/adr-tools'), repo.dir, { recursive: true });
    repo.commit('fixture');
    const c = await connect({ cwd: repo.dir });
    const dup = await c.call('add_decision', { decision: 'Confirmation emails go out from a worker reading an SQS queue, so checkout never waits on the mail provider.' });
    expect(dup.data).toMatchObject({ outcome: 'conflict' });
    expect((dup.data.similar as { id: string }[]).map((s) => s.id)).toEqual(['ADR-0003']);
    const r = await c.call('add_decision', { decision: 'Roll out risky changes behind LaunchDarkly feature flags.', rationale: 'Two big-bang releases broke checkout.' });
    expect(r.isError, r.text).toBeFalsy();
    expect(r.data).toMatchObject({ outcome: 'written', id: 'ADR-0005', file: 'doc/architecture/decisions/0005-roll-out-risky-changes-behind-launchdarkly-feature-flags.md' });
    expect(readFileSync(path.join(repo.dir, r.data.file as string), 'utf8')).toMatch(/^# 5\. Roll out risky changes behind LaunchDarkly feature flags\n\nDate: \d{4}-\d{2}-\d{2}\n\n## Status\n\nAccepted\n\n## Context\n\nTwo big-bang releases broke checkout\.\n/);
    expect(existsSync(path.join(repo.dir, '.contextia'))).toBe(false);
  });
});
