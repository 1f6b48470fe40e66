import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installHook } from '../../src/hooks/install.js';
import { SHARED_LINE } from '../../src/hooks/managers.js';
import { BIN } from '../helpers/cli.js';
import { gitEnv, makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { fixtureRepo, gitRun, hookPath, install, tempDir } from './helpers.js';

// Real hook managers from the npm registry (lefthook ships its binary as a platform
// package), installed once into a shared directory and linked into each test repository's
// node_modules the way npm would lay them out.

const DEC = '.contextia/system/rationale/DEC-BILLING-001.md';
const NOTICE = 'git-ctx is not installed here, skipping its pre-commit check';
/** The summary line every run of `git ctx hook pre-commit` prints. */
const RAN = /git-ctx: \d+ staged path/;

let managers = '';

beforeAll(() => {
  // kept for the whole file (tempDir() is removed after each test)
  managers = realpathSync(mkdtempSync(path.join(tmpdir(), 'git-ctx-managers-')));
  writeFileSync(path.join(managers, 'package.json'), JSON.stringify({ name: 'managers', private: true }));
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', 'lefthook@2', 'husky@9', 'simple-git-hooks@2'], {
    cwd: managers,
    encoding: 'utf8',
    timeout: 5 * 60_000,
  });
  if (r.status !== 0) throw new Error(`npm install of the hook managers failed (the npm registry is needed): ${r.stderr}`);
}, 6 * 60_000);

afterAll(() => {
  if (managers) rmSync(managers, { recursive: true, force: true });
});

