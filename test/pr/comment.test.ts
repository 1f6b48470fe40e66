import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzePullRequest } from '../../src/pr/analyze.js';
import { COMMENT_MAX_CHARS, renderPrComment } from '../../src/pr/render.js';
import type { PrResult } from '../../src/pr/types.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, pullRequestRepo } from '../helpers/git-repo.js';
import { paymentsScenario } from './payments-scenario.js';

const T = 60_000;

describe('the PR comment: files no record can govern, what the PR makes stale, a size that fits', () => {
  it('lockfiles, generated, vendored, binary, snapshot and configured files are counted in a footnote, never scored', { timeout: T }, async () => {
    const s = await paymentsScenario();
    const r = await analyzePullRequest({ cwd: s.repo.dir, base: 'main', head: 'idempotency', cache: false });
    expect(Object.fromEntries((r.ungovernable ?? []).map((u) => [u.path, u.reason]))).toEqual({
      'assets/receipt.png': 'binary',
      'db/migrations/0002_idempotency.sql': 'configured',
      'package-lock.json': 'lockfile',
      'src/gen/openapi.ts': 'generated',
      'src/payments/__snapshots__/charge.test.ts.snap': 'snapshot',
      'src/proto/payments.ts': 'generated',
      'vendor/uuid/index.js': 'vendored',
    });
    // not scored: no file row, no governing match, no retrieval for them — though SPEC-PAY-001's paths glob covers the snapshot
    const noise = new Set(r.ungovernable!.map((u) => u.path));
    expect(r.files.map((f) => f.path).sort()).toEqual(['.contextia/system/rationale/DEC-PAY-001.md', 'src/payments/charge.ts', 'src/payments/refund.ts']);
    for (const a of r.artifacts) for (const m of a.matches) expect(noise.has(m.file)).toBe(false);
    expect(r.counts.files).toBe(3);

    const text = renderPrComment(r);
    // the headline counts the scored files, and says how many more the PR changes
    // DEC-PAY-001, which the PR edits, is counted apart: it is said under "Records this PR changes" (DEC-084)
    expect(text).toContain('**2 artifacts** govern the code this PR changes (2 of 3 scored files; 7 more changed files not scored, listed at the end); 1 record this PR adds or edits concerns it too (under Records this PR changes).');
    expect(text).toContain(
      '<sub>Not scored: 7 changed files no record can govern — 1 binary (`assets/receipt.png`), 1 file in `ungovernable.paths` (`db/migrations/0002_idempotency.sql`), 1 lockfile (`package-lock.json`), 2 generated files (`src/gen/openapi.ts`, `src/proto/payments.ts`), 1 test snapshot (`src/payments/__snapshots__/charge.test.ts.snap`), 1 vendored file (`vendor/uuid/index.js`).</sub>',
    );
    for (const p of noise) expect(text.split(p).length - 1).toBe(1);
  });

  it('what the PR makes stale comes first, with the exact commands; the suggestion and `git ctx ack` each settle it', { timeout: T }, async () => {
    const s = await paymentsScenario();
    const r = await analyzePullRequest({ cwd: s.repo.dir, base: 'main', head: 'idempotency', cache: false });
    expect(r.madeStale!.map((m) => [m.id, m.restamp, m.supersede])).toEqual([
      ['DEC-PAY-001', 'git ctx ack DEC-PAY-001', 'git ctx supersede DEC-PAY-001 --by <new id>'],
      ['DEC-PAY-002', 'git ctx ack DEC-PAY-002', 'git ctx supersede DEC-PAY-002 --by <new id>'],
      ['SPEC-PAY-001', 'git ctx ack SPEC-PAY-001', 'git ctx supersede SPEC-PAY-001 --by <new id>'],
    ]);
    const dec = r.madeStale![0]!;
    expect(dec.changes).toEqual([expect.objectContaining({ anchor: 'src/payments/charge.ts#createCharge', change: 'changed' })]);
    // the record is edited by the PR (two lines near its stamp): the stamp lines, at head, within GitHub's diff view
    expect(dec.suggestion).toMatchObject({ file: '.contextia/system/rationale/DEC-PAY-001.md', startLine: 10, endLine: 12, inDiff: true });
    expect(dec.suggestion!.lines[0]).toBe(`  commit: ${s.head}`);
    // records the PR does not edit get commands, no suggestion
    expect(r.madeStale![1]!.suggestion).toBeUndefined();

    const text = renderPrComment(r);
    const first = text.indexOf('#### Made stale by this PR');
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(text.indexOf('#### Governing artifacts'));
    expect(text).toContain('✏️ 3 made stale by this PR');
    expect(text).toContain('Still holds? Review the change, then `git ctx ack DEC-PAY-001` and commit the stamp.');
    expect(text).toContain("No longer holds? Write its successor (`git ctx new decision --title '…'`), then `git ctx supersede DEC-PAY-001 --by <new id>`.");
    expect(text).toContain(`apply this suggestion to lines 10–12, the stamp \`git ctx ack DEC-PAY-001\` would write:\n\n    \`\`\`suggestion\n      commit: ${s.head}\n      fingerprints:\n`);
    // each record's staleness is said once, in that section
    expect(text).not.toContain('`DEC-PAY-001` is stale at head');

    // applying the suggestion as GitHub would (replace those lines, commit) settles DEC-PAY-001
    const file = path.join(s.repo.dir, dec.suggestion!.file);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.splice(dec.suggestion!.startLine - 1, dec.suggestion!.endLine - dec.suggestion!.startLine + 1, ...dec.suggestion!.lines);
    writeFileSync(file, lines.join('\n'));
    s.repo.commit('Apply suggestion from git-ctx');
    // and the command given for DEC-PAY-002 does what it says
    const ack = runCli(['ack', 'DEC-PAY-002'], { cwd: s.repo.dir });
    expect(ack.code).toBe(0);
    s.repo.commit('ack DEC-PAY-002');
    const after = await analyzePullRequest({ cwd: s.repo.dir, base: 'main', head: 'idempotency', cache: false });
    expect(after.madeStale!.map((m) => m.id)).toEqual(['SPEC-PAY-001']);
    expect(after.artifacts.find((a) => a.id === 'DEC-PAY-001')!.staleness!.status).toBe('fresh');
  });

  it(`the comment stays within ${COMMENT_MAX_CHARS} characters and names the job summary and \`git ctx pr --all\`, which prints everything`, { timeout: T }, async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 150; i++) {
      files[`.contextia/system/rationale/DEC-M${i}.md`] = `---\nid: DEC-M${i}\ntype: decision\nstatus: accepted\ntitle: Module ${i} keeps its own careful rules about retries, timeouts and the shape of its errors\nsummary: ${'Why this module does what it does, in one line that a reviewer reads. '.repeat(2)}\npaths: [src/m${i}/**]\n---\n# M${i}\n`;
      files[`src/m${i}/index.ts`] = `export const v${i} = ${i};\n`;
    }
    const repo = makeRepo(files);
    const base = repo.commit('base');
    repo.git('checkout', '-q', '-b', 'wide');
    const change: Record<string, string> = {};
    for (let i = 0; i < 150; i++) change[`src/m${i}/index.ts`] = `export const v${i} = ${i + 1};\n`;
    const head = repo.commit('touch every module', change);

    const r = await analyzePullRequest({ cwd: repo.dir, base, head, cache: false, check: false });
    expect(r.counts.direct).toBe(150);
    const comment = renderPrComment(r, { summaryUrl: 'https://github.example/acme/widgets/actions/runs/1' });
    expect(comment.length).toBeLessThanOrEqual(COMMENT_MAX_CHARS);
    expect(comment).toMatch(/\d+ items were left out to keep this comment short: the full list is in the \[job summary\]\(https:\/\/github\.example\/acme\/widgets\/actions\/runs\/1\) and in `git ctx pr --all --base [0-9a-f]{40} --head [0-9a-f]{40}`\./);

    // the CLI's default output is cut the same way and names the command that is not
    const short = runCli(['pr', '--base', 'main', '--head', 'wide', '--fail-on', 'never', '--no-check'], { cwd: repo.dir });
    expect(short.code).toBe(0);
    expect(short.stdout.length).toBeLessThanOrEqual(COMMENT_MAX_CHARS);
    expect(short.stdout).toContain(`to keep this short: \`git ctx pr --all --base ${base} --head ${head}\` prints the full list.`);
    const shownShort = new Set(short.stdout.match(/`DEC-M\d+`/g));
    expect(shownShort.size).toBeLessThan(150);

    const all = runCli(['pr', '--all', '--base', base, '--head', head, '--fail-on', 'never', '--no-check'], { cwd: repo.dir });
    expect(all.code).toBe(0);
    expect(all.stdout.length).toBeGreaterThan(COMMENT_MAX_CHARS);
    for (let i = 0; i < 150; i++) expect(all.stdout).toContain(`| \`DEC-M${i}\` Module ${i} keeps`);
    expect(all.stdout).not.toContain('left out');
  });
});

