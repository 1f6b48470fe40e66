/**
 * The MCP front end: `createServer` builds the server (connect it to any transport),
 * `runStdio` serves it over stdin/stdout for `git ctx mcp`. The pieces below are exported
 * for other front ends and tests.
 */
export { createServer, type CreateServerOptions } from './server.js';
export { DEFAULT_BUDGET, getContext, type GetContextArgs, type GetContextDeps } from './get-context.js';
export { RepoReader, type RepoReaderOptions, type RepoState } from './repo.js';
export { SessionStore, type SessionRecord } from './sessions.js';
export { BASELINE_FILE, loadBaseline, parseBaselineManifest, type Baseline } from './baseline.js';
export { compareArtifacts, expandRequires, indexEntries, resolveAreas, sortArtifacts, type IndexEntry, type IndexFilter, type MissingRequire, type Selected } from './select.js';
export { TokenMeter } from './tokens.js';
export { clientConfig, writeClientConfig, resolveClient, installInfo, MCP_CLIENTS, type ClientConfig, type McpClient, type InstallInfo, type WriteResult } from './client-config.js';
export type { ToolOutput } from './result.js';
