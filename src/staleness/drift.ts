import { NarrowedSnapshot } from '../snapshot/narrow.js';
import type { ArtifactSet } from '../artifacts/load.js';
import type { Artifact } from '../artifacts/types.js';
import { findSymbol, parseAnchor } from '../code/anchors.js';
import { buildCodeIndex, type CodeIndex } from '../code/code-index.js';
import type { Config } from '../config.js';
import type { Snapshot } from '../snapshot/types.js';
import { changedAnchors, type ChangedAnchor } from './changed.js';

/** One stamped anchor whose code this commit changes while its artifact's stamp stays behind. */
export interface DriftFinding {
  /** id of the artifact whose stamp no longer matches */
  artifact: string;
  /** the artifact's file (repository path) */
  file: string;
  /** the anchor as written in the stamp */
  anchor: string;
  /** code file the anchor points at (for a glob: its pattern) */
  path?: string;
  /** symbol name, for symbol anchors */
  symbol?: string;
  /** 1-based line of the anchored code in the staged snapshot, when it is still there */
  line?: number;
  /**
   * changed: the anchored code's fingerprint differs from the stamp;
   * moved: the same code now lives elsewhere (`movedTo`), e.g. a renamed method;
   * removed: the anchor no longer resolves in the staged snapshot
   */
  change: 'changed' | 'moved' | 'removed';
  /** `path#Symbol` where a moved symbol now is */
  movedTo?: string;
  /** the command that records the new fingerprints once the artifact has been reviewed */
  command: string;
}

/** Options of `detectDrift`. */
export interface DetectDriftOptions {
  /** the new side: the staged snapshot for the hook (a PR's head commit for the PR bot) */
  staged: Snapshot;
  /**
   * the old side: HEAD for the hook (a PR's merge base); undefined for the first commit,
   * where there is nothing to differ from and no earlier commit a stamp could name
   */
  head: Snapshot | undefined;
  config: Config;
  /** artifacts as loaded from the staged snapshot: a stamp re-written in this commit counts */
  set: ArtifactSet;
  /** paths this commit adds, modifies or deletes (both sides of a rename) */
  changedPaths: string[];
  /** code index cache location, as in CodeIndexOptions.cache (tests pass false) */
  cache?: string | false;
  /**
   * a code index of `staged` built already (the check's); without one, an index of only the
   * changed files is built
   */
  index?: CodeIndex;
}


function isActive(a: Artifact, config: Config): boolean {
  // a superseded or deprecated artifact no longer governs its code: drift there is noise
  return !(a.status && config.types[a.type]?.inactive.includes(a.status));
}

/**
 * Drift introduced by one commit (or one PR), from the staleness engine's `changedAnchors`
 * (staged snapshot vs HEAD): a stamped anchor of an active artifact whose fingerprint this commit
 * changes, while the staged artifact's stamp does not record the new fingerprint. Anchors
 * the stamp does not cover (unstamped) and drift already present at HEAD are left to
 * `git ctx stale`. Returns data; never prints.
 */
export async function detectDrift(opts: DetectDriftOptions): Promise<DriftFinding[]> {
  const base = opts.head?.commit;
  if (!base || !opts.changedPaths.length) return [];
  const stamped = opts.set.artifacts.filter((a) => a.origin === 'repo' && a.stamp?.fingerprints && isActive(a, opts.config));
  if (!stamped.length) return [];
  const index = opts.index ?? (await buildCodeIndex(new NarrowedSnapshot(opts.staged, new Set(opts.changedPaths)), opts.config, { cache: opts.cache }));
  const changes = await changedAnchors({ snapshot: opts.staged, config: opts.config, set: opts.set, changedFiles: opts.changedPaths, base, baseSnapshot: opts.head, index });

  const byId = new Map(stamped.map((a) => [a.id, a]));
  const out: DriftFinding[] = [];
  for (const c of changes) {
    const artifact = byId.get(c.id);
    const recorded = artifact?.stamp?.fingerprints?.[c.anchor];
    if (!artifact || recorded === undefined || c.restamped) continue;
    out.push(await describe(c, String(recorded), index, opts.changedPaths));
  }
  await index.flush();
  return out;
}

async function describe(c: ChangedAnchor, recorded: string, index: CodeIndex, changedPaths: string[]): Promise<DriftFinding> {
  const spec = parseAnchor(c.anchor);
  const base = { artifact: c.id, file: c.file, anchor: c.anchor, command: `git ctx ack ${c.id}` };
  const where =
    spec.kind === 'symbol'
      ? { path: spec.path, symbol: spec.symbol }
      : spec.kind === 'glob'
        ? { path: spec.pattern }
        : spec.kind === 'endpoint'
          ? {}
          : { path: spec.path };
  if (c.after !== undefined) {
    const line = spec.kind === 'symbol' ? findSymbol(await index.symbolsOf(spec.path), spec.symbol)?.line : spec.kind === 'lines' ? spec.start : undefined;
    return { ...base, change: 'changed', ...where, ...(line !== undefined ? { line } : {}) };
  }
  // gone from its place: the same text elsewhere in the commit is a move, not an edit (only
  // the commit's files can hold it: anything else is unchanged since HEAD)
  if (spec.kind === 'symbol') {
    const want = new Set([recorded, c.before].filter((f): f is string => !!f));
    for (const { path, symbol } of await index.allSymbols(changedPaths)) {
      if (want.has(symbol.fingerprint)) return { ...base, change: 'moved', ...where, movedTo: `${path}#${symbol.name}`, line: symbol.line };
    }
  }
  return { ...base, change: 'removed', ...where };
}
