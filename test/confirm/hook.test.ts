import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PreCommitResult } from '../../src/hooks/pre-commit.js';
import { scopeOfUnifiedDiff } from '../../src/check/confirm/scope.js';
import { runCli } from '../helpers/cli.js';
import { makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { CACHE_REL } from '../helpers/cache.js';

const DEC = `---
id: DEC-001
type: decision
status: accepted
paths: [src/billing/**]
confirm:
  - forbid-call: Math.round
    message: round half to even
---
# Round half to even
`;

const LEGACY = `export function legacy(x: number): number {
  return Math.round(x);
}
`;

function hook(repo: TestRepo, ...extra: string[]): { code: number; result: PreCommitResult } {
  const r = runCli(['hook', 'pre-commit', '--json', ...extra], { cwd: repo.dir });
  if (r.code === 2) throw new Error(r.stderr);
  return { code: r.code, result: JSON.parse(r.stdout) as PreCommitResult };
}

const violations = (r: PreCommitResult) => r.check.findings.filter((f) => f.rule === 'confirmation-violated').map((f) => `${f.file}:${f.line}`);

describe('pre-commit: confirmations block only lines the commit adds', () => {
  it('a legacy violation in a touched file does not block; an added one does; check still lists the legacy one', () => {
    const repo = makeRepo({ '.contextia/system/rationale/DEC-001.md': DEC, 'src/billing/legacy.ts': LEGACY, 'src/billing/other.ts': 'export const o = Math.round(2.5);\n' });
    repo.commit('legacy code');

    // an unrelated edit of the file with the legacy violation
    repo.write({ 'src/billing/legacy.ts': `// rounding helpers\n${LEGACY}` });
    repo.git('add', 'src/billing/legacy.ts');
    const ok = hook(repo);
    expect(violations(ok.result)).toEqual([]);
    expect(ok.code).toBe(0);
    repo.commit('comment');
    const check = runCli(['check', '--json'], { cwd: repo.dir });
    expect(check.code).toBe(1);
    expect((JSON.parse(check.stdout) as PreCommitResult['check']).findings.filter((f) => f.rule === 'confirmation-violated').map((f) => `${f.file}:${f.line}`)).toEqual([
      'src/billing/legacy.ts:3',
      'src/billing/other.ts:1',
    ]);

    // a new call on an added line blocks, naming the line and the decision
    repo.write({ 'src/billing/legacy.ts': `// rounding helpers\n${LEGACY}export const twice = (x: number) => Math.round(x) * 2;\n` });
    repo.git('add', 'src/billing/legacy.ts');
    const bad = hook(repo);
    expect(bad.code).toBe(1);
    expect(violations(bad.result)).toEqual(['src/billing/legacy.ts:5']);
    expect(bad.result.inCommit.map((f) => f.message)).toContain('call of Math.round(…): forbidden by DEC-001 — round half to even');
    const human = runCli(['hook', 'pre-commit'], { cwd: repo.dir });
    expect(human.code).toBe(1);
    expect(human.stdout + human.stderr).toContain('src/billing/legacy.ts:5');

    // a baseline accepts it
    runCli(['check', '--staged', '--write-baseline', 'base.json'], { cwd: repo.dir });
    expect(hook(repo, '--baseline', 'base.json').code).toBe(0);
  });

  it('the first commit counts every staged line', () => {
    const repo = makeRepo();
    repo.write({ '.contextia/system/rationale/DEC-001.md': DEC, 'src/billing/legacy.ts': LEGACY });
    repo.git('add', '-A');
    const r = hook(repo);
    expect(r.code).toBe(1);
    expect(violations(r.result)).toEqual(['src/billing/legacy.ts:2']);
  });

  it('reads the added lines of a unified diff', () => {
    const diff = [
      'diff --git a/src/a.ts b/src/a.ts',
      '--- a/src/a.ts',
      '+++ b/src/a.ts',
      '@@ -1,3 +1,4 @@',
      ' keep',
      '-gone',
      '+new one',
      '+new two',
      ' keep',
      '@@ -10,0 +11 @@',
      '+eleven',
      'diff --git a/old.ts b/old.ts',
      '--- a/old.ts',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-x',
      '--- /dev/null',
      '+++ b/new.py',
      '@@ -0,0 +1,2 @@',
      '+import os',
      '+x = 1',
    ].join('\n');
    expect([...scopeOfUnifiedDiff(diff)].map(([f, l]) => [f, [...(l ?? [])]])).toEqual([
      ['src/a.ts', [2, 3, 11]],
      ['new.py', [1, 2]],
    ]);
  });

  it("reads and writes only the facts shards of the blobs a commit stages, and reuses what check parsed", () => {
    const files: Record<string, string> = { '.contextia/system/rationale/DEC-001.md': DEC };
    for (let i = 0; i < 40; i++) files[`src/billing/f${i}.ts`] = `export const f${i} = (x: number) => Math.floor(x) + ${i};\n`;
    const repo = makeRepo(files);
    repo.commit('code');
    const cacheDir = path.join(repo.dir, CACHE_REL);
    expect(runCli(['check'], { cwd: repo.dir }).code).toBe(0);
    const shards = () => readdirSync(cacheDir).filter((f) => f.startsWith('confirm-facts-')).sort();
    const blobOf = (p: string) => repo.git('rev-parse', `:${p}`).trim();
    // every committed blob's facts are in the shard named by its first two hex digits
    const all = shards();
    expect(all.length).toBeGreaterThan(10);
    const f3 = blobOf('src/billing/f3.ts');
    expect(Object.keys(JSON.parse(readFileSync(path.join(cacheDir, `confirm-facts-${f3.slice(0, 2)}.json`), 'utf8')).entries)).toContain(`${f3}:typescript`);
    // a leftover of the unsharded version is removed when a shard is written
    writeFileSync(path.join(cacheDir, 'confirm-facts.json'), '{}');
    const before = new Map(all.map((f) => [f, statSync(path.join(cacheDir, f)).mtimeMs]));

    repo.write({ 'src/billing/f7.ts': 'export const f7 = (x: number) => Math.round(x);\n' });
    repo.git('add', 'src/billing/f7.ts');
    const staged = blobOf('src/billing/f7.ts');
    const r = runCli(['hook', 'pre-commit'], { cwd: repo.dir, env: { GIT_CTX_TIMINGS: '1' } });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('src/billing/f7.ts:1');
    const shard = `confirm-facts-${staged.slice(0, 2)}.json`;
    // only the staged blob's shard is read (when check left one of that name)
    const read = [...r.stderr.matchAll(/cache read (confirm-facts-[^:]+):/g)].map((m) => m[1]);
    expect(read).toEqual(before.has(shard) ? [shard] : []);
    expect(Object.keys(JSON.parse(readFileSync(path.join(cacheDir, shard), 'utf8')).entries)).toContain(`${staged}:typescript`);
    for (const [f, mtime] of before) if (f !== shard) expect(statSync(path.join(cacheDir, f)).mtimeMs, f).toBe(mtime);
    expect(existsSync(path.join(cacheDir, 'confirm-facts.json'))).toBe(false);

    // check after the hook finds the staged blob's facts cached: nothing of it is parsed again
    const again = runCli(['check', '--staged', '--rule', 'confirmation-violated'], { cwd: repo.dir, env: { GIT_CTX_TIMINGS: '1' } });
    expect(again.stdout).toContain('src/billing/f7.ts:1');
    expect(again.stderr).toMatch(/confirmations: 40 files from cached facts, 0 to read/);
  });
});
