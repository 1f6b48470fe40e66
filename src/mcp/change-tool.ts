import type { ToolContext } from './tools.js';
import type { ToolOutput } from './result.js';

/*
 * context_for_change: what an agent asks before it opens a pull request — the records for a
 * range of commits or for the staged change, one ranked list (declared, then retrieved over the
 * change above the floor), each record once with the files and lines that brought it in; apart,
 * the records the change itself adds, edits or removes (DEC-080).
 */

export interface ContextForChangeArgs {
  range?: string;
  staged?: boolean;
  title?: string;
  body?: string;
  max?: number;
}

/** context_for_change: the ranked records for a change (range or staged), summaries and places. */
export async function contextForChangeTool(ctx: ToolContext, args: ContextForChangeArgs): Promise<ToolOutput> {
  const { CtxError } = await import('../errors.js');
  if (!!args.range === !!args.staged) throw new CtxError('USAGE', 'give range (e.g. "main...HEAD") or staged: true, one of them');
  const state = await ctx.reader.state();
  const [{ analyzeChange }, { renderChangeContext }] = await Promise.all([import('../pr/change.js'), import('../pr/change-render.js')]);
  const answer = await analyzeChange({ cwd: state.root, ...(args.range ? { range: args.range } : { staged: true }), title: args.title, body: args.body, ...(args.max !== undefined ? { max: args.max } : {}) });
  return {
    text: renderChangeContext(answer, 'mcp'),
    data: {
      query: answer.query,
      results: answer.ranked.map((x) => ({ id: x.id, type: x.type, title: x.title, status: x.status ?? null, file: x.file, strength: x.strength, why: x.why, places: x.places, ...(x.inactive ? { inactive: true } : {}), ...(x.editedHere ? { edited_here: true } : {}) })),
      record_changes: answer.recordChanges.map((c) => ({ id: c.id, type: c.type, title: c.title, status: c.status ?? null, file: c.file, change: c.change, ...(c.alsoRanked ? { also_ranked: true } : {}) })),
      retrieval: answer.retrieval,
      ...(answer.ungovernable ? { ungovernable: answer.ungovernable.map(({ path, reason }) => ({ path, reason })) } : {}),
      ...(answer.zeroConfig ? { zero_config: { sources: answer.zeroConfig.sources.map(({ dir, records, from }) => ({ dir, records, from })), from: answer.zeroConfig.from } } : {}),
    },
  };
}
