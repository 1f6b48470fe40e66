// @spec SPEC-MCP-001
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { packageFile } from '../package-root.js';
import { CtxError } from '../errors.js';

/** MCP clients that `git ctx mcp config` writes configuration for. */
export type McpClient = 'claude-code' | 'claude-desktop' | 'vscode' | 'cursor' | 'windsurf' | 'codex' | 'gemini';
export const MCP_CLIENTS: readonly McpClient[] = ['claude-code', 'claude-desktop', 'vscode', 'cursor', 'windsurf', 'codex', 'gemini'];
/** Other names accepted for a client (the first release called Claude Code "claude"). */
export const CLIENT_ALIASES: Readonly<Record<string, McpClient>> = { claude: 'claude-code', 'gemini-cli': 'gemini', code: 'vscode' };

/** How the server is started. */
export interface ServerCommand {
  command: string;
  args: string[];
}

/** Where git-ctx comes from, which decides the command a client runs. */
export interface InstallInfo {
  /** the repository's top level (absolute) */
  top: string;
  /** git-ctx is a dependency of the project (node_modules/git-ctx or package.json) */
  devDependency: boolean;
  /** absolute path of this git-ctx's bin script, for user-level clients */
  bin: string;
  /** absolute path of the node binary running now */
  node: string;
  /** the user's home directory */
  home: string;
  /** process.platform */
  platform: NodeJS.Platform;
  /** environment (APPDATA, XDG_CONFIG_HOME) */
  env: NodeJS.ProcessEnv;
}

/** One client's configuration file. */
export interface ClientConfig {
  client: McpClient;
  /** absolute path of the file the client reads */
  file: string;
  /** true when the file is per user (outside the repository), false when it belongs to the project */
  userLevel: boolean;
  format: 'json' | 'toml';
  /** the key holding the servers: mcpServers, servers or mcp_servers */
  key: string;
  /** the server entry */
  entry: Record<string, unknown>;
  /** the whole file's content for this server alone, as printed */
  text: string;
  /** one line on how the client picks it up */
  note: string;
}

/** Resolve a client name (aliases included); USAGE error naming the choices otherwise. */
export function resolveClient(name: string): McpClient {
  const n = name.toLowerCase();
  if ((MCP_CLIENTS as readonly string[]).includes(n)) return n as McpClient;
  const alias = CLIENT_ALIASES[n];
  if (alias) return alias;
  throw new CtxError('USAGE', `unknown MCP client: ${name}`, { hint: `choose one of: ${MCP_CLIENTS.join(', ')}` });
}

