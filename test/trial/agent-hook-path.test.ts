import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

describe('hooks install --agent on a machine without git-ctx on PATH', () => {
  it('installs, and says the agent gets nothing until git-ctx is on PATH; silent once it is', () => {
    const repo = makeRepo({ 'docs/adr/0001-use-postgres.md': '# 1. Use Postgres\n\n## Status\n\nAccepted\n\n## Decision\n\nPostgres.\n', 'src/db.go': 'package db\n' });
    repo.commit('records');
    // a PATH with git and node but no git-ctx
    const gitDir = path.dirname(execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim());
    const shims = tempDir('git-ctx-path-');
    const pathOf = (...dirs: string[]) => ({ PATH: [...dirs, gitDir, path.dirname(process.execPath)].join(path.delimiter) });
    const first = runCli(['hooks', 'install', '--agent', 'claude'], { cwd: repo.dir, env: pathOf(shims) });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('added the file-read hook to .claude/settings.json\n');
    expect(first.stderr).toContain('git-ctx is not on this PATH; the agent runs "git-ctx hook agent-read" on each read and gets nothing until it is');
    // git-ctx on PATH (an executable shim): installed already, and no note
    mkdirSync(path.join(shims, 'bin'));
    writeFileSync(path.join(shims, 'bin', 'git-ctx'), '#!/bin/sh\nexit 0\n');
    chmodSync(path.join(shims, 'bin', 'git-ctx'), 0o755);
    const again = runCli(['hooks', 'install', '--agent', 'claude'], { cwd: repo.dir, env: pathOf(path.join(shims, 'bin')) });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('.claude/settings.json already runs the file-read hook\n');
    expect(again.stderr).not.toContain('not on this PATH');
  });
});