describe('negatives and records read in place', () => {
  /** Three pull requests touching files no record should be matched to by guesswork: what the analysis and the comment say of each. */
  const NEGATIVES: { name: string; files: Record<string, string>; change: Record<string, string>; expectations: (r: PrResult) => void }[] = [
    {
      name: 'a dependency bump (lockfile, vendored code) gets no record and a one-line note, though a paths glob covers it',
      files: {
        '.contextia/system/norms/NORM-DEPS-001.md': '---\nid: NORM-DEPS-001\ntype: norm\ntitle: Dependencies are pinned\nstatus: active\npaths: ["**"]\n---\n# Pinned\n',
        'package-lock.json': '{ "lockfileVersion": 3 }\n',
        'vendor/left-pad/index.js': 'module.exports = 1;\n',
      },
      change: { 'package-lock.json': '{ "lockfileVersion": 3, "packages": {} }\n', 'vendor/left-pad/index.js': 'module.exports = 2;\n' },
      expectations: (r) => {
        expect(r.artifacts).toEqual([]);
        expect(r.files).toEqual([]);
        const text = renderPrComment(r);
        expect(text).toContain('no decision, spec or norm governs the code this PR changes (0 files checked, 2 not scored), and it introduces no coherence finding.');
        expect(text).toContain('<sub>Not scored: 2 changed files no record can govern — 1 lockfile (`package-lock.json`), 1 vendored file (`vendor/left-pad/index.js`).</sub>');
      },
    },
    {
      name: 'a CI workflow gets no record by guesswork; one a record names is still governed by it',
      files: {
        '.contextia/system/rationale/DEC-CD-001.md': '---\nid: DEC-CD-001\ntype: decision\ntitle: Deploy with short-lived OIDC credentials\nstatus: accepted\npaths: [.github/workflows/deploy.yml]\n---\n# OIDC\n\nWorkflows lint, test and deploy.\n',
        '.github/workflows/deploy.yml': 'on: push\njobs: { deploy: { runs-on: ubuntu-latest } }\n',
        '.github/workflows/lint.yml': 'on: push\njobs: { lint: { runs-on: ubuntu-latest } }\n',
      },
      change: { '.github/workflows/deploy.yml': 'on: [push]\njobs: { deploy: { runs-on: ubuntu-24.04 } }\n', '.github/workflows/lint.yml': 'on: [push]\njobs: { lint: { runs-on: ubuntu-24.04 } }\n' },
      expectations: (r) => {
        expect(r.ungovernable).toEqual([{ path: '.github/workflows/lint.yml', reason: 'ci', detail: 'CI or dependency-bot configuration' }]);
        expect(r.files.map((f) => [f.path, f.governedBy])).toEqual([['.github/workflows/deploy.yml', ['DEC-CD-001']]]);
        expect(renderPrComment(r)).toContain('1 CI configuration file (`.github/workflows/lint.yml`)');
      },
    },
    {
      name: 'a glob in ungovernable.paths never rules out the records themselves',
      files: {
        '.contextia/config.yaml': 'ungovernable:\n  paths: ["**/*.md"]\n',
        '.contextia/system/rationale/DEC-DOC-001.md': '---\nid: DEC-DOC-001\ntype: decision\ntitle: Docs live beside the code\nstatus: accepted\n---\n# Docs\n',
        'README.md': '# App\n',
      },
      change: { '.contextia/system/rationale/DEC-DOC-001.md': '---\nid: DEC-DOC-001\ntype: decision\ntitle: Docs live beside the code they describe\nstatus: accepted\n---\n# Docs\n', 'README.md': '# App\n\nMore.\n' },
      expectations: (r) => {
        expect(r.ungovernable).toEqual([{ path: 'README.md', reason: 'configured', detail: 'ungovernable.paths **/*.md' }]);
        expect(r.artifacts.map((a) => [a.id, a.inclusion])).toEqual([['DEC-DOC-001', 'edited']]);
      },
    },
  ];
  it.each(NEGATIVES)('$name', { timeout: T }, async ({ files, change, expectations }) => {
    const { repo } = pullRequestRepo({ files, change });
    expectations(await analyzePullRequest({ cwd: repo.dir, base: 'main', head: 'feature', cache: false }));
  });

  it('a record read in place (ADR folder): the suggestion is its line of stamps.jsonl, and applying it settles the record', { timeout: T }, async () => {
    const adr = (n: string, title: string, code: string) => `# ${n}. ${title}\n\nDate: 2026-01-0${n}\n\n## Status\n\nAccepted\n\n## Decision\n\nThe code is in \`${code}\`.\n`;
    const repo = makeRepo({
      '.contextia/config.yaml': 'sources:\n  - dir: doc/adr\n    format: adr\n',
      'doc/adr/0001-retry-with-backoff.md': adr('1', 'Retry with backoff', 'src/retry.ts'),
      'doc/adr/0002-log-as-json.md': adr('2', 'Log as JSON', 'src/log.ts'),
      'src/retry.ts': 'export const retries = 3;\n',
      'src/log.ts': 'export const json = true;\n',
    });
    repo.commit('base');
    expect(runCli(['stamp', 'ADR-0001', 'ADR-0002'], { cwd: repo.dir }).code).toBe(0);
    const base = repo.commit('stamp both');
    repo.git('checkout', '-q', '-b', 'tune');
    repo.commit('tune retries and logs', { 'src/retry.ts': 'export const retries = 5;\n', 'src/log.ts': 'export const json = false;\n' });
    // the author re-stamps one record: the PR now touches the sidecar, not ADR-0001's line
    expect(runCli(['ack', 'ADR-0002'], { cwd: repo.dir }).code).toBe(0);
    repo.commit('ack ADR-0002');

    const r = await analyzePullRequest({ cwd: repo.dir, base, head: 'tune', cache: false });
    expect(r.madeStale!.map((m) => m.id)).toEqual(['ADR-0001']);
    const s = r.madeStale![0]!.suggestion!;
    expect(s).toMatchObject({ file: '.contextia/stamps.jsonl', startLine: 1, endLine: 1, inDiff: true });
    const head = repo.git('rev-parse', 'HEAD');
    expect(JSON.parse(s.lines[0]!)).toMatchObject({ id: 'ADR-0001', commit: head });

    const file = path.join(repo.dir, s.file);
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.splice(s.startLine - 1, 1, ...s.lines);
    writeFileSync(file, lines.join('\n'));
    repo.commit('Apply suggestion from git-ctx');
    const after = await analyzePullRequest({ cwd: repo.dir, base, head: 'tune', cache: false });
    expect(after.madeStale).toBeUndefined();
    expect(after.artifacts.find((a) => a.id === 'ADR-0001')?.staleness?.status).toBe('fresh');
  });
});

describe('docs/action.md', () => {
  it('shows the comment `git ctx pr` prints on the payments fixture (commit ids aside)', { timeout: T }, async () => {
    const s = await paymentsScenario();
    const r = runCli(['pr', '--base', 'main', '--head', 'idempotency', '--fail-on', 'never'], { cwd: s.repo.dir });
    const doc = readFileSync(path.join(__dirname, '../../docs/action.md'), 'utf8');
    const shown = /````markdown\n([\s\S]*?)\n````/.exec(doc)![1]!;
    const ids = (t: string) => t.replace(/\b[0-9a-f]{40}\b/g, '<commit>').replace(/`[0-9a-f]{12}`/g, '`<short>`');
    expect(ids(shown)).toBe(ids(r.stdout.trimEnd()));
  });
});
