/**
 * git-ctx as a library. The CLI, the pre-commit hook, the GitHub Action and the MCP server
 * are thin front ends over these functions: every one takes an explicit repository (a
 * Snapshot or a cwd), returns data, and never prints or exits.
 *
 * @example
 *   import { openSnapshot, loadConfig, loadArtifactSet, runCheck, assembleBundle, renderBundle } from 'git-ctx';
 *   const snapshot = await openSnapshot({ cwd: '/path/to/repo', rev: 'HEAD' });
 *   const result = await runCheck({ snapshot });
 *   const bundle = await assembleBundle({ cwd: '/path/to/repo', id: 'TASK-042', budget: 8000 });
 *   console.log(renderBundle(bundle, 'context'));
 */

/** Errors: every known failure is a CtxError with a stable code; front ends map them to exit 2. */
export { CtxError, isCtxError, type ErrorCode } from './errors.js';
/** The package version. */
export { VERSION } from './version.js';

/** Snapshots: the repository as the working tree, the index, or a commit. */
export { openSnapshot, findRepoRoot, resolveRevision, type OpenSnapshotOptions, type Snapshot, type SnapshotEntry, type SnapshotKind } from './snapshot/index.js';

/** Configuration (.contextia/config.yaml) with its documented defaults. */
export { defaultConfig, loadConfig, mergeConfig, typeForId, type Config, type Severity, type TypeConfig } from './config.js';

/** Artifacts: parsing, loading, the link graph, depth views and surgical writes. */
export { parseArtifact, splitFrontmatter } from './artifacts/parse.js';
export { loadArtifactSet, globalStoreDir, type ArtifactSet, type LoadOptions } from './artifacts/load.js';
export { buildGraph, reverseEdges, findCycles, type Edge, type EdgeKind, type LinkGraph } from './artifacts/graph.js';
export { bodyAt, firstSection } from './artifacts/depth.js';
export { metaText } from './artifacts/meta-text.js';
export { requireArtifact } from './artifacts/lookup.js';
export { editFrontmatterText, updateFrontmatter } from './artifacts/write.js';
export type { Artifact, Depth, LoadProblem, RelationKind, Scope, Stamp } from './artifacts/types.js';

/** The coherence check: rules, baseline, renderers (human, json, sarif). */
export { runCheck, readBaseline, baselineJson, ruleCatalog, findingKey, type CheckOptions, type Baseline } from './check/run.js';
export { renderCheck, checkExitCode, type CheckFormat } from './check/render.js';
export type { CheckResult, Finding, FindingSeverity, Rule } from './check/types.js';

/** Context bundles: `git ctx TASK-042` as a function. */
export { assembleBundle, renderBundle, replayBundles, verifyBundle, recordBundle, listManifests, type AssembleOptions } from './assemble/index.js';
export type { Bundle, BundleEntry } from './assemble/types.js';
/** What governs a path through `paths:` globs. */
export { traceByPaths } from './retrieve/trace.js';

/** Code anchors: annotations, symbols, fingerprints, trace and the code graph. */
export { buildCodeIndex, CodeIndex, codeGraph } from './code/index.js';
export { traceLocation, parseTraceTarget } from './retrieve/trace.js';
/** The code graph: imports, importers, callers and callees across TS/JS, Python, Go, Java and Ruby. */
export { openCodeNeighbours, type CodeGraphIndex, type CodeGraphOptions as CodeNeighboursOptions, type CodeGraphProblem, type CodeGraphStats } from './code/graph/index.js';
export type { CodeNeighbours, CallSite } from './code/neighbours.js';
/** Files no record can govern (lockfiles, generated, vendored, binaries, snapshots, `ungovernable.paths`): split them off a change before scoring. */
export { classifyGovernable, type GovernableSplit, type UngovernableFile, type UngovernableReason } from './code/ungovernable.js';

/** Staleness: judge, stamp, lifecycle. */
export { judgeArtifacts, stampArtifacts, changedAnchors, deprecateArtifact, supersedeArtifact, staleMarks } from './staleness/index.js';

/** Impact: what a change to a record or to code touches, each result with its path of edges; staleness markers. */
export { analyzeImpact, resolveImpactTarget, openEdgeCache, openImpactBackend, refreshEdges, type ImpactOptions, type ImpactResult, type ImpactHit, type ImpactStep, type EdgeStore } from './impact/index.js';
export { appendMarkers, markersOf, latestMarkers, readMarkers, type StaleMarker } from './staleness/markers.js';

/** The pull-request analysis behind the GitHub Action. */
export { analyzePullRequest } from './pr/index.js';

/** The MCP server factory (stdio entry: `git ctx mcp`). */
export { createServer, type CreateServerOptions } from './mcp/index.js';

/** Agents' rule files: what `git ctx rules export` would write, and norms from hand-written rules. */
export { planRuleFiles, planRulesImport, RULE_FORMATS, type RuleFormat, type RuleFile, type RulesPlan, type RulesImportPlan } from './rules/index.js';

/** The decision map: graph data and the self-contained HTML page. */
export { buildMapData, renderMapHtml, type MapData } from './map/index.js';

/** Sources: decision records read in place (ADR readers, status mapping, mentions, init detection, import/export). */
export { parseAdr, isAdrFile, adrIdFor } from './artifacts/sources/adr.js';
export { mapStatus, normalizeStatus, DEFAULT_STATUS_MAP } from './artifacts/sources/status.js';
export { mentionedIn, type MentionHit } from './artifacts/sources/mentions.js';
export { detectRecordFolders, detectAgentRuleFiles, type DetectedSource } from './artifacts/sources/detect.js';
export { exportJson, exportCsv, exportAdr, planImport } from './artifacts/sources/convert.js';
export { createRecord } from './artifacts/sources/new-record.js';
export type { SourceConfig } from './config.js';

/**
 * Retrieval: `git ctx for <place>` and `git ctx search <words…>` in process. Load the snapshot
 * and artifact set once, then ask as often as needed; pass `semantic: semanticLaneFor(root, set)`
 * for what the CLI does (the semantic lane as configured), or leave it out for lexical lanes only.
 *
 * @example
 *   const snapshot = await openSnapshot({ cwd });
 *   const set = await loadArtifactSet(snapshot, await loadConfig(snapshot));
 *   const semantic = semanticLaneFor(snapshot.root, set);
 *   const forPlace = await retrieveForPlace({ snapshot, set, semantic, target: parseTraceTarget('src/a.ts', snapshot.root, cwd), place: 'src/a.ts' });
 *   const forWords = await retrieveForText({ snapshot, set, semantic, text: 'how do we rate limit webhooks' });
 *   console.log(renderRetrieval('json', forWords));
 */
export { retrieveForPlace, retrieveForText } from './retrieve/engine.js';
export { renderRetrieval, type RetrievalFormat } from './retrieve/render.js';
export { DEFAULT_CAPS, LANE_NAMES, type LaneName, type LaneReport, type RetrievalCaps, type RetrievalFilters, type RetrievalResult, type RetrievedRecord, type RetrieveOptions, type ResultSlot, type SemanticLane, type Why } from './retrieve/types.js';
/** The semantic lane (slot 5) as configured for a repository, or undefined when it is off. */
export { semanticLaneFor, semanticSettings, EmbeddingLane, type SemanticSettings } from './semantic/lane.js';
export type { Embedder } from './semantic/embedder.js';
