import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * What every tool computes: text for the model, a small structured summary for programs
 * (ids, counts, notes — never the bodies again, so a response is not paid for twice),
 * and whether it is a domain failure.
 */
export interface ToolOutput {
  text: string;
  data: Record<string, unknown>;
  isError?: boolean;
}

/** A domain failure: an isError result that says what was wrong and what to do. */
export function failure(text: string, data: Record<string, unknown> = {}): ToolOutput {
  return { text, data: { error: text, ...data }, isError: true };
}

/** Convert to the MCP result shape. */
export function toCallToolResult(out: ToolOutput): CallToolResult {
  const res: CallToolResult = { content: [{ type: 'text', text: out.text }], structuredContent: out.data };
  if (out.isError) res.isError = true;
  return res;
}

/** Short commit id for headers. */
export function shortCommit(commit: string | undefined): string {
  return commit ? commit.slice(0, 12) : '(no commits yet)';
}
