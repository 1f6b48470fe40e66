// @spec SPEC-AUTHORING-001

import type { ArtifactSet } from '../artifacts/load.js';
import { CONFIDENCE, gitWhoWhere, type Provenance } from '../artifacts/sources/provenance.js';
import { addDecision, type AddDecisionInput, type AddDecisionOptions, type AddDecisionResult } from './add.js';

/** Who proposes: the agent session and the commit its work stood at. */
export interface ProposeInput extends Omit<AddDecisionInput, 'status' | 'provenance' | 'in'> {
  /** the MCP session (or a script's) that produced the proposal */
  session?: string;
  /** HEAD at the time (default: read from the work tree) */
  commit?: string;
  /** the person the proposal is filed for (default: the git user) */
  owner?: string;
  /** how it was captured (default ai_chat) */
  source?: string;
  /** an ADR folder to write into (default: the team's decision source, see decisionTarget) */
  in?: string;
}

/** The type's status for a record not yet decided (proposed, else draft, else the first). */
export function proposedStatus(set: ArtifactSet): string | undefined {
  const st = set.config.types.decision?.statuses ?? [];
  return ['proposed', 'draft'].find((s) => st.includes(s)) ?? (st.length ? st[0] : 'proposed');
}

/**
 * Propose a decision (DEC-054): written with the proposed status, `source: ai_chat`, the
 * internal `confidence: ai_inferred`, the session, the commit and the date, into the team's
 * decision source in its own style, after the same near-duplicate check as add (on a match
 * nothing is written and the similar records come back). Nothing is committed: the proposal
 * travels in the agent's branch and is reviewed with the code, then confirmed or rejected.
 */
export async function proposeDecision(root: string, set: ArtifactSet, input: ProposeInput, opts: AddDecisionOptions = {}): Promise<AddDecisionResult> {
  const now = opts.now ?? new Date();
  return addDecision(root, set, await proposalInput(root, set, input, now), { ...opts, now });
}

/** The add input of a proposal: proposed status, provenance, and the team's decision source. */
export async function proposalInput(root: string, set: ArtifactSet, input: ProposeInput, now: Date = new Date()): Promise<AddDecisionInput> {
  const git = input.commit && input.owner ? {} : await gitWhoWhere(root);
  const provenance: Provenance = {
    owner: input.owner ?? git.owner,
    source: input.source ?? 'ai_chat',
    session_id: input.session,
    commit: input.commit ?? git.commit,
    confidence: CONFIDENCE.inferred,
    date: now.toISOString().slice(0, 10),
  };
  const { session: _s, commit: _c, owner: _o, source: _src, ...draft } = input;
  // where: as asked, else where the team keeps its decisions (addDecision asks decisionTarget)
  return { ...draft, status: proposedStatus(set), provenance: dropEmpty(provenance) };
}

/** Provenance a person adds by hand (add, new): owner, source manual, and the commit. */
export async function manualProvenance(root: string): Promise<Provenance> {
  const git = await gitWhoWhere(root);
  return dropEmpty({ owner: git.owner, source: 'manual', commit: git.commit });
}

const dropEmpty = (p: Provenance): Provenance => Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined && v !== '')) as Provenance;
