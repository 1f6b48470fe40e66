// @spec SPEC-SNAPSHOT-001

import { accessSync, constants, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The repository top level and HEAD commit read from the filesystem, without a git
 * process: every command asks this first, and a spawn costs the hook ~10 ms. Only the
 * plain layout is read (a `.git` directory, loose or packed refs); anything else returns
 * undefined and git answers instead: GIT_* environment overrides, a `.git` file (linked
 * worktrees, submodules), `core.worktree`, `core.bare`, other ref storage, a repository
 * owned by another user (git's safe.directory check), a symbolic ref to a symbolic ref,
 * or no git binary on PATH (the caller then learns that from its first spawn).
 */
export function fastHead(cwd: string): { root: string; commit: string | undefined } | undefined {
  if (GIT_ENV.some((k) => process.env[k] !== undefined)) return undefined;
  if (!gitOnPath()) return undefined;
  try {
    let dir = realpathSync(cwd);
    for (;;) {
      if (path.basename(dir) === '.git') return undefined; // inside the git directory itself
      const dotgit = path.join(dir, '.git');
      let st;
      try {
        st = statSync(dotgit);
      } catch {
        st = undefined;
      }
      if (st) {
        if (!st.isDirectory()) return undefined;
        if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return undefined;
        const config = readFileSync(path.join(dotgit, 'config'), 'utf8').toLowerCase();
        if (/^\s*(worktree|bare\s*=\s*true|refstorage|repositoryformatversion\s*=\s*[^0\s])/m.test(config)) return undefined;
        return { root: dir, commit: resolveHead(dotgit) };
      }
      const up = path.dirname(dir);
      if (up === dir) return undefined;
      dir = up;
    }
  } catch {
    return undefined;
  }
}

const GIT_ENV = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_INDEX_FILE', 'GIT_CEILING_DIRECTORIES', 'GIT_DISCOVERY_ACROSS_FILESYSTEM', 'GIT_OBJECT_DIRECTORY', 'GIT_NAMESPACE', 'GIT_CTX_GIT_BINARY', 'GIT_CTX_NO_GIT'];

let onPath: boolean | undefined;
function gitOnPath(): boolean {
  if (onPath !== undefined) return onPath;
  const exts = process.platform === 'win32' ? (process.env.PATHEXT ?? '.EXE').split(';') : [''];
  for (const d of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!d) continue;
    for (const ext of exts) {
      try {
        accessSync(path.join(d, `git${ext}`), constants.X_OK);
        return (onPath = true);
      } catch {
        /* next */
      }
    }
  }
  return (onPath = false);
}

const OID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** HEAD's commit id; undefined when the branch is unborn. Throws on anything unexpected. */
function resolveHead(gitDir: string): string | undefined {
  const head = readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
  if (OID.test(head)) return head;
  const m = /^ref: (refs\/[^\s]+)$/.exec(head);
  if (!m || m[1]!.includes('..')) throw new Error('unexpected HEAD');
  const ref = m[1]!;
  let loose: string | undefined;
  try {
    loose = readFileSync(path.join(gitDir, ref), 'utf8').trim();
  } catch {
    loose = undefined;
  }
  if (loose !== undefined) {
    if (!OID.test(loose)) throw new Error('symbolic or unreadable ref');
    return loose;
  }
  let packed: string;
  try {
    packed = readFileSync(path.join(gitDir, 'packed-refs'), 'utf8');
  } catch {
    return undefined; // no such ref anywhere: an unborn branch
  }
  for (const line of packed.split('\n')) {
    if (line.length > 41 && line.endsWith(` ${ref}`)) {
      const oid = line.slice(0, line.indexOf(' '));
      if (OID.test(oid)) return oid;
    }
  }
  return undefined;
}
