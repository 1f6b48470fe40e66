// @spec SPEC-RETRIEVE-001

import type { ArtifactSet } from '../artifacts/load.js';
import type { CodeIndex } from '../code/code-index.js';
import { traceLocation, type TraceResult, type TraceTarget } from './trace.js';
import type { Snapshot } from '../snapshot/types.js';
import { retrieveForPlace } from './engine.js';
import type { Why } from './types.js';

/** A record found by weaker evidence when nothing is declared at a place. */
export interface TraceFallback {
  id: string;
  type: string;
  title: string;
  status?: string;
  file: string;
  /** "mentioned in" when a record's text names the place, else "nearest by keywords" */
  evidence: 'mentioned in' | 'nearest by keywords';
  why: Why[];
}

/**
 * `trace` as a view of retrieval: the declared hits as they are (slot 1 at the place), and
 * only when none is known, the fused band as a clearly weaker fallback.
 */
export async function traceWithFallback(opts: { snapshot: Snapshot; set: ArtifactSet; index: CodeIndex; target: TraceTarget; fallback?: number }): Promise<TraceResult & { fallback?: TraceFallback[] }> {
  const trace = await traceLocation(opts);
  if (trace.entries.some((e) => e.known) || opts.fallback === 0) return trace;
  const r = await retrieveForPlace({ snapshot: opts.snapshot, set: opts.set, index: opts.index, target: opts.target, neighbours: false, caps: { declared: 0, fused: opts.fallback ?? 5, links: 0 } });
  const fallback: TraceFallback[] = r.results
    .filter((x) => x.slot === 'fused')
    .map((x) => ({
      id: x.id,
      type: x.type,
      title: x.title,
      ...(x.status != null ? { status: x.status } : {}),
      file: x.file,
      evidence: x.why.some((w) => w.kind === 'mention') ? 'mentioned in' : 'nearest by keywords',
      why: x.why,
    }));
  return { ...trace, fallback };
}
