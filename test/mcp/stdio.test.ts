import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/cli.js';
import { fixtureRepo, indexIds, sectionIds } from './helpers.js';

const textOf = (r: unknown) => (r as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');

async function stdioClient(root: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', root], cwd: ROOT, stderr: 'pipe', env: { ...process.env, NO_COLOR: '1' } as Record<string, string> });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => err };
}

describe('git ctx mcp over stdio', () => {
  it('serves a real client: tools, resources, sessions that survive a restart', async () => {
    const repo = fixtureRepo();
    const a = await stdioClient(repo.dir);
    try {
      expect((await a.client.listTools()).tools.map((t) => t.name).sort()).toEqual(['add_decision', 'assemble_task', 'check', 'check_change', 'context_for_change', 'context_for_code', 'feedback', 'get_context', 'impact', 'propose_decision', 'read_artifact', 'search_decisions', 'stale', 'trace']);
      const index = await a.client.callTool({ name: 'get_context', arguments: {} });
      expect(indexIds(textOf(index))[0]).toBe('NORM-ERROR-001');
      const full = await a.client.callTool({ name: 'get_context', arguments: { ids: ['DEC-BILLING-001'], session_id: 'stdio-session' } });
      expect(sectionIds(textOf(full))).toEqual(['NORM-ERROR-001', 'NORM-LOG-001', 'SPEC-BILLING-001', 'DEC-BILLING-001']);
      const bad = await a.client.callTool({ name: 'get_context', arguments: { ids: ['NOPE-1'] } });
      expect(bad.isError).toBe(true);
      const res = await a.client.readResource({ uri: 'ctx://artifact/TASK-042' });
      expect((res.contents[0] as { text: string }).text).toContain('Add credit notes');
    } finally {
      await a.client.close();
    }
    // a new server process remembers the session
    const b = await stdioClient(repo.dir);
    try {
      const again = await b.client.callTool({ name: 'get_context', arguments: { ids: ['DEC-BILLING-001'], session_id: 'stdio-session' } });
      expect(sectionIds(textOf(again))).toEqual([]);
      expect(textOf(again)).toContain('Already sent in this session');
    } finally {
      await b.client.close();
    }
  });

  it('writes nothing but JSON-RPC to stdout', async () => {
    const repo = fixtureRepo();
    const child = spawn(process.execPath, [BIN, 'mcp', '--root', repo.dir], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    const responses = (n: number) =>
      new Promise<void>((resolve, reject) => {
        const timer = setInterval(() => {
          if (out.split('\n').filter((l) => l.includes('"id"')).length >= n) {
            clearInterval(timer);
            resolve();
          }
        }, 20);
        child.once('exit', () => {
          clearInterval(timer);
          reject(new Error(`server exited early; stdout: ${out}`));
        });
      });
    const send = (m: object) => child.stdin.write(JSON.stringify(m) + '\n');
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_context', arguments: { ids: ['TASK-042'] } } });
    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'check', arguments: {} } });
    send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'trace', arguments: { place: 'src/billing/invoice.ts' } } });
    await responses(5);
    child.stdin.end();
    await new Promise((r) => child.once('close', r));
    const lines = out.split('\n').filter((l) => l.length > 0);
    expect(lines.length).toBe(5);
    for (const line of lines) {
      const msg = JSON.parse(line) as { jsonrpc: string; id?: number };
      expect(msg.jsonrpc).toBe('2.0');
    }
    const byId = new Map(lines.map((l) => JSON.parse(l) as { id: number; result?: { content?: { text: string }[] } }).map((m) => [m.id, m]));
    expect(byId.get(3)!.result!.content![0]!.text).toContain('=== TASK-042 [task · active · project] Add credit notes ===');
    expect(child.exitCode).toBe(0);
  });

  it('the guard moves console output of any module to stderr', () => {
    const guard = path.join(ROOT, 'dist/mcp/console-guard.js');
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(guard)}); console.log('log'); console.info('info'); console.debug('debug'); process.stdout.write('raw\\n');`], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('log\ninfo\ndebug\nraw\n');
  });
});

// git ctx mcp config: test/mcp/client-config.test.ts
