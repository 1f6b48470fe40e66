import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The common git directory of a work tree (where per-clone derived data lives: `ctx/`),
 * found from the filesystem without spawning git: `.git` as a directory, or a `.git` file
 * (worktrees, submodules) pointing at one, following `commondir`.
 */
export function resolveGitDir(root: string): string | undefined {
  const dotgit = path.join(root, '.git');
  try {
    if (statSync(dotgit).isDirectory()) return dotgit;
    const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotgit, 'utf8'));
    if (!m) return undefined;
    const gitdir = path.resolve(root, m[1]!.trim());
    const common = path.join(gitdir, 'commondir');
    return existsSync(common) ? path.resolve(gitdir, readFileSync(common, 'utf8').trim()) : gitdir;
  } catch {
    return undefined;
  }
}

/** `<git-dir>/ctx/<sub...>`, or undefined outside a repository. */
export function ctxDir(root: string, ...sub: string[]): string | undefined {
  const g = resolveGitDir(root);
  return g ? path.join(g, 'ctx', ...sub) : undefined;
}
