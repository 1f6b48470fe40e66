import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

/** A new user types the singular group (`hook install`): the answer names the command that installs. */
describe('git ctx hook install', () => {
  it('exits 2, installs nothing and points at git ctx hooks install', () => {
    const repo = makeRepo({ 'docs/adr/0001-keep-a-changelog.md': '# 1. Keep a changelog\n\n## Status\n\nAccepted\n\n## Decision\n\nEvery release lists its changes.\n' });
    repo.commit('a library');
    for (const args of [['hook', 'install'], ['hook', 'install', '--uninstall']]) {
      const r = runCli(args, { cwd: repo.dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('installing one is git ctx hooks install');
      expect(r.stderr).not.toContain("unknown command 'install'");
    }
    expect(existsSync(path.join(repo.dir, '.git/hooks/pre-commit'))).toBe(false);
    // the hidden command stays out of the group's help
    expect(runCli(['hook', '--help'], { cwd: repo.dir }).stdout).not.toMatch(/^\s+install\b/m);
  });
});
