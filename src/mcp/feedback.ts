// @spec SPEC-STORE-001

import type { ToolContext } from './tools.js';
import type { ToolOutput } from './result.js';

export interface FeedbackArgs {
  episode: string;
  useful?: string[];
  not_useful?: string[];
  missing?: string[];
  note?: string;
  session_id?: string;
}

/**
 * feedback: an agent says which references of an episode helped, which did not and what
 * was missing. Append-only; the SQLite store is loaded here, on the first call, never by
 * the retrieval tools (which only journal their episodes).
 */
export async function feedbackTool(ctx: ToolContext, args: FeedbackArgs): Promise<ToolOutput> {
  const { root } = await ctx.reader.location();
  const { openStore } = await import('../store/store.js');
  const { feedbackItems } = await import('../store/feedback.js');
  const items = feedbackItems({ useful: args.useful, notUseful: args.not_useful, missing: args.missing });
  const state = await ctx.reader.state();
  const store = openStore(root, { retention: state.config.evidence });
  try {
    for (const w of store.warnings) ctx.log(`git-ctx mcp: ${w}`);
    const session = args.session_id ?? ctx.session;
    const added = store.addFeedback(args.episode, items, { note: args.note, source: session ? `mcp:${session}` : 'mcp' });
    const episode = added[0]!.episode;
    const counts = { useful: 0, 'not-useful': 0, missing: 0 };
    for (const a of added) counts[a.verdict]++;
    return {
      text: `recorded feedback on episode ${episode}: ${counts.useful} useful, ${counts['not-useful']} not useful, ${counts.missing} missing${args.note ? ' (with a note)' : ''}\n`,
      data: { episode, recorded: added.length, ...counts, ids: added.map((a) => a.id) },
    };
  } finally {
    store.close();
  }
}
