import type { ArtifactSet } from '../artifacts/load.js';
import type { Artifact } from '../artifacts/types.js';
import type { CodeIndex } from '../code/code-index.js';
import { judgeArtifacts } from './judge.js';
import { MENTIONED_ONLY } from './vocabulary.js';
import type { ArtifactJudgement } from './types.js';

/** A mark for a bundle entry or a trace entry (same shape as assemble's StaleMark). */
export interface StaleMark {
  state: string;
  summary?: string;
  detail?: Record<string, unknown>;
}

/** One line a model or a reviewer can act on. */
export function summarize(j: ArtifactJudgement): string {
  const bad = j.anchors.filter((v) => v.state !== 'ok' && v.state !== 'unresolved');
  const commits = new Set(bad.flatMap((v) => (v.commits ?? []).map((c) => c.id)));
  const what = bad.slice(0, 3).map((v) => (v.state === 'moved' ? `${v.anchor} moved to ${v.movedTo}` : `${v.anchor} ${v.state}`));
  const life = j.lifecycle.supersededBy.length ? `superseded by ${j.lifecycle.supersededBy.join(', ')}` : '';
  const drift = what.length ? `${what.join('; ')}${bad.length > 3 ? `; +${bad.length - 3} more` : ''}${commits.size ? ` (${commits.size} commit${commits.size > 1 ? 's' : ''} since the stamp)` : ''}` : '';
  return [life, drift && j.mentioned ? `${MENTIONED_ONLY}: ${drift}` : drift].filter(Boolean).join('; ');
}

/**
 * Staleness marks for some artifacts, for `AssembleOptions.staleness` and trace output.
 * Only stamped artifacts are judged, and only drift (stale, moved) or supersession gets a
 * mark: an unmarked entry means "nothing known against it", which keeps bundles of
 * unstamped repositories unchanged.
 */
export async function staleMarks(artifacts: Artifact[], set: ArtifactSet, opts: { index?: CodeIndex } = {}): Promise<Map<string, StaleMark>> {
  const out = new Map<string, StaleMark>();
  const ids = artifacts.filter((a) => a.origin === 'repo' && a.stamp?.commit).map((a) => a.id);
  if (!ids.length) return out;
  const r = await judgeArtifacts({ snapshot: set.snapshot, config: set.config, set, ids, index: opts.index });
  for (const j of r.artifacts) {
    if (j.status !== 'stale' && j.status !== 'moved' && !j.lifecycle.supersededBy.length) continue;
    out.set(j.id, { state: j.status, summary: summarize(j), detail: { ...(j.mentioned ? { mentioned: true } : {}), method: j.method, base: j.base, anchors: j.anchors.filter((v) => v.state !== 'ok').map((v) => ({ anchor: v.anchor, state: v.state, movedTo: v.movedTo, commits: v.commits?.map((c) => c.id) })) } });
  }
  return out;
}
