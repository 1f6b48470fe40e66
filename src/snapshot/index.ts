// @spec SPEC-SNAPSHOT-001

export type { Snapshot, SnapshotEntry, SnapshotKind } from './types.js';
export { openSnapshot, findRepoRoot, resolveRevision, type OpenSnapshotOptions } from './open.js';
