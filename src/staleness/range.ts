import { picomatch } from '../util/picomatch.js';
import { walkHistory, type CommitInfo } from './history.js';

/**
 * Commit history since a base, walked lazily, once per base, limited to the paths some
 * artifact judged against that base anchors. Path-limited walks prune unchanged trees,
 * which is several times faster on long histories; `--full-diff` keeps rename detection
 * whole in the selected commits, and a file renamed out of the limited paths is followed
 * by widening the paths and walking again.
 */
export class RangeHistory {
  private wanted = new Map<string, Set<string>>();
  private walks = new Map<string, Promise<CommitInfo[]>>();
  renameLimitHit = false;
  renameLimitNeeded: number | undefined;

  constructor(
    readonly root: string,
    readonly head: string,
    private readonly opts: { renameLimit?: number } = {},
  ) {}

  /** Declare paths (files, directories, globs) that will be asked about for a base. */
  want(base: string, paths: string[]): void {
    let s = this.wanted.get(base);
    if (!s) this.wanted.set(base, (s = new Set()));
    for (const p of paths) s.add(pathspecOf(p));
  }

  /** Commits in `base..head` touching the declared paths, oldest first. */
  commitsSince(base: string): Promise<CommitInfo[]> {
    let w = this.walks.get(base);
    if (!w) {
      w = this.walk(base);
      this.walks.set(base, w);
    }
    return w;
  }

  private async walk(base: string): Promise<CommitInfo[]> {
    const declared = this.wanted.get(base);
    let limit = declared && declared.size && !declared.has('') ? [...declared] : undefined;
    const run = () => walkHistory({ cwd: this.root, include: [this.head], exclude: [base], renameLimit: this.opts.renameLimit, paths: limit, fullDiff: true });
    let walk = await run();
    for (let round = 0; limit && round < 4; round++) {
      const l = limit;
      const inside = (p: string) => l.some((x) => p === x || p.startsWith(x + '/'));
      const escaped = [...new Set(walk.commits.flatMap((c) => c.changes.filter((ch) => ch.status === 'R' && inside(ch.from!) && !inside(ch.path)).map((ch) => ch.path)))];
      if (!escaped.length) break;
      limit = [...l, ...escaped];
      walk = await run();
    }
    if (walk.renameLimitHit) {
      this.renameLimitHit = true;
      this.renameLimitNeeded = Math.max(this.renameLimitNeeded ?? 0, walk.renameLimitNeeded ?? 0) || undefined;
    }
    return walk.commits;
  }
}

/** A literal pathspec for an anchor path: a glob's static base directory ('' = everything). */
function pathspecOf(p: string): string {
  if (!/[*?[\]{}!]/.test(p)) return p;
  return picomatch.scan(p).base;
}
