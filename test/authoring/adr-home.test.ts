import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { loadConfig } from '../../src/config.js';
import { applyZeroConfig } from '../../src/artifacts/sources/zero-config.js';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import { createRecord, decisionTarget } from '../../src/artifacts/sources/new-record.js';

const FIX = path.resolve(import.meta.dirname, '../fixtures/adr-home');
const ADR_TOOLS = 'doc/architecture/decisions';

/** A repository holding one of the fixtures, committed (a fresh clone's state). */
function fixture(name: 'adr-tools' | 'madr') {
  const repo = makeRepo();
  cpSync(path.join(FIX, name), repo.dir, { recursive: true });
  repo.commit('fixture');
  return repo;
}

const files = (dir: string) => readdirSync(dir).sort();

describe('authoring where the records live: an adr-tools folder named by .adr-dir, no configuration', () => {
  it('new decision writes the next free number in the folder, in its adr-tools shape; no .contextia/ appears', () => {
    const repo = fixture('adr-tools');
    const r = runCli(['new', 'decision', '--title', 'Adopt OpenTelemetry', '--date', '2026-01-31', '--json'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    // 0004 is taken by a file without an extension: a number is never reused
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 'ADR-0005', file: `${ADR_TOOLS}/0005-adopt-opentelemetry.md`, style: 'nygard' });
    expect(readFileSync(path.join(repo.dir, ADR_TOOLS, '0005-adopt-opentelemetry.md'), 'utf8')).toBe('# 5. Adopt OpenTelemetry\n\nDate: 2026-01-31\n\n## Status\n\nProposed\n\n## Context\n\n## Decision\n\n## Consequences\n');
    expect(existsSync(path.join(repo.dir, '.contextia'))).toBe(false);
    const list = JSON.parse(runCli(['list', '--json'], { cwd: repo.dir }).stdout) as { artifacts: { id: string; status: string; title: string }[] };
    expect(list.artifacts).toContainEqual(expect.objectContaining({ id: 'ADR-0005', status: 'proposed', title: 'Adopt OpenTelemetry' }));
    // in words: the file, what was created, and what to do next
    const human = runCli(['new', 'decision', '--title', 'Trace every job', '--date', '2026-02-01'], { cwd: repo.dir });
    expect(human.stdout).toBe(`${ADR_TOOLS}/0006-trace-every-job.md\n`);
    expect(human.stderr).toContain('created ADR-0006 (nygard)');
    expect(human.stderr).toContain('next: write its context and decision, then git ctx check and commit it');
  });

  it('add writes the decision and its rationale into the folder; a .contextia record only on request', () => {
    const repo = fixture('adr-tools');
    const a = runCli(['add', '--decision', 'Roll out risky changes behind LaunchDarkly feature flags.', '--rationale', 'Two big-bang releases broke checkout.', '--format', 'json'], { cwd: repo.dir });
    expect(a.code, a.stderr).toBe(0);
    const j = JSON.parse(a.stdout);
    expect(j).toMatchObject({ outcome: 'written', id: 'ADR-0005', format: 'nygard', similar: [] });
    expect(readFileSync(path.join(repo.dir, j.file), 'utf8')).toMatch(/^# 5\. Roll out risky changes behind LaunchDarkly feature flags\n\nDate: \d{4}-\d{2}-\d{2}\n\n## Status\n\nAccepted\n\n## Context\n\nTwo big-bang releases broke checkout\.\n\n## Decision\n\nRoll out risky changes behind LaunchDarkly feature flags\.\n\n## Consequences\n$/);
    expect(existsSync(path.join(repo.dir, '.contextia'))).toBe(false);

    // options only a frontmatter record has are refused for the ADR folder, with the way to ask for one
    const d = runCli(['new', 'decision', '--title', 'Billing rounding', '--domain', 'billing'], { cwd: repo.dir });
    expect(d.code).toBe(2);
    expect(d.stderr).toContain(`decisions are records in ${ADR_TOOLS}/, which take no --domain`);
    expect(d.stderr).toContain('--in .contextia');
    const c = runCli(['new', 'decision', '--in', '.contextia', '--title', 'Name exports', '--date', '2026-02-01'], { cwd: repo.dir });
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout.trim()).toBe('.contextia/system/rationale/DEC-001.md');
    // one frontmatter decision beside five ADRs: the folder holding most of them stays the default
    expect(JSON.parse(runCli(['new', 'decision', '--title', 'Billing rounding', '--json'], { cwd: repo.dir }).stdout)).toMatchObject({ id: 'ADR-0006', file: `${ADR_TOOLS}/0006-billing-rounding.md` });
  });

  it('add --dry-run of a restatement finds the record it restates (exit 1); an unrelated decision is not flagged; nothing is written', () => {
    const repo = fixture('adr-tools');
    const before = files(path.join(repo.dir, ADR_TOOLS));
    const dup = runCli(['add', '--dry-run', '--decision', 'Confirmation emails go out from a worker reading an SQS queue, so checkout never waits on the mail provider.'], { cwd: repo.dir });
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/1 similar active decision at ≥ 0\.75:\n\s+ADR-0003\s+[01]\.\d\d\s+Send emails through an SQS queue/);
    expect(dup.stderr).toMatch(new RegExp(`would add "Confirmation emails go out from a worker[^"]*" as ${ADR_TOOLS}/0005-confirmation-emails-`));
    expect(dup.stdout).toMatch(/^# 5\. Confirmation emails/);
    const json = JSON.parse(runCli(['add', '--dry-run', '--format', 'json', '--decision', 'Orders and their order lines are stored together in one Postgres database, changed in one transaction.'], { cwd: repo.dir }).stdout);
    expect(json).toMatchObject({ outcome: 'dry-run', format: 'nygard', id: 'ADR-0005' });
    expect(json.similar.map((s: { id: string }) => s.id)).toEqual(['ADR-0002']);
    expect(json.similar[0]).toMatchObject({ rank: 1 });
    const other = runCli(['add', '--dry-run', '--format', 'json', '--decision', 'Roll out risky changes behind LaunchDarkly feature flags.'], { cwd: repo.dir });
    expect(other.code, other.stderr).toBe(0);
    expect(JSON.parse(other.stdout)).toMatchObject({ outcome: 'dry-run', similar: [] });
    expect(files(path.join(repo.dir, ADR_TOOLS))).toEqual(before);
  });

  it('a number another writer took after the records were read moves the new record to the next one, never overwriting', async () => {
    const repo = fixture('adr-tools');
    const snapshot = await openSnapshot({ cwd: repo.dir });
    try {
      const config = await loadConfig(snapshot);
      await applyZeroConfig(snapshot, config);
      const set = await loadArtifactSet(snapshot, config);
      expect(decisionTarget(set)).toEqual({ kind: 'adr', dir: ADR_TOOLS });
      expect(decisionTarget(set, '.contextia')).toEqual({ kind: 'contextia' });
      // the other writer's record appears after the set was loaded
      const theirs = path.join(repo.dir, ADR_TOOLS, '0005-adopt-opentelemetry.md');
      writeFileSync(theirs, '# 5. Adopt OpenTelemetry\n');
      const rec = await createRecord(set, { dir: ADR_TOOLS, title: 'Adopt OpenTelemetry', date: '2026-01-31' });
      expect(rec).toMatchObject({ id: 'ADR-0006', file: `${ADR_TOOLS}/0006-adopt-opentelemetry.md` });
      expect(readFileSync(theirs, 'utf8')).toBe('# 5. Adopt OpenTelemetry\n');
    } finally {
      snapshot.close();
    }
  });
});