/** Whether git-ctx is a dependency of the project at `top`. */
export function isProjectDependency(top: string): boolean {
  if (existsSync(path.join(top, 'node_modules', 'git-ctx', 'package.json'))) return true;
  try {
    const pkg = JSON.parse(readFileSync(path.join(top, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    return !!(pkg.devDependencies?.['git-ctx'] ?? pkg.dependencies?.['git-ctx']);
  } catch {
    return false;
  }
}

/**
 * The command for a client. A project-level file is committed and shared, so it must not
 * name paths of this machine: with git-ctx a project dependency it is `npx --no-install
 * git-ctx mcp` (npx finds node_modules/.bin from the working directory the client starts
 * the server in, and never reaches for the registry), else `git-ctx mcp` from PATH. A
 * user-level file (Claude Desktop, Windsurf, Codex) serves one repository from anywhere: it
 * names node and this git-ctx by absolute path and the repository with --root, since GUI
 * applications often start without the shell's PATH.
 */
export function serverCommand(info: InstallInfo, userLevel: boolean): ServerCommand {
  if (userLevel) return { command: info.node, args: [info.bin, 'mcp', '--root', info.top] };
  if (info.devDependency) return { command: 'npx', args: ['--no-install', 'git-ctx', 'mcp'] };
  return { command: 'git-ctx', args: ['mcp'] };
}

/** An environment variable naming a directory: only when set to an absolute path. */
function absEnv(v: string | undefined): string | undefined {
  return v && path.isAbsolute(v) ? v : undefined;
}

function claudeDesktopFile(info: InstallInfo): string {
  if (info.platform === 'darwin') return path.join(info.home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  if (info.platform === 'win32') return path.join(absEnv(info.env.APPDATA) ?? path.join(info.home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
  return path.join(absEnv(info.env.XDG_CONFIG_HOME) ?? path.join(info.home, '.config'), 'Claude', 'claude_desktop_config.json');
}

/** TOML basic string (JSON's escapes are a subset TOML accepts for these characters). */
function tomlString(s: string): string {
  return JSON.stringify(s);
}

/** The `[mcp_servers.git-ctx]` table for Codex's config.toml. */
export function codexTable(cmd: ServerCommand): string {
  return `[mcp_servers.git-ctx]\ncommand = ${tomlString(cmd.command)}\nargs = [${cmd.args.map(tomlString).join(', ')}]\n`;
}

/** The configuration of a client for the git-ctx stdio server. */
export function clientConfig(client: McpClient, info: InstallInfo): ClientConfig {
  const userLevel = client === 'claude-desktop' || client === 'windsurf' || client === 'codex';
  const cmd = serverCommand(info, userLevel);
  const json = (file: string, key: string, entry: Record<string, unknown>, note: string): ClientConfig => ({
    client,
    file,
    userLevel,
    format: 'json',
    key,
    entry,
    text: JSON.stringify({ [key]: { 'git-ctx': entry } }, null, 2) + '\n',
    note,
  });
  switch (client) {
    case 'claude-code':
      return json(path.join(info.top, '.mcp.json'), 'mcpServers', { ...cmd }, 'Claude Code reads .mcp.json at the repository root (project scope) and asks once before starting it.');
    case 'claude-desktop':
      return json(claudeDesktopFile(info), 'mcpServers', { ...cmd }, 'Claude Desktop reads it at start-up: restart the app after writing.');
    case 'vscode':
      return json(path.join(info.top, '.vscode', 'mcp.json'), 'servers', { type: 'stdio', ...cmd }, 'VS Code (agent mode) reads .vscode/mcp.json in the workspace; start the server from the MCP view or the file.');
    case 'cursor':
      return json(path.join(info.top, '.cursor', 'mcp.json'), 'mcpServers', { ...cmd }, 'Cursor reads .cursor/mcp.json in the project; enable the server under Settings → MCP.');
    case 'windsurf':
      return json(path.join(info.home, '.codeium', 'windsurf', 'mcp_config.json'), 'mcpServers', { ...cmd }, 'Windsurf reads ~/.codeium/windsurf/mcp_config.json; refresh the MCP servers in Cascade after writing.');
    case 'gemini':
      return json(path.join(info.top, '.gemini', 'settings.json'), 'mcpServers', { ...cmd }, 'Gemini CLI reads .gemini/settings.json in the project; /mcp lists the server.');
    case 'codex':
      return {
        client,
        file: path.join(absEnv(info.env.CODEX_HOME) ?? path.join(info.home, '.codex'), 'config.toml'),
        userLevel,
        format: 'toml',
        key: 'mcp_servers',
        entry: { ...cmd },
        text: codexTable(cmd),
        note: 'Codex reads ~/.codex/config.toml (or $CODEX_HOME/config.toml) when it starts.',
      };
  }
}

/** What `writeClientConfig` did. */
export interface WriteResult {
  file: string;
  action: 'created' | 'added' | 'updated' | 'unchanged';
  /** other servers already in the file, kept */
  kept: string[];
}

function detectIndent(text: string): string | number {
  const m = /^[ \t]+(?=")/m.exec(text);
  return m ? m[0] : 2;
}

async function writeAtomic(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  let mode = 0o644;
  try {
    mode = (await stat(file)).mode & 0o777;
  } catch {
    /* new file */
  }
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, content, { mode });
  await chmod(tmp, mode);
  await rename(tmp, file);
}

/** Merge into a JSON file: only our server entry changes; other servers and keys stay. */
async function mergeJson(cfg: ClientConfig, text: string | undefined): Promise<WriteResult> {
  if (text === undefined || text.trim() === '') {
    await writeAtomic(cfg.file, cfg.text);
    return { file: cfg.file, action: 'created', kept: [] };
  }
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (e) {
    const msg = (e as Error).message;
    throw new CtxError('PARSE', `${cfg.file} is not plain JSON (${msg}); it was left alone`, {
      file: cfg.file,
      hint: `comments or trailing commas cannot be kept by an automatic merge: add the entry printed by git ctx mcp config --client ${cfg.client} by hand`,
    });
  }
  if (typeof root !== 'object' || root === null || Array.isArray(root)) throw new CtxError('PARSE', `${cfg.file} does not hold a JSON object; it was left alone`, { file: cfg.file });
  const obj = root as Record<string, unknown>;
  const servers = obj[cfg.key];
  if (servers !== undefined && (typeof servers !== 'object' || servers === null || Array.isArray(servers))) {
    throw new CtxError('PARSE', `${cfg.file}: "${cfg.key}" is not an object; it was left alone`, { file: cfg.file });
  }
  const map = (servers ?? {}) as Record<string, unknown>;
  const kept = Object.keys(map).filter((k) => k !== 'git-ctx');
  const before = map['git-ctx'];
  if (JSON.stringify(before) === JSON.stringify(cfg.entry)) return { file: cfg.file, action: 'unchanged', kept };
  obj[cfg.key] = { ...map, 'git-ctx': cfg.entry };
  const eol = text.endsWith('\n') ? '\n' : '';
  await writeAtomic(cfg.file, JSON.stringify(obj, null, detectIndent(text)) + eol);
  return { file: cfg.file, action: before === undefined ? 'added' : 'updated', kept };
}

const TABLE_RE = /^\s*\[\s*mcp_servers\s*\.\s*(?:"git-ctx"|'git-ctx'|git-ctx)\s*\]\s*(?:#.*)?$/;

/** Merge into Codex's TOML: replace our `[mcp_servers.git-ctx]` table, or append it. */
async function mergeToml(cfg: ClientConfig, text: string | undefined): Promise<WriteResult> {
  const table = cfg.text;
  if (text === undefined || text.trim() === '') {
    await writeAtomic(cfg.file, table);
    return { file: cfg.file, action: 'created', kept: [] };
  }
  const lines = text.split('\n');
  const kept = [...text.matchAll(/^\s*\[\s*mcp_servers\s*\.\s*["']?([^"'\]\s.]+)["']?\s*\]/gm)].map((m) => m[1]!).filter((n) => n !== 'git-ctx');
  const start = lines.findIndex((l) => TABLE_RE.test(l));
  if (start < 0) {
    const sep = text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
    await writeAtomic(cfg.file, `${text}${sep}${table}`);
    return { file: cfg.file, action: 'added', kept };
  }
  // the table runs to the next table header (or the end of the file)
  let end = start + 1;
  while (end < lines.length && !/^\s*\[/.test(lines[end]!)) end++;
  // keep blank lines that separated it from the next table
  let bodyEnd = end;
  while (bodyEnd > start + 1 && lines[bodyEnd - 1]!.trim() === '') bodyEnd--;
  const current = lines.slice(start, bodyEnd).join('\n') + '\n';
  if (current === table) return { file: cfg.file, action: 'unchanged', kept };
  const next = [...lines.slice(0, start), ...table.replace(/\n$/, '').split('\n'), ...lines.slice(bodyEnd)].join('\n');
  await writeAtomic(cfg.file, next);
  return { file: cfg.file, action: 'updated', kept };
}

/**
 * Write the client's configuration, merging with what is there: other servers and settings
 * are kept, only the git-ctx entry is added or replaced. Atomic (temporary file + rename).
 */
export async function writeClientConfig(cfg: ClientConfig): Promise<WriteResult> {
  let text: string | undefined;
  try {
    text = await readFile(cfg.file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new CtxError('IO', `cannot read ${cfg.file}: ${(e as Error).message}`, { cause: e, file: cfg.file });
  }
  return cfg.format === 'toml' ? mergeToml(cfg, text) : mergeJson(cfg, text);
}

/** The default InstallInfo for this process, serving the repository at `top`. */
export function installInfo(top: string, env: NodeJS.ProcessEnv = process.env): InstallInfo {
  const bin = packageFile('bin/git-ctx.js');
  return { top, devDependency: isProjectDependency(top), bin, node: process.execPath, home: absEnv(env.HOME) ?? homedir(), platform: process.platform, env };
}
