import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseArtifact } from '../../src/artifacts/parse.js';
import { deriveTitle } from '../../src/authoring/similar.js';
import { parseTemplate, EDITOR_TEMPLATE } from '../../src/cli/commands/add.js';
import { BIN, runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

const FIX = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/authoring-similar/repo');
const RATIONALE = '.contextia/system/rationale';
const DUP = 'Store an idempotency key for every charge in Redis so that a retried request never charges the customer twice.';

function fixtureRepo(extra: Record<string, string> = {}) {
  const repo = makeRepo();
  cpSync(FIX, repo.dir, { recursive: true });
  repo.commit('fixture', extra);
  return repo;
}

const decisions = (dir: string) => readdirSync(path.join(dir, RATIONALE)).sort();
const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Run the CLI on a real pseudo-terminal (util-linux script), typing `input`. */
function onTty(args: string[], cwd: string, input: string, env: NodeJS.ProcessEnv = {}) {
  const cmd = [process.execPath, BIN, ...args].map(shq).join(' ');
  const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { cwd, input, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', GIT_CONFIG_NOSYSTEM: '1', ...env }, timeout: 120_000 });
  return { code: r.status ?? -1, out: r.stdout };
}

describe('deriveTitle', () => {
  it('takes the first clause, trimmed; a longer one is cut where a clause or phrase ends, at most 72 characters, with no ellipsis', () => {
    expect(deriveTitle('use ECB rates for conversion. They are free.')).toBe('Use ECB rates for conversion');
    expect(deriveTitle('  Postgres for reporting: the warehouse is too slow')).toBe('Postgres for reporting');
    // before the purpose clause ("so that …"), not in the middle of it
    expect(deriveTitle(DUP)).toBe('Store an idempotency key for every charge in Redis');
    // at a comma before the clause that would not fit
    expect(deriveTitle('Keep the public merchant API versioned by date headers, never by path segments, because clients pin versions')).toBe('Keep the public merchant API versioned by date headers');
    // no clause boundary: before a phrase, never on a word that leaves it hanging ("for", "the")
    expect(deriveTitle('We will use a single monorepository for all frontend and backend services including the shared libraries')).toBe('We will use a single monorepository for all frontend');
    // no boundary at all: the words that fit; one endless word: its first 72 characters
    expect(deriveTitle('Every payment request sent to the gateway carries an idempotency key generated from the order id')).toBe('Every payment request sent to the gateway carries an idempotency key');
    expect(deriveTitle('x'.repeat(100))).toBe(`${'X'}${'x'.repeat(71)}`);
    for (const d of [DUP, 'a '.repeat(80), 'Use one queue per tenant and one worker pool per region with autoscaling limits set by the platform team']) {
      const t = deriveTitle(d);
      expect(t.length, t).toBeLessThanOrEqual(72);
      expect(t, t).not.toMatch(/[\u2026,;:]$|\.\.\.$|\s$/);
      expect(deriveTitle(d)).toBe(t);
    }
  });
});

describe('git ctx add (no terminal)', () => {
  it('writes a decision with every field when nothing similar is active', () => {
    const repo = fixtureRepo();
    const r = runCli(['add', '--decision', 'Use GraphQL for the public merchant API. REST stays for webhooks.', '--rationale', 'clients ask for flexible queries', '--constraints', 'no mutations without an idempotency key', '--scope', 'api', '--paths', 'src/api/**', '--keywords', 'graphql,api'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${RATIONALE}/DEC-011.md\n`);
    const { artifact, problems } = parseArtifact(`${RATIONALE}/DEC-011.md`, readFileSync(path.join(repo.dir, RATIONALE, 'DEC-011.md')));
    expect(problems).toEqual([]);
    expect(artifact).toMatchObject({ id: 'DEC-011', title: 'Use GraphQL for the public merchant API', status: 'accepted', domain: 'api', paths: ['src/api/**'], keywords: ['graphql', 'api'] });
    expect(artifact!.body).toContain('## Decision\n\nUse GraphQL for the public merchant API. REST stays for webhooks.\n');
    expect(artifact!.body).toContain('## Rationale\n\nclients ask for flexible queries\n');
    expect(artifact!.body).toContain('## Constraints\n\nno mutations without an idempotency key\n');
  });

  it('refuses with exit 1 and the similar records when a near-duplicate is active; --force writes', () => {
    const repo = fixtureRepo();
    const r = runCli(['add', '--decision', DUP], { cwd: repo.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/1 active decision similar to "Store an idempotency key/);
    expect(r.stderr).toMatch(/DEC-001\s+[01]\.\d\d\s+Idempotency keys in Redis/);
    expect(r.stderr).toContain('--force');
    expect(decisions(repo.dir)).toHaveLength(10);
    const f = runCli(['add', '--decision', DUP, '--force'], { cwd: repo.dir });
    expect(f.code, f.stderr).toBe(0);
    expect(f.stderr).toContain('created DEC-011 (added despite 1 similar decision)');
    expect(decisions(repo.dir)).toHaveLength(11);
  });

  it('--format json lists the similar records with scores; --dry-run writes nothing', () => {
    const repo = fixtureRepo();
    const r = runCli(['add', '--decision', DUP, '--format', 'json'], { cwd: repo.dir });
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ version: 1, outcome: 'conflict', threshold: 0.75, embedder: 'default/glove-6b-100d-sif-1' });
    expect(j.similar.map((s: { id: string }) => s.id)).toEqual(['DEC-001']);
    expect(j.similar[0].similarity).toBeGreaterThanOrEqual(0.75);
    const d = runCli(['add', '--decision', 'Deploy every service on Kubernetes.', '--dry-run', '--format', 'json'], { cwd: repo.dir });
    expect(d.code, d.stderr).toBe(0);
    const dj = JSON.parse(d.stdout);
    expect(dj).toMatchObject({ outcome: 'dry-run', similar: [], title: 'Deploy every service on Kubernetes' });
    expect(dj.text).toContain('title: Deploy every service on Kubernetes');
    expect(decisions(repo.dir)).toHaveLength(10);
  });

  it('the threshold comes from semantic.conflict_threshold', () => {
    // a draft about something else sits below the default 0.75 and above 0.4 (one naming
    // Kubernetes and Helm, which no record names, sits lower still: DEC-096)
    const repo = fixtureRepo({ '.contextia/config.yaml': 'semantic:\n  conflict_threshold: 0.4\n' });
    const r = runCli(['add', '--decision', 'Deploy every service in containers with one chart per service.', '--dry-run', '--format', 'json'], { cwd: repo.dir });
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ outcome: 'dry-run', threshold: 0.4 });
    expect(j.similar.length).toBeGreaterThan(0);
    expect(j.similar.every((s: { similarity: number }) => s.similarity >= 0.4 && s.similarity < 0.75)).toBe(true);
    expect(r.code).toBe(1);
    expect(runCli(['check'], { cwd: repo.dir }).stdout).not.toContain('config-unknown-key');
  });

  it('compares with global decisions when global: true', () => {
    const repo = makeRepo();
    repo.commit('config', { '.contextia/config.yaml': 'global: true\n' });
    const g = tempDir();
    writeFileSync(path.join(g, 'DEC-GLOBAL-001.md'), readFileSync(path.join(FIX, RATIONALE, 'DEC-001.md'), 'utf8').replace('DEC-001', 'DEC-GLOBAL-001'));
    const r = runCli(['add', '--decision', DUP, '--format', 'json'], { cwd: repo.dir, env: { GIT_CTX_GLOBAL_DIR: g } });
    expect(r.code, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout).similar).toMatchObject([{ id: 'DEC-GLOBAL-001', origin: 'global' }]);
  });

  it('--in writes the record in the source folder ADR format with its next number', () => {
    const repo = makeRepo();
    repo.commit('adr', {
      '.contextia/config.yaml': 'sources:\n  - dir: docs/adr\n    format: adr\n',
      'docs/adr/0001-record-architecture-decisions.md': '# 1. Record architecture decisions\n\nDate: 2020-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nWe need to record decisions.\n\n## Decision\n\nWe will use ADRs.\n\n## Consequences\n\nNone.\n',
    });
    const r = runCli(['add', '--decision', 'Use Postgres for reporting queries.', '--rationale', 'the warehouse is slow', '--in', 'docs/adr', '--format', 'json'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ outcome: 'written', id: 'ADR-0002', file: 'docs/adr/0002-use-postgres-for-reporting-queries.md', format: 'nygard' });
    const text = readFileSync(path.join(repo.dir, j.file), 'utf8');
    expect(text).toMatch(/^# 2\. Use Postgres for reporting queries\n\nDate: \d{4}-\d{2}-\d{2}\n\n## Status\n\nAccepted\n\n## Context\n\nthe warehouse is slow\n\n## Decision\n\nUse Postgres for reporting queries\.\n\n## Consequences\n$/);
    const list = runCli(['list', '--json'], { cwd: repo.dir });
    expect(list.stdout).toContain('"ADR-0002"');
  });

  it('without --decision and without a terminal is a usage error (exit 2)', () => {
    const repo = fixtureRepo();
    const r = runCli(['add'], { cwd: repo.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--decision is required when not on a terminal');
  });

  // trials27: `git ctx add --dry-run "We will cache …"` was "too many arguments for 'add'. Expected 0 arguments but got 1."
  it('takes the decision as its argument, as new decision takes its title; given twice is a usage error', () => {
    const repo = fixtureRepo();
    const r = runCli(['add', '--dry-run', '--format', 'json', 'Deploy every service', 'on Kubernetes.'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ title: 'Deploy every service on Kubernetes' });
    const twice = runCli(['add', '--dry-run', '-d', 'Cache rates', 'Cache rates'], { cwd: repo.dir });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('given twice');
  });
});

describe('git ctx add on a terminal (pseudo-terminal)', () => {
  it('asks before adding a near-duplicate: y adds it', () => {
    const repo = fixtureRepo();
    const r = onTty(['add', '--decision', DUP], repo.dir, 'y\n');
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('Add it anyway? [y/N]');
    expect(r.out).toContain('created DEC-011');
    expect(existsSync(path.join(repo.dir, RATIONALE, 'DEC-011.md'))).toBe(true);
  });

  it('asks before adding a near-duplicate: N (or Enter) adds nothing, exit 1', () => {
    const repo = fixtureRepo();
    const r = onTty(['add', '--decision', DUP], repo.dir, 'N\n');
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain('Add it anyway? [y/N]');
    expect(r.out).toContain('not added');
    expect(decisions(repo.dir)).toHaveLength(10);
  });

  it('with nothing similar at the threshold, names the closest record when it comes near, and adds without asking', () => {
    const repo = fixtureRepo();
    // a neighbour, not a restatement: invoices kept outside the primary database (DEC-003)
    const near = 'Store uploaded invoices as PDFs in object storage with signed URLs';
    const dry = runCli(['add', '--decision', near, '--dry-run'], { cwd: repo.dir });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(/nothing similar at \u2265 0\.75 \(closest: DEC-003 PostgreSQL as the primary database, 0\.\d\d; read it before adding\)/);
    const json = JSON.parse(runCli(['add', '--decision', near, '--dry-run', '--format', 'json'], { cwd: repo.dir }).stdout);
    expect(json.similar).toEqual([]);
    expect(json.closest.id).toBe('DEC-003');
    expect(json.closest.similarity).toBeGreaterThanOrEqual(0.5);
    expect(json.closest.similarity).toBeLessThan(0.75);
    // far from every record: no closest is named
    const far = runCli(['add', '--decision', 'Write the mobile app in Kotlin Multiplatform', '--dry-run', '--format', 'json'], { cwd: repo.dir });
    expect(JSON.parse(far.stdout).closest).toBeUndefined();
    const written = onTty(['add', '--decision', near], repo.dir, '');
    expect(written.code, written.out).toBe(0);
    expect(written.out).not.toContain('[y/N]');
    expect(written.out).toMatch(/created DEC-011 \(closest: DEC-003 PostgreSQL as the primary database, 0\.\d\d, under 0\.75\)/);
  });

  it('adds without asking when nothing similar is active', () => {
    const repo = fixtureRepo();
    const r = onTty(['add', '--decision', 'Deploy every service on Kubernetes.'], repo.dir, '');
    expect(r.code, r.out).toBe(0);
    expect(r.out).not.toContain('[y/N]');
    expect(decisions(repo.dir)).toHaveLength(11);
  });

  it('bare, opens $EDITOR on a template and adds what was written', () => {
    const repo = fixtureRepo();
    const dir = tempDir();
    const filled = EDITOR_TEMPLATE.replace('Title: ', 'Title: Kubernetes for every service')
      .replace('Keywords: ', 'Keywords: deploy, kubernetes')
      .replace('## Decision\n\n', '## Decision\n\nDeploy every service on Kubernetes with one Helm chart each.\n')
      .replace('## Rationale\n\n', '## Rationale\n\nOne way to deploy.\n');
    writeFileSync(path.join(dir, 'filled.md'), filled);
    const editor = path.join(dir, 'editor.sh');
    writeFileSync(editor, `#!/bin/sh\ncp ${shq(path.join(dir, 'filled.md'))} "$1"\n`);
    chmodSync(editor, 0o755);
    const r = onTty(['add'], repo.dir, '', { EDITOR: editor, VISUAL: '' });
    expect(r.code, r.out).toBe(0);
    const { artifact } = parseArtifact(`${RATIONALE}/DEC-011.md`, readFileSync(path.join(repo.dir, RATIONALE, 'DEC-011.md')));
    expect(artifact).toMatchObject({ title: 'Kubernetes for every service', keywords: ['deploy', 'kubernetes'] });
    expect(artifact!.body).toContain('Deploy every service on Kubernetes with one Helm chart each.');
    expect(artifact!.body).toContain('## Rationale\n\nOne way to deploy.');
  });
});

describe('parseTemplate', () => {
  it('reads header lines and sections, ignoring comments; an untouched template has no decision', () => {
    expect(parseTemplate(EDITOR_TEMPLATE)).toEqual({});
    expect(parseTemplate('# c\nTitle: T\nPaths: a/**, b\n## Decision\nD\n## Constraints\nC\n')).toEqual({ title: 'T', paths: ['a/**', 'b'], decision: 'D', constraints: 'C' });
  });
});