describe('authoring where the records live: a MADR folder, the only source of the configuration', () => {
  it('add writes adr-NNN names with the MADR frontmatter and sections of the newest record', () => {
    const repo = fixture('madr');
    const r = runCli(['add', '--decision', 'Publish the API contract as an OpenAPI document generated from the routes.', '--keywords', 'openapi,contract', '--rationale', 'Client teams copy request shapes by hand.', '--format', 'json'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ outcome: 'written', id: 'ADR-004', format: 'madr', file: 'docs/decisions/adr-004-publish-the-api-contract-as-an-openapi-document-generated.md' });
    expect(readFileSync(path.join(repo.dir, j.file), 'utf8')).toMatch(
      /^---\nstatus: accepted\ndate: \d{4}-\d{2}-\d{2}\nkeywords: \["openapi", "contract"\]\n---\n# Publish the API contract as an OpenAPI document generated\n\n## Context and Problem Statement\n\nClient teams copy request shapes by hand\.\n\n## Considered Options\n\n## Decision Outcome\n\nPublish the API contract as an OpenAPI document generated from the routes\.\n\n### Consequences\n\n## More Information\n$/,
    );
    const show = JSON.parse(runCli(['show', 'ADR-004', '--json'], { cwd: repo.dir }).stdout);
    expect(show).toMatchObject({ id: 'ADR-004', status: 'accepted', frontmatter: { keywords: ['openapi', 'contract'] } });
    expect(existsSync(path.join(repo.dir, '.contextia/system'))).toBe(false);
  });

  it('new decision copies the shape; add --dry-run of a restatement names the record', () => {
    const repo = fixture('madr');
    const n = runCli(['new', 'decision', '--title', 'Rate limit the public API', '--date', '2026-03-01', '--json'], { cwd: repo.dir });
    expect(n.code, n.stderr).toBe(0);
    expect(JSON.parse(n.stdout)).toMatchObject({ id: 'ADR-004', file: 'docs/decisions/adr-004-rate-limit-the-public-api.md', style: 'madr' });
    expect(readFileSync(path.join(repo.dir, 'docs/decisions/adr-004-rate-limit-the-public-api.md'), 'utf8')).toBe(
      '---\nstatus: proposed\ndate: 2026-03-01\n---\n# Rate limit the public API\n\n## Context and Problem Statement\n\n## Considered Options\n\n## Decision Outcome\n\n### Consequences\n\n## More Information\n',
    );
    const dup = runCli(['add', '--dry-run', '--format', 'json', '--decision', 'Keep user sessions in Redis with a sliding thirty-minute expiry instead of process memory.'], { cwd: repo.dir });
    expect(dup.code).toBe(1);
    expect(JSON.parse(dup.stdout).similar.map((s: { id: string }) => s.id)).toEqual(['ADR-002']);
  });
});
