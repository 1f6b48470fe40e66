// @spec SPEC-SNAPSHOT-001

import type { TreeEntry, WorktreeTree } from '../tree/index.js';

/** What a Snapshot is a view of. */
export type SnapshotKind = 'worktree' | 'index' | 'commit';

/** One file of a snapshot (the tree module's entry: src/tree). */
export type SnapshotEntry = TreeEntry;

/**
 * The repository as seen at one point. Every analysis reads files only through a
 * Snapshot, which is what makes bundles reproducible and hook checks staged-only. A plain
 * read interface: what is in the tree and whether it changed is the tree module's (src/tree).
 */
export interface Snapshot {
  readonly kind: SnapshotKind;
  /** absolute path of the repository top level */
  readonly root: string;
  /** resolved commit id for commit snapshots; HEAD (or undefined in an empty repo) otherwise */
  readonly commit: string | undefined;
  /** which backend serves it */
  readonly backend: 'git' | 'isomorphic-git';
  /** All files, sorted by path. Symlinks are listed (mode 120000) but never followed. */
  list(): Promise<SnapshotEntry[]>;
  /** Files below a directory prefix (posix, no trailing slash). */
  listUnder(prefix: string): Promise<SnapshotEntry[]>;
  /** Raw bytes, or undefined when the path is absent or a symlink. */
  read(path: string): Promise<Buffer | undefined>;
  /** Read many; order preserved. */
  readMany(paths: string[]): Promise<(Buffer | undefined)[]>;
  /** git blob id of a path, or undefined when absent. */
  blobOf(path: string): Promise<string | undefined>;
  /**
   * Optional hint: these files are about to be asked for by path; a backend may look them
   * all up at once instead of listing their directories. Never required for correctness.
   */
  prefetch?(paths: string[]): void;
  /**
   * Optional: the paths of list(), sorted, where a backend has them cheaper than entries
   * (the place index). Callers that need paths only use listPaths() (see pathsOf).
   */
  listPaths?(): Promise<string[]>;
  /**
   * The working tree's state this snapshot reads through (worktree snapshots of a git
   * repository): where a question about what changed (a folder's token) is answered.
   */
  readonly tree?: WorktreeTree;
  /** Release processes held open (cat-file). Idempotent. */
  close(): void;
}
