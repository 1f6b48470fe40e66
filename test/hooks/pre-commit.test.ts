import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PreCommitResult } from '../../src/hooks/pre-commit.js';
import { runCli } from '../helpers/cli.js';
import { gitEnv, type TestRepo } from '../helpers/git-repo.js';
import { fixtureRepo, gitRun, hookPath, install, repoState, stampArtifact, tempDir } from './helpers.js';

const SPEC = '.contextia/system/specs/SPEC-BILLING-001.md';
const DEC = '.contextia/system/rationale/DEC-BILLING-001.md';
const CODE = 'src/billing/invoice.ts';
const ANCHOR = 'src/billing/invoice.ts#InvoiceGenerator.generate';

const read = (repo: TestRepo, p: string) => readFileSync(path.join(repo.dir, p), 'utf8');
/** A broken link: an error-level finding in the artifact. */
const breakLink = (text: string) => text.replace('links: { specs: [SPEC-BILLING-001] }', 'links: { specs: [SPEC-BILLING-001, SPEC-MISSING-404] }');
/** A behaviour change inside the anchored method. */
const changeGenerate = (text: string) => text.replace('total += l.amount;', 'total += l.amount * 1.2;');
/** A change elsewhere in the same file. */
const changeDescribe = (text: string) => text.replace("'invoice generator'", "'the invoice generator'");

function head(repo: TestRepo): string {
  return repo.git('rev-parse', 'HEAD');
}

/** Run the hook command directly against the staged snapshot; parsed JSON result. */
function hookJson(repo: TestRepo): { code: number; result: PreCommitResult } {
  const r = runCli(['hook', 'pre-commit', '--json'], { cwd: repo.dir });
  if (r.code === 2) throw new Error(r.stderr);
  return { code: r.code, result: JSON.parse(r.stdout) as PreCommitResult };
}

/** The fixture with a stamped spec, committed, and the hook installed. */
async function stampedRepo(): Promise<TestRepo> {
  const repo = fixtureRepo();
  await stampArtifact(repo, SPEC, [ANCHOR]);
  repo.commit('stamp SPEC-BILLING-001');
  install(repo);
  return repo;
}

/** The fixture repository with a team's own pre-commit hook already in place (not yet chained). */
function repoWithHook(script: string): { repo: TestRepo; file: string } {
  const repo = fixtureRepo();
  const file = path.join(repo.dir, '.git/hooks/pre-commit');
  writeFileSync(file, script);
  chmodSync(file, 0o755);
  return { repo, file };
}

