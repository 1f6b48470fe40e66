// @spec SPEC-SCALE-001

/**
 * The tree state: one answer to "what is in the tree and has it changed?" (DEC-045). The git
 * index is read once per process and stamp (state.ts); from it come the stamps every memo is
 * keyed by, the tracked listing (listing.ts), listings limited to a few paths from the index's
 * stat data (stat-listing.ts), git's status on private copies of the index (status.ts), the
 * working tree as a snapshot lists it with per-folder tokens (worktree.ts), the identity of a
 * place question's listing (identity.ts), one file on disk against its entry (file-state.ts:
 * the episode's dirty flag) and what the index changes against a commit (staged.ts).
 * Snapshots (src/snapshot) read files through it; nothing above asks git or the index file
 * these questions itself.
 */
export type { TreeEntry } from './types.js';
export type { GitIndexEntry, GitIndexFile } from './index-file.js';
export { gitIndex, indexChecksum, indexFileOf, indexStamp, indexStill, privateIndexCopies, readIndex, treeShortcuts, type IndexRead } from './state.js';
export { parseStaged, trackedListing, TrackedListing } from './listing.js';
export { focusIdentity } from './identity.js';
export { WorktreeTree, type CleanListing, type ListingDelta } from './worktree.js';
export { ABSENT_MODE, parseRawDiff, StagedDelta, stagedChanges, type RawChange } from './staged.js';
export { entryAt, fileState, type FileState } from './file-state.js';
