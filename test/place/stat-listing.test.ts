import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseGitIndex } from '../../src/tree/index-file.js';
import { gitIndex as readGitIndex } from '../../src/tree/state.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { statScopedListing } from '../../src/tree/stat-listing.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir, type TestRepo } from '../helpers/git-repo.js';
import { CACHE_REL } from '../helpers/cache.js';

const SPECS = ['.contextia', 'src/billing/round.ts', 'src/billing', 'src', 'missing.ts', 'src/billing/package.json', 'docs'];

function seed(): TestRepo {
  const repo = makeRepo({
    '.contextia/system/rationale/DEC-001.md': '---\nid: DEC-001\ntype: decision\ntitle: Round invoices\nstatus: accepted\n---\n\nRound half to even.\n',
    '.contextia/system/specs/SPEC-001.md': '---\nid: SPEC-001\ntype: spec\ntitle: Billing\nstatus: active\npaths: [src/billing/**]\n---\n\nBilling rules.\n',
    'src/billing/round.ts': '// @decision DEC-001\nexport function round(x: number): number {\n  return Math.round(x);\n}\n',
    'src/billing/retry.ts': "import { round } from './round';\nexport const retry = round(1);\n",
    'src/other.ts': 'export const other = 1;\n',
    // names that sort between `src/billing` and `src/billing/…`, and one that is not ASCII
    'src/billing.md': '# billing\n',
    'src/billing-old/a.ts': 'export {};\n',
    'src/billing/été.ts': 'export const summer = 1;\n',
    'docs/readme.md': '# docs\n',
  });
  repo.commit('seed');
  return repo;
}

/**
 * What the working-tree snapshot says about SPECS, from the index's stat data (`stat`), from
 * git on the private index copy (`git`: GIT_CTX_TREE=git) or from git on the user's index
 * (`plain`: GIT_CTX_TREE=plain).
 */
async function view(dir: string, how: 'stat' | 'git' | 'plain') {
  const before = process.env.GIT_CTX_TREE;
  if (how === 'stat') delete process.env.GIT_CTX_TREE;
  else process.env.GIT_CTX_TREE = how;
  try {
    const out: Record<string, unknown> = {};
    for (const p of SPECS) {
      // a fresh snapshot per question: each lists only that path (the scoped listing under test)
      const dirSnap = await openSnapshot({ cwd: dir, kind: 'worktree' });
      const fileSnap = await openSnapshot({ cwd: dir, kind: 'worktree' });
      try {
        fileSnap.prefetch?.([p]);
        const under = await dirSnap.listUnder(p);
        out[p] = {
          under: await Promise.all(under.map(async (e) => [e.path, e.mode, await dirSnap.blobOf(e.path)])),
          blob: await fileSnap.blobOf(p),
          text: (await fileSnap.read(p))?.toString('utf8'),
        };
      } finally {
        dirSnap.close();
        fileSnap.close();
      }
    }
    return out;
  } finally {
    if (before === undefined) delete process.env.GIT_CTX_TREE;
    else process.env.GIT_CTX_TREE = before;
  }
}

async function expectSame(repo: TestRepo) {
  const git = await view(repo.dir, 'git');
  const stat = await view(repo.dir, 'stat');
  expect(stat).toEqual(git);
}

afterEach(() => {
  delete process.env.GIT_CTX_TREE;
});

