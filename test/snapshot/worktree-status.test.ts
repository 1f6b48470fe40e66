import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/check/run.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import type { SnapshotEntry } from '../../src/snapshot/types.js';
import { worktreeState } from '../../src/tree/status.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { CACHE_REL } from '../helpers/cache.js';

const saved = process.env.GIT_CTX_TREE;
afterEach(() => {
  if (saved === undefined) delete process.env.GIT_CTX_TREE;
  else process.env.GIT_CTX_TREE = saved;
});

/** The whole working tree listing with blob ids resolved (the work tree's, hashed where changed). */
async function listing(repo: TestRepo, privateIndex: boolean): Promise<SnapshotEntry[]> {
  if (privateIndex) delete process.env.GIT_CTX_TREE;
  else process.env.GIT_CTX_TREE = 'plain';
  const snap = await openSnapshot({ cwd: repo.dir });
  try {
    const entries = await snap.list();
    return await Promise.all(entries.map(async (e) => ({ path: e.path, mode: e.mode, blob: await snap.blobOf(e.path) })));
  } finally {
    snap.close();
  }
}

async function findings(repo: TestRepo): Promise<unknown> {
  delete process.env.GIT_CTX_TREE;
  const snap = await openSnapshot({ cwd: repo.dir });
  try {
    const r = await runCheck({ snapshot: snap, now: new Date('2026-11-22T00:00:00Z') });
    return { findings: r.findings, files: r.files, artifacts: r.artifacts, ruleErrors: r.ruleErrors };
  } finally {
    snap.close();
  }
}

const DEC = (id: string, paths: string) => `---\nid: ${id}\ntype: decision\ntitle: ${id} title\nstatus: accepted\npaths: [${paths}]\n---\n# ${id}\n\nBody of ${id}.\n`;

