import { walkHistory, type CommitInfo } from './history.js';

/**
 * For each artifact file, the commit that last changed its content, following the file's
 * own renames (decision files get renumbered, moved between folders, given an extension):
 * a pure rename (similarity 100) is not a change, so the walk continues under the old
 * name. One `git log -M --name-status` over the artifact directory serves every file.
 * Files with no commit (new, uncommitted) are absent from the result.
 */
export async function artifactBaselines(root: string, head: string, dir: string, files: string[]): Promise<Map<string, CommitInfo>> {
  const res = new Map<string, CommitInfo>();
  if (!files.length) return res;
  const walk = await walkHistory({ cwd: root, include: [head], paths: [dir] });
  // name at the current point of the backward walk → the file it is
  const tracking = new Map<string, string>(files.map((f) => [f, f]));
  for (let i = walk.commits.length - 1; i >= 0 && tracking.size; i--) {
    const c = walk.commits[i]!;
    const renames: [string, string, string][] = [];
    for (const ch of c.changes) {
      const file = tracking.get(ch.path);
      if (file === undefined) continue;
      if (ch.status === 'R' && ch.score === 100 && ch.from) {
        renames.push([ch.path, ch.from, file]);
        continue;
      }
      if (ch.status === 'D') continue;
      res.set(file, c);
      tracking.delete(ch.path);
    }
    for (const [to, from, file] of renames) {
      tracking.delete(to);
      tracking.set(from, file);
    }
  }
  return res;
}