describe('listings limited to a few paths from the index stat data (no git process)', () => {
  it('answers like git ls-files + git status through edits, deletions, additions, renames, mode changes and staging', async () => {
    const repo = seed();
    await expectSame(repo);
    // clean: answered without git
    expect(statScopedListing(repo.dir, ['src/billing'])?.map((e) => [e.path, e.blob !== undefined])).toEqual([
      ['src/billing/retry.ts', true],
      ['src/billing/round.ts', true],
      ['src/billing/été.ts', true],
    ]);

    // an edit of the same size, its modification time put back: the change time still tells
    const round = path.join(repo.dir, 'src/billing/round.ts');
    const st = statSync(round);
    writeFileSync(round, readFileSync(round, 'utf8').replace('Math.round', 'Math.floor'));
    utimesSync(round, st.atime, st.mtime);
    await expectSame(repo);
    expect(statScopedListing(repo.dir, ['src/billing/round.ts'])).toEqual([{ path: 'src/billing/round.ts', mode: '100644' }]);

    // staged, then edited again
    repo.git('add', 'src/billing/round.ts');
    await expectSame(repo);
    repo.write({ 'src/billing/round.ts': '// @decision DEC-001\nexport const round = (x: number) => x;\n' });
    await expectSame(repo);

    // deleted from disk, not from the index
    repo.rm('src/billing/retry.ts');
    await expectSame(repo);
    // an untracked file: git decides (it may be ignored), so the shortcut steps aside
    repo.write({ 'src/billing/new.ts': 'export const n = 1;\n' });
    expect(statScopedListing(repo.dir, ['src/billing'])).toBeUndefined();
    await expectSame(repo);
    // renamed and committed
    repo.commit('more');
    repo.git('mv', 'src/billing/new.ts', 'src/billing/renamed.ts');
    await expectSame(repo);
    // executable bit
    chmodSync(path.join(repo.dir, 'src/other.ts'), 0o755);
    await expectSame(repo);
    repo.commit('exec');
    await expectSame(repo);
    expect(statScopedListing(repo.dir, ['src'])).toBeDefined();
    // an artifact added and another edited
    repo.write({ '.contextia/system/rationale/DEC-002.md': '---\nid: DEC-002\ntype: decision\ntitle: Retry\nstatus: accepted\n---\n' });
    repo.write({ '.contextia/system/specs/SPEC-001.md': '---\nid: SPEC-001\ntype: spec\ntitle: Billing v2\nstatus: active\n---\n' });
    await expectSame(repo);
  });

  it('lets git judge ignored files, skip-worktree and intent-to-add entries, split indexes; reads index versions 2, 3 and 4', async () => {
    const repo = seed();
    repo.commit('ignore', { '.gitignore': '*.log\n' });
    repo.write({ '.contextia/debug.log': 'noise\n' });
    expect(statScopedListing(repo.dir, ['.contextia'])).toBeUndefined();
    await expectSame(repo);
    repo.rm('.contextia/debug.log');
    expect(statScopedListing(repo.dir, ['.contextia'])).toBeDefined();

    repo.git('update-index', '--skip-worktree', 'src/other.ts');
    expect(statScopedListing(repo.dir, ['src'])).toBeUndefined();
    repo.git('update-index', '--no-skip-worktree', 'src/other.ts');

    for (const v of ['4', '3', '2']) {
      repo.git('update-index', '--index-version', v);
      // v3 only when an entry has extended flags: intent-to-add gives one
      if (v === '3') repo.write({ 'src/ita.ts': 'export {};\n' }) as void;
      if (v === '3') repo.git('add', '-N', 'src/ita.ts');
      const idx = readGitIndex(repo.dir);
      expect(idx, `index version ${v}`).toBeDefined();
      expect(idx!.entries.map((e) => e.path)).toEqual(repo.git('ls-files', '-z').split('\0').filter(Boolean));
      for (const e of idx!.entries) expect(idx!.blob(e)).toBe(repo.git('ls-files', '-s', '-z', '--', e.path).split(/\s+/)[1]);
      if (v === '3') {
        expect(statScopedListing(repo.dir, ['src'])).toBeUndefined(); // intent-to-add: git decides
        repo.git('rm', '-q', '--cached', 'src/ita.ts');
        repo.rm('src/ita.ts');
      }
      await expectSame(repo);
    }

    repo.git('update-index', '--split-index');
    expect(readGitIndex(repo.dir)).toBeUndefined();
    await expectSame(repo);
    repo.git('update-index', '--no-split-index');
    expect(readGitIndex(repo.dir)).toBeDefined();

    const bad = tempDir();
    writeFileSync(path.join(bad, 'index'), 'DIRC garbage');
    expect(parseGitIndex(readFileSync(path.join(bad, 'index')), 0n)).toBeUndefined();
  });

  it('a warm for / trace / agent-read spawns no git process when nothing changed, and answers like the whole-tree path after edits', () => {
    const repo = seed();
    const trace = path.join(tempDir(), 'git-trace.txt');
    const env = { GIT_CTX_NO_RECORD: '1' };
    const place = 'src/billing/retry.ts';
    expect(runCli(['for', place, '--json'], { cwd: repo.dir, env }).code).toBe(0);
    expect(runCli(['trace', place], { cwd: repo.dir, env }).code).toBe(0);
    const count = () => (existsSync(trace) ? readFileSync(trace, 'utf8').split('\n').filter((l) => l.includes('trace: built-in')).length : 0);
    for (const args of [['for', place, '--json'], ['trace', place]]) {
      const r = runCli(args, { cwd: repo.dir, env: { ...env, GIT_TRACE: trace } });
      expect(r.code).toBe(0);
    }
    const payload = JSON.stringify({ session_id: 's1', hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: path.join(repo.dir, place) } });
    const hook = runCli(['hook', 'agent-read'], { cwd: repo.dir, env: { ...env, GIT_TRACE: trace }, input: payload });
    expect(hook.code).toBe(0);
    expect(hook.stdout).toContain('SPEC-001');
    expect(count()).toBe(0);
    // the same runs with the shortcut off do spawn git: the count above measures something
    runCli(['for', place, '--json'], { cwd: repo.dir, env: { ...env, GIT_TRACE: trace, GIT_CTX_TREE: 'git' } });
    expect(count()).toBeGreaterThan(0);

    const same = (args: string[]) => {
      const fast = runCli(args, { cwd: repo.dir, env });
      const slow = runCli(args, { cwd: repo.dir, env: { ...env, GIT_CTX_TREE: 'git' } });
      expect(fast.code).toBe(slow.code);
      const strip = (s: string) => s.replace(/"ms": [\d.]+/g, '"ms": 0');
      expect(strip(fast.stdout)).toBe(strip(slow.stdout));
    };
    same(['for', place, '--json']);
    repo.write({ 'src/billing/retry.ts': "// @spec SPEC-001\nimport { round } from './round';\nexport const retry = round(2);\n" });
    same(['for', place, '--json']);
    same(['trace', place]);
    repo.write({ '.contextia/system/rationale/DEC-003.md': '---\nid: DEC-003\ntype: decision\ntitle: Retry policy\nstatus: accepted\nanchors: [src/billing/retry.ts]\n---\n\nRetry the round.\n' });
    same(['for', place, '--json']);
    same(['trace', place]);
    repo.rm('src/billing/round.ts');
    same(['for', place, '--json']);
  });

  it("keeps git's refreshed stat data in the private index copy on the git path, never in the user's index (DEC-041)", async () => {
    const repo = seed();
    // touched without a change: the user's index now holds stale stat data for it
    const rec = path.join(repo.dir, '.contextia/system/rationale/DEC-001.md');
    const later = new Date(statSync(rec).mtimeMs + 5000);
    utimesSync(rec, later, later);
    expect(repo.git('diff-files', '--name-only')).toContain('DEC-001.md');
    const userIndex = readFileSync(path.join(repo.dir, '.git/index'));
    const plain = await view(repo.dir, 'plain');
    for (let i = 0; i < 2; i++) expect(await view(repo.dir, 'git')).toEqual(plain);
    expect(await view(repo.dir, 'stat')).toEqual(plain);
    // the user's index is untouched; the private copy was refreshed by git (the file is clean there)
    expect(readFileSync(path.join(repo.dir, '.git/index')).equals(userIndex)).toBe(true);
    const cache = path.join(repo.dir, CACHE_REL);
    const priv = readdirSync(cache).find((f) => f.startsWith('worktree-index-') && !f.endsWith('.json'));
    expect(priv).toBeDefined();
    const stale = (index: string) => spawnSync('git', ['diff-files', '--name-only'], { cwd: repo.dir, encoding: 'utf8', env: { ...process.env, GIT_INDEX_FILE: index } }).stdout;
    expect(stale(path.join(cache, priv!))).toBe('');
    expect(stale(path.join(repo.dir, '.git/index'))).toContain('DEC-001.md');
    // an edit is still seen through the private copy
    writeFileSync(rec, readFileSync(rec, 'utf8') + 'More.\n');
    const edited = await view(repo.dir, 'git');
    expect((edited['.contextia'] as { under: unknown[][] }).under.find((e) => String(e[0]).endsWith('DEC-001.md'))?.[2]).toBe(repo.git('hash-object', rec).trim());
    expect(await view(repo.dir, 'plain')).toEqual(edited);
  });
});

