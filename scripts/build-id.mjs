// The build identity the CLI bundle carries (DEC-117): a hash of every .ts file under src/
// (relative path and bytes, in path order), of package.json's version and dependencies, and of
// the version of every package of the runtime dependencies package-lock.json pins (DEC-120).
// src/version.ts (codeTreeId) computes the same when the code runs from src/, so the tests'
// in-process code and the bundle they spawn keep their caches in one folder
// (test/cache/build-id.test.ts holds the two equal). A copy, not an import of tsc's output:
// the bundle's build, the Action's and the bench scripts run where nothing is built yet
// (check-action-dist.sh right after npm ci; test/cli/bundle.test.ts builds from src/ alone).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export function srcBuildId(root) {
  const dir = path.join(root, 'src');
  const files = [];
  const walk = (d, rel) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(d, e.name), r);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) files.push(r);
    }
  };
  walk(dir, '');
  files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const h = createHash('sha256');
  for (const f of files) h.update(`${f}\0`).update(readFileSync(path.join(dir, f))).update('\0');
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  h.update(JSON.stringify([pkg.version ?? null, pkg.dependencies ?? null, pkg.optionalDependencies ?? null]));
  h.update(JSON.stringify(lockedRuntimeVersions(root)));
  return h.digest('hex').slice(0, 16);
}

/**
 * Every package package-lock.json installs but for development only, as [its path in
 * node_modules, version], in path order; null without a lockfile (DEC-120). A dependency's
 * upgrade can change what is parsed and cached (a tree-sitter grammar, a YAML parser).
 */
export function lockedRuntimeVersions(root) {
  let lock;
  try {
    lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  } catch {
    return null;
  }
  return Object.entries(lock.packages ?? {})
    .filter(([p, e]) => p !== '' && !e.dev)
    .map(([p, e]) => [p, e.version ?? null])
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** The Action's identity: a hash of its bundle as built with the placeholder in place. */
export const BUILD_ID_PLACEHOLDER = '@@GIT_CTX_BUILD_ID@@';
export function outputBuildId(text) {
  return `action-${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
}
