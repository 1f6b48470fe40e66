// @spec SPEC-CHECK-001

import { memo } from '../cache/memo.js';
import { runGit } from '../git/exec.js';
import type { Snapshot } from '../snapshot/types.js';

/** Where a path named in a record went: the path it was renamed to at HEAD, and the commit that renamed it last. */
export interface MovedPath {
  to: string;
  commit: string;
}

/** Renames followed from one path (a file moved twice is followed to where it is now). */
const MAX_HOPS = 3;
/** Deleting commits looked at per lookup: a record names few missing paths. */
const MAX_COMMITS = 50;

/**
 * Paths a record names that are missing at HEAD, mapped to where git's rename detection says
 * they went: the last commit that deleted each is found in one walk of the history limited
 * to those paths, and that commit's renames (`diff-tree -M`) say where to; a path renamed
 * again is followed, at most MAX_HOPS times, to one that exists. A path deleted without a
 * rename, or never in the history, is not in the answer. Remembered per HEAD and set of
 * paths (the `moved-paths` cache kind): a check on an unchanged HEAD walks nothing. A walk of
 * a long history costs a few hundred milliseconds, so this is read by `check` only, as a
 * hint on a broken link, never by `for` (DEC-084).
 */
export async function movedPaths(snapshot: Snapshot, paths: readonly string[]): Promise<Map<string, MovedPath>> {
  const out = new Map<string, MovedPath>();
  const wanted = [...new Set(paths)].sort();
  if (!wanted.length || snapshot.backend !== 'git' || !snapshot.commit) return out;
  const remembered = memo<[string, MovedPath][]>(snapshot.root, 'moved-paths');
  const key = `${snapshot.commit}\0${wanted.join('\0')}`;
  const hit = remembered.get(key);
  if (Array.isArray(hit)) return new Map(hit);
  let ask = wanted;
  const from = new Map(wanted.map((p) => [p, p]));
  for (let hop = 0; hop < MAX_HOPS && ask.length; hop++) {
    const step = await renamedOnce(snapshot.root, snapshot.commit, ask);
    const next: string[] = [];
    for (const [old, moved] of step) {
      const origin = from.get(old)!;
      if ((await snapshot.blobOf(moved.to)) !== undefined) out.set(origin, moved);
      else if (!from.has(moved.to)) {
        from.set(moved.to, origin);
        next.push(moved.to);
      }
    }
    ask = next;
  }
  remembered.set(key, [...out]);
  return out;
}

/** One step: for each path, the rename of the last commit (reachable from `head`) that deleted it. */
async function renamedOnce(root: string, head: string, paths: string[]): Promise<Map<string, MovedPath>> {
  const log = await runGit(['log', '--format=%x00%H', '--name-only', '--diff-filter=D', '--no-renames', `--max-count=${MAX_COMMITS}`, head, '--', ...paths.map((p) => `:(literal)${p}`)], { cwd: root });
  const want = new Set(paths);
  const deletedIn = new Map<string, string>();
  let commit = '';
  for (const line of log.split('\n')) {
    if (line.startsWith('\0')) commit = line.slice(1);
    else if (line && commit && want.has(line) && !deletedIn.has(line)) deletedIn.set(line, commit);
  }
  const out = new Map<string, MovedPath>();
  for (const c of new Set(deletedIn.values())) {
    const tree = await runGit(['diff-tree', '-r', '-M', '--name-status', '-z', '--diff-filter=R', '--no-commit-id', `${c}^`, c], { cwd: root, okCodes: [128] }).catch(() => '');
    const f = tree.split('\0');
    for (let i = 0; i + 2 < f.length; i += 3) {
      const [status, old, to] = [f[i]!, f[i + 1]!, f[i + 2]!];
      if (status.startsWith('R') && deletedIn.get(old) === c) out.set(old, { to, commit: c });
    }
  }
  return out;
}
