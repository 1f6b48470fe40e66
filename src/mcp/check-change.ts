import { checkChange, renderConfirmResult } from '../check/confirm/change.js';
import type { ToolOutput } from './result.js';
import type { ToolContext } from './tools.js';

/** check_change: the decisions a change violates, on the lines it adds (DEC-052). */
export async function checkChangeTool(ctx: ToolContext, args: { diff?: string }): Promise<ToolOutput> {
  const state = await ctx.reader.state();
  const snapshot = await ctx.reader.openSnapshot();
  try {
    const r = await checkChange({ snapshot, config: state.config, set: { ...state.set, snapshot }, diff: args.diff });
    return {
      text: renderConfirmResult(r),
      data: {
        violations: r.violations.map((v) => ({ file: v.file, line: v.line, column: v.column, id: v.confirmation.id, kind: v.confirmation.kind, pattern: v.confirmation.pattern, message: v.confirmation.message ?? null, severity: v.confirmation.severity ?? 'error' })),
        bounded: r.bounded.map((b) => ({ file: b.file, id: b.confirmation.id, pattern: b.confirmation.pattern, ms: b.ms })),
        malformed: r.problems,
        files: r.files,
      },
    };
  } finally {
    snapshot.close();
  }
}
