import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/cli.js';
import { fixtureRepo } from './helpers.js';

/**
 * trials30: a script that pipes its requests in (`printf '…' | git ctx mcp`) closes stdin right
 * after writing them; the server answered `initialize` and stopped before its tool calls were
 * answered. Requests read before stdin ended are answered, then the server stops.
 */
describe('git ctx mcp when stdin ends after the requests', () => {
  it('answers every request it read, then exits 0', () => {
    const repo = fixtureRepo();
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'piped', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_decisions', arguments: { query: 'rounding of invoice totals' } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_context', arguments: {} } },
    ];
    const r = spawnSync(process.execPath, [BIN, 'mcp', '--root', repo.dir], { cwd: ROOT, input: lines.map((l) => JSON.stringify(l)).join('\n') + '\n', encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    const ids = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { id?: number }).id)
      .sort();
    expect(ids).toEqual([1, 2, 3]);
  }, 90_000);
});
