// @spec SPEC-SCALE-001

import { runGit, splitZ } from '../git/exec.js';
import type { TreeEntry } from './types.js';

/** One line of `git diff-index --raw`: a path's mode and blob on both sides (zeros: absent). */
export interface RawChange {
  path: string;
  oldMode: string;
  newMode: string;
  oldBlob: string;
  newBlob: string;
  /** A, M, D, T; U for an unmerged path */
  status: string;
}

/** The mode git gives a side of a change where the path is absent. */
export const ABSENT_MODE = '000000';

/** Parse `git diff-index --raw -z` output. */
export function parseRawDiff(out: string): RawChange[] {
  const parts = splitZ(out);
  const res: RawChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const head = parts[i]!;
    const path = parts[i + 1]!;
    if (!head.startsWith(':')) throw new Error(`unexpected git diff-index output: ${head.slice(0, 80)}`);
    const [oldMode, newMode, oldBlob, newBlob, status] = head.slice(1).split(' ');
    res.push({ path, oldMode: oldMode!, newMode: newMode!, oldBlob: oldBlob!, newBlob: newBlob!, status: (status ?? '').slice(0, 1) });
  }
  return res;
}

/**
 * What differs between a commit's tree and the git index (`--cached`: never the work
 * tree; no renames: a rename is its old path deleted and its new path added).
 */
export async function stagedChanges(root: string, rev: string): Promise<RawChange[]> {
  const out = await runGit(['diff-index', '--cached', '--raw', '-z', '--no-renames', '--no-abbrev', rev, '--'], { cwd: root });
  return parseRawDiff(out);
}

/**
 * What differs between commits and the git index, each asked of git once per run: HEAD's
 * (what this commit changes) at once, a remembered commit's when a memo needs it.
 */
export class StagedDelta {
  readonly headChanges: Promise<RawChange[]>;
  private readonly bySince = new Map<string, Promise<RawChange[]>>();
  constructor(
    readonly root: string,
    readonly head: string,
  ) {
    this.headChanges = this.since(head);
  }
  since(commit: string): Promise<RawChange[]> {
    let p = this.bySince.get(commit);
    if (!p) {
      p = stagedChanges(this.root, commit).then((changes) => {
        for (const c of changes) if (c.status !== 'U') this.staged.set(c.path, c);
        return changes;
      });
      p.catch(() => undefined); // each caller handles the failure
      this.bySince.set(commit, p);
    }
    return p;
  }
  /** the index side of every path some diff named so far (the same whichever commit it was against) */
  private readonly staged = new Map<string, RawChange>();
  /** Whether a diff resolved so far named this path with an index side it can answer for. */
  named(path: string): boolean {
    const c = this.staged.get(path);
    return !!c && !(c.newMode !== ABSENT_MODE && /^0+$/.test(c.newBlob));
  }
  /**
   * The git index's entry of a path some diff against it named: `null` when the index does not
   * list it, undefined when no diff named it (ask the index).
   */
  async stagedEntry(path: string): Promise<TreeEntry | null | undefined> {
    await this.headChanges.catch(() => undefined);
    const c = this.staged.get(path);
    if (!c) return undefined;
    // git names no blob for some entries (zeros): the index answers those
    if (c.newMode !== ABSENT_MODE && /^0+$/.test(c.newBlob)) return undefined;
    // gitlinks are not listed by the index snapshot
    return c.newMode === ABSENT_MODE || c.newMode === '160000' ? null : { path, mode: c.newMode, blob: c.newBlob };
  }
}
