import { picomatch } from '../util/picomatch.js';
import type { ArtifactSet } from '../artifacts/load.js';
import type { Artifact } from '../artifacts/types.js';
import { fingerprintAnchor, parseAnchor, type AnchorSpec } from '../code/anchors.js';
import { buildCodeIndex, type CodeIndex } from '../code/code-index.js';
import type { Config } from '../config.js';
import { openSnapshot } from '../snapshot/open.js';
import type { Snapshot } from '../snapshot/types.js';
import { anchorsOf, fingerprintAt, SymbolReader } from './anchors.js';

export interface ChangedAnchorsOptions {
  /** the new side: usually the index (pre-commit) or a PR head commit */
  snapshot: Snapshot;
  config: Config;
  set: ArtifactSet;
  /** repository paths changed between `base` and `snapshot` */
  changedFiles: string[];
  /** the old side (default HEAD) */
  base?: string;
  /** the old side already open (the hook's HEAD): spares a process; `base` is then ignored */
  baseSnapshot?: Snapshot;
  index?: CodeIndex;
}

/** An anchor whose fingerprint differs between the base and the snapshot. */
export interface ChangedAnchor {
  id: string;
  file: string;
  anchor: string;
  kind: AnchorSpec['kind'];
  /** fingerprint at the base, and in the snapshot (undefined = absent there) */
  before?: string;
  after?: string;
  state: 'changed' | 'removed' | 'added';
  /**
   * the artifact in the snapshot already carries `after` in its stamp (the change is
   * re-stamped in the same commit), so the hook need not warn
   */
  restamped: boolean;
}

/**
 * For a set of changed files, which artifacts' anchor fingerprints change between `base`
 * (HEAD) and `snapshot`. Formatting- and comment-only edits do not count (symbol
 * fingerprints fold them). Meant for the pre-commit hook (index vs HEAD) and the PR bot
 * (head vs base): only anchors touching the changed files are fingerprinted.
 */
export async function changedAnchors(opts: ChangedAnchorsOptions): Promise<ChangedAnchor[]> {
  const { snapshot, config, set } = opts;
  const changed = new Set(opts.changedFiles);
  if (!changed.size) return [];
  const index = opts.index ?? (await buildCodeIndex(snapshot, config));
  const baseSnap = opts.baseSnapshot ?? (await openSnapshot({ cwd: snapshot.root, kind: 'commit', rev: opts.base ?? 'HEAD' }));
  const reader = await SymbolReader.open(snapshot.root, config);
  try {
    // which anchors this change touches first, so that their files at the base are looked up at once
    const touched: { a: Artifact; key: string; spec: AnchorSpec }[] = [];
    for (const a of set.byId.values()) {
      if (a.origin !== 'repo') continue;
      const keys = new Map<string, AnchorSpec>(anchorsOf(a, index).map((x) => [x.key, x.spec]));
      // a record read in place stamps the code it mentions: weaker evidence, judged by staleness, not flagged as changed without a re-stamp
      if (a.format !== 'adr') for (const k of Object.keys(a.stamp?.fingerprints ?? {})) if (!keys.has(k)) keys.set(k, parseAnchor(k));
      for (const [key, spec] of keys) if (await touches(spec, changed, index, snapshot)) touched.push({ a, key, spec });
    }
    baseSnap.prefetch?.(touched.flatMap(({ spec }) => (spec.kind === 'symbol' || spec.kind === 'file' || spec.kind === 'lines' ? [spec.path] : [])));
    const out: ChangedAnchor[] = [];
    for (const { a, key, spec } of touched) {
      const before = spec.kind === 'endpoint' ? undefined : await fingerprintAt(spec, baseSnap, reader, index);
      const now = await fingerprintAnchor(spec, snapshot, index);
      const after = now.status === 'ok' ? now.fingerprint : undefined;
      if (before === after) continue;
      out.push({
        id: a.id,
        file: a.file,
        anchor: key,
        kind: spec.kind,
        before,
        after,
        state: before === undefined ? 'added' : after === undefined ? 'removed' : 'changed',
        restamped: after !== undefined && a.stamp?.fingerprints?.[key] === after,
      });
    }
    await reader.save();
    return out.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : x.anchor < y.anchor ? -1 : 1));
  } finally {
    if (!opts.baseSnapshot) baseSnap.close();
  }
}

async function touches(spec: AnchorSpec, changed: Set<string>, index: CodeIndex, snapshot: Snapshot): Promise<boolean> {
  switch (spec.kind) {
    case 'symbol':
    case 'lines':
      return changed.has(spec.path);
    case 'file':
      return changed.has(spec.path) || [...changed].some((c) => c.startsWith(spec.path + '/'));
    case 'glob': {
      const m = picomatch(spec.pattern, { dot: true });
      return [...changed].some((c) => m(c));
    }
    case 'endpoint': {
      const fp = await fingerprintAnchor(spec, snapshot, index);
      return !!fp.location && changed.has(fp.location.path);
    }
  }
}
