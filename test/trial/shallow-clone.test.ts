import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitEnv, makeRepo, tempDir } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';

/** A CI-style checkout (`git clone --depth 1`) of a repository with an adr-tools folder and some history. */
describe('a shallow clone', () => {
  it('a revision before the graft is named as absent history, with how to fetch it; a full clone keeps the plain message', () => {
    const repo = makeRepo({
      'docs/adr/0001-record-architecture-decisions.md': '# 1. Record architecture decisions\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Context\n\nWe keep records.\n\n## Decision\n\nWe use adr-tools.\n',
      'src/app.go': 'package app\n\nfunc Run() {}\n',
    });
    repo.commit('one');
    repo.commit('two', { 'src/app.go': 'package app\n\nfunc Run() { Start() }\n\nfunc Start() {}\n' });
    repo.commit('three', { 'src/app.go': 'package app\n\nfunc Run() { Start() }\n\nfunc Start() { println(1) }\n' });
    const shallow = path.join(tempDir('git-ctx-shallow-'), 'clone');
    execFileSync('git', ['clone', '-q', '--depth', '1', `file://${repo.dir}`, shallow], { env: gitEnv(), stdio: 'pipe' });
    for (const args of [['for', '--diff', 'HEAD~2..HEAD'], ['pr', '--base', 'HEAD~2', '--head', 'HEAD']]) {
      const r = runCli(args, { cwd: shallow });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('unknown revision: HEAD~2 (this is a shallow clone: history before its oldest fetched commit is absent)');
      expect(r.stderr).toContain('git fetch --deepen=<n>, or git fetch --unshallow');
    }
    // what needs no history still answers
    expect(runCli(['list'], { cwd: shallow }).stdout).toContain('ADR-0001');
    const full = runCli(['for', '--diff', 'HEAD~7..HEAD'], { cwd: repo.dir });
    expect(full.code).toBe(2);
    expect(full.stderr).toContain('unknown revision: HEAD~7\n');
    expect(full.stderr).not.toContain('shallow');
  });
});
