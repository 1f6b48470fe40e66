import { runGit, splitZ } from '../git/exec.js';
import type { Snapshot } from '../snapshot/types.js';

function escapeEre(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The pre-filter as a POSIX extended regex for `git grep` (same tags, word end required). */
export function tagEre(tags: string[]): string {
  return `@(${tags.map(escapeEre).join('|')})([^A-Za-z0-9_]|$)`;
}

/**
 * Files of a snapshot whose content matches, found by `git grep -l` over the snapshot's
 * own content (working tree incl. untracked-not-ignored files, the index, or a commit).
 * git reads and matches in C on all cores, far faster than reading every file into Node.
 * Undefined when git cannot answer (isomorphic-git backend, old git): the caller then
 * reads the files itself.
 */
export async function gitGrepFiles(snapshot: Snapshot, pattern: string | readonly string[], opts: { fixed?: boolean } = {}): Promise<Set<string> | undefined> {
  if (snapshot.backend !== 'git') return undefined;
  const patterns = typeof pattern === 'string' ? [pattern] : pattern;
  // any of several patterns: a file matching one of them is listed
  const args = ['-c', 'grep.fallbackToNoIndex=false', 'grep', '-l', '-z', '--full-name', '--no-color', '--no-textconv', opts.fixed ? '-F' : '-E', ...patterns.flatMap((p) => ['-e', p])];
  let prefix = '';
  if (snapshot.kind === 'worktree') args.push('--untracked');
  else if (snapshot.kind === 'index') args.push('--cached');
  else {
    if (!snapshot.commit) return undefined;
    args.push(snapshot.commit);
    prefix = `${snapshot.commit}:`;
  }
  args.push('--');
  try {
    const out = await runGit(args, { cwd: snapshot.root, okCodes: [1] });
    const files = new Set<string>();
    for (const p of splitZ(out)) files.add(prefix && p.startsWith(prefix) ? p.slice(prefix.length) : p);
    return files;
  } catch {
    return undefined;
  }
}

