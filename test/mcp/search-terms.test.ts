import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';
import { connect } from './helpers.js';

const record = (id: string, title: string, body: string) => `---\nid: ${id}\ntype: decision\ntitle: ${title}\nstatus: accepted\n---\n\n# ${title}\n\n## Decision\n\n${body}\n`;

/**
 * The governing record is written in words the question does not use (idempotency, replay,
 * Redis); another record shares the question's words (customer, twice) and is about something else.
 */
const FILES = {
  '.contextia/system/rationale/DEC-001.md': record('DEC-001', 'Idempotency keys for charges', 'Each charge request carries an idempotency key. The payment service keeps the keys in Redis for 24 hours and replays the first response for a repeated key.'),
  '.contextia/system/rationale/DEC-002.md': record('DEC-002', 'Monthly statements by email', 'A customer receives one statement per month by email; finance checks the totals twice before it is sent.'),
  '.contextia/system/rationale/DEC-003.md': record('DEC-003', 'Structured logs', 'Services log one JSON object per line to stdout, with a request id on every line.'),
  'src/pay.ts': 'export const pay = () => 1;\n',
};

const ids = (data: Record<string, unknown>) => (data.results as { id: string }[]).map((x) => x.id);

describe('search_decisions takes the agent’s terms, through a real MCP client', () => {
  it('terms whose words the record uses find it where the question alone does not; the episode id is in the text', async () => {
    const repo = makeRepo(FILES);
    repo.commit('records');
    const c = await connect({ cwd: repo.dir });
    const question = 'what stops a customer paying twice when the client retries';
    const bare = await c.call('search_decisions', { query: question });
    expect(bare.isError).toBeFalsy();
    // the question alone does not find the governing record; the one sharing its words (DEC-002:
    // "customer", "twice") says none of its telling words (paying, client, retries) beside them,
    // so a question of six terms gets no answer from it either (DEC-092, section Six terms)
    expect(ids(bare.data)).not.toContain('DEC-001');
    expect(ids(bare.data)).not.toContain('DEC-002');
    expect((bare.data.weak as { id: string }[]).map((x) => x.id)).toContain('DEC-002');

    const withTerms = await c.call('search_decisions', { query: question, terms: ['idempotency key', 'deduplicate repeated charge requests', 'replay first response', 'Redis'] });
    expect(withTerms.isError).toBeFalsy();
    expect(ids(withTerms.data)[0]).toBe('DEC-001');
    const top = (withTerms.data.results as { id: string; why: string[] }[])[0]!;
    expect(top.why.join(' ')).toMatch(/idempotency/i);
    // the text searched is recorded with the terms, so that a replay asks the same
    expect(withTerms.data.query).toMatchObject({ kind: 'search', text: `${question} — idempotency key; deduplicate repeated charge requests; replay first response; Redis` });

    for (const r of [bare, withTerms]) {
      expect(typeof r.data.episode).toBe('string');
      expect(r.text).toContain(`Episode: ${r.data.episode as string} (pass it to the feedback tool`);
    }
    // the id read from the text is one the feedback tool takes
    const id = /Episode: (\S+)/.exec(withTerms.text)![1]!;
    const fb = await c.call('feedback', { episode: id, useful: ['DEC-001'] });
    expect(fb.isError, fb.text).toBeFalsy();
  });

  it('terms repeating the question or each other add nothing; the tool asks for 3 to 8 of them', async () => {
    const repo = makeRepo(FILES);
    repo.commit('records');
    const c = await connect({ cwd: repo.dir });
    const r = await c.call('search_decisions', { query: 'structured logs', terms: ['Structured logs', ' ', 'json lines', 'JSON  lines'] });
    expect(r.data.query).toMatchObject({ text: 'structured logs — json lines' });
    const tool = (await c.client.listTools()).tools.find((t) => t.name === 'search_decisions')!;
    expect(tool.description).toContain('3 to 8');
    expect(tool.inputSchema.properties).toHaveProperty('terms');
    const bad = await c.call('search_decisions', { query: 'x', terms: Array.from({ length: 17 }, (_, i) => `t${i}`) });
    expect(bad.isError).toBe(true);
  });

  it('over stdio, as an agent runs it: the terms reach the engine and the text ends with the episode id', async () => {
    const repo = makeRepo(FILES);
    repo.commit('records');
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', repo.dir], cwd: ROOT, stderr: 'pipe', env: { ...process.env, NO_COLOR: '1' } as Record<string, string> });
    const client = new Client({ name: 'terms-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const r = (await client.callTool({ name: 'search_decisions', arguments: { query: 'what stops a customer paying twice when the client retries', terms: ['idempotency key', 'replay first response', 'Redis'] } })) as CallToolResult;
      const text = r.content.map((x) => (x.type === 'text' ? x.text : '')).join('');
      expect(text).toMatch(/^# Records for "what stops a customer paying twice when the client retries — idempotency key; replay first response; Redis"\n\n## DEC-001 — Idempotency keys for charges/);
      const episode = (r.structuredContent as { episode: string }).episode;
      expect(text.trimEnd().split('\n').at(-1)).toBe(`Episode: ${episode} (pass it to the feedback tool to say which records helped or what was missing).`);
    } finally {
      await client.close();
    }
  });
});
