import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { exampleRepo } from './helpers.js';

const GOLDEN = path.join(ROOT, 'test/fixtures/assemble-golden');

/**
 * The commit id is the only thing normalised: it moves whenever someone adds a file to the
 * example (which does not change TASK-042's bundle). Everything else, digest included, must match.
 */
function normalise(text: string, commit: string): string {
  return text.split(commit).join('<commit>');
}

function golden(name: string, actual: string): void {
  const file = path.join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, actual);
  }
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

const cases: [string, string[]][] = [
  ['TASK-042.context.txt', ['TASK-042']],
  ['TASK-042.md', ['TASK-042', '--format', 'markdown']],
  ['TASK-042.json', ['context', 'TASK-042', '--json']],
  ['TASK-042.summary.context.txt', ['TASK-042', '--depth', 'summary']],
  ['TASK-042.budget-700.context.txt', ['TASK-042', '--budget', '700']],
  ['TASK-042.budget-700.json', ['TASK-042', '--budget', '700', '--format', 'json']],
];

describe('golden bundles of the Acme example', () => {
  it.each(cases)('%s', (name, args) => {
    const { repo, commit } = exampleRepo();
    const r = runCli(args, { cwd: repo.dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    golden(name, normalise(r.stdout, commit));
  });

  it('json carries schemaVersion and the same digest as the other formats', () => {
    const { repo } = exampleRepo();
    const j = JSON.parse(runCli(['TASK-042', '--format', 'json'], { cwd: repo.dir }).stdout) as { schemaVersion: number; header: { digest: string } };
    expect(j.schemaVersion).toBe(1);
    const ctx = runCli(['TASK-042'], { cwd: repo.dir }).stdout;
    expect(ctx).toContain(`digest: ${j.header.digest}`);
  });
});

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

describe('reproducible on any machine', () => {
  it('two clones in different directories, time zones and locales give byte-identical bundles', () => {
    const { repo } = exampleRepo();
    const clone = (name: string) => {
      const parent = realpathSync(mkdtempSync(path.join(tmpdir(), `git-ctx-${name}-`)));
      dirs.push(parent);
      const dir = path.join(parent, name === 'a' ? 'first clone' : 'second');
      execFileSync('git', ['clone', '-q', repo.dir, dir], { env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
      return dir;
    };
    const a = clone('a');
    const b = clone('b');
    const envA = { TZ: 'Pacific/Chatham', LANG: 'tr_TR.UTF-8', LC_ALL: 'tr_TR.UTF-8' };
    const envB = { TZ: 'UTC', LANG: 'C', LC_ALL: 'C' };
    for (const args of [['TASK-042'], ['TASK-042', '--format', 'json'], ['TASK-042', '--format', 'markdown'], ['TASK-042', '--budget', '700', '--depth', 'summary']]) {
      const ra = runCli(args, { cwd: a, env: envA });
      const rb = runCli(args, { cwd: b, env: envB });
      expect(ra.code).toBe(0);
      expect(rb.code).toBe(0);
      expect(ra.stdout).toBe(rb.stdout);
      // a second run reads token counts from the cache and must not change a byte
      expect(runCli(args, { cwd: a, env: envB }).stdout).toBe(ra.stdout);
      expect(ra.stdout).not.toContain(a);
    }
  });
});
