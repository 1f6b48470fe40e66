import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadArtifactSet } from '../../src/artifacts/load.js';
import type { Artifact } from '../../src/artifacts/types.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/index.js';
import { openTreeView } from '../../src/place/index.js';
import type { CleanListing } from '../../src/tree/worktree.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { runCli } from '../helpers/cli.js';
import { withEnv } from '../helpers/env.js';

// WorktreeTree.cleanListing (src/tree) and the finished set remembered by it (DEC-042, DEC-045): a folder whose
// listing is the git index's own is named by a token (index file, stamp, folder), and a warm
// load over it neither lists nor keys its records. Every change on disk must end the token;
// every load must equal one without any cache.

const plain = (a: Artifact) => ('toJSON' in a && typeof a.toJSON === 'function' ? (a.toJSON() as Artifact) : { ...a });

const record = (i: number, extra = '') => `---\nid: DEC-${String(i).padStart(4, '0')}\ntype: decision\nstatus: accepted\ntitle: Decision ${i}${extra}\n---\n# Decision ${i}\n\nThe invoice service retries webhook ${i}.\n`;

/** A repository with `n` records (past 2,000, git lists the folder), stat data settled (no racily clean entry). */
function repoWith(n: number): TestRepo {
  const files: Record<string, string> = { '.contextia/config.yaml': 'sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n' };
  for (let i = 0; i < n; i++) files[`.contextia/decisions/DEC-${String(i).padStart(4, '0')}.md`] = record(i);
  const repo = makeRepo(files);
  repo.commit('records');
  settle(repo);
  return repo;
}

/**
 * Files written lately made older than the index, the index's stat data refreshed: nothing
 * is racily clean. Only recent files are touched: git compares whole seconds, this reader
 * nanoseconds, so touching a settled file again within the second would leave it unsettled.
 */
function settle(repo: TestRepo): void {
  const past = Math.floor(Date.now() / 1000) - 30;
  for (const p of repo.git('ls-files').split('\n')) {
    const abs = path.join(repo.dir, p);
    if (p && statSync(abs).mtimeMs > (past + 20) * 1000) utimesSync(abs, past, past);
  }
  repo.git('update-index', '-q', '--refresh');
}

async function clean(dir: string, folder = '.contextia'): Promise<CleanListing | undefined> {
  const snap = await openSnapshot({ cwd: dir });
  try {
    return await snap.tree!.cleanListing(folder);
  } finally {
    snap.close();
  }
}

/** Loaded as `search` and `for` load it (the tree-wide views from the place index): a whole-tree listing has no tokens. */
async function load(dir: string) {
  const snap = openTreeView(await openSnapshot({ cwd: dir }), []);
  try {
    const set = await loadArtifactSet(snap, await loadConfig(snap));
    return { artifacts: set.artifacts.map(plain), problems: set.problems, key: set.key };
  } finally {
    snap.close();
  }
}

async function uncached(dir: string) {
  return withEnv({ GIT_CTX_NO_CACHE: '1' }, () => load(dir));
}

/** Warm twice: equal to a load without cache. */
async function expectSame(dir: string) {
  // the cached loads first: nothing the uncached one does (git refreshing the index) may help them
  const got = [await load(dir), await load(dir)];
  const want = await uncached(dir);
  got.forEach((g, round) => {
    expect(g.artifacts, `round ${round}`).toEqual(want.artifacts);
    expect(g.problems, `round ${round}`).toStrictEqual(want.problems);
  });
  return want;
}

/** A warm search with its timings on stderr and git's trace in `trace`. */
function warmTimings(dir: string): { code: number; stderr: string; trace: string } {
  const trace = path.join(dir, '.git', 'trace.txt');
  rmSync(trace, { force: true });
  const r = runCli(['search', 'invoice', 'webhook', '--json'], { cwd: dir, env: { GIT_CTX_TIMINGS: '1', GIT_TRACE: trace } });
  // no git process at all: no trace file
  return { code: r.code, stderr: r.stderr, trace: existsSync(trace) ? readFileSync(trace, 'utf8') : '' };
}

