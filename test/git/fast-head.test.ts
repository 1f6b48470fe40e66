import { mkdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fastHead } from '../../src/git/fast-head.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { makeRepo } from '../helpers/git-repo.js';

/** What git itself says: the reference fastHead must agree with. */
function gitSays(repo: ReturnType<typeof makeRepo>, cwd: string) {
  const top = repo.git('-C', cwd, 'rev-parse', '--show-toplevel');
  let commit: string | undefined;
  try {
    commit = repo.git('-C', cwd, 'rev-parse', '--verify', '--quiet', 'HEAD^{commit}') || undefined;
  } catch {
    commit = undefined;
  }
  return { root: realpathSync(top), commit };
}

describe('fastHead (HEAD without a git process)', () => {
  it('agrees with git: unborn, loose ref, subdirectory, packed refs, detached, symlinked cwd', () => {
    const repo = makeRepo({ 'a/b/c.txt': 'x\n' });
    expect(fastHead(repo.dir)).toEqual(gitSays(repo, repo.dir)); // unborn branch
    expect(fastHead(repo.dir)!.commit).toBeUndefined();
    const c1 = repo.commit('one');
    expect(fastHead(repo.dir)).toEqual({ root: repo.dir, commit: c1 });
    expect(fastHead(path.join(repo.dir, 'a/b'))).toEqual(gitSays(repo, path.join(repo.dir, 'a/b')));
    repo.git('pack-refs', '--all', '--prune');
    expect(fastHead(repo.dir)).toEqual(gitSays(repo, repo.dir));
    const c2 = repo.commit('two', { 'a/d.txt': 'y\n' });
    repo.git('checkout', '-q', '--detach', c1);
    expect(fastHead(repo.dir)).toEqual({ root: repo.dir, commit: c1 });
    repo.git('checkout', '-q', 'main');
    expect(fastHead(repo.dir)!.commit).toBe(c2);
    const link = path.join(realpathSync(tmpdir()), `git-ctx-link-${process.pid}-${Date.now()}`);
    symlinkSync(path.join(repo.dir, 'a'), link);
    try {
      expect(fastHead(link)).toEqual(gitSays(repo, link));
    } finally {
      rmSync(link);
    }
  });

  it('leaves unusual layouts to git: linked worktrees, GIT_DIR, the .git directory itself, outside any repository', async () => {
    const repo = makeRepo({ 'f.txt': 'x\n' });
    const c1 = repo.commit('one');
    const wt = path.join(repo.dir, '..', `${path.basename(repo.dir)}-wt`);
    repo.git('worktree', 'add', '-q', wt, '-b', 'other');
    expect(fastHead(wt)).toBeUndefined();
    // and openSnapshot still gets it right through git
    const snap = await openSnapshot({ cwd: wt });
    try {
      expect(snap.root).toBe(realpathSync(wt));
      expect(snap.commit).toBe(c1);
    } finally {
      snap.close();
    }
    expect(fastHead(path.join(repo.dir, '.git'))).toBeUndefined();
    process.env.GIT_DIR = path.join(repo.dir, '.git');
    try {
      expect(fastHead(repo.dir)).toBeUndefined();
    } finally {
      delete process.env.GIT_DIR;
    }
    const outside = path.join(realpathSync(tmpdir()), `git-ctx-nogit-${process.pid}-${Date.now()}`);
    mkdirSync(outside);
    try {
      expect(fastHead(outside)).toBeUndefined();
    } finally {
      rmSync(outside, { recursive: true });
    }
    repo.git('worktree', 'remove', '--force', wt);
  });
});
