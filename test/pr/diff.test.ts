import { describe, expect, it } from 'vitest';
import { diffPullRequest, findMergeBase, parseHunkHeader, unquoteGitPath } from '../../src/git/diff.js';
import { makeRepo } from '../helpers/git-repo.js';

describe('PR diff parsing', () => {
  it('parses hunk headers, with counts defaulting to 1', () => {
    expect(parseHunkHeader('@@ -5 +5 @@')).toEqual({ oldStart: 5, oldLines: 1, newStart: 5, newLines: 1 });
    expect(parseHunkHeader('@@ -8,0 +9,3 @@ fn')).toEqual({ oldStart: 8, oldLines: 0, newStart: 9, newLines: 3, context: 'fn' });
    expect(parseHunkHeader('@@ -1,2 +0,0 @@')).toEqual({ oldStart: 1, oldLines: 2, newStart: 0, newLines: 0 });
    expect(parseHunkHeader('+@@ not a header')).toBeUndefined();
  });

  it('decodes C-quoted paths', () => {
    expect(unquoteGitPath('"tab\\tname.txt"')).toBe('tab\tname.txt');
    expect(unquoteGitPath('"q\\"uote"')).toBe('q"uote');
    expect(unquoteGitPath('"\\303\\251t\\303\\251.ts"')).toBe('été.ts');
    expect(unquoteGitPath('plain.ts')).toBe('plain.ts');
  });

  it('diffs merge-base...head: renames, deletions, binaries, type changes and odd names', async () => {
    const repo = makeRepo({
      'sp ace.txt': 'a\nb\nc\nd\ne\nf\ng\nh\n',
      'del.txt': 'x\n',
      'mv.txt': '1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n',
      'b.bin': Buffer.from([1, 0, 2, 3]),
      tc: 'hi\n',
    });
    const base = repo.commit('base');
    repo.git('checkout', '-q', '-b', 'pr');
    repo.write({ 'sp ace.txt': 'a\nB\nc\nd\ne\nf\nG\nh\nI\n', 'moved"q.txt': '1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n', 'b.bin': Buffer.from([1, 0, 2, 4]), 'tab\tname.txt': 'new\n', 'diff --git a/x b/x.txt': '+@@ -1 +1 @@\n' });
    repo.rm('del.txt', 'mv.txt', 'tc');
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'pr');
    const head = repo.git('rev-parse', 'HEAD');
    // the base branch moves on: its changes are not the PR's
    repo.git('checkout', '-q', 'main');
    const baseTip = repo.commit('main moves', { 'other.txt': 'main only\n' });

    expect(await findMergeBase(repo.dir, baseTip, head)).toBe(base);
    const d = await diffPullRequest(repo.dir, baseTip, head);
    expect(d.mergeBase).toBe(base);
    const by = Object.fromEntries(d.files.map((f) => [f.path, f]));
    expect(Object.keys(by).sort()).toEqual(['b.bin', 'del.txt', 'diff --git a/x b/x.txt', 'moved"q.txt', 'sp ace.txt', 'tab\tname.txt', 'tc'].sort());
    expect(by['other.txt']).toBeUndefined();
    // git names the line before each hunk as its context (its funcname heuristic)
    expect(by['sp ace.txt']!.hunks).toEqual([
      { oldStart: 2, oldLines: 1, newStart: 2, newLines: 1, context: 'a' },
      { oldStart: 7, oldLines: 1, newStart: 7, newLines: 1, context: 'f' },
      { oldStart: 8, oldLines: 0, newStart: 9, newLines: 1, context: 'h' },
    ]);
    // the changed lines themselves, with their line numbers on each side
    expect(by['sp ace.txt']!.text).toEqual({ added: ['B', 'G', 'I'], removed: ['b', 'g'], addedAt: [2, 7, 9], removedAt: [2, 7], truncated: false });
    expect(by['b.bin']!.text).toBeUndefined();
    expect(by['del.txt']!.text).toEqual({ added: [], removed: ['x'], addedAt: [], removedAt: [1], truncated: false });
    expect(by['moved"q.txt']).toMatchObject({ status: 'renamed', oldPath: 'mv.txt', hunks: [{ oldStart: 5, oldLines: 1, newStart: 5, newLines: 1 }] });
    expect(by['del.txt']).toMatchObject({ status: 'deleted', hunks: [{ oldStart: 1, oldLines: 1, newStart: 0, newLines: 0 }] });
    expect(by['b.bin']).toMatchObject({ status: 'modified', binary: true, hunks: [] });
    expect(by['tc']).toMatchObject({ status: 'deleted' });
    expect(by['tab\tname.txt']).toMatchObject({ status: 'added', hunks: [{ oldStart: 0, oldLines: 0, newStart: 1, newLines: 1 }] });
    // a file whose content looks like a diff header does not shift the sections
    expect(by['diff --git a/x b/x.txt']).toMatchObject({ status: 'added', hunks: [{ newStart: 1, newLines: 1 }] });
  });

  it('keeps a file ↔ symlink type change as one entry with both sides', async () => {
    const repo = makeRepo({ a: 'one\ntwo\n', keep: 'k\n' });
    const base = repo.commit('base');
    repo.rm('a');
    repo.git('rm', '-q', '--cached', 'a');
    repo.write({ '.git/link-target': 'elsewhere' });
    repo.git('update-index', '--add', '--cacheinfo', `120000,${repo.git('hash-object', '-w', '.git/link-target')},a`);
    repo.git('commit', '-q', '-m', 'symlink');
    const d = await diffPullRequest(repo.dir, base, repo.git('rev-parse', 'HEAD'));
    expect(d.files).toHaveLength(1);
    expect(d.files[0]).toMatchObject({ path: 'a', status: 'typechange', oldMode: '100644', newMode: '120000' });
    expect(d.files[0]!.hunks.map((h) => [h.oldLines, h.newLines])).toEqual([
      [2, 0],
      [0, 1],
    ]);
  });

  it('says so when the two commits share no history', async () => {
    const repo = makeRepo({ a: '1\n' });
    const one = repo.commit('one');
    repo.git('checkout', '-q', '--orphan', 'other');
    const two = repo.commit('two', { b: '2\n' });
    await expect(diffPullRequest(repo.dir, one, two)).rejects.toThrow(/no merge base/);
  });
});