describe.each([
  ['a small folder (the stat listing)', 40],
  ['a large folder (git status)', 2100],
])('clean listings: %s', (_name, n) => {
  it('names an unchanged folder by a token that any change on disk ends', async () => {
    const repo = repoWith(n);
    const first = await clean(repo.dir);
    expect(first).toBeDefined();
    expect(first!.empty).toBe(false);
    expect(first!.current()).toBe(true);
    expect((await clean(repo.dir))!.token).toBe(first!.token);
    // the source folder that does not exist: clean and empty
    expect((await clean(repo.dir, 'docs/adr'))!.empty).toBe(true);
    const dec = path.join(repo.dir, '.contextia/decisions/DEC-0007.md');
    const text = readFileSync(dec, 'utf8');
    // edited on disk
    writeFileSync(dec, text.replace('retries', 'never retries'));
    expect(await clean(repo.dir)).toBeUndefined();
    // staged: the listing is the index's again, under a new token (a change against HEAD is fine)
    repo.git('add', '.contextia/decisions/DEC-0007.md');
    settle(repo);
    const staged = await clean(repo.dir);
    expect(staged).toBeDefined();
    expect(staged!.token).not.toBe(first!.token);
    expect(first!.current()).toBe(false);
    // an untracked record
    writeFileSync(path.join(repo.dir, '.contextia/decisions/DEC-9999.md'), record(9999));
    expect(await clean(repo.dir)).toBeUndefined();
    rmSync(path.join(repo.dir, '.contextia/decisions/DEC-9999.md'));
    expect((await clean(repo.dir))?.token).toBe(staged!.token);
    // deleted
    renameSync(dec, dec + '.away');
    expect(await clean(repo.dir)).toBeUndefined();
    renameSync(dec + '.away', dec);
    // touched, content unchanged: stat data differs, the content does not
    const later = Date.now() / 1000 - 5;
    utimesSync(dec, later, later);
    const touched = await clean(repo.dir);
    if (n > 2000) expect(touched?.token).toBe(staged!.token); // git status compares the content
    else expect(touched).toBeUndefined(); // the stat listing cannot tell: the full listing decides
  });

  it('a load answered through the tokens equals one without cache, through every change', async () => {
    const repo = repoWith(n);
    const want = await expectSame(repo.dir);
    expect(want.artifacts).toHaveLength(n);
    // the warm CLI run is answered by the clean listing: the caches of the set are warm, and
    // the question is another one, so no kept answer of the same question answers it instead
    // (when the index's stat data is old enough to be trusted, a repeated question is answered
    // from the place-answer cache without reading the set)
    runCli(['search', 'invoice', '--json'], { cwd: repo.dir });
    const warm = warmTimings(repo.dir);
    expect(warm.code).toBe(0);
    expect(warm.stderr).toContain('finished set read (by the clean listing)');
    if (n > 2000) {
      // one git process for the records folder: status, never ls-files (config.yaml is looked up alone)
      expect(warm.trace).toMatch(/trace: built-in: git .*status .*-- \.contextia/);
    } else expect(warm.trace).not.toMatch(/trace: built-in: git .*status/); // the index's stat data answers
    expect(warm.trace).not.toMatch(/trace: built-in: git .*ls-files/);
    const dec = '.contextia/decisions/DEC-0003.md';
    const text = readFileSync(path.join(repo.dir, dec), 'utf8');
    // edited on disk, then staged, then committed
    repo.write({ [dec]: text.replace('Decision 3', 'Decision three') });
    expect((await expectSame(repo.dir)).artifacts.find((a) => a.id === 'DEC-0003')!.title).toBe('Decision three');
    repo.git('add', dec);
    await expectSame(repo.dir);
    repo.commit('edit');
    settle(repo);
    await expectSame(repo.dir);
    // added, untracked then committed; removed; renamed
    repo.write({ '.contextia/decisions/DEC-5000.md': record(5000) });
    expect((await expectSame(repo.dir)).artifacts.map((a) => a.id)).toContain('DEC-5000');
    repo.commit('add');
    await expectSame(repo.dir);
    repo.rm('.contextia/decisions/DEC-5000.md');
    expect((await expectSame(repo.dir)).artifacts.map((a) => a.id)).not.toContain('DEC-5000');
    renameSync(path.join(repo.dir, dec), path.join(repo.dir, '.contextia/decisions/three.md'));
    expect((await expectSame(repo.dir)).artifacts.find((a) => a.id === 'DEC-0003')!.file).toBe('.contextia/decisions/three.md');
    // back to the committed state: the first token's key again
    repo.git('checkout', '--', '.');
    repo.rm('.contextia/decisions/three.md');
    settle(repo);
    await expectSame(repo.dir);
    // the config changes what the records are (status vocabulary): another key, same tokens
    repo.write({ '.contextia/config.yaml': 'statuses:\n  decision: [accepted, proposed]\nsources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n' });
    await expectSame(repo.dir);
    // the empty source folder becomes a link: a problem, in the key by what the disk says
    repo.write({ 'elsewhere/x.txt': 'x' });
    mkdirSync(path.join(repo.dir, 'docs'), { recursive: true });
    symlinkSync('../elsewhere', path.join(repo.dir, 'docs/adr'));
    expect((await expectSame(repo.dir)).problems.map((p) => p.rule)).toContain('symlink-skipped');
  });
});