describe('whole working tree from a private index and one git status', () => {
  it('lists exactly what the plain listing lists through edits, adds, deletes, renames, staging and ignores, without touching the real index', async () => {
    const repo = makeRepo({
      '.gitignore': 'build/\n*.log\n',
      'src/a.ts': '// @spec SPEC-1\nexport const a = 1;\n',
      'src/b.ts': 'export const b = 2;\n',
      'src/deep/c.ts': 'export const c = 3;\n',
      'docs/readme.md': 'hello\n',
      'logs/keep.txt': 'kept\n',
    });
    repo.commit('first');
    const indexFile = path.join(repo.dir, '.git', 'index');
    const steps: [string, () => void][] = [
      ['nothing changed', () => {}],
      ['nothing changed, warm', () => {}],
      ['a tracked file edited', () => repo.write({ 'src/a.ts': '// @spec SPEC-1\nexport const a = 10;\n' })],
      ['an untracked file added', () => repo.write({ 'src/new.ts': 'export const n = 0;\n' })],
      ['an untracked folder added', () => repo.write({ 'fresh/x/y.ts': 'export {};\n', 'fresh/z.md': 'z\n' })],
      ['an ignored file and folder added', () => repo.write({ 'build/out.js': 'x', 'logs/debug.log': 'x', 'logs/note.ts': 'export {};\n' })],
      ['a tracked file deleted', () => rmSync(path.join(repo.dir, 'src/b.ts'))],
      ['a tracked file renamed on disk', () => renameSync(path.join(repo.dir, 'src/deep/c.ts'), path.join(repo.dir, 'src/deep/d.ts'))],
      ['changes staged', () => repo.git('add', '-A')],
      ['staged, then edited again', () => repo.write({ 'src/new.ts': 'export const n = 1;\n' })],
      ['the ignore rules changed', () => repo.write({ '.gitignore': 'build/\n' })],
      ['committed', () => repo.git('commit', '-qam', 'second')],
      ['an untracked file removed', () => rmSync(path.join(repo.dir, 'fresh'), { recursive: true })],
      ['a file with spaces and unicode', () => repo.write({ 'src/ä b.ts': 'export {};\n' })],
      ['a tracked file replaced by a folder', () => {
        rmSync(path.join(repo.dir, 'docs/readme.md'));
        mkdirSync(path.join(repo.dir, 'docs/readme.md'));
        writeFileSync(path.join(repo.dir, 'docs/readme.md/inner.md'), 'inner\n');
      }],
    ];
    for (const [what, change] of steps) {
      change();
      const before = readFileSync(indexFile);
      const fast = await listing(repo, true);
      expect(readFileSync(indexFile).equals(before), `${what}: the real index is never written`).toBe(true);
      const plain = await listing(repo, false);
      expect(fast, what).toEqual(plain);
    }
    expect(readdirSync(path.join(repo.dir, CACHE_REL)).filter((n) => n.startsWith('worktree-index-'))).toHaveLength(2);
  });

  it('takes the private path when it applies and steps aside when caches are off', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    repo.commit('c');
    repo.write({ 'u.txt': 'u\n', 'a.txt': 'changed\n' });
    const state = await worktreeState(repo.dir);
    expect(state && [...state.changed]).toEqual(['a.txt']);
    expect(state?.untracked).toEqual(['u.txt']);
    process.env.GIT_CTX_TREE = 'plain';
    expect(await worktreeState(repo.dir)).toBeUndefined();
    delete process.env.GIT_CTX_TREE;
    const noCache = process.env.GIT_CTX_NO_CACHE;
    process.env.GIT_CTX_NO_CACHE = '1';
    try {
      expect(await worktreeState(repo.dir)).toBeUndefined();
    } finally {
      if (noCache === undefined) delete process.env.GIT_CTX_NO_CACHE;
      else process.env.GIT_CTX_NO_CACHE = noCache;
    }
  });

  it('keeps the plain listing in a repository with a split index (its shared index file is never touched)', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    repo.commit('c');
    repo.git('update-index', '--split-index');
    repo.write({ 'u.txt': 'u\n' });
    const shared = readdirSync(path.join(repo.dir, '.git')).filter((n) => n.startsWith('sharedindex.'));
    expect(shared.length).toBeGreaterThan(0);
    expect(await worktreeState(repo.dir)).toBeUndefined();
    expect(await listing(repo, true)).toEqual(await listing(repo, false));
    expect(readdirSync(path.join(repo.dir, '.git')).filter((n) => n.startsWith('sharedindex.'))).toEqual(shared);
  });

  it('honours an explicit core.untrackedCache=false and stays correct', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    repo.commit('c');
    repo.git('config', 'core.untrackedCache', 'false');
    repo.write({ 'dir/u.txt': 'u\n' });
    expect(await listing(repo, true)).toEqual(await listing(repo, false));
    const keyFile = readdirSync(path.join(repo.dir, CACHE_REL)).find((n) => n.startsWith('worktree-index-') && n.endsWith('.json'))!;
    const key = JSON.parse(readFileSync(path.join(repo.dir, CACHE_REL, keyFile), 'utf8')) as { value: { untrackedCache: boolean } };
    expect(key.value.untrackedCache).toBe(false);
  });

  it('a file written right after a run is in the next run, with git\'s untracked cache kept in the private copy', async () => {
    // git trusts an untracked-cache entry while its directory's time is unchanged: a file
    // written in the same clock tick as the cache was recorded must still be seen
    const repo = makeRepo({ 'src/a.ts': 'export const a = 1;\n', 'docs/x.md': '# x\n' });
    repo.commit('first');
    for (let i = 0; i < 20; i++) {
      const before = await listing(repo, true);
      expect(before.some((e) => e.path === `src/n${i}.ts`)).toBe(false);
      writeFileSync(path.join(repo.dir, `src/n${i}.ts`), `export const n${i} = ${i};\n`);
      const after = await listing(repo, true);
      expect(after.map((e) => e.path), `round ${i}`).toContain(`src/n${i}.ts`);
      expect(after, `round ${i}`).toEqual(await listing(repo, false));
    }
  });

  it('warm check findings equal a from-scratch check (no .git/ctx) after every change', async () => {
    const repo = makeRepo({
      '.contextia/system/rationale/DEC-001.md': DEC('DEC-001', 'src/**'),
      '.contextia/system/rationale/DEC-002.md': DEC('DEC-002', 'lib/**'),
      'src/a.ts': '// @decision DEC-001\nexport function a() {\n  return 1;\n}\n',
      'src/b.ts': 'export const b = 2;\n',
    });
    repo.commit('first');
    const steps: [string, () => void][] = [
      ['warm, unchanged', () => {}],
      ['a path now matches', () => repo.write({ 'lib/x.ts': '// @decision DEC-404\nexport {};\n' })],
      ['an annotation edited', () => repo.write({ 'src/b.ts': '// @decision DEC-002\nexport const b = 2;\n' })],
      ['staged', () => repo.git('add', '-A')],
      ['the matching file deleted', () => rmSync(path.join(repo.dir, 'lib'), { recursive: true })],
      ['a record changed', () => repo.write({ '.contextia/system/rationale/DEC-002.md': DEC('DEC-002', 'src/b.ts') })],
      ['committed', () => repo.git('commit', '-qam', 'second')],
      ['a file renamed', () => renameSync(path.join(repo.dir, 'src/a.ts'), path.join(repo.dir, 'src/a2.ts'))],
    ];
    for (const [what, change] of steps) {
      change();
      const warm = await findings(repo);
      const again = await findings(repo);
      rmSync(path.join(repo.dir, '.git/ctx'), { recursive: true, force: true });
      const scratch = await findings(repo);
      expect(warm, what).toEqual(scratch);
      expect(again, what).toEqual(scratch);
      // leave caches behind for the next step's warm run
      await findings(repo);
    }
  });

  it('linked worktrees of one clone keep separate private indexes and each lists its own tree', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n', 'src/b.ts': 'export {};\n' });
    repo.commit('c');
    const other = path.join(path.dirname(repo.dir), `${path.basename(repo.dir)}-linked`);
    repo.git('worktree', 'add', '-q', '-b', 'side', other);
    try {
      const linked = { ...repo, dir: other };
      repo.write({ 'main-only.txt': 'm\n' });
      writeFileSync(path.join(other, 'side-only.txt'), 's\n');
      rmSync(path.join(other, 'a.txt'));
      for (let i = 0; i < 2; i++) {
        expect(await listing(repo, true)).toEqual(await listing(repo, false));
        expect(await listing(linked, true)).toEqual(await listing(linked, false));
      }
      expect((await listing(linked, true)).map((e) => e.path)).toEqual(['side-only.txt', 'src/b.ts']);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
