/** The staleness engine: stamps, drift judgement, lifecycle. */
export { judgeArtifacts, currentFingerprints, originOf, type JudgeOptions } from './judge.js';
export { stampArtifacts, type StampOptions, type StampResult } from './stamp.js';
export { changedAnchors, type ChangedAnchor, type ChangedAnchorsOptions } from './changed.js';
export { activateArtifact, deprecateArtifact, supersedeArtifact, type LifecycleResult } from './lifecycle.js';
export { renderStale, staleExitCode, STALE_RENDERERS, type StaleFailOn, type StaleFormat } from './render.js';
export { anchorsOf, fingerprintAnchors, SymbolReader, type ArtifactAnchor, type AnchorOrigin } from './anchors.js';
export { walkHistory, tracePaths, reusedPaths, renameLimitFrom, isShallowRepository, lastChanged, LogStreamParser, type CommitInfo, type FileChange, type HistoryWalk, type PathTrace } from './history.js';
export { artifactBaselines } from './baseline.js';
export { staleMarks, type StaleMark } from './marks.js';
export type * from './types.js';
