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
 * Paths records name that are missing at HEAD, mapped to where git's rename detection says
 * they went: the last commit that deleted each is found in one walk of the history limited
 * to those paths, and that commit's renames (`diff-tree -M`) say where to; a path renamed
 * again is followed, at most MAX_HOPS times, to one that exists. A path deleted without a
 * rename, or never in the history, is not in the answer. `lookups` are the path lists of
 * several askers (check's broken-link and mention-moved), walked together: each path's answer
 * is the one a lookup of its own would give (the walk looks at MAX_COMMITS deleting commits
 * per lookup), at the cost of one walk. Remembered per HEAD and paths (the `moved-paths`
 * cache kind): a check on an unchanged HEAD walks nothing. A walk of a long history costs a
 * few hundred milliseconds, so this is read by `check` only, as a hint on a broken link,
 * never by `for` (DEC-084).
 */
export async function movedPaths(snapshot: Snapshot, lookups: readonly (readonly string[])[]): Promise<Map<string, MovedPath>> {
  const out = new Map<string, MovedPath>();
  const asked = lookups.map((l) => [...new Set(l)].sort()).filter((l) => l.length);
  const wanted = [...new Set(asked.flat())].sort();
  if (!wanted.length || snapshot.backend !== 'git' || !snapshot.commit) return out;
  const remembered = memo<[string, MovedPath][]>(snapshot.root, 'moved-paths');
  const key = `${snapshot.commit}\0${asked.map((l) => l.join('\0')).join('\0\0')}`;
  const hit = remembered.get(key);
  if (Array.isArray(hit)) return new Map(hit);
  const maxCommits = MAX_COMMITS * asked.length;
  // each path's rename, asked in rounds: the paths wanted, then where those went that HEAD lacks too
  const renamed = new Map<string, MovedPath>();
  const seen = new Set<string>();
  let ask = wanted;
  for (let hop = 0; hop < MAX_HOPS && ask.length; hop++) {
    for (const p of ask) seen.add(p);
    const next = new Set<string>();
    for (const [old, moved] of await renamedOnce(snapshot.root, snapshot.commit, ask, maxCommits)) {
      renamed.set(old, moved);
      if (!seen.has(moved.to) && (await snapshot.blobOf(moved.to)) === undefined) next.add(moved.to);
    }
    ask = [...next].sort();
  }
  // each wanted path followed, at most MAX_HOPS renames, to one HEAD has
  for (const p of wanted) {
    let at = p;
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const m = renamed.get(at);
      if (!m) break;
      if ((await snapshot.blobOf(m.to)) !== undefined) {
        out.set(p, m);
        break;
      }
      at = m.to;
    }
  }
  remembered.set(key, [...out]);
  return out;
}

/** One step: for each path, the rename of the last commit (reachable from `head`) that deleted it. */
async function renamedOnce(root: string, head: string, paths: string[], maxCommits: number): Promise<Map<string, MovedPath>> {
  const log = await runGit(['log', '--format=%x00%H', '--name-only', '--diff-filter=D', '--no-renames', `--max-count=${maxCommits}`, head, '--', ...paths.map((p) => `:(literal)${p}`)], { cwd: root });
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
