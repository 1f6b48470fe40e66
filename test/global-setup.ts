import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleBuild } from './helpers/built.js';

/**
 * CLI tests spawn bin/git-ctx.js, which runs dist/: build it once per test run
 * (GIT_CTX_SKIP_BUILD=1: not, and a dist/ built from other sources is an error at once).
 * tsc emits even when it reports type errors; `npm test` type-checks strictly before
 * vitest runs, so here a type error is printed rather than fatal.
 */
export default function setup(): void {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  if (process.env.GIT_CTX_SKIP_BUILD === '1') {
    // the build skipped: the one already there must be of these sources
    const stale = staleBuild(root);
    // said and stopped here: thrown, vitest printed "No test files found" above the reason
    if (stale) {
      process.stderr.write(`global-setup: ${stale}\n`);
      process.exit(1);
    }
    return;
  }
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) process.stderr.write(`global-setup: tsc reported errors (dist was still emitted):\n${r.stdout}${r.stderr}`);
  // bin/git-ctx.js runs the CLI's bundle, dist/cli.cjs (DEC-043): rebuild it, so that CLI
  // tests run what users run
  const b = spawnSync(process.execPath, [path.join(root, 'scripts/build-cli-bundle.mjs')], { cwd: root, encoding: 'utf8' });
  if (b.status !== 0) throw new Error(`global-setup: the CLI bundle did not build:\n${b.stdout}${b.stderr}`);
}