/** Lay out node_modules in `dir` with the managers (and, unless `withGitCtx` is false, git-ctx). */
function linkModules(dir: string, withGitCtx = true): void {
  const nm = path.join(dir, 'node_modules');
  mkdirSync(path.join(nm, '.bin'), { recursive: true });
  for (const name of readdirSync(path.join(managers, 'node_modules'))) {
    if (name.startsWith('.')) continue;
    symlinkSync(path.join(managers, 'node_modules', name), path.join(nm, name));
  }
  for (const name of readdirSync(path.join(managers, 'node_modules/.bin'))) {
    symlinkSync(path.join(managers, 'node_modules/.bin', name), path.join(nm, '.bin', name));
  }
  if (withGitCtx) {
    // a project-local git-ctx, as `npm install --save-dev git-ctx` leaves it
    const shim = path.join(nm, '.bin', 'git-ctx');
    writeFileSync(shim, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
    chmodSync(shim, 0o755);
  }
  writeFileSync(path.join(dir, '.git/info/exclude'), 'node_modules\n', { flag: 'a' });
}

/** Run a manager's own binary from the repository's node_modules/.bin. */
function manager(repo: TestRepo | string, bin: string, ...args: string[]): string {
  const cwd = typeof repo === 'string' ? repo : repo.dir;
  const r = spawnSync(path.join(cwd, 'node_modules/.bin', bin), args, { cwd, encoding: 'utf8', env: gitEnv({ PATH: hookPath(false), CI: '' }) });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return r.stdout + r.stderr;
}

/** Commit with no git-ctx on PATH: only node_modules/.bin can provide it. */
function commit(repo: TestRepo | string, file: string, content: string, message: string) {
  const cwd = typeof repo === 'string' ? repo : repo.dir;
  writeFileSync(path.join(cwd, file), content);
  spawnSync('git', ['add', file], { cwd, env: gitEnv() });
  return gitRun(cwd, ['commit', '-m', message], { PATH: hookPath(false) });
}

/** A blocking error: a link to a spec that does not exist. */
function breakLink(repo: TestRepo): string {
  return readFileSync(path.join(repo.dir, DEC), 'utf8').replace('links: { specs: [SPEC-BILLING-001] }', 'links: { specs: [SPEC-BILLING-001, SPEC-MISSING-404] }');
}

/** A teammate's clone: the committed configuration, the manager installed, no git-ctx. */
function teammateClone(repo: TestRepo, installArgs: [string, ...string[]]): string {
  const clone = path.join(tempDir('git-ctx-teammate-'), 'clone');
  spawnSync('git', ['clone', '-q', repo.dir, clone], { env: gitEnv() });
  linkModules(clone, false);
  manager(clone, ...installArgs);
  return clone;
}

describe('hook managers, for real', () => {
  it('lefthook: an entry in lefthook.yml survives `lefthook install`, blocks errors, and spares a teammate without git-ctx', () => {
    const repo = fixtureRepo();
    writeFileSync(path.join(repo.dir, 'lefthook.yml'), '# the team hooks\npre-commit:\n  commands:\n    lint:\n      run: echo team-lint-ran\n');
    linkModules(repo.dir);
    manager(repo, 'lefthook', 'install');
    const r = install(repo);
    expect(r).toMatchObject({ action: 'manager-entry-added', manager: 'lefthook' });
    expect(r.pending).toBeUndefined();
    const yml = readFileSync(path.join(repo.dir, 'lefthook.yml'), 'utf8');
    expect(yml.startsWith('# the team hooks\npre-commit:\n  commands:\n    lint:\n      run: echo team-lint-ran\n')).toBe(true);
    expect(yml).toContain('git-ctx-managed-hook');
    // idempotent, and lefthook's own install (it runs on every npm install) keeps it
    expect(install(repo)).toMatchObject({ action: 'manager-entry-present' });
    manager(repo, 'lefthook', 'install');
    const ok = commit(repo, 'notes.txt', 'a\n', 'add notes');
    expect(ok.code).toBe(0);
    expect(ok.output).toContain('team-lint-ran');
    expect(ok.output).toMatch(RAN);
    const blocked = commit(repo, DEC, breakLink(repo), 'break a link');
    expect(blocked.code).not.toBe(0);
    expect(blocked.output).toContain('SPEC-MISSING-404');
    spawnSync('git', ['reset', '-q', '--hard'], { cwd: repo.dir, env: gitEnv() });
    repo.git('add', 'lefthook.yml');
    repo.commit('hooks');

    const clone = teammateClone(repo, ['lefthook', 'install']);
    const mate = commit(clone, 'mate.txt', 'm\n', 'teammate commit');
    expect(mate.code).toBe(0);
    expect(mate.output).toContain(NOTICE);
    expect(mate.output).toContain('team-lint-ran');

    // uninstall removes only our entry
    expect(install(repo, '--uninstall')).toMatchObject({ action: 'manager-entry-removed' });
    expect(readFileSync(path.join(repo.dir, 'lefthook.yml'), 'utf8')).toBe('# the team hooks\npre-commit:\n  commands:\n    lint:\n      run: echo team-lint-ran\n');
  }, 120_000);

  it('simple-git-hooks: added to package.json and applied with its own installer; a re-install keeps it', () => {
    const repo = fixtureRepo();
    const pkg = { name: 'app', private: true, devDependencies: { 'simple-git-hooks': '^2.14.0' }, 'simple-git-hooks': { 'pre-commit': 'echo team-hook-ran' } };
    writeFileSync(path.join(repo.dir, 'package.json'), JSON.stringify(pkg, null, 4) + '\n');
    repo.git('add', 'package.json');
    repo.commit('package');
    linkModules(repo.dir);
    manager(repo, 'simple-git-hooks');
    const r = install(repo);
    expect(r).toMatchObject({ action: 'manager-entry-added', manager: 'simple-git-hooks', applied: 'node_modules/.bin/simple-git-hooks' });
    const written = readFileSync(path.join(repo.dir, 'package.json'), 'utf8');
    // four-space indentation and the final newline kept; the team's command still runs first
    expect(written).toBe(JSON.stringify({ ...pkg, 'simple-git-hooks': { 'pre-commit': `echo team-hook-ran && ${SHARED_LINE}` } }, null, 4) + '\n');
    repo.git('commit', '-q', '--no-verify', '-m', 'hooks', '--', 'package.json');
    manager(repo, 'simple-git-hooks');
    const ok = commit(repo, 'notes.txt', 'a\n', 'add notes');
    expect(ok.code).toBe(0);
    expect(ok.output).toContain('team-hook-ran');
    expect(ok.output).toMatch(RAN);
    const blocked = commit(repo, DEC, breakLink(repo), 'break a link');
    expect(blocked.code).not.toBe(0);
    spawnSync('git', ['reset', '-q', '--hard'], { cwd: repo.dir, env: gitEnv() });

    const clone = teammateClone(repo, ['simple-git-hooks']);
    const mate = commit(clone, 'mate.txt', 'm\n', 'teammate commit');
    expect(mate.code).toBe(0);
    expect(mate.output).toContain(NOTICE);

    expect(install(repo, '--uninstall')).toMatchObject({ action: 'manager-entry-removed' });
    expect(readFileSync(path.join(repo.dir, 'package.json'), 'utf8')).toBe(JSON.stringify(pkg, null, 4) + '\n');
  }, 120_000);

  it('husky v9: the line in .husky/pre-commit survives `husky`, and spares a teammate without git-ctx', () => {
    const repo = fixtureRepo();
    writeFileSync(path.join(repo.dir, 'package.json'), JSON.stringify({ name: 'app', private: true, devDependencies: { husky: '^9.1.7' } }, null, 2) + '\n');
    mkdirSync(path.join(repo.dir, '.husky'));
    writeFileSync(path.join(repo.dir, '.husky/pre-commit'), 'echo team-hook-ran\n');
    repo.git('add', '.');
    repo.commit('husky');
    linkModules(repo.dir);

    // declared but not installed yet: the line is written, and the result says it is not active
    const early = install(repo);
    expect(early).toMatchObject({ action: 'husky-line-added', manager: 'husky' });
    expect(String(early.pending)).toContain('not installed in this clone yet');
    const human = spawnSync(process.execPath, [BIN, 'hooks', 'install'], { cwd: repo.dir, encoding: 'utf8', env: gitEnv({ NO_COLOR: '1' }) });
    expect(human.stdout).toContain('not active yet');

    repo.git('commit', '-q', '--no-verify', '-m', 'hooks', '--', '.husky/pre-commit');
    manager(repo, 'husky');
    expect(install(repo)).toMatchObject({ action: 'husky-line-present' });
    expect(install(repo).pending).toBeUndefined();
    manager(repo, 'husky');
    const ok = commit(repo, 'notes.txt', 'a\n', 'add notes');
    expect(ok.code).toBe(0);
    expect(ok.output).toContain('team-hook-ran');
    expect(ok.output).toMatch(RAN);
    const blocked = commit(repo, DEC, breakLink(repo), 'break a link');
    expect(blocked.code).not.toBe(0);
    spawnSync('git', ['reset', '-q', '--hard'], { cwd: repo.dir, env: gitEnv() });

    const clone = teammateClone(repo, ['husky']);
    const mate = commit(clone, 'mate.txt', 'm\n', 'teammate commit');
    expect(mate.code).toBe(0);
    expect(mate.output).toContain(NOTICE);
  }, 120_000);

  it('upgrades the plain husky line of an earlier install to the line that spares teammates', async () => {
    const repo = makeRepo({ '.husky/_/h': '#!/usr/bin/env sh\n', '.husky/pre-commit': 'npm test\ngit-ctx hook pre-commit # git-ctx-managed-hook\n' });
    repo.git('config', 'core.hooksPath', '.husky/_');
    const r = await installHook({ cwd: repo.dir });
    expect(r).toMatchObject({ action: 'updated', manager: 'husky' });
    expect(readFileSync(path.join(repo.dir, '.husky/pre-commit'), 'utf8')).toBe(`npm test\n${SHARED_LINE}\n`);
  });

  it('a committed core.hooksPath hook does not block a teammate without git-ctx; .git/hooks still explains', () => {
    const repo = fixtureRepo();
    repo.git('config', 'core.hooksPath', '.githooks');
    install(repo);
    const shared = commit(repo, 'notes.txt', 'a\n', 'no git-ctx anywhere');
    expect(shared.code).toBe(0);
    expect(shared.output).toContain(NOTICE);
    const own = fixtureRepo();
    install(own);
    const blocked = commit(own, 'notes.txt', 'a\n', 'no git-ctx anywhere');
    expect(blocked.code).toBe(1);
    expect(blocked.output).toContain('cannot find the git-ctx CLI');
  });
});

const hasPreCommit = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' }).status === 0;

describe('pre-commit framework, for real', () => {
  // CI installs it (.ci/run); pre-commit-framework.test.ts fails there when it is missing
  it.skipIf(!hasPreCommit)('a local entry in .pre-commit-config.yaml runs git-ctx verbosely, and spares a teammate without git-ctx', () => {
    const repo = fixtureRepo();
    writeFileSync(path.join(repo.dir, '.pre-commit-config.yaml'), 'repos: []\n');
    repo.git('add', '.pre-commit-config.yaml');
    repo.commit('pre-commit config');
    linkModules(repo.dir);
    const env = { PRE_COMMIT_HOME: path.join(tempDir('git-ctx-pch-'), 'home') };
    const pc = (cwd: string, ...args: string[]) => spawnSync('pre-commit', args, { cwd, encoding: 'utf8', env: gitEnv({ ...env, PATH: hookPath(false) }) });
    expect(pc(repo.dir, 'install').status).toBe(0);
    expect(install(repo)).toMatchObject({ action: 'manager-entry-added', manager: 'pre-commit' });
    expect(install(repo).pending).toBeUndefined();
    repo.git('commit', '-q', '--no-verify', '-m', 'hooks', '--', '.pre-commit-config.yaml');
    const ok = gitRun(repo, ['commit', '--allow-empty', '-m', 'empty'], { ...env, PATH: hookPath(false) });
    expect(ok.code).toBe(0);
    // verbose: the summary of a passing run is shown
    expect(ok.output).toMatch(RAN);
    writeFileSync(path.join(repo.dir, DEC), breakLink(repo));
    repo.git('add', DEC);
    const blocked = gitRun(repo, ['commit', '-m', 'break'], { ...env, PATH: hookPath(false) });
    expect(blocked.code).not.toBe(0);
    expect(blocked.output).toContain('SPEC-MISSING-404');
    spawnSync('git', ['reset', '-q', '--hard'], { cwd: repo.dir, env: gitEnv() });

    const clone = path.join(tempDir('git-ctx-teammate-'), 'clone');
    spawnSync('git', ['clone', '-q', repo.dir, clone], { env: gitEnv() });
    expect(pc(clone, 'install').status).toBe(0);
    const mate = gitRun(clone, ['commit', '--allow-empty', '-m', 'teammate'], { ...env, PATH: hookPath(false) });
    expect(mate.code).toBe(0);
    expect(mate.output).toContain(NOTICE);
  }, 120_000);
});

describe('hook manager configurations', () => {
  it('pre-commit framework: adds a local, verbose hook to .pre-commit-config.yaml and removes it', async () => {
    const original = '# team config\nrepos:\n  - repo: https://github.com/pre-commit/pre-commit-hooks\n    rev: v4.6.0\n    hooks:\n      - id: trailing-whitespace\n';
    const repo = makeRepo({ '.pre-commit-config.yaml': original });
    const r = await installHook({ cwd: repo.dir });
    expect(r).toMatchObject({ action: 'manager-entry-added', manager: 'pre-commit' });
    expect(r.pending).toContain('pre-commit install');
    const text = readFileSync(path.join(repo.dir, '.pre-commit-config.yaml'), 'utf8');
    expect(text.startsWith(original)).toBe(true);
    expect(text).toContain('repo: local');
    expect(text).toContain('verbose: true');
    expect(text).toContain('language: system');
    expect((await installHook({ cwd: repo.dir })).action).toBe('manager-entry-present');
    expect((await installHook({ cwd: repo.dir, uninstall: true })).action).toBe('manager-entry-removed');
    expect(readFileSync(path.join(repo.dir, '.pre-commit-config.yaml'), 'utf8')).toBe(original);
  });

  it('pre-commit framework: a git-ctx hook from the git-ctx repository counts as present', async () => {
    const cfg = 'repos:\n  - repo: https://github.com/example/git-ctx\n    rev: v0.1.0\n    hooks:\n      - id: git-ctx\n';
    const repo = makeRepo({ '.pre-commit-config.yaml': cfg });
    expect((await installHook({ cwd: repo.dir })).action).toBe('manager-entry-present');
    expect(readFileSync(path.join(repo.dir, '.pre-commit-config.yaml'), 'utf8')).toBe(cfg);
  });

  it('lefthook: jobs syntax, a file without pre-commit, and a YAML error named with its line', async () => {
    const jobs = makeRepo({ 'lefthook.yml': 'pre-commit:\n  jobs:\n    - name: lint\n      run: echo lint\n' });
    await installHook({ cwd: jobs.dir });
    const text = readFileSync(path.join(jobs.dir, 'lefthook.yml'), 'utf8');
    expect(text).toContain('- name: git-ctx');
    expect(text).not.toContain('commands:');

    const other = makeRepo({ '.lefthook.yml': 'pre-push:\n  commands:\n    test:\n      run: npm test\n' });
    await installHook({ cwd: other.dir });
    expect(readFileSync(path.join(other.dir, '.lefthook.yml'), 'utf8')).toBe(`pre-push:\n  commands:\n    test:\n      run: npm test\npre-commit:\n  commands:\n    git-ctx:\n      run: ${JSON.stringify(SHARED_LINE)}\n`);

    const broken = makeRepo({ 'lefthook.yml': 'pre-commit:\n  commands:\n    lint: [unclosed\n' });
    await expect(installHook({ cwd: broken.dir })).rejects.toMatchObject({ code: 'PARSE', file: path.join(broken.dir, 'lefthook.yml') });
  });

  it('a configuration git-ctx does not edit (JavaScript) is left alone, with the command to add (exit 1)', () => {
    const repo = makeRepo({ '.simple-git-hooks.cjs': "module.exports = { 'pre-commit': 'npm test' };\n" });
    const r = spawnSync(process.execPath, [BIN, 'hooks', 'install'], { cwd: repo.dir, encoding: 'utf8', env: gitEnv({ NO_COLOR: '1' }) });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('does not edit');
    expect(r.stdout).toContain('node_modules/.bin/git-ctx');
    expect(existsSync(path.join(repo.dir, '.git/hooks/pre-commit'))).toBe(false);
  });
});

describe('the suggested ack command for users who only have the framework’s copy', () => {
  it('names the framework’s git-ctx by its full path when no other git-ctx is reachable', async () => {
    const { userCommand } = await import('../../src/cli/commands/hook.js');
    const home = tempDir('git-ctx-pch-');
    const envBin = path.join(home, 'pre-commit', 'repoabc', 'node_env-system', 'bin');
    mkdirSync(envBin, { recursive: true });
    symlinkSync(BIN, path.join(envBin, 'git-ctx'));
    const self = path.join(envBin, 'git-ctx');
    const project = tempDir();
    const cmd = userCommand({ PRE_COMMIT: '1', PATH: `${envBin}:/usr/bin:/bin` }, project, self);
    expect(cmd).toBe(`${process.execPath} ${realpathSync(BIN)}`);
    const r = spawnSync('sh', ['-c', `${cmd} --version`], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    // a git-ctx of the user's own (global or node_modules/.bin) keeps the short form
    expect(userCommand({ PRE_COMMIT: '1', PATH: `${envBin}:${hookPath(true)}` }, project, self)).toBe('git ctx');
    expect(userCommand({ PATH: envBin }, project, self)).toBe('git ctx');
  });
});
