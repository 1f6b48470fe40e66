// @spec SPEC-SNAPSHOT-001

/** What a Snapshot is a view of. */
export type SnapshotKind = 'worktree' | 'index' | 'commit';

export interface SnapshotEntry {
  /** posix path relative to the repository root */
  path: string;
  /** git blob id; for the work tree it is computed from the content on demand */
  blob?: string;
  /** git file mode, e.g. 100644, 100755, 120000 (symlink) */
  mode: string;
}

/** See Snapshot.cleanListing. */
export interface CleanListing {
  /** the git index file, its stamp and the folder: equal tokens, equal listings */
  token: string;
  /** the folder lists nothing */
  empty: boolean;
  /** whether the index is still the one the token names (a listing taken since then is the token's) */
  current(): boolean;
}

/**
 * The repository as seen at one point. Every analysis reads files only through a
 * Snapshot, which is what makes bundles reproducible and hook checks staged-only.
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
   * Optional: a token naming listUnder(dir) exactly, when that listing is what the git index
   * records (nothing under `dir` changed or deleted on disk, nothing untracked there), so a
   * key computed from the listing can be remembered by the token instead of rebuilt from
   * every entry (DEC-042). undefined when it is not known to be so; never required.
   */
  cleanListing?(dir: string): Promise<CleanListing | undefined>;
  /** Release processes held open (cat-file). Idempotent. */
  close(): void;
}