describe('pre-commit hook: coherence', () => {
  it('blocks a commit that stages an error and names the finding and the bypass', () => {
    const repo = fixtureRepo();
    install(repo);
    const before = head(repo);
    repo.write({ [DEC]: breakLink(read(repo, DEC)) });
    repo.git('add', DEC);
    const r = gitRun(repo, ['commit', '-m', 'break a link']);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain('In this commit:');
    expect(r.output).toMatch(/DEC-BILLING-001\.md:\d+ +error +.*SPEC-MISSING-404.*broken-link/);
    expect(r.output).toContain('commit blocked');
    expect(r.output).toContain('git commit --no-verify');
    expect(r.output).toContain('GIT_CTX_SKIP=1');
    expect(head(repo)).toBe(before);
  });

  it('lets a clean commit through', () => {
    const repo = fixtureRepo();
    install(repo);
    const before = head(repo);
    repo.write({ 'README.md': '# changed\n' });
    repo.git('add', 'README.md');
    const r = gitRun(repo, ['commit', '-m', 'docs']);
    expect(r.code).toBe(0);
    expect(r.output).toContain('✓ git-ctx: 1 staged path, 2 artifacts checked (blocking rules and record warnings): 0 errors');
    expect(head(repo)).not.toBe(before);
  });

  it('blocks on errors elsewhere in the snapshot too, listed after the commit’s own files', () => {
    const repo = fixtureRepo();
    repo.write({ [DEC]: breakLink(read(repo, DEC)) });
    repo.commit('broken, committed without the hook');
    install(repo);
    repo.write({ 'README.md': '# unrelated\n' });
    repo.git('add', 'README.md');
    const { code, result } = hookJson(repo);
    expect(code).toBe(1);
    expect(result.changedPaths).toEqual(['README.md']);
    expect(result.inCommit).toEqual([]);
    expect(result.elsewhere.map((f) => [f.rule, f.file])).toEqual([['broken-link', DEC]]);
    expect(result.blockedBy).toEqual(['findings']);
    const r = gitRun(repo, ['commit', '-m', 'docs']);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain('Elsewhere in the staged snapshot');
  });

  it('runs the rules that can block by default (config overrides honoured), every rule with --all-rules', () => {
    const repo = fixtureRepo();
    // an unlinked spec: orphan-spec, a warning by default
    const orphan = '.contextia/system/specs/SPEC-ORPHAN-001.md';
    repo.write({ [orphan]: '---\nid: SPEC-ORPHAN-001\ntype: spec\nstatus: active\n---\n# Orphan\n' });
    repo.git('add', orphan);
    const byDefault = hookJson(repo);
    expect(byDefault.result.rules).toBe('blocking');
    expect(byDefault.result.inCommit).toEqual([]);
    expect(byDefault.code).toBe(0);

    const all = runCli(['hook', 'pre-commit', '--json', '--all-rules'], { cwd: repo.dir });
    const allResult = JSON.parse(all.stdout) as PreCommitResult;
    expect(allResult.rules).toBe('all');
    expect(allResult.inCommit.map((f) => [f.rule, f.severity, f.file])).toEqual([['orphan-spec', 'warning', orphan]]);
    expect(all.code).toBe(0);

    // raised to an error in config, the rule can block, so it runs by default
    repo.write({ '.contextia/config.yaml': 'severities:\n  orphan-spec: error\n' });
    repo.git('add', '-A');
    const raised = hookJson(repo);
    expect(raised.result.inCommit.map((f) => [f.rule, f.severity])).toEqual([['orphan-spec', 'error']]);
    expect(raised.code).toBe(1);
  });

  it('judges partially staged files by their staged content, not the working tree', () => {
    const repo = fixtureRepo();
    install(repo);
    const good = read(repo, DEC);
    // staged: broken; working tree: fixed again → the commit would record the broken one
    repo.write({ [DEC]: breakLink(good) });
    repo.git('add', DEC);
    repo.write({ [DEC]: good + '\nMore prose.\n' });
    let r = gitRun(repo, ['commit', '-m', 'staged is broken']);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain('SPEC-MISSING-404');

    // staged: fine; working tree: broken → the commit records the fine one
    repo.write({ [DEC]: good + '\nMore prose.\n' });
    repo.git('add', DEC);
    repo.write({ [DEC]: breakLink(good + '\nMore prose.\n') });
    r = gitRun(repo, ['commit', '-m', 'staged is fine']);
    expect(r.code).toBe(0);
    expect(repo.git('show', `HEAD:${DEC}`)).not.toContain('SPEC-MISSING-404');
  });

  it('reads the temporary index of `git commit -a` and `git commit <path>`', () => {
    const repo = fixtureRepo();
    install(repo);
    repo.write({ [DEC]: breakLink(read(repo, DEC)), 'README.md': '# changed\n' });
    // only README goes into this commit: git builds a temporary index for it
    let r = gitRun(repo, ['commit', '-m', 'readme only', '--', 'README.md']);
    expect(r.code).toBe(0);
    expect(r.output).toContain('1 staged path,');
    // -a takes the broken artifact along
    r = gitRun(repo, ['commit', '-a', '-m', 'everything']);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain('SPEC-MISSING-404');
  });

  it('checks the first commit of a repository (no HEAD yet)', () => {
    const repo = fixtureRepo();
    const fresh = gitRun(repo, ['checkout', '-q', '--orphan', 'fresh']);
    expect(fresh.code).toBe(0);
    install(repo);
    repo.write({ [DEC]: breakLink(read(repo, DEC)) });
    repo.git('add', '-A');
    const r = gitRun(repo, ['commit', '-m', 'root']);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain('SPEC-MISSING-404');
  });

  it('never modifies the index or the working tree, whatever it finds', async () => {
    const repo = await stampedRepo();
    // a partially staged drifted file, a staged broken artifact, an untracked file
    repo.write({ [CODE]: changeGenerate(read(repo, CODE)) });
    repo.git('add', CODE);
    repo.write({ [CODE]: changeDescribe(read(repo, CODE)), 'notes.txt': 'untracked\n' });
    repo.write({ [DEC]: breakLink(read(repo, DEC)) });
    repo.git('add', DEC);
    const before = repoState(repo);
    const indexBytes = readFileSync(path.join(repo.dir, '.git/index'));
    const direct = hookJson(repo);
    expect(direct.code).toBe(1);
    expect(direct.result.drift).toHaveLength(1);
    expect(repoState(repo)).toBe(before);
    // not even a stat refresh: the index file is byte for byte the same
    expect(readFileSync(path.join(repo.dir, '.git/index')).equals(indexBytes)).toBe(true);
    const r = gitRun(repo, ['commit', '-m', 'blocked']);
    expect(r.code).not.toBe(0);
    expect(repoState(repo)).toBe(before);
  });
});

