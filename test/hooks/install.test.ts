import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHAINED_NAME, HOOK_MARKER, HUSKY_LINE, installHook, packagedHookScript } from '../../src/hooks/install.js';
import { makeRepo } from '../helpers/git-repo.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { install, tempDir } from './helpers.js';

const FOREIGN = '#!/bin/sh\n# a team hook, with odd bytes: \t tab and no final newline\necho "team hook ran"\nexit 0';

describe('hooks install', () => {
  it('writes the packaged script, executable, into .git/hooks', async () => {
    const repo = makeRepo();
    const r = await installHook({ cwd: repo.dir });
    expect(r.action).toBe('installed');
    const file = path.join(repo.dir, '.git/hooks/pre-commit');
    expect(r.file).toBe(file);
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(path.join(ROOT, 'hooks/pre-commit'), 'utf8'));
    expect(lstatSync(file).mode & 0o111).toBe(0o111);
    expect(packagedHookScript()).toContain(HOOK_MARKER);
  });

  it('is idempotent, and updates an older copy of its own hook', async () => {
    const repo = makeRepo();
    await installHook({ cwd: repo.dir });
    expect((await installHook({ cwd: repo.dir })).action).toBe('unchanged');
    const file = path.join(repo.dir, '.git/hooks/pre-commit');
    writeFileSync(file, `#!/bin/sh\n# ${HOOK_MARKER} (an older version)\nexit 0\n`);
    expect((await installHook({ cwd: repo.dir })).action).toBe('updated');
    expect(readFileSync(file, 'utf8')).toBe(packagedHookScript());
    expect(existsSync(path.join(repo.dir, '.git/hooks', CHAINED_NAME))).toBe(false);
  });

  it('chains an existing hook and restores it byte for byte (mode included) on uninstall', async () => {
    const repo = makeRepo();
    const file = path.join(repo.dir, '.git/hooks/pre-commit');
    writeFileSync(file, FOREIGN);
    chmodSync(file, 0o750);
    const r = await installHook({ cwd: repo.dir });
    expect(r.action).toBe('chained');
    expect(r.chained).toBe(path.join(repo.dir, '.git/hooks', CHAINED_NAME));
    expect(readFileSync(r.chained!, 'utf8')).toBe(FOREIGN);
    // a second install must not chain our own hook into itself
    expect((await installHook({ cwd: repo.dir })).action).toBe('unchanged');
    expect(readFileSync(r.chained!, 'utf8')).toBe(FOREIGN);

    const u = await installHook({ cwd: repo.dir, uninstall: true });
    expect(u).toMatchObject({ action: 'uninstalled', restored: true });
    expect(readFileSync(file, 'utf8')).toBe(FOREIGN);
    expect(lstatSync(file).mode & 0o777).toBe(0o750);
    expect(existsSync(r.chained!)).toBe(false);
    expect((await installHook({ cwd: repo.dir, uninstall: true })).action).toBe('not-installed');
    expect(readFileSync(file, 'utf8')).toBe(FOREIGN);
  });

  it('chains a symlinked hook as a symlink', async () => {
    const repo = makeRepo();
    writeFileSync(path.join(repo.dir, 'team-hook.sh'), FOREIGN);
    symlinkSync('../../team-hook.sh', path.join(repo.dir, '.git/hooks/pre-commit'));
    await installHook({ cwd: repo.dir });
    expect(readlinkSync(path.join(repo.dir, '.git/hooks', CHAINED_NAME))).toBe('../../team-hook.sh');
    await installHook({ cwd: repo.dir, uninstall: true });
    expect(readlinkSync(path.join(repo.dir, '.git/hooks/pre-commit'))).toBe('../../team-hook.sh');
  });

  it('uninstall without a chained hook removes the file', async () => {
    const repo = makeRepo();
    await installHook({ cwd: repo.dir });
    expect((await installHook({ cwd: repo.dir, uninstall: true })).action).toBe('uninstalled');
    expect(existsSync(path.join(repo.dir, '.git/hooks/pre-commit'))).toBe(false);
  });

  it('refuses to chain twice when a foreign hook replaced ours, unless forced', async () => {
    const repo = makeRepo();
    const file = path.join(repo.dir, '.git/hooks/pre-commit');
    writeFileSync(file, FOREIGN);
    await installHook({ cwd: repo.dir });
    writeFileSync(file, '#!/bin/sh\necho another tool\n');
    await expect(installHook({ cwd: repo.dir })).rejects.toMatchObject({ code: 'EXISTS' });
    const r = await installHook({ cwd: repo.dir, force: true });
    expect(r.action).toBe('chained');
    expect(readFileSync(r.chained!, 'utf8')).toBe('#!/bin/sh\necho another tool\n');
  });

  it('honours a relative core.hooksPath, creating the directory', async () => {
    const repo = makeRepo();
    repo.git('config', 'core.hooksPath', '.githooks');
    mkdirSync(path.join(repo.dir, 'sub'));
    const r = await installHook({ cwd: path.join(repo.dir, 'sub') });
    expect(r.hooksDir).toBe(path.join(repo.dir, '.githooks'));
    expect(readFileSync(path.join(repo.dir, '.githooks/pre-commit'), 'utf8')).toBe(packagedHookScript());
    expect(existsSync(path.join(repo.dir, '.git/hooks/pre-commit'))).toBe(false);
  });

  it('refuses a core.hooksPath outside the repository unless forced', async () => {
    const repo = makeRepo();
    const shared = tempDir();
    repo.git('config', 'core.hooksPath', shared);
    const r = await installHook({ cwd: repo.dir });
    expect(r.action).toBe('shared-hooks-dir');
    expect(existsSync(path.join(shared, 'pre-commit'))).toBe(false);
    expect((await installHook({ cwd: repo.dir, force: true })).action).toBe('installed');
    expect(existsSync(path.join(shared, 'pre-commit'))).toBe(true);
  });

  it('installs into the common hooks directory from a linked worktree', async () => {
    const repo = makeRepo();
    repo.commit('init', { 'a.txt': 'a\n' });
    const wt = path.join(tempDir(), 'wt');
    repo.git('worktree', 'add', '-q', wt);
    const r = await installHook({ cwd: wt });
    expect(r.file).toBe(path.join(repo.dir, '.git/hooks/pre-commit'));
  });

  it('husky v9: adds one marked line to .husky/pre-commit, idempotently, and removes only it', async () => {
    const repo = makeRepo({ '.husky/_/h': '#!/usr/bin/env sh\n', '.husky/pre-commit': 'npm test' });
    repo.git('config', 'core.hooksPath', '.husky/_');
    const r = await installHook({ cwd: repo.dir });
    expect(r.action).toBe('husky-line-added');
    const file = path.join(repo.dir, '.husky/pre-commit');
    expect(readFileSync(file, 'utf8')).toBe(`npm test\n${HUSKY_LINE}\n`);
    expect((await installHook({ cwd: repo.dir })).action).toBe('husky-line-present');
    expect(readFileSync(file, 'utf8')).toBe(`npm test\n${HUSKY_LINE}\n`);
    expect(existsSync(path.join(repo.dir, '.husky/_/pre-commit'))).toBe(false);
    expect((await installHook({ cwd: repo.dir, uninstall: true })).action).toBe('husky-line-removed');
    expect(readFileSync(file, 'utf8')).toBe('npm test\n');
  });

  it('husky v9 before npm install (declared in package.json): creates .husky/pre-commit', async () => {
    const repo = makeRepo({ 'package.json': JSON.stringify({ devDependencies: { husky: '^9.1.7' } }), '.husky/.gitignore': '_\n' });
    const r = await installHook({ cwd: repo.dir });
    expect(r.action).toBe('husky-line-added');
    expect(readFileSync(path.join(repo.dir, '.husky/pre-commit'), 'utf8')).toBe(`${HUSKY_LINE}\n`);
    await installHook({ cwd: repo.dir, uninstall: true });
    expect(existsSync(path.join(repo.dir, '.husky/pre-commit'))).toBe(false);
  });

  // husky v5–v8 without --force: the line goes into .husky/pre-commit (DEC-123, test/hooks/husky-v5-v8.test.ts)
  it('husky v5–v8: --force installs into the hooks directory anyway', async () => {
    const repo = makeRepo({ '.husky/_/husky.sh': '#!/bin/sh\n', '.husky/pre-commit': '#!/bin/sh\n. "$(dirname "$0")/_/husky.sh"\nnpm test\n' });
    repo.git('config', 'core.hooksPath', '.husky');
    const husky = readFileSync(path.join(repo.dir, '.husky/pre-commit'), 'utf8');
    const forced = await installHook({ cwd: repo.dir, force: true });
    expect(forced.action).toBe('chained');
    expect(forced.chained).toBe(path.join(repo.dir, '.husky', CHAINED_NAME));
    // uninstall finds the forced install without --force, and puts husky's file back
    expect((await installHook({ cwd: repo.dir, uninstall: true })).action).toBe('uninstalled');
    expect(readFileSync(path.join(repo.dir, '.husky/pre-commit'), 'utf8')).toBe(husky);
  });

  it('uninstall removes both a husky line and a hook file it finds', async () => {
    const repo = makeRepo({ '.husky/pre-commit': `npm test\n${HUSKY_LINE}\n` });
    await installHook({ cwd: repo.dir, force: true });
    const r = await installHook({ cwd: repo.dir, uninstall: true });
    expect(r.action).toBe('uninstalled');
    expect(r.notes.join('\n')).toContain('also removed the git-ctx line');
    expect(readFileSync(path.join(repo.dir, '.husky/pre-commit'), 'utf8')).toBe('npm test\n');
    expect(existsSync(path.join(repo.dir, '.git/hooks/pre-commit'))).toBe(false);
  });

  it('husky v4 hook in .git/hooks is recognised, not renamed (it dispatches on its own file name)', async () => {
    const repo = makeRepo();
    const file = path.join(repo.dir, '.git/hooks/pre-commit');
    writeFileSync(file, '#!/bin/sh\n# husky\n. "$(dirname "$0")/husky.sh"\n');
    expect((await installHook({ cwd: repo.dir })).action).toBe('husky-manual');
    expect(existsSync(path.join(repo.dir, '.git/hooks', CHAINED_NAME))).toBe(false);
  });

  it('the CLI says what it did, in words and as JSON', () => {
    const repo = makeRepo();
    const human = runCli(['hooks', 'install'], { cwd: repo.dir });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`installed the git-ctx pre-commit hook: ${path.join(repo.dir, '.git/hooks/pre-commit')}`);
    expect(install(repo)).toMatchObject({ action: 'unchanged' });
    expect(install(repo, '--uninstall')).toMatchObject({ action: 'uninstalled' });
  });
});
