/**
 * Code anchors: annotations in comments resolved to symbols, fingerprints of anchored
 * code, moved-symbol detection and the code graph (trace is src/retrieve/trace.ts).
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
export { CODE_CACHE_VERSION, resolveGitDir } from './code-cache.js';
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
export { languageOf } from './languages.js';
export { parseIds, prefilterRegex, tagRegex } from './tags.js';
export { extractTypeScript, loadTypeScript } from './ts-extract.js';
export { extractByComments } from './extract.js';
export { codeGraph, type CodeGraph, type CodeGraphOptions, type GraphNode, type GraphEdge } from './graph/walk.js';
