import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseArtifact } from '../../src/artifacts/parse.js';
import { nextId } from '../../src/init/new-artifact.js';
import { BIN, runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const FIX = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/new-ids');

function fixtureRepo() {
  const repo = makeRepo();
  cpSync(FIX, repo.dir, { recursive: true });
  repo.commit('fixture');
  return repo;
}

const read = (dir: string, rel: string) => parseArtifact(rel, readFileSync(path.join(dir, rel)));

describe('git ctx new', () => {
  it('creates the next id in the type folder and prints the path', () => {
    const repo = fixtureRepo();
    const r = runCli(['new', 'decision', '--title', 'Use ECB rates'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('.contextia/system/rationale/DEC-004.md\n');
    // what to do next, on stderr beside "created"
    expect(r.stderr).toContain('next: set status and summary, name the code it governs (paths: in its frontmatter, or @decision DEC-004 in the code), then git ctx check');
    const { artifact, problems } = read(repo.dir, '.contextia/system/rationale/DEC-004.md');
    expect(problems).toEqual([]);
    expect(artifact).toMatchObject({ id: 'DEC-004', type: 'decision', title: 'Use ECB rates', status: 'proposed' });
    expect(artifact!.created).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(artifact!.body).toContain('## Context');
    // the new file checks clean alongside the others
    const check = runCli(['check'], { cwd: repo.dir });
    expect(check.code, check.stdout).toBe(0);
  });

  it('takes the title as words after the type, as people first type it; two different titles are refused', () => {
    const repo = fixtureRepo();
    const r = runCli(['new', 'decision', 'Use', 'ECB rates'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('.contextia/system/rationale/DEC-004.md\n');
    expect(read(repo.dir, '.contextia/system/rationale/DEC-004.md').artifact).toMatchObject({ id: 'DEC-004', title: 'Use ECB rates' });
    const both = runCli(['new', 'decision', 'Use Postgres', '--title', 'Use MySQL'], { cwd: repo.dir });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('two titles: "Use Postgres" and --title "Use MySQL"');
    expect(existsSync(path.join(repo.dir, '.contextia/system/rationale/DEC-005.md'))).toBe(false);
  });

  it('numbers per domain across the whole set, including ids in files with other names', () => {
    const repo = fixtureRepo();
    // DEC-BILLING-003 lives in billing-idempotency.md: its number still counts
    const r = runCli(['new', 'decision', '--domain', 'billing', '--title', 'Refunds', '--links', 'SPEC-BILLING-001', 'DEC-BILLING-001'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('.contextia/system/rationale/DEC-BILLING-004.md');
    const { artifact } = read(repo.dir, '.contextia/system/rationale/DEC-BILLING-004.md');
    expect(artifact).toMatchObject({ domain: 'billing', links: [{ kind: 'specs', id: 'SPEC-BILLING-001' }, { kind: 'decisions', id: 'DEC-BILLING-001' }] });
    // a second new does not reuse the number
    expect(runCli(['new', 'decision', '--domain', 'billing'], { cwd: repo.dir }).stdout.trim()).toBe('.contextia/system/rationale/DEC-BILLING-005.md');
  });

  it('never collides with an existing file name, even one that is not a loadable artifact', () => {
    const repo = fixtureRepo();
    repo.write({ '.contextia/system/rationale/DEC-004.md': 'not an artifact: no frontmatter\n' });
    const r = runCli(['new', 'decision', '--json'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ version: 1, id: 'DEC-005', type: 'decision', file: '.contextia/system/rationale/DEC-005.md' });
    expect(readFileSync(path.join(repo.dir, '.contextia/system/rationale/DEC-004.md'), 'utf8')).toBe('not an artifact: no frontmatter\n');
  });

  it('follows the existing zero padding and uses the initial status of the type', () => {
    const repo = fixtureRepo();
    const r = runCli(['new', 'task', '--title', 'Refunds'], { cwd: repo.dir });
    expect(r.stdout.trim()).toBe('.contextia/work/tasks/TASK-8.md');
    expect(read(repo.dir, '.contextia/work/tasks/TASK-8.md').artifact).toMatchObject({ status: 'todo', title: 'Refunds' });
  });

  it('unknown type exits 2 listing the types', () => {
    const repo = fixtureRepo();
    const r = runCli(['new', 'decisoin'], { cwd: repo.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown type "decisoin"');
    expect(r.stderr).toMatch(/types: task, spec, decision, norm/);
  });

  it('refuses an existing --id, an invalid status and a link to nothing (exit 2, no file)', () => {
    const repo = fixtureRepo();
    const dup = runCli(['new', 'decision', '--id', 'DEC-002'], { cwd: repo.dir });
    expect(dup.code).toBe(2);
    expect(dup.stderr).toContain('id DEC-002 already exists in .contextia/system/rationale/DEC-002.md');
    const st = runCli(['new', 'decision', '--status', 'approved'], { cwd: repo.dir });
    expect(st.code).toBe(2);
    expect(st.stderr).toContain('expected one of proposed, accepted');
    const ln = runCli(['new', 'decision', '--links', 'SPEC-BILING-001'], { cwd: repo.dir });
    expect(ln.code).toBe(2);
    expect(ln.stderr).toContain('did you mean SPEC-BILLING-001');
    expect(existsSync(path.join(repo.dir, '.contextia/system/rationale/DEC-004.md'))).toBe(false);
  });

  it('accepts an explicit --id, including a path-like one', () => {
    const repo = fixtureRepo();
    const r = runCli(['new', 'design', '--id', 'project/design/context-selection', '--title', 'Context selection'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('.contextia/docs/design/project/design/context-selection.md');
  });

  it('two concurrent news never get the same id or overwrite each other', async () => {
    const repo = fixtureRepo();
    const run = (title: string) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, 'new', 'norm', '--title', title], { cwd: repo.dir, env: { ...process.env, NO_COLOR: '1' } });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.on('close', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`exit ${code}`))));
      });
    const files = await Promise.all([run('One'), run('Two'), run('Three')]);
    expect(new Set(files).size).toBe(3);
    expect(readdirSync(path.join(repo.dir, '.contextia/system/norms')).sort()).toEqual(['NORM-001.md', 'NORM-002.md', 'NORM-003.md']);
    const titles = files.map((f) => read(repo.dir, f).artifact!.title).sort();
    expect(titles).toEqual(['One', 'Three', 'Two']);
  });

  it('--dry-run prints the file and text it would write and writes nothing, in .contextia and in an ADR folder', () => {
    const repo = fixtureRepo();
    const before = readdirSync(path.join(repo.dir, '.contextia/system/rationale')).sort();
    const r = runCli(['new', 'decision', '--title', 'Use ECB rates', '--dry-run'], { cwd: repo.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('dry run: would create DEC-004 as .contextia/system/rationale/DEC-004.md; nothing written');
    expect(r.stdout).toMatch(/^---\n[\s\S]*id: DEC-004[\s\S]*title: Use ECB rates/);
    expect(readdirSync(path.join(repo.dir, '.contextia/system/rationale')).sort()).toEqual(before);
    // the text it shows is the text it then writes (the date aside, it is today's in both)
    const written = runCli(['new', 'decision', '--title', 'Use ECB rates'], { cwd: repo.dir });
    expect(written.stdout).toBe('.contextia/system/rationale/DEC-004.md\n');
    expect(readFileSync(path.join(repo.dir, '.contextia/system/rationale/DEC-004.md'), 'utf8')).toBe(r.stdout);
    // an ADR folder: its own name, number and shape, as JSON
    const adr = makeRepo({ 'docs/adr/0001-record-decisions.md': '# 1. Record decisions\n\nDate: 2020-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nx\n\n## Decision\n\ny\n\n## Consequences\n\nz\n' });
    adr.commit('records');
    const j = runCli(['new', 'decision', '--title', 'Adopt OpenTelemetry', '--date', '2026-01-31', '--dry-run', '--json'], { cwd: adr.dir });
    expect(j.code, j.stderr).toBe(0);
    expect(JSON.parse(j.stdout)).toMatchObject({ id: 'ADR-0002', file: 'docs/adr/0002-adopt-opentelemetry.md', style: 'nygard', dryRun: true, text: expect.stringMatching(/^# 2\. Adopt OpenTelemetry\n/) });
    expect(readdirSync(path.join(adr.dir, 'docs/adr'))).toEqual(['0001-record-decisions.md']);
    expect(existsSync(path.join(adr.dir, '.contextia'))).toBe(false);
  });

  it('has --help', () => {
    const r = runCli(['new', '--help'], { cwd: FIX });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--domain');
  });
});

describe('nextId', () => {
  it('takes the highest number, keeps padding, skips taken names, ignores other prefixes', () => {
    expect(nextId('DEC', ['DEC-001', 'DEC-003', 'DEC-BILLING-009', 'SPEC-007'])).toBe('DEC-004');
    expect(nextId('DEC', [])).toBe('DEC-001');
    expect(nextId('DEC-BILLING', ['DEC-BILLING-001', 'billing/DEC-BILLING-0012.md'])).toBe('DEC-BILLING-0013');
    expect(nextId('DEC', ['dec-002'])).toBe('DEC-003');
  });
});
