// @spec SPEC-AUTHORING-001

import { guidanceNote } from '../artifacts/sources/record-template.js';
import { addDecision, unwrittenNote, type AddDecisionInput, type ConflictCheck } from '../authoring/add.js';
import { CONFIDENCE } from '../artifacts/sources/provenance.js';
import type { ToolContext } from './tools.js';
import type { ToolOutput } from './result.js';

export interface AddDecisionArgs {
  decision: string;
  title?: string;
  rationale?: string;
  constraints?: string;
  scope?: string;
  paths?: string[];
  keywords?: string[];
  force?: boolean;
}

/**
 * The similar active decisions for an agent: data, one line each (a record well under the first
 * is said to be weaker, DEC-130), and how many as a sentence's subject.
 */
export function similarForAgent(r: ConflictCheck): { similar: { id: string; title: string; similarity: number; origin?: string; weaker?: true }[]; list: string; subject: string } {
  const similar = r.similar.map((s) => ({ id: s.id, title: s.title, similarity: s.similarity, ...(s.origin === 'global' ? { origin: s.origin } : {}), ...(s.weaker ? { weaker: true as const } : {}) }));
  const list = similar.map((s) => `- ${s.id} (similarity ${s.similarity.toFixed(2)}${s.weaker ? ', weaker' : ''}): ${s.title}`).join('\n');
  return { similar, list, subject: similar.length === 1 ? 'an active decision is' : `${similar.length} active decisions are` };
}

/** The records a draft looks like it replaces, for an agent: data and one line each (DEC-130). */
export function replacesForAgent(r: ConflictCheck, added?: string, proposed = false): { data: { replaces?: { id: string; title: string; reason: string }[] }; text: string } {
  const hints = r.replaces ?? [];
  if (!hints.length) return { data: {}, text: '' };
  const data = { replaces: hints.map((h) => ({ id: h.id, title: h.title, reason: h.reason })) };
  const how = (id: string) => (added ? `git ctx supersede ${id} --by ${added}` : `git ctx add … --supersedes ${id}`);
  return { data, text: hints.map((h) => `\nIt looks like it replaces ${h.id} "${h.title}": ${h.reason}. If it does, ${proposed ? 'once a person confirms yours' : 'record it'}: ${how(h.id)}.`).join('') };
}

/**
 * add_decision: write a decision unless active ones are similar at or above the conflict
 * threshold; then nothing is written and the similar records are returned (id, title,
 * similarity) so the agent can update or supersede one, or call again with force.
 */
export async function addDecisionTool(ctx: ToolContext, args: AddDecisionArgs): Promise<ToolOutput> {
  const state = await ctx.reader.state();
  const snapshot = await ctx.reader.openSnapshot();
  try {
    const set = { ...state.set, snapshot };
    const input: AddDecisionInput = { decision: args.decision, title: args.title, rationale: args.rationale, constraints: args.constraints, scope: args.scope, paths: args.paths, keywords: args.keywords };
    // an agent wrote it: its provenance says so, and it waits for a person's confirmation (DEC-054)
    input.provenance = { source: 'ai_chat', ...(ctx.session ? { session_id: ctx.session } : {}), ...(state.head ? { commit: state.head } : {}), confidence: CONFIDENCE.inferred };
    const r = await addDecision(snapshot.root, set, input, { force: args.force });
    const { similar, list, subject } = similarForAgent(r);
    const replaces = replacesForAgent(r, r.id);
    const data = { outcome: r.outcome, title: r.title, threshold: r.threshold, ...(r.embedder ? { embedder: r.embedder } : {}), similar, ...replaces.data, ...(r.id ? { id: r.id, file: r.file } : {}), ...(r.guidance ? { guidance: r.guidance } : {}), ...(r.unwritten ? { unwritten: r.unwritten } : {}) };
    if (r.outcome === 'conflict') {
      return {
        text: `Not added: ${subject} similar to "${r.title}" (similarity ≥ ${r.threshold}):\n${list}\nRead them (read_artifact). If one already says this, use it; if yours replaces one, add it and supersede the old one (git ctx supersede); if they are different decisions, call add_decision again with force: true.${replaces.text}`,
        data,
      };
    }
    return { text: `Added ${r.id} "${r.title}" in ${r.file}.${r.guidance ? `\n${guidanceNote(r.guidance)}` : ''}${r.unwritten ? `\n${unwrittenNote(r.unwritten, true)}` : ''}${similar.length ? `\nAdded despite similar active decisions (force):\n${list}` : ''}${replaces.text}`, data };
  } finally {
    snapshot.close();
  }
}
