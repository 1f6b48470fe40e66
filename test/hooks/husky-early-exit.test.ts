import { chmodSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HUSKY_LINE, installHook } from '../../src/hooks/install.js';
import { makeRepo } from '../helpers/git-repo.js';
import { gitRun } from './helpers.js';

// HubEvolution/EvolutionHub's shape (trials31, DEC-132): the team switched its husky hook off with
// an `exit 0` at the top; a line appended after it never runs.
const OFF = '# Hooks switched off for now\nexit 0\n';
const PKG = JSON.stringify({ name: 'site', private: true, packageManager: 'npm@11.0.0', scripts: { prepare: 'husky' }, devDependencies: { husky: '^9.1.7' } }, null, 2);
// husky 9 runs the team's script with `sh -e` through .husky/_/
const RUNNER = '#!/bin/sh\nexec sh -e .husky/pre-commit "$@"\n';

describe('hooks install into a husky script that exits early', () => {
  it('puts the git-ctx line before the exit, says so, and the commit is then checked', async () => {
    const repo = makeRepo({ 'package.json': PKG, '.husky/pre-commit': OFF, '.husky/_/pre-commit': RUNNER, 'docs/adr/0001-one.md': '# One\n\n- Status: accepted\n\n## Decision\n\nOne thing.\n' });
    chmodSync(path.join(repo.dir, '.husky/_/pre-commit'), 0o755);
    repo.commit('init');
    repo.git('config', 'core.hooksPath', '.husky/_');
    const file = path.join(repo.dir, '.husky/pre-commit');
    const r = await installHook({ cwd: repo.dir });
    expect(r.action).toBe('husky-line-added');
    expect(readFileSync(file, 'utf8')).toBe(`# Hooks switched off for now\n${HUSKY_LINE}\nexit 0\n`);
    expect(r.notes.join('\n')).toContain('.husky/pre-commit:2 ends the script (`exit 0`)');
    expect((await installHook({ cwd: repo.dir })).action).toBe('husky-line-present');
    repo.write({ 'docs/adr/0002-two.md': '# Two\n\n- Status: superseded by [Three](0003-three.md)\n\n## Decision\n\nTwo things.\n' });
    repo.git('add', '-A');
    const blocked = gitRun(repo, ['commit', '-q', '-m', 'two']);
    expect(blocked.code).not.toBe(0);
    expect(blocked.stdout + blocked.stderr).toContain('broken-link');
    expect((await installHook({ cwd: repo.dir, uninstall: true })).action).toBe('husky-line-removed');
    expect(readFileSync(file, 'utf8')).toBe(OFF);
  });
});
