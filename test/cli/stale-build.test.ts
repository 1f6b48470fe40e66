import { appendFileSync, cpSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { staleBuild } from '../helpers/built.js';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/git-repo.js';

/** A copy of the package as the tests see it: src/, package.json and its lockfile, bin/ and the built bundle. */
function packageCopy(withBundle = true): string {
  const dir = tempDir('git-ctx-pkg-');
  for (const f of ['src', 'bin', 'package.json', 'package-lock.json']) cpSync(path.join(ROOT, f), path.join(dir, f), { recursive: true });
  for (const f of ['node_modules', 'data', 'hooks']) symlinkSync(path.join(ROOT, f), path.join(dir, f));
  mkdirSync(path.join(dir, 'dist'));
  if (withBundle) cpSync(path.join(ROOT, 'dist/cli.cjs'), path.join(dir, 'dist/cli.cjs'));
  return dir;
}

describe('GIT_CTX_SKIP_BUILD=1 against a dist/ of other sources (test/global-setup.ts)', () => {
  it('a bundle built from these sources passes', () => {
    expect(staleBuild(packageCopy())).toBeUndefined();
  });

  it('a source changed since the build is named as a stale dist/, with both build ids and the fix', () => {
    const dir = packageCopy();
    appendFileSync(path.join(dir, 'src/version.ts'), '// changed after the build\n');
    const msg = staleBuild(dir);
    expect(msg).toMatch(/^GIT_CTX_SKIP_BUILD=1 but dist\/ was built from a different source tree \(build id [0-9a-f]{16}, src\/ now [0-9a-f]{16}\): run `npm run build`, or unset GIT_CTX_SKIP_BUILD$/);
    const [, built, now] = /build id (\w+), src\/ now (\w+)/.exec(msg!)!;
    expect(built).not.toBe(now);
  });

  it('a dist/ never built says so', () => {
    expect(staleBuild(packageCopy(false))).toMatch(/dist\/cli\.cjs was never built: run `npm run build`, or unset GIT_CTX_SKIP_BUILD/);
  });
});
