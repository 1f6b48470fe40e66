// @spec SPEC-SCALE-001

/** One file of a tree: the working tree, the git index or a commit. */
export interface TreeEntry {
  /** posix path relative to the repository root */
  path: string;
  /** git blob id; for the work tree it is computed from the content on demand */
  blob?: string;
  /** git file mode, e.g. 100644, 100755, 120000 (symlink) */
  mode: string;
}
