import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, gitEnv, tempDir } from '../helpers/git-repo.js';
import { ROOT, runCli } from '../helpers/cli.js';

/**
 * A new user tries git-ctx without installing it (`node path/to/bin/git-ctx.js hooks install`)
 * in a project that has no node_modules: the hook it writes looks for the CLI in
 * node_modules/.bin and on PATH, finds neither, and stops the next commit. The install must say so.
 */
describe('hooks install when the hook will not find the CLI', () => {
  const gitOnly = () => {
    // a PATH with git and node but no git-ctx
    const bin = tempDir('git-ctx-path-');
    for (const tool of ['git', 'node', 'sh', 'dirname', 'cat']) {
      const found = execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
      symlinkSync(found, path.join(bin, tool));
    }
    return bin;
  };

  it('warns that the next commit stops, and how to go on; a CLI in node_modules/.bin is enough', () => {
    const repo = makeRepo();
    repo.commit('init', { 'src/a.ts': 'export const a = 1;\n' });
    const env = { PATH: gitOnly() };
    const r = runCli(['hooks', 'install'], { cwd: repo.dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('installed the git-ctx pre-commit hook');
    expect(r.stderr).toContain('git-ctx: note: the hook runs node_modules/.bin/git-ctx or git-ctx on PATH and finds neither here: your commits stop until one is there (npm install -g git-ctx, or npm link in a checkout), or skip it with GIT_CTX_SKIP=1');
    // the warning tells the truth: the commit does stop
    repo.write({ 'src/a.ts': 'export const a = 2;\n' });
    repo.git('add', '-A');
    const commit = spawnSync('git', ['commit', '-qm', 'x'], { cwd: repo.dir, env: { ...gitEnv(), ...env }, encoding: 'utf8' });
    expect(commit.status).toBe(1);
    expect(commit.stderr).toContain('cannot find the git-ctx CLI');

    // with the project's own install the hook finds it: no warning
    mkdirSync(path.join(repo.dir, 'node_modules/.bin'), { recursive: true });
    symlinkSync(path.join(ROOT, 'bin/git-ctx.js'), path.join(repo.dir, 'node_modules/.bin/git-ctx'));
    const again = runCli(['hooks', 'install'], { cwd: repo.dir, env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('finds neither');
  });
});
