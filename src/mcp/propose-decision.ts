// @spec SPEC-AUTHORING-001

import { unwrittenNote } from '../authoring/add.js';
import { proposeDecision } from '../authoring/propose.js';
import { guidanceNote } from '../artifacts/sources/record-template.js';
import { replacesForAgent, similarForAgent, type AddDecisionArgs } from './add-decision.js';
import type { ToolContext } from './tools.js';
import type { ToolOutput } from './result.js';

/**
 * Said when the session and commit of an ADR proposal had nowhere to go (no configuration file,
 * so no .contextia/ sidecar): the reviewer would otherwise see a record no one is known to have written.
 */
const UNKEPT = 'not kept: who proposed it (your session, the commit); this repository has no .contextia/config.yaml, so there is no provenance sidecar (`git ctx init` makes one). Say in your pull request or commit message that you proposed it.';

export interface ProposeDecisionArgs extends Omit<AddDecisionArgs, 'force'> {
  session_id?: string;
  force?: boolean;
}

/**
 * propose_decision: write a decision the agent inferred as a proposal (status proposed, with
 * the session and commit) for a person to confirm or reject; same near-duplicate check as
 * add_decision. The answer says nothing of how sure anyone is of it (DEC-054).
 */
export async function proposeDecisionTool(ctx: ToolContext, args: ProposeDecisionArgs): Promise<ToolOutput> {
  const state = await ctx.reader.state();
  const snapshot = await ctx.reader.openSnapshot();
  try {
    const set = { ...state.set, snapshot };
    const session = args.session_id ?? ctx.session;
    const r = await proposeDecision(
      snapshot.root,
      set,
      { decision: args.decision, title: args.title, rationale: args.rationale, constraints: args.constraints, scope: args.scope, paths: args.paths, keywords: args.keywords, session, commit: state.head },
      { force: args.force },
    );
    const { similar, list, subject } = similarForAgent(r);
    // a proposal is not decided yet: the record it would replace is named, superseded once a person confirms it (DEC-130)
    const replaces = replacesForAgent(r, r.id, true);
    const data = { outcome: r.outcome, title: r.title, threshold: r.threshold, similar, ...replaces.data, ...(r.id ? { id: r.id, file: r.file, status: 'proposed', session_id: session ?? null } : {}), ...(r.guidance ? { guidance: r.guidance } : {}), ...(r.unwritten ? { unwritten: r.unwritten } : {}), ...(r.provenance_unkept ? { provenance_kept: false } : {}) };
    if (r.outcome === 'conflict') {
      return {
        text: `Not proposed: ${subject} similar to "${r.title}" (similarity ≥ ${r.threshold}):\n${list}\nRead them (read_artifact). If one already says this, follow it; if yours is different, call propose_decision again with force: true.${replaces.text}`,
        data,
      };
    }
    return {
      text: `Proposed ${r.id} "${r.title}" in ${r.file} (status proposed). It is not committed: it travels with your branch and a person confirms it (git ctx confirm ${r.id}) or rejects it in review.${r.guidance ? `\n${guidanceNote(r.guidance)}` : ''}${r.unwritten ? `\n${unwrittenNote(r.unwritten, true)}` : ''}${r.provenance_unkept ? `\n${UNKEPT}` : ''}${similar.length ? `\nProposed despite similar active decisions (force):\n${list}` : ''}${replaces.text}`,
      data,
    };
  } finally {
    snapshot.close();
  }
}
