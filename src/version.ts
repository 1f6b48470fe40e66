import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageFile } from './package-root.js';

/** The package version, read once from package.json. */
export const VERSION: string = (() => {
  try {
    return (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
})();

/** Set by the bundles' builds (esbuild `define`): scripts/build-cli-bundle.mjs, scripts/build-action.mjs. */
declare const __GIT_CTX_BUILD_ID__: string | undefined;

let build: string | undefined;

/**
 * The identity of the code that is running (DEC-117): every persistent cache is kept under it
 * (src/cache/memo.ts), so an upgrade whose parsing or extraction changed never reads what an
 * older build computed, whether or not a kind's hand-bumped version was bumped.
 *
 * - The CLI bundle (dist/cli.cjs) carries a constant its build wrote: a hash of src/, of
 *   package.json's version and dependencies and of the runtime packages' versions
 *   package-lock.json pins (scripts/build-id.mjs, DEC-120). No start-up cost.
 * - The Action's bundle carries a hash of its own output.
 * - Code run unbundled (the tests from src/, tsc's output in dist/ for the library) hashes the
 *   tree it runs from on first use (~12 ms for src/, once per process). From src/ that is the
 *   same hash the CLI bundle carries, so the tests' in-process code and the CLI they spawn
 *   share their caches.
 */
export function buildId(): string {
  if (build !== undefined) return build;
  if (typeof __GIT_CTX_BUILD_ID__ === 'string') return (build = __GIT_CTX_BUILD_ID__);
  const here = fileURLToPath(import.meta.url);
  return (build = codeTreeId(path.dirname(here), here.endsWith('.ts') ? '.ts' : '.js'));
}

/** For tests: run as another build (undefined: this build again). */
export function setBuildIdForTests(id: string | undefined): void {
  build = id;
}

/**
 * A hash of every `ext` file under `dir` (relative path and bytes, in path order), of
 * package.json's version and dependencies and of the runtime packages' versions in
 * package-lock.json (DEC-120; none in an installed package). scripts/build-id.mjs computes the
 * same for src/ when the CLI bundle is built (test/cache/build-id.test.ts holds them equal).
 */
export function codeTreeId(dir: string, ext: '.ts' | '.js'): string {
  const files: string[] = [];
  const walk = (d: string, rel: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(d, e.name), r);
      else if (e.name.endsWith(ext) && !e.name.endsWith('.d.ts')) files.push(r);
    }
  };
  // node:crypto loaded here, not at the top: the CLI's start-up path never loads it (~8 ms)
  const h = process.getBuiltinModule('node:crypto').createHash('sha256');
  try {
    walk(dir, '');
    files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const f of files) h.update(`${f}\0`).update(readFileSync(path.join(dir, f))).update('\0');
  } catch {
    h.update(`unreadable\0${Date.now()}`);
  }
  let pkg: { version?: unknown; dependencies?: unknown; optionalDependencies?: unknown } = {};
  try {
    pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as typeof pkg;
  } catch {
    /* no package.json: the code alone */
  }
  h.update(JSON.stringify([pkg.version ?? null, pkg.dependencies ?? null, pkg.optionalDependencies ?? null]));
  h.update(JSON.stringify(lockedRuntimeVersions()));
  return h.digest('hex').slice(0, 16);
}

/**
 * Every package package-lock.json installs but for development only, as [its path in
 * node_modules, version], in path order; null without a lockfile. As scripts/build-id.mjs's.
 */
function lockedRuntimeVersions(): [string, unknown][] | null {
  let lock: { packages?: Record<string, { dev?: boolean; version?: string }> };
  try {
    lock = JSON.parse(readFileSync(packageFile('package-lock.json'), 'utf8')) as typeof lock;
  } catch {
    return null;
  }
  return Object.entries(lock.packages ?? {})
    .filter(([p, e]) => p !== '' && !e.dev)
    .map(([p, e]): [string, unknown] => [p, e.version ?? null])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