describe('pre-commit hook: drift', () => {
  it('warns when anchored code changes without a re-stamp, naming artifact, symbol and ack command', async () => {
    const repo = await stampedRepo();
    const before = head(repo);
    repo.write({ [CODE]: changeGenerate(read(repo, CODE)) });
    repo.git('add', CODE);
    const { code, result } = hookJson(repo);
    expect(code).toBe(0);
    expect(result.drift).toEqual([
      {
        artifact: 'SPEC-BILLING-001',
        file: SPEC,
        anchor: ANCHOR,
        path: CODE,
        symbol: 'InvoiceGenerator.generate',
        line: 7,
        change: 'changed',
        command: 'git ctx ack SPEC-BILLING-001',
      },
    ]);
    const r = gitRun(repo, ['commit', '-m', 'change totals']);
    expect(r.code).toBe(0);
    expect(r.output).toContain('InvoiceGenerator.generate in src/billing/invoice.ts is anchored by SPEC-BILLING-001');
    expect(r.output).toContain(`git ctx ack SPEC-BILLING-001 && git add ${SPEC}`);
    expect(head(repo)).not.toBe(before);
  });

  it('the suggested command clears the warning', async () => {
    const repo = await stampedRepo();
    repo.write({ [CODE]: changeGenerate(read(repo, CODE)) });
    repo.git('add', CODE);
    const [drift] = hookJson(repo).result.drift;
    expect(drift?.command).toBe('git ctx ack SPEC-BILLING-001');
    const ack = runCli(drift!.command.split(' ').slice(2), { cwd: repo.dir });
    expect(ack.code, ack.stderr).toBe(0);
    repo.git('add', SPEC);
    const { code, result } = hookJson(repo);
    expect(result.drift).toEqual([]);
    expect(code).toBe(0);
  });

  it('stays quiet for formatting-only edits, edits to other symbols, and re-stamped commits', async () => {
    const repo = await stampedRepo();
    // whitespace and comments are folded out of the fingerprint
    repo.write({ [CODE]: read(repo, CODE).replace('let total = 0;', 'let   total = 0; // start at zero') });
    repo.git('add', CODE);
    expect(hookJson(repo).result.drift).toEqual([]);
    // another method of the same class
    repo.write({ [CODE]: changeDescribe(read(repo, CODE)) });
    repo.git('add', CODE);
    expect(hookJson(repo).result.drift).toEqual([]);
    // the anchored method, re-stamped in the same commit
    repo.write({ [CODE]: changeGenerate(read(repo, CODE)) });
    repo.git('add', CODE);
    expect(hookJson(repo).result.drift).toHaveLength(1);
    await stampArtifact(repo, SPEC, [ANCHOR]);
    repo.git('add', SPEC);
    const { code, result } = hookJson(repo);
    expect(code).toBe(0);
    expect(result.drift).toEqual([]);
    expect(result.check.findings.filter((f) => f.severity === 'error')).toEqual([]);
  });

  it('judges drift on the staged half of a partially staged file', async () => {
    const repo = await stampedRepo();
    const original = read(repo, CODE);
    // staged: another method; unstaged: the anchored method → no drift in this commit
    repo.write({ [CODE]: changeDescribe(original) });
    repo.git('add', CODE);
    repo.write({ [CODE]: changeGenerate(changeDescribe(original)) });
    expect(hookJson(repo).result.drift).toEqual([]);
    // staged: the anchored method; unstaged: reverted → drift in this commit
    repo.write({ [CODE]: changeGenerate(original) });
    repo.git('add', CODE);
    repo.write({ [CODE]: original });
    expect(hookJson(repo).result.drift.map((d) => d.symbol)).toEqual(['InvoiceGenerator.generate']);
  });

  it('reports a renamed symbol as moved and a deleted file as removed', async () => {
    const repo = await stampedRepo();
    repo.write({ [CODE]: read(repo, CODE).replace('generate(lines', 'computeTotal(lines') });
    repo.git('add', CODE);
    expect(hookJson(repo).result.drift).toMatchObject([{ change: 'moved', movedTo: `${CODE}#InvoiceGenerator.computeTotal` }]);
    repo.git('rm', '-q', '--cached', CODE);
    expect(hookJson(repo).result.drift).toMatchObject([{ change: 'removed', path: CODE, symbol: 'InvoiceGenerator.generate' }]);
  });

  it('blocks on drift with hook.drift: block', async () => {
    const repo = await stampedRepo();
    repo.write({ '.contextia/config.yaml': 'hook:\n  drift: block\n' });
    repo.git('add', '-A');
    expect(gitRun(repo, ['commit', '-m', 'config']).code).toBe(0);
    const before = head(repo);
    repo.write({ [CODE]: changeGenerate(read(repo, CODE)) });
    repo.git('add', CODE);
    const r = gitRun(repo, ['commit', '-m', 'change totals']);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain('commit blocked by drift (hook.drift: block)');
    expect(r.output).toContain('git ctx ack SPEC-BILLING-001');
    expect(head(repo)).toBe(before);
  });

  it('rejects an unknown hook.drift value with a config error', async () => {
    const repo = fixtureRepo();
    repo.write({ '.contextia/config.yaml': 'hook:\n  drift: maybe\n' });
    repo.git('add', '-A');
    const r = runCli(['hook', 'pre-commit'], { cwd: repo.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('hook.drift must be warn or block');
  });
});

describe('pre-commit hook: script, chaining, bypass', () => {
  const brokenStage = (repo: TestRepo) => {
    repo.write({ [DEC]: breakLink(read(repo, DEC)) });
    repo.git('add', DEC);
  };

  it('runs a chained hook first and propagates its failure', () => {
    const { repo } = repoWithHook('#!/bin/sh\necho "team hook ran" >&2\nexit "${TEAM_HOOK_EXIT:-0}"\n');
    expect(install(repo)).toMatchObject({ action: 'chained' });

    repo.write({ 'README.md': '# a\n' });
    repo.git('add', 'README.md');
    let r = gitRun(repo, ['commit', '-m', 'a'], { TEAM_HOOK_EXIT: '3' });
    expect(r.code).not.toBe(0);
    expect(r.output).toContain('team hook ran');
    expect(r.output).not.toContain('git-ctx:');

    r = gitRun(repo, ['commit', '-m', 'a']);
    expect(r.code).toBe(0);
    expect(r.output.indexOf('team hook ran')).toBeLessThan(r.output.indexOf('git-ctx:'));

    brokenStage(repo);
    r = gitRun(repo, ['commit', '-m', 'b']);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain('team hook ran');
    expect(r.output).toContain('SPEC-MISSING-404');
  });

  it('passes the chained hook’s exact exit code out of the script', () => {
    const { repo, file } = repoWithHook('#!/bin/sh\nexit 7\n');
    install(repo);
    // git reports any hook failure as its own exit 1, so run the script as git does
    const run = spawnSync(file, [], { cwd: repo.dir, env: gitEnv({ PATH: hookPath() }) });
    expect(run.status).toBe(7);
  });

  it('works through core.hooksPath', () => {
    const repo = fixtureRepo();
    repo.git('config', 'core.hooksPath', '.githooks');
    expect(install(repo)).toMatchObject({ action: 'installed', file: path.join(repo.dir, '.githooks/pre-commit') });
    brokenStage(repo);
    const r = gitRun(repo, ['commit', '-m', 'b']);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain('SPEC-MISSING-404');
  });

  it('is skipped by --no-verify and by GIT_CTX_SKIP=1, which still runs a chained hook', () => {
    const { repo } = repoWithHook('#!/bin/sh\necho "team hook ran" >&2\n');
    install(repo);
    brokenStage(repo);
    let r = gitRun(repo, ['commit', '-m', 'skip'], { GIT_CTX_SKIP: '1' });
    expect(r.code).toBe(0);
    expect(r.output).toContain('team hook ran');
    expect(r.output).toContain('GIT_CTX_SKIP=1 set, skipping');
    repo.write({ 'README.md': '# b\n' });
    repo.git('add', 'README.md');
    r = gitRun(repo, ['commit', '--no-verify', '-m', 'no verify']);
    expect(r.code).toBe(0);
    expect(r.output).not.toContain('team hook ran');
    // the command honours the variable too, for husky, lefthook and the pre-commit framework
    const cli = runCli(['hook', 'pre-commit'], { cwd: repo.dir, env: { GIT_CTX_SKIP: '1' } });
    expect(cli.code).toBe(0);
    expect(cli.stderr).toContain('GIT_CTX_SKIP=1');
  });

  it('runs git-ctx without NODE_EXTRA_CA_CERTS (it opens no connection), a chained hook with it', () => {
    const { repo } = repoWithHook('#!/bin/sh\necho "chained sees ca=${NODE_EXTRA_CA_CERTS:-unset}" >&2\n');
    install(repo);
    // a git-ctx on PATH that reports what it was given
    const spy = tempDir('git-ctx-spy-');
    writeFileSync(path.join(spy, 'git-ctx'), '#!/bin/sh\necho "git-ctx sees ca=${NODE_EXTRA_CA_CERTS:-unset} args=$*" >&2\n');
    chmodSync(path.join(spy, 'git-ctx'), 0o755);
    repo.write({ 'README.md': '# d\n' });
    repo.git('add', 'README.md');
    const r = gitRun(repo, ['commit', '-m', 'd'], { PATH: `${spy}${path.delimiter}${hookPath(false)}`, NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/extra.pem' });
    expect(r.code).toBe(0);
    expect(r.output).toContain('chained sees ca=/etc/ssl/certs/extra.pem');
    expect(r.output).toContain('git-ctx sees ca=unset args=hook pre-commit');
  });

  it('explains how to get the CLI (or skip) when git-ctx cannot be found', () => {
    const repo = fixtureRepo();
    install(repo);
    repo.write({ 'README.md': '# c\n' });
    repo.git('add', 'README.md');
    const r = gitRun(repo, ['commit', '-m', 'c'], { PATH: hookPath(false) });
    expect(r.code).not.toBe(0);
    expect(r.output).toContain('cannot find the git-ctx CLI');
    expect(r.output).toContain('GIT_CTX_SKIP=1 git commit');
  });
});
