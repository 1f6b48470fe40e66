import type { Command } from '../commander.js';
import path from 'node:path';
import { runGit } from '../../git/exec.js';
import { CtxError } from '../../errors.js';
import { MCP_CLIENTS } from '../../mcp/client-config.js';
import { onPath } from '../on-path.js';
import { io } from '../shared.js';

interface McpOptions {
  root?: string;
  global?: boolean;
}

interface McpConfigOptions {
  root?: string;
  client?: string;
  write?: boolean;
  json?: boolean;
}

async function topLevel(cwd: string): Promise<string> {
  try {
    return path.resolve((await runGit(['rev-parse', '--show-toplevel'], { cwd })).trim());
  } catch (e) {
    throw new CtxError('NOT_A_REPO', `not inside a git work tree: ${cwd}`, { cause: e, hint: 'run it inside the repository the agent should read' });
  }
}

export function register(program: Command): void {
  const mcp = program
    .command('mcp')
    .description('Run the MCP server on stdio (for coding agents); "git ctx mcp config" prints or writes client configuration')
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
    .description(`Print (or --write) the MCP configuration of a client: ${MCP_CLIENTS.join(', ')}`)
    .option('-C, --root <dir>', 'repository to serve (default: the current directory)')
    .option('--client <client>', `the client (${MCP_CLIENTS.join(', ')})`)
    .option('--write', "merge the git-ctx entry into the client's file, keeping every other server")
    .option('--json', 'with --write: print the result as JSON')
    .addHelpText(
      'after',
      [
        '',
        'With --client, stdout is the file content alone (JSON, or TOML for codex), so it can be',
        'redirected; notes go to stderr. Without --client, the clients and their files are listed.',
        'Project files (.mcp.json, .vscode/mcp.json, .cursor/mcp.json, .gemini/settings.json) run',
        '"npx --no-install git-ctx mcp" when git-ctx is a project dependency, else "git-ctx mcp".',
        'User files (Claude Desktop, Windsurf, Codex) name node and git-ctx by absolute path, with --root.',
        '',
        'Examples:',
        '  git ctx mcp config --client claude-code > .mcp.json',
        '  git ctx mcp config --client cursor --write     # merge into .cursor/mcp.json',
        '  git ctx mcp config --client codex --write      # [mcp_servers.git-ctx] in ~/.codex/config.toml',
        '  git ctx mcp config                             # list the clients',
        '',
        'Exit codes: 0 done, 2 usage error or a file that cannot be merged (left alone).',
      ].join('\n'),
    )
    .action(async (o: McpConfigOptions) => {
      const { clientConfig, installInfo, resolveClient, writeClientConfig } = await import('../../mcp/client-config.js');
      const top = await topLevel(o.root ? path.resolve(io().cwd, o.root) : io().cwd);
      const info = installInfo(top, io().env);
      if (!o.client) {
        if (o.write) throw new CtxError('USAGE', '--write needs --client', { hint: `choose one of: ${MCP_CLIENTS.join(', ')}` });
        const lines = ['MCP clients (git ctx mcp config --client <name> [--write]):'];
        for (const c of MCP_CLIENTS) {
          const cfg = clientConfig(c, info);
          lines.push(`  ${c.padEnd(15)} ${cfg.userLevel ? 'user   ' : 'project'}  ${cfg.file}`);
        }
        io().out(lines.join('\n') + '\n');
        return;
      }
      const cfg = clientConfig(resolveClient(o.client), info);
      // the entry runs the bare command (no devDependency, a project file): the client cannot start what is not on its PATH
      if (cfg.entry.command === 'git-ctx' && !onPath(io().env)) {
        io().err('git-ctx: note: git-ctx is not on this PATH; the client runs "git-ctx mcp" and cannot start the server until it is (npm install -g git-ctx, or npm link in a checkout; with git-ctx in the project\'s devDependencies the entry runs npx --no-install git-ctx mcp instead)\n');
      }
      if (!o.write) {
        io().out(cfg.text);
        io().err(`git-ctx: ${cfg.file}: ${cfg.note}\n`);
        return;
      }
      const r = await writeClientConfig(cfg);
      if (o.json) {
        io().out(JSON.stringify({ client: cfg.client, ...r }, null, 2) + '\n');
        return;
      }
      const verb = { created: 'created', added: 'added git-ctx to', updated: 'updated git-ctx in', unchanged: 'git-ctx is already configured in' }[r.action];
      io().out(`${verb} ${r.file}${r.kept.length ? ` (kept: ${r.kept.join(', ')})` : ''}\n${cfg.note}\n`);
    });
}
