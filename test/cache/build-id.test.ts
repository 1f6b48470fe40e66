import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pruneCaches } from '../../src/cache/inventory.js';
import { cacheDir, cacheRootDir, cacheStore, memo } from '../../src/cache/memo.js';
import { buildId, setBuildIdForTests } from '../../src/version.js';
// @ts-expect-error: a build script, plain JavaScript
import { srcBuildId } from '../../scripts/build-id.mjs';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

afterEach(() => setBuildIdForTests(undefined));

function repo() {
  const r = makeRepo({ 'a.txt': 'a\n' });
  r.commit('init');
  return r;
}

describe('caches are kept per build (DEC-117)', () => {
  it('a cache written by one build is not read by another, and is read again by its own', () => {
    const r = repo();
    setBuildIdForTests('aaaaaaaaaaaaaaaa');
    expect(memo<string>(r.dir, 'config').set('k', 'from A')).toBe(true);
    expect(cacheStore<{ n: number }>(r.dir, 'impact-edges').write({ n: 1 })).toBe(true);
    expect(memo<string>(r.dir, 'config').get('k')).toBe('from A');
    setBuildIdForTests('bbbbbbbbbbbbbbbb');
    // same kind, same version, same key: another build misses
    expect(memo<string>(r.dir, 'config').get('k')).toBeUndefined();
    expect(memo<string>(r.dir, 'config').latest()).toBeUndefined();
    expect(cacheStore<{ n: number }>(r.dir, 'impact-edges').read()).toBeUndefined();
    memo<string>(r.dir, 'config').set('k', 'from B');
    setBuildIdForTests('aaaaaaaaaaaaaaaa');
    expect(memo<string>(r.dir, 'config').get('k')).toBe('from A');
    expect(path.relative(cacheRootDir(r.dir)!, cacheDir(r.dir)!)).toBe('build-aaaaaaaaaaaaaaaa');
  });

  it("pruning deletes other builds' caches but the recent ones (a day, three at most), and files of versions before build folders", () => {
    const r = repo();
    const root = cacheRootDir(r.dir)!;
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, 'artifacts.bin'), 'a version before build folders');
    const now = Date.now();
    // an old build, last written two days ago; four recent ones, written a minute apart
    const builds: [string, number][] = [['0000000000000000', now - 2 * 86400_000], ...[1, 2, 3, 4].map((i): [string, number] => [String(i).repeat(16), now - (5 - i) * 60_000])];
    for (const [id, at] of builds) {
      setBuildIdForTests(id);
      memo<string>(r.dir, 'config').set('k', id);
      utimesSync(cacheDir(r.dir)!, new Date(at), new Date(at));
    }
    setBuildIdForTests('ffffffffffffffff');
    memo<string>(r.dir, 'config').set('k', 'now');
    const pruned = pruneCaches(r.dir, undefined, now);
    expect(pruned.removed.sort()).toEqual(['../artifacts.bin', '../build-0000000000000000/', '../build-1111111111111111/']);
    expect(readdirSync(root).filter((n) => n.startsWith('build-')).sort()).toEqual(['build-2222222222222222', 'build-3333333333333333', 'build-4444444444444444', 'build-ffffffffffffffff']);
    expect(memo<string>(r.dir, 'config').get('k')).toBe('now');
    // a kept build still reads its own
    setBuildIdForTests('4444444444444444');
    expect(memo<string>(r.dir, 'config').get('k')).toBe('4444444444444444');
  });

  it('the first cache write of a new build prunes the old builds at once (the marker names the builds seen)', () => {
    const r = repo();
    const root = path.join(r.dir, '.git/ctx/cache');
    // an older build's caches and a marker saying it pruned a minute ago
    for (const id of ['1111111111111111', '2222222222222222']) {
      mkdirSync(path.join(root, `build-${id}`), { recursive: true });
      writeFileSync(path.join(root, `build-${id}`, 'config.json'), '{}');
    }
    utimesSync(path.join(root, 'build-1111111111111111'), new Date('2020-01-01'), new Date('2020-01-01'));
    // written a minute ago: a recent build, kept
    writeFileSync(path.join(root, '.pruned'), '2222222222222222\n');
    const env = { XDG_CACHE_HOME: tempDir('git-ctx-xdg-') };
    expect(runCli(['check'], { cwd: r.dir, env }).code).toBeLessThan(2);
    expect(existsSync(path.join(root, 'build-1111111111111111'))).toBe(false);
    expect(existsSync(path.join(root, 'build-2222222222222222'))).toBe(true);
    expect(readFileSync(path.join(root, '.pruned'), 'utf8').split('\n')[0]).toBe(buildId());
  });

  it('the CLI bundle carries the build id of its src/, the one the code run from src/ computes', () => {
    expect(buildId()).toBe(srcBuildId(ROOT));
    const r = repo();
    const env = { XDG_CACHE_HOME: tempDir('git-ctx-xdg-') };
    expect(runCli(['check'], { cwd: r.dir, env }).code).toBeLessThan(2);
    const s = JSON.parse(runCli(['cache', 'status', '--json'], { cwd: r.dir, env }).stdout) as { dir: string; files: unknown[] };
    expect(path.basename(s.dir)).toBe(`build-${buildId()}`);
    expect(s.files.length).toBeGreaterThan(0);
  });

  it('the versions package-lock.json pins for the runtime dependencies are part of the id, development-only ones not (DEC-120)', () => {
    const dir = tempDir('git-ctx-pkg-');
    for (const f of ['src', 'package.json', 'package-lock.json']) cpSync(path.join(ROOT, f), path.join(dir, f), { recursive: true });
    const id = srcBuildId(dir) as string;
    expect(id).toBe(srcBuildId(ROOT));
    const lockFile = path.join(dir, 'package-lock.json');
    const original = readFileSync(lockFile, 'utf8');
    type Lock = { packages: Record<string, { version: string; dev?: boolean }> };
    const bumped = (pkg: string) => {
      const lock = JSON.parse(original) as Lock;
      lock.packages[pkg]!.version += '-next';
      writeFileSync(lockFile, JSON.stringify(lock, null, 2));
      return srcBuildId(dir) as string;
    };
    const lock = JSON.parse(original) as Lock;
    // a parser whose output is cached, a package one of them installs, and a test runner
    expect(lock.packages['node_modules/yaml']?.dev).toBeUndefined();
    expect(lock.packages['node_modules/@ts-morph/common']?.dev).toBeUndefined();
    expect(lock.packages['node_modules/vitest']?.dev).toBe(true);
    expect(bumped('node_modules/yaml')).not.toBe(id);
    expect(bumped('node_modules/@ts-morph/common')).not.toBe(id);
    expect(bumped('node_modules/vitest')).toBe(id);
    writeFileSync(lockFile, original);
    expect(srcBuildId(dir)).toBe(id);
  });

  it("the Action's bundle carries a build id of its own (no placeholder left)", () => {
    const text = readFileSync(path.join(ROOT, 'action/dist/index.js'), 'utf8');
    expect(text).not.toContain('@@GIT_CTX_BUILD_ID@@');
    expect(text).toMatch(/"action-[0-9a-f]{16}"/);
  });
});
