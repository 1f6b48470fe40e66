import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRunner } from '../../src/hooks/package-runner.js';
import { makeRepo } from '../helpers/git-repo.js';
import { install, tempDir } from './helpers.js';

const LEFTHOOK = 'pre-commit:\n  parallel: true\n  commands:\n    prettier:\n      glob: "*.{ts,md}"\n      run: yarn prettier -w {staged_files}\n';

/**
 * trials30 (Altinn/altinn-studio's shape): a yarn 4 monorepo with lefthook as a devDependency
 * was told to run `npx lefthook install`. The repository's own package manager runs it.
 */
describe('the command a repository runs its hook manager with', () => {
  it('hooks install in a yarn monorepo names `yarn lefthook install`', () => {
    const repo = makeRepo({
      'package.json': JSON.stringify({ name: 'mono', private: true, packageManager: 'yarn@4.3.1', devDependencies: { lefthook: '1.11.0' }, workspaces: ['apps/web'] }, null, 2) + '\n',
      'yarn.lock': '# yarn lockfile\n',
      'lefthook.yml': LEFTHOOK,
      'apps/web/package.json': '{"name":"web"}\n',
    });
    repo.commit('monorepo');
    const r = install(repo);
    expect(r).toMatchObject({ action: 'manager-entry-added', manager: 'lefthook' });
    expect(String(r.pending)).toContain('run `yarn lefthook install`');
    expect(String(r.pending)).not.toContain('npx');
  });

  it('reads the declared manager, else the lockfile; lefthook not in package.json is the binary on PATH', () => {
    const dir = tempDir();
    expect(packageRunner(dir).manager).toBe('npm');
    expect(packageRunner(dir).lefthookInstall).toBe('lefthook install');
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ devDependencies: { lefthook: '^1' } }));
    expect(packageRunner(dir).lefthookInstall).toBe('npx lefthook install');
    writeFileSync(path.join(dir, 'pnpm-lock.yaml'), 'lockfileVersion: 9\n');
    expect(packageRunner(dir).lefthookInstall).toBe('pnpm exec lefthook install');
    expect(packageRunner(dir).install).toBe('pnpm install');
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ packageManager: 'bun@1.1.0', devDependencies: { husky: '^9' } }));
    expect(packageRunner(dir).run('husky')).toBe('bunx husky');
    expect(packageRunner(dir).lefthookInstall).toBe('lefthook install');
  });
});
