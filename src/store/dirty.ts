// @spec SPEC-STORE-001

import { execFile } from 'node:child_process';
import { memo } from '../cache/memo.js';
import { sha1 } from '../util/hash.js';
import { entryAt, fileState, gitIndex, indexChecksum, indexFileOf, indexStamp } from '../tree/index.js';

/**
 * The dirty flag of an episode, scoped to what the answer read (DEC-032): `true` when one of
 * the files it was computed from — the place asked about, the files of the records returned,
 * the code they were found through — differs from the episode's commit: staged (the index
 * differs from the commit), modified or deleted on disk (the work tree differs from the
 * index), in a merge conflict, or not in the index at all. A change anywhere else does not
 * make the episode dirty. `undefined` when it cannot be told in time.
 *
 * Cheap by construction: the work tree side is one lstat per file against the index's stat
 * data (a file whose stat changed is hashed, as git would); the index side is the set of
 * staged paths (`git diff-index --cached`, which reads the index and the commit's trees but
 * stats nothing), cached by commit and the index file's checksum, so a repeated question runs
 * no git process at all and a miss runs one that never touches the work tree.
 */
export interface DirtyProbe {
  /** Whether any of `files` differs from the commit; waits at most `waitMs` for a process still running. Never rejects. */
  judge(files: readonly string[], waitMs: number): Promise<boolean | undefined>;
}

/** Files judged at most (an answer reads a few dozen). */
const MAX_FILES = 500;
/** Staged paths remembered at most; more (a mass `git add`) are not cached. */
const MAX_STAGED_CACHED = 20_000;

/**
 * Start judging against `commit` (the snapshot's HEAD): the staged set is looked up now and,
 * when not cached, computed by a git process running beside the retrieval. `reads` is what the
 * answer read: a commit's content is never dirty; the index's only by what is staged.
 */
export function startDirtyProbe(root: string, commit: string | undefined, opts: { reads?: 'worktree' | 'index' | 'commit' } = {}): DirtyProbe {
  const reads = opts.reads ?? 'worktree';
  if (reads === 'commit') return { judge: async () => (commit ? false : undefined) };
  const index = commit ? gitIndex(root) : undefined;
  // no commit (an unborn branch, or a layout the in-process readers do not handle), or an index
  // they cannot read: git judges the files themselves, scoped to them
  if (!commit || !index) return { judge: (files, waitMs) => scopedStatus(root, files, reads, waitMs) };
  const staged = stagedPaths(root, commit);
  return {
    async judge(files, waitMs) {
      try {
        const list = [...new Set(files)].filter(Boolean).slice(0, MAX_FILES);
        let unsure = false;
        const forGit: string[] = [];
        if (reads === 'worktree') {
          for (const f of list) {
            const s = fileState(root, index, f);
            if (s === 'dirty') return true;
            if (s === 'git') forGit.push(f);
          }
        } else {
          for (const f of list) {
            const e = entryAt(index, f);
            if (e && index.stage(e) !== 0) return true;
          }
        }
        const set = await within(staged, waitMs);
        if (set === undefined) unsure = true;
        else if (list.some((f) => set.has(f))) return true;
        if (forGit.length) {
          const g = await scopedStatus(root, forGit, reads, waitMs);
          if (g === true) return true;
          if (g === undefined) unsure = true;
        }
        return unsure ? undefined : false;
      } catch {
        return undefined;
      }
    },
  };
}

/** The index file and its stamp (src/tree): any write of the index gives it a new one. */
function indexIdentity(root: string): string | undefined {
  const file = indexFileOf(root);
  const stamp = file ? indexStamp(root) : undefined;
  return stamp ? `${file}\0${stamp}` : undefined;
}

/**
 * Paths whose index entry differs from `commit` (added, modified, deleted, type or mode
 * changed). Cached under the commit and the index file's identity: a commit's trees never
 * change, and any write of the index (a `git add`, a refresh) gives the file a new stamp.
 */
export function stagedPaths(root: string, commit: string): Promise<Set<string> | undefined> {
  const before = indexIdentity(root);
  const trailer = before ? indexChecksum(root) : undefined;
  if (!before || !trailer) return Promise.resolve(undefined);
  const key = sha1(`git-ctx/record-staged 1\n${commit}\n${before}\n${trailer}`);
  const staged = memo<string[]>(root, 'record-staged');
  const hit = staged.get(key);
  if (Array.isArray(hit) && hit.every((x) => typeof x === 'string')) return Promise.resolve(new Set(hit as string[]));
  return probeGit(root, ['diff-index', '--cached', '--name-only', '-z', '--no-renames', '--ignore-submodules=all', commit, '--'], 64 << 20).then((stdout) => {
    if (stdout === undefined) return undefined;
    const paths = stdout.split('\0').filter(Boolean);
    // remembered only when the index did not change while git read it
    if (paths.length <= MAX_STAGED_CACHED && indexIdentity(root) === before) staged.set(key, paths);
    return new Set(paths);
  });
}

/**
 * A read-only git run beside the command (no optional locks, literal pathspecs): its stdout,
 * or undefined on any failure. Unreferenced: a probe still running never keeps a finished
 * command alive.
 */
function probeGit(root: string, args: string[], maxBuffer: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    try {
      const child = execFile('git', ['--no-optional-locks', '--literal-pathspecs', ...args], { cwd: root, timeout: 10_000, maxBuffer }, (err, stdout) => resolve(err ? undefined : stdout));
      child.on('error', () => resolve(undefined));
      child.unref();
      (child.stdout as { unref?: () => void } | null)?.unref?.();
      (child.stderr as { unref?: () => void } | null)?.unref?.();
    } catch {
      resolve(undefined);
    }
  });
}

/**
 * git's own verdict on some files (`git status` limited to them, untracked files included):
 * for what the in-process readers leave to git. For `reads: 'index'` only the staged side counts.
 */
function scopedStatus(root: string, files: readonly string[], reads: 'worktree' | 'index', waitMs: number): Promise<boolean | undefined> {
  const list = [...new Set(files)].filter(Boolean).slice(0, MAX_FILES);
  if (!list.length) return Promise.resolve(undefined);
  const p = probeGit(root, ['status', '--porcelain=v2', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all', '--', ...list], 16 << 20).then((stdout) => {
    if (stdout === undefined) return undefined;
    const lines = stdout.split('\0').filter(Boolean);
    if (reads === 'index') return lines.some((l) => (l.startsWith('1 ') || l.startsWith('2 ')) && l[2] !== '.') || lines.some((l) => l.startsWith('u '));
    return lines.some((l) => /^[12u?] /.test(l));
  });
  return within(p, waitMs);
}

/** A promise's value when it settles within `ms`, else undefined. */
function within<T>(p: Promise<T | undefined>, ms: number): Promise<T | undefined> {
  return Promise.race([p, new Promise<undefined>((r) => setTimeout(() => r(undefined), ms).unref())]);
}
