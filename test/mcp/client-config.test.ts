import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { MCP_CLIENTS } from '../../src/mcp/client-config.js';
import { BIN, ROOT, runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/git-repo.js';
import { fixtureRepo } from './helpers.js';

/** Parse TOML with Python's standard tomllib (3.11+), a real parser independent of ours. */
function parseToml(text: string): Record<string, unknown> {
  const r = spawnSync('python3', ['-c', 'import sys, tomllib, json; print(json.dumps(tomllib.loads(sys.stdin.read())))'], { input: text, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`invalid TOML: ${r.stderr}\n${text}`);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

type Entry = { command: string; args: string[]; type?: string };

/** The git-ctx entry of a client's file, parsed as the client would. */
function entryOf(client: string, text: string): Entry {
  if (client === 'codex') return (parseToml(text).mcp_servers as Record<string, Entry>)['git-ctx']!;
  const json = JSON.parse(text) as Record<string, Record<string, Entry>>;
  return (client === 'vscode' ? json.servers : json.mcpServers)!['git-ctx']!;
}

/** A real MCP client started with a configuration entry, as the agent would start it. */
async function callCheck(entry: Entry, cwd: string, env: Record<string, string>): Promise<string> {
  const transport = new StdioClientTransport({ command: entry.command, args: entry.args, cwd, stderr: 'pipe', env: { ...(process.env as Record<string, string>), NO_COLOR: '1', ...env } });
  const client = new Client({ name: 'config-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const r = await client.callTool({ name: 'check', arguments: {} });
    return (r.content as { type: string; text: string }[]).map((c) => c.text).join('');
  } finally {
    await client.close();
  }
}

describe('git ctx mcp config', () => {
  it('prints only the file content for every client: JSON, or TOML for codex', () => {
    const repo = fixtureRepo();
    const home = tempDir('git-ctx-home-');
    for (const client of MCP_CLIENTS) {
      const r = runCli(['mcp', 'config', '--client', client], { cwd: repo.dir, env: { HOME: home, CODEX_HOME: '', XDG_CONFIG_HOME: '' } });
      expect(r.code, `${client}: ${r.stderr}`).toBe(0);
      const entry = entryOf(client, r.stdout);
      expect(entry.args).toContain('mcp');
      if (client === 'vscode') expect(entry.type).toBe('stdio');
      // user-level clients serve this repository from anywhere
      if (['claude-desktop', 'windsurf', 'codex'].includes(client)) expect(entry.args.slice(-2)).toEqual(['--root', repo.dir]);
      else expect(entry).toMatchObject({ command: 'git-ctx', args: ['mcp'] });
      expect(r.stderr).toContain('git-ctx:');
    }
    // the old name still works; an unknown client is a usage error naming the choices
    expect(JSON.parse(runCli(['mcp', 'config', '--client', 'claude'], { cwd: repo.dir }).stdout)).toHaveProperty('mcpServers');
    const bad = runCli(['mcp', 'config', '--client', 'emacs'], { cwd: repo.dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('claude-code, claude-desktop, vscode, cursor, windsurf, codex, gemini');
    const list = runCli(['mcp', 'config'], { cwd: repo.dir, env: { HOME: home } });
    for (const c of MCP_CLIENTS) expect(list.stdout).toContain(c);
  });

  it('--write merges into an existing file: other servers and keys kept, idempotent, indentation kept', () => {
    const repo = fixtureRepo();
    const home = tempDir('git-ctx-home-');
    const env = { HOME: home, CODEX_HOME: '', XDG_CONFIG_HOME: '' };
    const cursor = path.join(repo.dir, '.cursor/mcp.json');
    mkdirSync(path.dirname(cursor), { recursive: true });
    writeFileSync(cursor, JSON.stringify({ mcpServers: { github: { command: 'gh-mcp', args: [] } }, other: true }, null, 4) + '\n');
    const r = runCli(['mcp', 'config', '--client', 'cursor', '--write'], { cwd: repo.dir, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('kept: github');
    const text = readFileSync(cursor, 'utf8');
    expect(text).toMatch(/^\{\n {4}"mcpServers"/);
    const json = JSON.parse(text) as { mcpServers: Record<string, unknown>; other: boolean };
    expect(Object.keys(json.mcpServers)).toEqual(['github', 'git-ctx']);
    expect(json.other).toBe(true);
    const again = runCli(['mcp', 'config', '--client', 'cursor', '--write', '--json'], { cwd: repo.dir, env });
    expect(JSON.parse(again.stdout)).toMatchObject({ action: 'unchanged', kept: ['github'] });

    // every client's file, created then merged, parses
    for (const client of MCP_CLIENTS) {
      const w = runCli(['mcp', 'config', '--client', client, '--write', '--json'], { cwd: repo.dir, env });
      expect(w.code, `${client}: ${w.stderr}`).toBe(0);
      const file = (JSON.parse(w.stdout) as { file: string }).file;
      expect(entryOf(client, readFileSync(file, 'utf8')).args).toContain('mcp');
      if (['claude-desktop', 'windsurf', 'codex'].includes(client)) expect(file.startsWith(home)).toBe(true);
      else expect(file.startsWith(repo.dir)).toBe(true);
    }

    // codex: a config.toml with settings and another server keeps them
    const toml = path.join(home, '.codex/config.toml');
    writeFileSync(toml, 'model = "o3"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\nargs = ["--stdio"]\n\n[mcp_servers.git-ctx]\ncommand = "old"\nargs = []\n\n[profiles.fast]\nmodel = "o4-mini"\n');
    const c = runCli(['mcp', 'config', '--client', 'codex', '--write', '--json'], { cwd: repo.dir, env });
    expect(JSON.parse(c.stdout)).toMatchObject({ action: 'updated', kept: ['docs'] });
    const parsed = parseToml(readFileSync(toml, 'utf8')) as { model: string; mcp_servers: Record<string, Entry>; profiles: Record<string, unknown> };
    expect(parsed.model).toBe('o3');
    expect(parsed.mcp_servers.docs).toEqual({ command: 'docs-mcp', args: ['--stdio'] });
    expect(parsed.mcp_servers['git-ctx']!.command).toBe(process.execPath);
    expect(parsed.profiles.fast).toEqual({ model: 'o4-mini' });
  });

  it('--write leaves a file with comments alone and says why (exit 2)', () => {
    const repo = fixtureRepo();
    const file = path.join(repo.dir, '.vscode/mcp.json');
    mkdirSync(path.dirname(file), { recursive: true });
    const jsonc = '{\n  // team servers\n  "servers": {}\n}\n';
    writeFileSync(file, jsonc);
    const r = runCli(['mcp', 'config', '--client', 'vscode', '--write'], { cwd: repo.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not plain JSON');
    expect(readFileSync(file, 'utf8')).toBe(jsonc);
  });

  it('with git-ctx as a devDependency the project entry starts a working server (real client call)', async () => {
    const repo = fixtureRepo();
    // node_modules laid out as `npm install --save-dev git-ctx` leaves it
    writeFileSync(path.join(repo.dir, 'package.json'), JSON.stringify({ name: 'app', private: true, devDependencies: { 'git-ctx': `file:${ROOT}` } }, null, 2));
    mkdirSync(path.join(repo.dir, 'node_modules/.bin'), { recursive: true });
    symlinkSync(ROOT, path.join(repo.dir, 'node_modules/git-ctx'));
    symlinkSync('../git-ctx/bin/git-ctx.js', path.join(repo.dir, 'node_modules/.bin/git-ctx'));
    const r = runCli(['mcp', 'config', '--client', 'claude-code', '--write'], { cwd: repo.dir });
    expect(r.code).toBe(0);
    const entry = entryOf('claude-code', readFileSync(path.join(repo.dir, '.mcp.json'), 'utf8'));
    expect(entry).toEqual({ command: 'npx', args: ['--no-install', 'git-ctx', 'mcp'] });
    // no git-ctx on PATH: only the project's node_modules can provide it
    const pathNoCtx = (process.env.PATH ?? '').split(path.delimiter).filter((p) => !p.includes('node_modules')).join(path.delimiter);
    const text = await callCheck(entry, repo.dir, { PATH: pathNoCtx, npm_config_offline: 'true' });
    expect(text).toMatch(/\d+ artifacts? checked/);

    // a user-level entry works from any directory
    const desktop = runCli(['mcp', 'config', '--client', 'claude-desktop'], { cwd: repo.dir, env: { HOME: tempDir('git-ctx-home-') } });
    const user = entryOf('claude-desktop', desktop.stdout);
    expect(user.args[0]).toBe(BIN);
    expect(await callCheck(user, tempDir('git-ctx-elsewhere-'), {})).toMatch(/\d+ artifacts? checked/);
  }, 60_000);

  // agents33: in a repository without git-ctx as a dependency the project entry runs the bare
  // `git-ctx mcp`; written where git-ctx is not on PATH, the client could not start it, and
  // nothing said so (the file-read hook's install did)
  it('a project entry running the bare git-ctx says when git-ctx is not on PATH; on PATH, the written entry starts a server', async () => {
    const repo = fixtureRepo();
    const pathNoCtx = (process.env.PATH ?? '').split(path.delimiter).filter((p) => !p.includes('node_modules')).join(path.delimiter);
    const missing = runCli(['mcp', 'config', '--client', 'cursor', '--write'], { cwd: repo.dir, env: { PATH: pathNoCtx } });
    expect(missing.code, missing.stderr).toBe(0);
    expect(missing.stderr).toContain('git-ctx is not on this PATH');
    const entry = entryOf('cursor', readFileSync(path.join(repo.dir, '.cursor/mcp.json'), 'utf8'));
    expect(entry).toEqual({ command: 'git-ctx', args: ['mcp'] });
    // a global install (a git-ctx on PATH): no note, and the entry as written starts a working server
    const bin = tempDir('git-ctx-path-');
    symlinkSync(BIN, path.join(bin, 'git-ctx'));
    const withCtx = `${bin}${path.delimiter}${pathNoCtx}`;
    const present = runCli(['mcp', 'config', '--client', 'cursor'], { cwd: repo.dir, env: { PATH: withCtx } });
    expect(present.stderr).not.toContain('not on this PATH');
    expect(await callCheck(entry, repo.dir, { PATH: withCtx })).toMatch(/\d+ artifacts? checked/);
  }, 60_000);
});
