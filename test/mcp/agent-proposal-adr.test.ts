import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, runCli } from '../helpers/cli.js';
import { makeRepo } from '../helpers/git-repo.js';

const textOf = (r: unknown) => (r as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');

async function withServer<T>(root: string, run: (client: Client) => Promise<T>): Promise<T> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', root], cwd: ROOT, stderr: 'pipe', env: { ...process.env, NO_COLOR: '1' } as Record<string, string> });
  const client = new Client({ name: 'agent-proposal-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    return await run(client);
  } finally {
    await client.close();
  }
}

// An ADR folder in the Nygard style keeps no frontmatter: the paths and keywords an agent passes
// to propose_decision had nowhere to go and were dropped in silence (add_decision said so), and
// before `git ctx init` the session and commit were dropped too, so `git ctx proposals` showed
// the agent's proposal as "source manual", a person's record (envgen's docs/adr, agents33).
describe('propose_decision into an ADR folder says what it could not keep', () => {
  const records = {
    'docs/adr/0001-one-config-file.md': '# 0001: One config file\nDate: 2026-01-02\nStatus: Accepted\n\n## Context\n\nSettings were spread over three files.\n\n## Decision\n\nEvery setting lives in `settings.toml`.\n',
    'src/export.rs': 'pub fn export_rows() {}\n',
  };

  it('zero-config: paths and keywords not written, provenance not kept, and the listing does not call it manual', async () => {
    const repo = makeRepo();
    repo.commit('records', records);
    const r = await withServer(repo.dir, (c) => c.callTool({ name: 'propose_decision', arguments: { decision: 'Exported rows are written to a temporary file and renamed into place', paths: ['src/export.rs'], keywords: ['atomic'], session_id: 'agent-7' } }));
    const text = textOf(r);
    expect(r.isError).toBeFalsy();
    expect(text).toMatch(/^Proposed ADR-0002 /);
    expect(text).toContain('not written: paths, keywords');
    expect(text).toContain('not kept: who proposed it');
    expect(r.structuredContent).toMatchObject({ id: 'ADR-0002', unwritten: ['paths', 'keywords'], provenance_kept: false });
    const listed = runCli(['proposals'], { cwd: repo.dir });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('no provenance recorded');
    expect(listed.stdout).not.toContain('source manual');
    const json = JSON.parse(runCli(['proposals', '--json'], { cwd: repo.dir }).stdout) as { proposals: { id: string; provenance: Record<string, string> }[] };
    expect(json.proposals.map((p) => [p.id, p.provenance.source])).toEqual([['ADR-0002', undefined]]);
  });

  it('after init: the sidecar keeps the session, nothing is said about provenance, and the listing names the agent', async () => {
    const repo = makeRepo();
    repo.commit('records', records);
    expect(runCli(['init'], { cwd: repo.dir }).code).toBe(0);
    const r = await withServer(repo.dir, (c) => c.callTool({ name: 'propose_decision', arguments: { decision: 'Exported rows are written to a temporary file and renamed into place', session_id: 'agent-7' } }));
    expect(textOf(r)).not.toContain('not kept');
    expect(textOf(r)).not.toContain('not written');
    const listed = runCli(['proposals'], { cwd: repo.dir });
    expect(listed.stdout).toContain('source ai_chat');
    expect(listed.stdout).toContain('session agent-7');
  });
});
