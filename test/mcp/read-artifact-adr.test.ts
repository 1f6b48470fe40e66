import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const textOf = (r: unknown) => (r as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');

// read_artifact showed an ADR file's metadata fenced as YAML frontmatter ("---\nstatus: accepted
// (written "Approved")\n---") above a body that has none: an agent editing the record could write
// the block back into the file (agents33). A record read in place says what git-ctx read, unfenced.
describe('read_artifact on a record read in place, and impact on undeclared code (DEC-143)', () => {
  it('labels the metadata as read, not as a block of the file; a .contextia record keeps its frontmatter', async () => {
    const repo = makeRepo();
    repo.commit('records', {
      'docs/adr/0001-one-queue.md': '# 1. One queue for background work\n\nDate: 2026-01-02\n\n## Status\n\nApproved\n\n## Decision\n\nBackground work goes through one queue.\n',
      '.contextia/config.yaml': 'sources:\n  - dir: docs/adr\n    format: adr\n    prefix: ADR-\n    type: decision\n',
      'src/queue.ts': 'export const queue: string[] = [];\n',
      'src/worker.ts': "import { queue } from './queue';\nexport const next = () => queue.shift();\n",
      '.contextia/system/rationale/DEC-001.md': '---\nid: DEC-001\ntype: decision\ntitle: Money in cents\nstatus: accepted\nsummary: Amounts are integers of cents.\n---\n# Money in cents\n\nAmounts are integers of cents.\n',
    });
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', repo.dir], cwd: ROOT, stderr: 'pipe', env: { ...process.env, NO_COLOR: '1' } as Record<string, string> });
    const client = new Client({ name: 'read-artifact-adr-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const adr = textOf(await client.callTool({ name: 'read_artifact', arguments: { id: 'ADR-0001' } }));
      expect(adr).toContain('metadata as git-ctx reads it from docs/adr/0001-one-queue.md (not a block of the file');
      expect(adr).toMatch(/^ {2}status: accepted \(written "Approved"\)$/m);
      expect(adr).not.toMatch(/^---$/m);
      expect(adr).toContain('# 1. One queue for background work');
      const own = textOf(await client.callTool({ name: 'read_artifact', arguments: { id: 'DEC-001' } }));
      expect(own).toMatch(/^---\n[\s\S]*status: accepted[\s\S]*\n---$/m);
      // impact on code no record declares names the tool that finds the records concerning it
      const impact = textOf(await client.callTool({ name: 'impact', arguments: { target: 'src/queue.ts' } }));
      expect(impact).toMatch(/^src\/queue\.ts: reverse, depth \d+; 0 records, \d+ code places\nNo record declares this code or the code that uses it: context_for_code finds/);
    } finally {
      await client.close();
    }
  });
});
