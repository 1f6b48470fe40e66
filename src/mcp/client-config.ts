/** MCP clients that `git ctx mcp config` writes configuration for. */
export type McpClient = 'claude' | 'vscode';
export const MCP_CLIENTS: readonly McpClient[] = ['claude', 'vscode'];

/** One ready-to-paste configuration file. */
export interface ClientConfig {
  client: McpClient;
  /** where it goes, relative to the repository root */
  file: string;
  /** the file's JSON */
  json: Record<string, unknown>;
  /** one line on how the client picks it up */
  note: string;
}

/** The server entry: npx runs the package's bin, so no global install is needed. */
const COMMAND = { command: 'npx', args: ['-y', 'git-ctx', 'mcp'] };

/** The configuration of a client for the git-ctx stdio server. */
export function clientConfig(client: McpClient): ClientConfig {
  if (client === 'vscode') {
    return {
      client,
      file: '.vscode/mcp.json',
      json: { servers: { 'git-ctx': { type: 'stdio', ...COMMAND } } },
      note: 'VS Code (Copilot agent mode) reads .vscode/mcp.json from the workspace; start the server from the MCP view or the file.',
    };
  }
  return {
    client,
    file: '.mcp.json',
    json: { mcpServers: { 'git-ctx': { ...COMMAND } } },
    note: 'Claude Code reads a project-scoped .mcp.json at the repository root (or run: claude mcp add git-ctx -- npx -y git-ctx mcp).',
  };
}

/** Render the configurations as text for the terminal. */
export function renderClientConfigs(clients: McpClient[]): string {
  return (
    clients
      .map((c) => {
        const cfg = clientConfig(c);
        return `# ${cfg.file} — ${cfg.note}\n${JSON.stringify(cfg.json, null, 2)}\n`;
      })
      .join('\n')
  );
}
