import { chmodSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { trackedListing } from '../../src/tree/index.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';

/** What the listing must hold, read from git's own words: stage 0 or the first stage of a path, no submodules. */
function expected(repo: TestRepo): { path: string; mode: string; blob: string }[] {
  const out: { path: string; mode: string; blob: string }[] = [];
  for (const rec of repo.git('ls-files', '-s', '-z').split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const [mode, blob] = rec.slice(0, tab).split(' ');
    const p = rec.slice(tab + 1);
    if (mode === '160000' || out.at(-1)?.path === p) continue;
    out.push({ path: p, mode: mode!, blob: blob! });
  }
  return out;
}

async function same(repo: TestRepo): Promise<void> {
  const want = expected(repo);
  const fresh = await trackedListing(repo.dir);
  expect(fresh.fromCache).toBe(false);
  expect(fresh.entries()).toEqual(want);
  expect(fresh.paths()).toEqual(want.map((e) => e.path));
  expect(fresh.size).toBe(want.length);
  // the second question reads the kept listing: the same entries
  const kept = await trackedListing(repo.dir);
  expect(kept.fromCache).toBe(true);
  expect(kept.entries()).toEqual(want);
  expect(kept.size).toBe(want.length);
}

describe('the tracked listing kept as one string', () => {
  it('lists what git ls-files -s lists: plain files, an executable, a name holding " 0<TAB>", a submodule left out, a merge conflict once', async () => {
    const repo = makeRepo({ 'a.ts': 'a\n', 'src/b.ts': 'b\n', 'src/run.sh': '#!/bin/sh\n', 'ü/ß.md': 'x\n' });
    chmodSync(path.join(repo.dir, 'src/run.sh'), 0o755);
    repo.commit('start');
    await same(repo);

    // a file name with a tab and the text git puts before a path (" 0\t"): never rewritten
    repo.commit('odd name', { 'odd 0\tname.ts': 'odd\n' });
    await same(repo);

    // a submodule entry (gitlink) is not a file of the listing
    repo.git('update-index', '--add', '--cacheinfo', `160000,${repo.git('rev-parse', 'HEAD').trim()},vendor/lib`);
    await same(repo);
    repo.git('rm', '-q', '--cached', 'vendor/lib');

    // a conflict: stages 1 to 3 of one path, listed once
    repo.git('checkout', '-q', '-b', 'other');
    repo.commit('other side', { 'a.ts': 'other\n' });
    repo.git('checkout', '-q', 'main');
    repo.commit('this side', { 'a.ts': 'this\n' });
    try {
      repo.git('merge', '-q', 'other');
    } catch {
      /* the conflict is the point */
    }
    expect(repo.git('ls-files', '-u')).toContain('a.ts');
    await same(repo);
  });

  it('an empty index lists nothing', async () => {
    const repo = makeRepo();
    repo.git('commit', '-q', '--allow-empty', '-m', 'empty');
    const listing = await trackedListing(repo.dir);
    expect(listing.size).toBe(0);
    expect(listing.entries()).toEqual([]);
  });
});
