// @spec SPEC-AUTHORING-001

import type { ArtifactSet } from '../artifacts/load.js';
import { provenanceOf } from '../artifacts/sources/provenance.js';
import { isProposed } from './review.js';

/** A record proposed in a pull request, for the reviewer to confirm or reject. */
export interface PrProposal {
  id: string;
  title: string;
  file: string;
  /** ai_chat, manual, … (undefined: not recorded) */
  source?: string;
  session_id?: string;
  owner?: string;
  commit?: string;
}

/**
 * Records the pull request proposes: proposed at head and absent, or not proposed, at the
 * base (DEC-054). The reviewer confirms them in the branch (git ctx confirm) so the decision
 * merges with the code that motivated it.
 */
export function proposedInPullRequest(headSet: ArtifactSet, baseSet: ArtifactSet): PrProposal[] {
  const out: PrProposal[] = [];
  for (const a of headSet.artifacts) {
    if (!isProposed(a)) continue;
    const before = baseSet.byId.get(a.id);
    if (before && isProposed(before)) continue;
    const p = provenanceOf(a);
    out.push({ id: a.id, title: a.title, file: a.file, ...(p.source ? { source: p.source } : {}), ...(p.session_id ? { session_id: p.session_id } : {}), ...(p.owner ? { owner: p.owner } : {}), ...(p.commit ? { commit: p.commit } : {}) });
  }
  return out.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}
