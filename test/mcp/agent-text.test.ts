import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const textOf = (r: unknown) => (r as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');

// Over MCP the retrieval answers ended with "Full text: `git ctx show <id>`", a shell command an
// MCP agent may have no shell for, while the tool descriptions say read_artifact; and the Why line
// carried the semantic lane's score and embedder ("similar in meaning (0.58,
// default:glove-6b-100d-sif-1)"), bookkeeping the renderer promises to keep from a model (agents33).
describe('the retrieval text an MCP agent reads', () => {
  it('points at read_artifact, says "similar in meaning" without score or model, and trace\'s nothing names context_for_code; the CLI keeps git ctx show', async () => {
    const repo = makeRepo();
    repo.commit('records', {
      'docs/adr/0001-retry-payment-captures.md': '# 0001: Retry payment captures with one key\nDate: 2026-01-02\nStatus: Accepted\n\n## Context\n\nA capture that times out may have reached the bank.\n\n## Decision\n\nEvery capture request carries an idempotency key, so a retry never charges twice.\n',
      'docs/adr/0002-log-in-json.md': '# 0002: Log in JSON\nDate: 2026-01-03\nStatus: Accepted\n\n## Decision\n\nServices write one JSON object per log line.\n',
      'src/capture.js': 'export function capture(payment) {\n  return payment;\n}\n',
    });
    repo.commit('capture retries', { 'src/capture.js': 'export function capture(payment, key) {\n  return { payment, key };\n}\n' });
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', repo.dir], cwd: ROOT, stderr: 'pipe', env: { ...process.env, NO_COLOR: '1' } as Record<string, string> });
    const client = new Client({ name: 'agent-text-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const search = textOf(await client.callTool({ name: 'search_decisions', arguments: { query: 'may I retry a capture that timed out', terms: ['idempotency key', 'duplicate charge'] } }));
      expect(search).toContain('ADR-0001');
      expect(search).toContain('Full text: read_artifact with the id');
      expect(search).not.toContain('git ctx show');
      expect(search).toMatch(/^Why: .*similar in meaning$/m);
      for (const line of search.split('\n').filter((l) => l.startsWith('Why:'))) {
        expect(line).not.toMatch(/similar in meaning \(|default:|glove/);
      }
      // the records declare nothing: trace's "nothing" sends the agent on to the tool that finds related ones
      const trace = textOf(await client.callTool({ name: 'trace', arguments: { place: 'src/capture.js' } }));
      expect(trace).toContain('Nothing governs this place');
      expect(trace).toContain('context_for_code finds those');
      // a record's own file: the record is named as what the file is, not listed as related to itself
      const own = await client.callTool({ name: 'context_for_code', arguments: { place: 'docs/adr/0001-retry-payment-captures.md' } });
      expect(textOf(own)).toMatch(/^docs\/adr\/0001-retry-payment-captures\.md is the record ADR-0001 "Retry payment captures with one key" \(decision, accepted\) itself/);
      expect(textOf(own)).not.toContain('## ADR-0001');
      expect((own.structuredContent as { record?: string; results: { id: string }[] }).record).toBe('ADR-0001');
      expect((own.structuredContent as { results: { id: string }[] }).results.map((x) => x.id)).not.toContain('ADR-0001');
      const change = textOf(await client.callTool({ name: 'context_for_change', arguments: { range: 'HEAD~1...HEAD', title: 'retry captures with an idempotency key' } }));
      if (change.includes('Full text')) expect(change).toContain('Full text: read_artifact with the id');
      expect(change).not.toContain('git ctx show');
    } finally {
      await client.close();
    }
    // a person at the shell still gets the command
    const cli = runCli(['search', 'may I retry a capture that timed out', '--format', 'context'], { cwd: repo.dir });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toContain('`git ctx show <id>`');
  });

  // get_context {ids: [two], budget: 300} answered "1 artifact(s) (1 requested, 0 required)": two were asked for
  it('get_context\'s header counts what the budget cut', async () => {
    const repo = makeRepo();
    const long = 'Every capture request carries an idempotency key, so a retry never charges twice.';
    repo.commit('records', {
      'docs/adr/0001-retry-payment-captures.md': `# 0001: Retry payment captures with one key\nDate: 2026-01-02\nStatus: Accepted\n\n## Decision\n\n${long}\n`,
      'docs/adr/0002-log-in-json.md': `# 0002: Log in JSON\nDate: 2026-01-03\nStatus: Accepted\n\n## Decision\n\n${'Services write one JSON object per log line. '.repeat(60)}\n`,
    });
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', repo.dir], cwd: ROOT, stderr: 'pipe', env: { ...process.env, NO_COLOR: '1' } as Record<string, string> });
    const client = new Client({ name: 'agent-text-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const text = textOf(await client.callTool({ name: 'get_context', arguments: { ids: ['ADR-0001', 'ADR-0002'], budget: 300 } }));
      expect(text).toMatch(/^# Context — 1 artifact\(s\) \(1 requested, 0 required; 1 cut for the budget, named below\)/);
      expect(text).toContain('Cut: left out to stay within the 300-token budget: ADR-0002');
    } finally {
      await client.close();
    }
  });
});
