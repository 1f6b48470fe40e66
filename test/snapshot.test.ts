import { describe, expect, it } from 'vitest';
import { openSnapshot } from '../src/snapshot/index.js';
import { makeRepo } from './helpers/git-repo.js';
import { symlinkSync } from 'node:fs';
import path from 'node:path';

for (const backend of ['git', 'isomorphic-git'] as const) {
  describe(`snapshot (${backend})`, () => {
    it('reads worktree, index and commit views of the same repository', async () => {
      const repo = makeRepo({ 'a.txt': 'one\n', 'dir/b.txt': 'bee\n' });
      const c1 = repo.commit('first');
      repo.write({ 'a.txt': 'two\n' });
      repo.git('add', 'a.txt');
      repo.write({ 'a.txt': 'three\n', 'new.txt': 'untracked\n' });

      const wt = await openSnapshot({ cwd: repo.dir, backend });
      const ix = await openSnapshot({ cwd: repo.dir, kind: 'index', backend });
      const cm = await openSnapshot({ cwd: path.join(repo.dir, 'dir'), rev: 'HEAD', backend });
      try {
        expect((await wt.read('a.txt'))?.toString()).toBe('three\n');
        expect((await ix.read('a.txt'))?.toString()).toBe('two\n');
        expect((await cm.read('a.txt'))?.toString()).toBe('one\n');
        expect(cm.commit).toBe(c1);
        expect(wt.commit).toBe(c1);
        expect((await wt.list()).map((e) => e.path)).toEqual(['a.txt', 'dir/b.txt', 'new.txt']);
        expect((await ix.list()).map((e) => e.path)).toEqual(['a.txt', 'dir/b.txt']);
        expect((await cm.listUnder('dir')).map((e) => e.path)).toEqual(['dir/b.txt']);
        // blob ids agree between views for unchanged files
        expect(await wt.blobOf('dir/b.txt')).toBe(await cm.blobOf('dir/b.txt'));
        expect(await wt.blobOf('dir/b.txt')).toBe(repo.git('rev-parse', 'HEAD:dir/b.txt'));
        expect(await cm.read('missing.txt')).toBeUndefined();
      } finally {
        wt.close();
        ix.close();
        cm.close();
      }
    });

    it('a directory listing before any full listing gives the same entries (no whole-tree scan needed)', async () => {
      const repo = makeRepo({ '.contextia/a.md': 'a', '.contextia/sub/b.md': 'b', 'src/x.ts': 'x', '.contextia-other/c.md': 'c' });
      repo.commit('c');
      repo.write({ '.contextia/new.md': 'untracked', '.contextia/a.md': 'modified' });
      for (const kind of ['worktree', 'index', 'commit'] as const) {
        const scoped = await openSnapshot({ cwd: repo.dir, kind, rev: kind === 'commit' ? 'HEAD' : undefined, backend });
        const full = await openSnapshot({ cwd: repo.dir, kind, rev: kind === 'commit' ? 'HEAD' : undefined, backend });
        try {
          const a = await scoped.listUnder('.contextia');
          await full.list();
          expect(a).toEqual(await full.listUnder('.contextia'));
          expect(a.map((e) => e.path)).not.toContain('.contextia-other/c.md');
          expect((await scoped.read('src/x.ts'))?.toString()).toBe('x');
          expect(await scoped.blobOf('.contextia/sub/b.md')).toBe(await full.blobOf('.contextia/sub/b.md'));
          expect((await scoped.read('.contextia/a.md'))?.toString()).toBe(kind === 'worktree' ? 'modified' : 'a');
        } finally {
          scoped.close();
          full.close();
        }
      }
    });

    it('lists symlinks but never follows them', async () => {
      const repo = makeRepo({ 'a.txt': 'x' });
      symlinkSync('/etc/passwd', path.join(repo.dir, 'link.md'));
      repo.commit('with link');
      for (const kind of ['worktree', 'commit'] as const) {
        const s = await openSnapshot({ cwd: repo.dir, kind, rev: kind === 'commit' ? 'HEAD' : undefined, backend });
        const e = (await s.list()).find((x) => x.path === 'link.md');
        expect(e?.mode).toBe('120000');
        expect(await s.read('link.md')).toBeUndefined();
        s.close();
      }
    });

    it('rejects unknown revisions and option-like revisions', async () => {
      const repo = makeRepo({ 'a.txt': 'x' });
      repo.commit('c');
      await expect(openSnapshot({ cwd: repo.dir, rev: 'nope', backend })).rejects.toMatchObject({ code: 'BAD_REVISION' });
      await expect(openSnapshot({ cwd: repo.dir, rev: '--output=/tmp/x', backend })).rejects.toMatchObject({ code: 'BAD_REVISION' });
    });
  });
}

describe('snapshot outside a repo', () => {
  it('says NOT_A_REPO', async () => {
    await expect(openSnapshot({ cwd: '/', backend: 'git' })).rejects.toMatchObject({ code: 'NOT_A_REPO' });
  });
});
