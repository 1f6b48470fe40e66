import type { ArtifactSet } from '../artifacts/load.js';
import type { CodeIndex } from '../code/code-index.js';
import type { Config } from '../config.js';
import type { Snapshot } from '../snapshot/types.js';
import { judgeArtifacts } from '../staleness/judge.js';
import type { AnchorVerdict } from '../staleness/types.js';
import type { PrStaleness } from './types.js';

export interface PrStaleOptions {
  snapshot: Snapshot;
  config: Config;
  set: ArtifactSet;
  /** a full code index of `snapshot`, shared with the caller when it has one */
  index?: CodeIndex;
  /** only these ids; undefined = every repository artifact */
  ids?: string[];
  cache?: string | false;
}

function describe(v: AnchorVerdict): PrStaleness['anchors'][number] {
  const last = v.commits?.[v.commits.length - 1];
  const mentioned = v.origins.length === 1 && v.origins[0] === 'mentioned';
  return { anchor: v.anchor, state: v.state, ...(v.movedTo ? { movedTo: v.movedTo } : {}), commits: v.commits?.length ?? 0, ...(last ? { last: { id: last.id, author: last.author } } : {}), ...(mentioned ? { mentioned } : {}) };
}

/**
 * Staleness at head, from the staleness engine (src/staleness), reduced to what a PR
 * comment shows: the verdict and the anchors that are not ok.
 */
export async function judgeStaleness(opts: PrStaleOptions): Promise<{ byId: Map<string, PrStaleness>; warnings: string[] }> {
  const byId = new Map<string, PrStaleness>();
  if (opts.ids && !opts.ids.length) return { byId, warnings: [] };
  const report = await judgeArtifacts({ snapshot: opts.snapshot, config: opts.config, set: opts.set, index: opts.index, ids: opts.ids, cache: opts.cache !== false });
  for (const j of report.artifacts) {
    byId.set(j.id, { status: j.status, anchors: j.anchors.filter((v) => v.state !== 'ok').map(describe), ...(j.mentioned ? { mentioned: true } : {}) });
  }
  return { byId, warnings: report.warnings };
}
