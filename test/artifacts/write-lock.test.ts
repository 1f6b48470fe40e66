import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readFrontmatterData, updateFrontmatter } from '../../src/artifacts/write.js';
import { CtxError } from '../../src/errors.js';
import { acquireLock, lockPathFor, withLock } from '../../src/git/lock.js';
import { makeRepo } from '../helpers/git-repo.js';

const WRITER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/write-lock/writer.mjs');

const ARTIFACT = '---\nid: DEC-001\ntype: decision\n# log written by the writers\nlog: []\n---\n# Body\n\nkept as is\n';

function runWriter(file: string, name: string, count: number, go: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [WRITER, file, name, String(count), go], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('write lock', () => {
  it('two processes editing one file concurrently lose no edit', async () => {
    const repo = makeRepo({ '.contextia/system/rationale/DEC-001.md': ARTIFACT });
    const file = path.join(repo.dir, '.contextia/system/rationale/DEC-001.md');
    const go = path.join(repo.dir, 'go');
    const N = 15;
    const running = [runWriter(file, 'a', N, go), runWriter(file, 'b', N, go)];
    writeFileSync(go, '');
    const results = await Promise.all(running);
    for (const r of results) expect(r, r.err).toMatchObject({ code: 0, out: 'done\n' });
    const text = readFileSync(file, 'utf8');
    const fm = readFrontmatterData(text);
    const log = fm.log as string[];
    expect(log).toHaveLength(2 * N);
    expect([...log].sort()).toEqual([...Array.from({ length: N }, (_, i) => `a-${i}`), ...Array.from({ length: N }, (_, i) => `b-${i}`)].sort());
    // each writer's own entries stay in its order
    expect(log.filter((x) => x.startsWith('a-'))).toEqual(Array.from({ length: N }, (_, i) => `a-${i}`));
    expect(fm).toMatchObject({ last_a: `n${N - 1}`, last_b: `n${N - 1}` });
    expect(text).toContain('# log written by the writers\nlog: [');
    expect(text.endsWith('---\n# Body\n\nkept as is\n')).toBe(true);
    // lock files live under .git/ctx/locks and are all released; no temp files beside the artifact
    expect(lockPathFor(file).startsWith(path.join(repo.dir, '.git', 'ctx', 'locks') + path.sep)).toBe(true);
    expect(readdirSync(path.join(repo.dir, '.git/ctx/locks'))).toEqual([]);
    expect(readdirSync(path.dirname(file))).toEqual(['DEC-001.md']);
  });

  it('a busy lock fails with LOCKED naming the holder and the lock file', async () => {
    const repo = makeRepo({ 'a.md': ARTIFACT });
    const file = path.join(repo.dir, 'a.md');
    const lock = await acquireLock(file);
    try {
      const err = await updateFrontmatter(file, { status: 'accepted' }, { timeoutMs: 0 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CtxError);
      expect((err as CtxError).code).toBe('LOCKED');
      expect((err as CtxError).message).toContain(`locked by pid ${process.pid}`);
      expect((err as CtxError).hint).toContain(lock.path);
    } finally {
      await lock.release();
    }
    expect(readFileSync(file, 'utf8')).toBe(ARTIFACT);
    await updateFrontmatter(file, { status: 'accepted' }, { timeoutMs: 0 });
    expect(readFrontmatterData(readFileSync(file, 'utf8')).status).toBe('accepted');
  });

  it('breaks a lock whose process is gone', async () => {
    const repo = makeRepo({ 'a.md': ARTIFACT });
    const file = path.join(repo.dir, 'a.md');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const lp = lockPathFor(file);
    mkdirSync(path.dirname(lp), { recursive: true });
    const os = await import('node:os');
    writeFileSync(lp, JSON.stringify({ pid: Number(dead.stdout), host: os.hostname(), since: new Date().toISOString(), file, command: 'crashed', token: 'old' }));
    await updateFrontmatter(file, { status: 'accepted' }, { timeoutMs: 0 });
    expect(readFrontmatterData(readFileSync(file, 'utf8')).status).toBe('accepted');
    expect(existsSync(lp)).toBe(false);
  });

  it('breaks a lock older than staleMs even when its pid is alive', async () => {
    const repo = makeRepo({ 'a.md': ARTIFACT });
    const file = path.join(repo.dir, 'a.md');
    const lp = lockPathFor(file);
    mkdirSync(path.dirname(lp), { recursive: true });
    const os = await import('node:os');
    writeFileSync(lp, JSON.stringify({ pid: process.pid, host: os.hostname(), since: '2020-01-01T00:00:00.000Z', file, command: 'hung', token: 'old' }));
    await expect(withLock(file, async () => 'ran', { timeoutMs: 0, staleMs: 60_000 })).resolves.toBe('ran');
  });

  it('release only removes its own lock', async () => {
    const repo = makeRepo({ 'a.md': ARTIFACT });
    const file = path.join(repo.dir, 'a.md');
    const lock = await acquireLock(file);
    writeFileSync(lock.path, JSON.stringify({ ...lock.holder, token: 'someone-else' }));
    await lock.release();
    expect(existsSync(lock.path)).toBe(true);
  });

  it('outside a git repository the lock sits next to the file', () => {
    expect(lockPathFor('/nonexistent-root-for-test/x/a.md')).toBe('/nonexistent-root-for-test/x/a.md.lock');
  });
});
