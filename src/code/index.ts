/**
 * Code anchors: annotations in comments resolved to symbols, fingerprints of anchored
 * code, moved-symbol detection, trace and the code graph.
 */
export type {
  Annotation,
  CodeLanguage,
  CodeSymbol,
  FileRecord,
  IndexedFile,
  IndexProblem,
  RouteRegistration,
  SymbolKind,
} from './types.js';
export { CodeIndex, buildCodeIndex, innermostSymbol, type CodeIndexOptions, type CodeIndexStats } from './code-index.js';
export { CODE_CACHE_VERSION, resolveGitDir } from '../cache/code-index.js';
export {
  fingerprintAnchor,
  findMovedSymbol,
  findEndpoint,
  findSymbol,
  parseAnchor,
  matchGlob,
  isGlob,
  type AnchorSpec,
  type AnchorFingerprint,
  type AnchorLocation,
  type MovedSymbol,
  type RouteMatch,
} from './anchors.js';
export { traceLocation, parseTraceTarget, pathsEntryCovers, type TraceTarget, type TraceResult, type TraceEntry, type TraceMatch, type TraceLevel, type TraceOptions } from '../retrieve/trace.js';
export { languageOf } from './languages.js';
export { parseIds, prefilterRegex, tagRegex } from './tags.js';
export { extractTypeScript, loadTypeScript } from './ts-extract.js';
export { extractByComments } from './extract.js';
export { codeGraph, type CodeGraph, type CodeGraphOptions, type GraphNode, type GraphEdge } from './graph/walk.js';
