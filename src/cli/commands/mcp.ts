import { Option, type Command } from '../commander.js';
import path from 'node:path';
import { MCP_CLIENTS, renderClientConfigs, type McpClient } from '../../mcp/client-config.js';
import { io } from '../shared.js';

interface McpOptions {
  root?: string;
  global?: boolean;
}

export function register(program: Command): void {
  const mcp = program
    .command('mcp')
    .description('Run the MCP server on stdio (for coding agents); "git ctx mcp config" prints client configuration')
    .option('-C, --root <dir>', 'repository to serve (default: the current directory)')
    .option('--global', 'include global artifacts from the user config directory')
    .action(async (o: McpOptions) => {
      // lazy: the stdio entry installs the stdout guard before the server code loads,
      // and other commands never pay for loading the MCP SDK
      const { runStdio } = await import('../../mcp/stdio.js');
      await runStdio({ cwd: o.root ? path.resolve(io().cwd, o.root) : io().cwd, global: o.global || undefined });
    });
  mcp
    .command('config')
    .description('Print ready-to-paste MCP client configuration (.mcp.json for Claude Code, .vscode/mcp.json for VS Code)')
    .addOption(new Option('--client <client>', 'which client').choices([...MCP_CLIENTS, 'all']).default('all'))
    .action((o: { client: McpClient | 'all' }) => {
      io().out(renderClientConfigs(o.client === 'all' ? [...MCP_CLIENTS] : [o.client]));
    });
}
