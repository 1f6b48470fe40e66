import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/cli.js';
import { fixtureRepo } from './helpers.js';

const textOf = (r: unknown) => (r as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('an argument name a tool does not take', () => {
  it('is refused with the names the tool takes, over stdio with a real client; the schema says so too', async () => {
    const repo = fixtureRepo();
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', repo.dir], cwd: ROOT, stderr: 'pipe', env: { ...process.env, NO_COLOR: '1' } as Record<string, string> });
    const client = new Client({ name: 'unknown-args-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const tools = (await client.listTools()).tools;
      for (const t of tools) expect(t.inputSchema.additionalProperties, t.name).toBe(false);

      // query_text for query: before, the call failed on a missing query without a word about query_text
      const misnamed = await client.callTool({ name: 'search_decisions', arguments: { query_text: 'rounding of invoice totals' } });
      expect(misnamed.isError).toBe(true);
      expect(textOf(misnamed)).toContain('unknown argument query_text (did you mean query?)');
      expect(textOf(misnamed)).toMatch(/this tool takes: query, terms, all, types, max, session_id/);

      // file for place on context_for_code
      const file = await client.callTool({ name: 'context_for_code', arguments: { file: 'src/billing/invoice.ts' } });
      expect(file.isError).toBe(true);
      expect(textOf(file)).toContain('unknown argument file; this tool takes: place, all, types, max, session_id');

      // an optional filter misnamed used to be dropped: the search answered unfiltered
      const type = await client.callTool({ name: 'search_decisions', arguments: { query: 'rounding', type: ['norm'] } });
      expect(type.isError).toBe(true);
      expect(textOf(type)).toContain('unknown argument type (did you mean types?)');

      // the right names still answer
      const right = await client.callTool({ name: 'search_decisions', arguments: { query: 'rounding of invoice totals', types: ['decision'] } });
      expect(right.isError).toBeFalsy();
      expect(textOf(right)).toContain('DEC-BILLING-001');
    } finally {
      await client.close();
    }
  });
});
