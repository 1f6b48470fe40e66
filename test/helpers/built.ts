import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error: a build script, plain JavaScript
import { srcBuildId } from '../../scripts/build-id.mjs';

/**
 * Why the built CLI under `root` (dist/cli.cjs, which bin/git-ctx.js runs) is not the code in
 * its src/, or undefined when it is. GIT_CTX_SKIP_BUILD=1 skips the tests' build: against a
 * stale dist/ the tests that spawn the CLI would otherwise fail one by one for no visible reason.
 * The bundle's build id (DEC-117) is asked of the CLI itself (`cache status` names its build
 * folder) and compared with the id src/ hashes to now (scripts/build-id.mjs).
 */
export function staleBuild(root: string): string | undefined {
  const fix = 'run `npm run build`, or unset GIT_CTX_SKIP_BUILD';
  const bundle = path.join(root, 'dist/cli.cjs');
  if (!existsSync(bundle)) return `GIT_CTX_SKIP_BUILD=1 but ${bundle} was never built: ${fix}`;
  const sources = srcBuildId(root) as string;
  const repo = mkdtempSync(path.join(os.tmpdir(), 'git-ctx-built-'));
  try {
    const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', NO_COLOR: '1' };
    spawnSync('git', ['init', '-q', repo], { env });
    const r = spawnSync(process.execPath, [path.join(root, 'bin/git-ctx.js'), 'cache', 'status', '--json'], { cwd: repo, env, encoding: 'utf8' });
    let built: string | undefined;
    try {
      built = /^build-([0-9a-f]+)$/.exec(path.basename((JSON.parse(r.stdout) as { dir: string }).dir))?.[1];
    } catch {
      /* said below */
    }
    if (built === undefined) return `GIT_CTX_SKIP_BUILD=1 but the built CLI (${bundle}) does not run: ${(r.stderr || r.stdout).trim().split('\n')[0]}; ${fix}`;
    if (built !== sources) return `GIT_CTX_SKIP_BUILD=1 but dist/ was built from a different source tree (build id ${built}, src/ now ${sources}): ${fix}`;
    return undefined;
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}
