import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkoutPinned, gitEnv } from '../../bench/lib/devset-repo.mjs';

// `fetch` may leave a snapshot's largest files out of a mirror (carbon-aware-sdk lacks one test
// data file), and a plain checkout of the pinned commit then stops the benches.
describe('checkoutPinned', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'git-ctx-devset-repo-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: gitEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

  git('init', '--quiet', '-b', 'main');
  execFileSync('sh', ['-c', 'mkdir -p data src && printf "a large data file\\n" > data/big.json && printf "export const x = 1;\\n" > src/a.ts'], { cwd: dir });
  git('add', '-A');
  git('commit', '--quiet', '-m', 'one');
  const first = git('rev-parse', 'HEAD');
  execFileSync('sh', ['-c', 'printf "export const x = 2;\\n" > src/a.ts'], { cwd: dir });
  git('commit', '--quiet', '-am', 'two');
  const second = git('rev-parse', 'HEAD');
  git('rm', '--quiet', '--cached', 'data/big.json');
  git('commit', '--quiet', '-m', 'three: no large file');
  const third = git('rev-parse', 'HEAD');
  // the blob of data/big.json goes missing, as in a mirror that left it out
  const big = git('rev-parse', `${first}:data/big.json`);
  rmSync(path.join(dir, '.git/objects', big.slice(0, 2), big.slice(2)));

  // a fresh clone has no work tree and no index yet: checkout must write every file
  rmSync(path.join(dir, 'data'), { recursive: true });
  rmSync(path.join(dir, 'src'), { recursive: true });
  rmSync(path.join(dir, '.git/index'));

  it('a plain checkout of that commit stops (what the benches did)', () => {
    expect(() => git('checkout', '--quiet', '--force', '--detach', first)).toThrow();
  });

  it('reads an absent blob as an empty file, keeps the others, and leaves a clean status (also on a second run)', () => {
    for (const commit of [first, second, first]) {
      expect(checkoutPinned(dir, commit)).toEqual(['data/big.json']);
      expect(git('rev-parse', 'HEAD')).toBe(commit);
      expect(readFileSync(path.join(dir, 'data/big.json'), 'utf8')).toBe('');
      expect(readFileSync(path.join(dir, 'src/a.ts'), 'utf8')).toBe(commit === first ? 'export const x = 1;\n' : 'export const x = 2;\n');
      expect(git('status', '--porcelain')).toBe('');
    }
  });

  it('reports nothing for a tree without absent blobs', () => {
    expect(checkoutPinned(dir, third)).toEqual([]);
    expect(git('status', '--porcelain')).toBe('');
  });
});
