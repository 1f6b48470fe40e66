import { existsSync, readFileSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDirtyProbe, stagedPaths } from '../../src/store/dirty.js';
import { startEpisode } from '../../src/store/record.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { CACHE_REL } from '../helpers/cache.js';

const WAIT = 5000;
const cacheOf = (dir: string) => path.join(dir, `${CACHE_REL}/record-staged.json`);
const judge = (r: TestRepo, files: string[], reads?: 'worktree' | 'index' | 'commit') => startDirtyProbe(r.dir, r.git('rev-parse', 'HEAD'), { reads }).judge(files, WAIT);
/** What git itself says about the files: anything staged, changed, deleted or untracked. */
const gitSays = (r: TestRepo, files: string[]) => r.git('status', '--porcelain', '--untracked-files=all', '--', ...files) !== '';

function repo(): TestRepo {
  const r = makeRepo({ 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'export const b = 2;\n', 'docs/DEC-1.md': '# one\n' });
  r.commit('init');
  return r;
}

describe('the episode dirty flag, scoped to the files an answer read (DEC-032)', () => {
  it('is false on a clean tree and for changes elsewhere; true for an edit, a deletion, an untracked place, a staged change', async () => {
    const r = repo();
    expect(await judge(r, ['src/a.ts', 'docs/DEC-1.md'])).toBe(false);
    // an edit to another file does not make this answer dirty
    r.write({ 'src/b.ts': 'export const b = 3;\n' });
    expect(await judge(r, ['src/a.ts', 'docs/DEC-1.md'])).toBe(false);
    expect(await judge(r, ['src/b.ts'])).toBe(true);
    // deleted
    r.rm('src/a.ts');
    expect(await judge(r, ['src/a.ts'])).toBe(true);
    r.git('checkout', '--', 'src/a.ts');
    expect(await judge(r, ['src/a.ts'])).toBe(false);
    // not in the commit: an untracked place
    r.write({ 'src/new.ts': 'export const n = 0;\n' });
    expect(await judge(r, ['src/new.ts'])).toBe(true);
    // staged, then the work tree put back: the index still differs from the commit
    r.write({ 'docs/DEC-1.md': '# one, amended\n' });
    r.git('add', 'docs/DEC-1.md');
    r.write({ 'docs/DEC-1.md': '# one\n' });
    expect(await judge(r, ['docs/DEC-1.md'])).toBe(true);
    for (const files of [['src/a.ts'], ['src/b.ts'], ['src/new.ts'], ['docs/DEC-1.md'], ['src/a.ts', 'src/b.ts']]) expect(await judge(r, files)).toBe(gitSays(r, files));
  });

  it('a touched file with the same content is clean (the content decides when the stat data changed)', async () => {
    const r = repo();
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(r.dir, 'src/a.ts'), later, later);
    expect(await judge(r, ['src/a.ts'])).toBe(false);
    r.write({ 'src/a.ts': 'export const a = 2;\n' }); // same size, other content
    expect(await judge(r, ['src/a.ts'])).toBe(true);
  });

  it('an answer read from a commit is never dirty; one read from the index only by what is staged', async () => {
    const r = repo();
    r.write({ 'src/a.ts': 'export const a = 9;\n' });
    expect(await judge(r, ['src/a.ts'], 'commit')).toBe(false);
    expect(await judge(r, ['src/a.ts'], 'index')).toBe(false);
    r.git('add', 'src/a.ts');
    expect(await judge(r, ['src/a.ts'], 'index')).toBe(true);
    expect(await judge(r, ['src/b.ts'], 'index')).toBe(false);
  });

  it('the staged set is cached by commit and index checksum: the same answer with and without the cache, and a new one after add or commit', async () => {
    const r = repo();
    const head = r.git('rev-parse', 'HEAD');
    expect([...(await stagedPaths(r.dir, head))!]).toEqual([]);
    expect(existsSync(cacheOf(r.dir))).toBe(true);
    const cached = readFileSync(cacheOf(r.dir), 'utf8');
    // a hit reads the file and runs nothing
    expect([...(await stagedPaths(r.dir, head))!]).toEqual([]);
    expect(readFileSync(cacheOf(r.dir), 'utf8')).toBe(cached);
    // git add rewrites the index: another key, computed again
    r.write({ 'src/a.ts': 'export const a = 5;\n' });
    r.git('add', 'src/a.ts');
    expect([...(await stagedPaths(r.dir, head))!]).toEqual(['src/a.ts']);
    expect(await judge(r, ['src/a.ts'])).toBe(true);
    // without the cache: the same answer
    process.env.GIT_CTX_NO_CACHE = '1';
    try {
      expect([...(await stagedPaths(r.dir, head))!]).toEqual(['src/a.ts']);
    } finally {
      delete process.env.GIT_CTX_NO_CACHE;
    }
    // committed: a new HEAD, nothing staged against it
    const next = r.commit('a');
    expect([...(await stagedPaths(r.dir, next))!]).toEqual([]);
    expect(await judge(r, ['src/a.ts'])).toBe(false);
    // against the old commit the same index differs
    expect([...(await stagedPaths(r.dir, head))!]).toEqual(['src/a.ts']);
  });

  it('a recorded episode carries HEAD read from the filesystem and the flag of the files it names', async () => {
    const r = repo();
    const env = { GIT_CTX_NO_RECORD: '' };
    const rec = () => startEpisode(r.dir, { caller: { kind: 'cli', command: 'test' }, env, dirtyWaitMs: WAIT });
    const journal = () => readFileSync(path.join(r.dir, '.git/ctx/evidence/journal.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { commit?: string; dirty?: boolean });
    r.write({ 'src/b.ts': 'export const b = 7;\n' });
    await rec().finish({ query: { kind: 'place', text: 'src/a.ts', place: 'src/a.ts' }, evidence: [] });
    await rec().finish({ query: { kind: 'place', text: 'src/a.ts', place: 'src/a.ts' }, evidence: [], files: ['src/a.ts', 'src/b.ts'] });
    await rec().finish({ query: { kind: 'search', text: 'nothing' }, evidence: [] });
    const [a, b, c] = journal();
    expect(a).toMatchObject({ commit: r.git('rev-parse', 'HEAD'), dirty: false });
    expect(b!.dirty).toBe(true);
    // nothing read from the tree: no flag
    expect(c!.dirty).toBeUndefined();
  });
});
