import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * The folder of git-ctx's own package.json: where data/, hooks/, bin/ and dist/ are. Found by
 * walking up from this module's own file, so the answer is the same whether the code runs from
 * src/ (the tests), dist/ (tsc's output), dist/cli.mjs (the CLI bundle) or action/dist (the
 * Action's bundle, run from a checkout of this repository). A module's distance from the root
 * differs between those, so no module names a path relative to itself.
 */
export function packageRoot(): string {
  if (root !== undefined) return root;
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = path.dirname(dir)) {
    try {
      if ((JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'git-ctx') return (root = dir);
    } catch {
      /* no package.json here, or not ours (bin/package.json only sets the module type) */
    }
    if (path.dirname(dir) === dir) return (root = path.dirname(here));
  }
}

/** A file of the package, by its path from the package root (`data/word-vectors.bin`). */
export function packageFile(rel: string): string {
  return path.join(packageRoot(), ...rel.split('/'));
}
