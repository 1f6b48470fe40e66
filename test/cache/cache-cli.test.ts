import { existsSync, mkdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pruneCaches } from '../../src/cache/inventory.js';
import { CACHE_REL } from '../helpers/cache.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, tempDir } from '../helpers/git-repo.js';

const DEC = '---\nid: DEC-001\ntype: decision\ntitle: One\nstatus: accepted\n---\nBody.\n';

function warmRepo() {
  const repo = makeRepo({ '.contextia/system/rationale/DEC-001.md': DEC, '.contextia/config.yaml': 'fail_on: error\n', 'src/a.ts': '// @decision DEC-001\nexport const a = 1;\n' });
  repo.commit('init');
  // XDG_CACHE_HOME isolates the per-user V8 cache from the developer's own
  const env = { XDG_CACHE_HOME: tempDir('git-ctx-xdg-') };
  expect(runCli(['check'], { cwd: repo.dir, env }).code).toBe(0);
  return { repo, env, cacheDir: path.join(repo.dir, CACHE_REL), cacheRoot: path.join(repo.dir, '.git/ctx/cache') };
}

describe('git ctx cache', () => {
  it('status lists each cache by kind with sizes and the limit', () => {
    const { repo, env } = warmRepo();
    const r = runCli(['cache', 'status', '--json'], { cwd: repo.dir, env });
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    const kinds = s.kinds.map((k: { kind: string }) => k.kind);
    expect(kinds).toEqual(expect.arrayContaining(['artifacts', 'code-index', 'config']));
    expect(s.bytes).toBe(s.files.reduce((a: number, f: { bytes: number }) => a + f.bytes, 0));
    expect(s.limitBytes).toBe(512 * 1024 * 1024);
    expect(s.disabled).toBe(false);
    const human = runCli(['cache', 'status'], { cwd: repo.dir, env: { ...env, GIT_CTX_CACHE_LIMIT_MB: '64' } });
    expect(human.stdout).toMatch(/^\.git\/ctx\/cache\/build-[0-9a-f]+: .* in \d+ files \(limit 64\.0 MB\)$/m);
    expect(human.stdout).toMatch(/^ {2}artifacts +\d/m);
  });

  it('prunes the least recently written caches first, down to the limit', () => {
    const { repo, env, cacheDir } = warmRepo();
    // an old, large leftover of another version and a fresh one
    writeFileSync(path.join(cacheDir, 'old-format.json'), Buffer.alloc(300 * 1024));
    utimesSync(path.join(cacheDir, 'old-format.json'), new Date('2020-01-01'), new Date('2020-01-01'));
    writeFileSync(path.join(cacheDir, 'new-format.json'), Buffer.alloc(300 * 1024));
    const r = runCli(['cache', 'status', '--prune', '--json'], { cwd: repo.dir, env: { ...env, GIT_CTX_CACHE_LIMIT_MB: '0.5' } });
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.pruned.removed[0]).toBe('old-format.json');
    expect(s.bytes).toBeLessThanOrEqual(0.5 * 1024 * 1024);
    expect(existsSync(path.join(cacheDir, 'old-format.json'))).toBe(false);
    // a run after pruning still works and rebuilds what it needs
    expect(runCli(['check'], { cwd: repo.dir, env }).code).toBe(0);
  });

  it('drops agent-session memories older than a week', () => {
    const { repo } = warmRepo();
    const sessions = path.join(repo.dir, '.git/ctx/agent-sessions');
    mkdirSync(sessions, { recursive: true });
    writeFileSync(path.join(sessions, 'old.json'), '{}');
    writeFileSync(path.join(sessions, 'new.json'), '{}');
    const now = Date.now();
    utimesSync(path.join(sessions, 'old.json'), new Date(now - 8 * 86400_000), new Date(now - 8 * 86400_000));
    const r = pruneCaches(repo.dir, 512 * 1024 * 1024, now);
    expect(r.removed).toEqual(['../agent-sessions/old.json']);
    expect(existsSync(path.join(sessions, 'new.json'))).toBe(true);
  });

  it('clean deletes the caches and nothing else; --all also the per-user code cache', () => {
    const { repo, env, cacheRoot } = warmRepo();
    const lock = path.join(repo.dir, '.git/ctx/map.html');
    writeFileSync(lock, '<html></html>');
    const r = runCli(['cache', 'clean'], { cwd: repo.dir, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^deleted \.git\/ctx\/cache: \d+ files?, /);
    expect(existsSync(cacheRoot)).toBe(false);
    expect(statSync(lock).isFile()).toBe(true);
    expect(runCli(['cache', 'clean'], { cwd: repo.dir, env }).stdout).toBe('nothing to delete\n');
    expect(runCli(['check'], { cwd: repo.dir, env }).code).toBe(0);
    const all = runCli(['cache', 'clean', '--all', '--json'], { cwd: repo.dir, env });
    const dirs = JSON.parse(all.stdout).removed.map((d: { dir: string }) => d.dir);
    expect(dirs).toContain(cacheRoot);
  });

  it('outside a repository is a usage error (exit 2) naming the folder', () => {
    const dir = tempDir('git-ctx-norepo-');
    const r = runCli(['cache', 'status'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`not inside a git repository: ${dir}`);
  });
});
