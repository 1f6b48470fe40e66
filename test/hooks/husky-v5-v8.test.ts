import { existsSync, lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HUSKY_LINE, installHook } from '../../src/hooks/install.js';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';
import { gitRun, install } from './helpers.js';

// husky 5–8 (DEC-123): git runs `.husky/pre-commit` itself (core.hooksPath=.husky); the file is
// the team's committed script, which `husky install` never rewrites, so the line goes there as
// under husky 9.
const TEAM_HOOK = '#!/usr/bin/env sh\n. "$(dirname -- "$0")/_/husky.sh"\n\nbranch="$(git rev-parse --abbrev-ref HEAD)"\nif [ "$branch" != "release" ]; then\n  sh ./scripts/lint-staged.sh || exit 1\nfi\n';
const PKG = JSON.stringify({ name: 'carbon-meter', private: true, scripts: { postinstall: 'husky install' }, devDependencies: { husky: '^7.0.4' } }, null, 2);

describe('hooks install under husky v5–v8', () => {
  it('a fresh clone (husky declared, not installed yet): the line is added to .husky/pre-commit, not active yet; uninstall restores the file', async () => {
    const repo = makeRepo({ 'package.json': PKG, '.husky/pre-commit': TEAM_HOOK, 'scripts/lint-staged.sh': '#!/bin/sh\nexit 0\n' });
    const file = path.join(repo.dir, '.husky/pre-commit');
    const r = await installHook({ cwd: repo.dir });
    expect(r).toMatchObject({ action: 'husky-line-added', manager: 'husky', file });
    expect(r.pending).toContain('core.hooksPath is not .husky');
    expect(readFileSync(file, 'utf8')).toBe(`${TEAM_HOOK}${HUSKY_LINE}\n`);
    expect(existsSync(path.join(repo.dir, '.git/hooks/pre-commit'))).toBe(false);
    expect((await installHook({ cwd: repo.dir })).action).toBe('husky-line-present');
    expect((await installHook({ cwd: repo.dir, uninstall: true })).action).toBe('husky-line-removed');
    expect(readFileSync(file, 'utf8')).toBe(TEAM_HOOK);
  });

  it('installed (core.hooksPath=.husky): active at once, and a commit runs git-ctx through the team hook', () => {
    const repo = makeRepo({ 'package.json': PKG, '.husky/_/husky.sh': '#!/usr/bin/env sh\n', '.husky/pre-commit': TEAM_HOOK, 'scripts/lint-staged.sh': '#!/bin/sh\nexit 0\n' });
    repo.commit('init');
    repo.git('config', 'core.hooksPath', '.husky');
    const cli = runCli(['hooks', 'install'], { cwd: repo.dir });
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain('husky manages the hooks: added the git-ctx line to');
    expect(cli.stdout).not.toContain('not active yet');
    expect(lstatSync(path.join(repo.dir, '.husky/pre-commit')).mode & 0o111).toBe(0o111);
    repo.write({ 'notes.txt': 'a note\n' });
    repo.git('add', 'notes.txt');
    const commit = gitRun(repo, ['commit', '-q', '-m', 'a note']);
    expect(commit.code).toBe(0);
    expect(repo.git('log', '-1', '--format=%s')).toBe('a note');
  });

  it('a .husky/ folder without a pre-commit file: the file is created with husky 5–8’s own header, executable', async () => {
    const repo = makeRepo({ 'package.json': PKG, '.husky/commit-msg': '#!/usr/bin/env sh\nnpx commitlint --edit "$1"\n' });
    repo.git('config', 'core.hooksPath', '.husky');
    const json = install(repo);
    expect(json).toMatchObject({ action: 'husky-line-added' });
    const file = path.join(repo.dir, '.husky/pre-commit');
    expect(readFileSync(file, 'utf8')).toBe(`#!/usr/bin/env sh\n. "$(dirname -- "$0")/_/husky.sh"\n\n${HUSKY_LINE}\n`);
    expect(lstatSync(file).mode & 0o111).toBe(0o111);
    expect(install(repo, '--uninstall')).toMatchObject({ action: 'husky-line-removed' });
    expect(existsSync(file)).toBe(false);
  });
});
