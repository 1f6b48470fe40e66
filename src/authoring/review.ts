// @spec SPEC-AUTHORING-001

import type { ArtifactSet } from '../artifacts/load.js';
import { requireArtifact } from '../artifacts/lookup.js';
import type { Artifact } from '../artifacts/types.js';
import type { Config } from '../config.js';
import { CtxError } from '../errors.js';
import { ageDays, CONFIDENCE, gitWhoWhere, provenanceInSidecar, provenanceOf, updateSidecarProvenance, type Provenance } from '../artifacts/sources/provenance.js';
import { activeStatusFor } from '../staleness/lifecycle.js';
import { writeRecordStatus } from '../artifacts/record-status.js';

/** A proposed record with where it came from and how long it has waited. */
export { ageDays };

export interface Proposal {
  id: string;
  type: string;
  title: string;
  status: string;
  file: string;
  provenance: Provenance;
  /** whole days since it was proposed (undefined: no date known) */
  age_days?: number;
}

/** Whether a record waits for a decision: its status is proposed (or draft) as mapped. */
export function isProposed(a: Artifact): boolean {
  return a.origin === 'repo' && (a.status === 'proposed' || a.status === 'draft');
}

/** Proposed records of the repository, oldest first, with provenance and age. */
export function listProposals(set: ArtifactSet, now: Date = new Date()): Proposal[] {
  const out: Proposal[] = [];
  for (const a of set.artifacts) {
    if (!isProposed(a)) continue;
    const provenance = provenanceOf(a);
    // an ADR's `source: manual` is the reader's default, not a record of who wrote it: a proposal
    // an agent wrote before `git ctx init` (no sidecar line) was listed as a person's
    if (a.format === 'adr' && !('source' in (a.data ?? {}))) delete provenance.source;
    const age = ageDays(provenance.date, now);
    out.push({ id: a.id, type: a.type, title: a.title, status: a.status!, file: a.file, provenance, ...(age !== undefined ? { age_days: age } : {}) });
  }
  return out.sort((x, y) => (y.age_days ?? -1) - (x.age_days ?? -1) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}

/** The status `reject` writes: rejected, else the type's inactive status that is neither superseded nor deprecated. */
export function rejectedStatusFor(config: Config, type: string): string {
  const t = config.types[type];
  const vocab = t?.statuses ?? [];
  if (!vocab.length || vocab.includes('rejected')) return 'rejected';
  const pick = ['declined', 'withdrawn', 'abandoned', 'cancelled'].find((s) => vocab.includes(s)) ?? t!.inactive.find((s) => s !== 'superseded' && s !== 'deprecated');
  if (pick) return pick;
  throw new CtxError('CONFIG', `type ${type} has no status for a rejected record (configured: ${vocab.join(', ')})`, { hint: `add rejected to statuses.${type} in config.yaml` });
}

export interface ReviewResult {
  id: string;
  file: string;
  status: string;
  /** the record file changed (false: it already had that status) */
  changed: boolean;
  /** the provenance sidecar written too (ADR records) */
  sidecar?: string;
  /** what the record was before: its status, and whether its owner had confirmed it (a reject after a confirm says so) */
  previous: { status: string | null; confirmed: boolean };
}

/**
 * Confirm a proposal: the type's accepted status and `confidence: owner_confirmed`, written
 * surgically (the frontmatter keys, or the ADR status line in place and the sidecar); every
 * other byte stays. An owner is filled in from git when the record has none.
 */
export async function confirmRecord(root: string, set: ArtifactSet, id: string): Promise<ReviewResult> {
  const a = reviewable(set, id);
  const status = activeStatusFor(set.config, a.type);
  const owner = provenanceOf(a).owner ? undefined : (await gitWhoWhere(root)).owner;
  const prov: Provenance = { confidence: CONFIDENCE.confirmed, ...(owner ? { owner } : {}) };
  return review(root, set, a, status, prov);
}

/** Reject a proposal: status rejected (or the type's equivalent), surgically. The record stays, as history. */
export async function rejectRecord(root: string, set: ArtifactSet, id: string): Promise<ReviewResult> {
  const a = reviewable(set, id);
  return review(root, set, a, rejectedStatusFor(set.config, a.type));
}

function reviewable(set: ArtifactSet, id: string): Artifact {
  const a = requireArtifact(set, id);
  if (a.origin !== 'repo') throw new CtxError('USAGE', `${a.id} is a global record; review it in the global store`);
  return a;
}

async function review(root: string, set: ArtifactSet, a: Artifact, status: string, prov?: Provenance): Promise<ReviewResult> {
  // @decision DEC-143
  const previous = { status: a.status ?? null, confirmed: provenanceOf(a).confidence === CONFIDENCE.confirmed };
  if (provenanceInSidecar(a)) {
    const changed = a.status === status ? false : await writeRecordStatus(root, a, status, { set });
    const side = prov ? await updateSidecarProvenance(root, set.config.dir, new Map([[a.id, prov]])) : undefined;
    return { id: a.id, file: a.file, status, changed, ...(side?.changed ? { sidecar: side.file } : {}), previous };
  }
  const extra = Object.entries(prov ?? {}).map(([k, v]) => ({ op: 'set' as const, path: k, value: v }));
  const changed = await writeRecordStatus(root, a, status, { extra, set });
  return { id: a.id, file: a.file, status, changed, previous };
}
