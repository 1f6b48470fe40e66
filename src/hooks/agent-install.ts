// @spec SPEC-RETRIEVE-001

import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { CtxError } from '../errors.js';
import { findRepoRoot } from '../snapshot/open.js';
import { writeFileAtomic } from '../util/atomic.js';

/**
 * `git ctx hooks install --agent …`: add the file-read hook to an agent's project settings,
 * merged into what is there (other hooks and keys kept, indentation kept), never twice.
 */
export const AGENTS = {
  claude: { file: '.claude/settings.json', event: 'PostToolUse', matcher: 'Read' },
  gemini: { file: '.gemini/settings.json', event: 'AfterTool', matcher: 'read_file' },
} as const;
export type AgentName = keyof typeof AGENTS;

/**
 * Agents without a file-read hook that can add context to the conversation, and what to use
 * instead (researched for DEC-023): Cursor's `beforeReadFile` (Cursor 1.7+) answers only
 * allow/deny; Codex CLI hooks run around shell commands, patches and MCP calls, and Codex has
 * no file-read tool to hook. Both read rule files and speak MCP.
 */
export const UNSUPPORTED_AGENTS: Record<string, string> = {
  cursor:
    "Cursor's file-read hook (beforeReadFile) can only allow or deny a read; it cannot add context, so there is no hook to install. " +
    'Give Cursor the records instead as rule files scoped to the code they govern (git ctx rules export --format cursor writes .cursor/rules/*.mdc) ' +
    'or through the MCP server (git ctx mcp; tool context_for_code)',
  codex:
    'Codex CLI has no file-read hook: it reads files through shell commands, and its hooks cannot tell a read from any other command. ' +
    'Give Codex the records instead in AGENTS.md (git ctx rules export --format agents) ' +
    'or through the MCP server (git ctx mcp; tool context_for_code)',
};

export const AGENT_COMMAND = 'git-ctx hook agent-read';

export interface AgentInstallResult {
  agent: AgentName;
  file: string;
  action: 'installed' | 'already-installed' | 'uninstalled' | 'not-installed';
}

type HookGroup = { matcher?: string; hooks?: { type?: string; command?: string }[] };

export async function installAgentHook(opts: { cwd: string; agent: string; uninstall?: boolean }): Promise<AgentInstallResult> {
  if (UNSUPPORTED_AGENTS[opts.agent]) throw new CtxError('USAGE', `--agent ${opts.agent}: ${UNSUPPORTED_AGENTS[opts.agent]}`);
  const spec = AGENTS[opts.agent as AgentName];
  if (!spec) throw new CtxError('USAGE', `unknown agent ${JSON.stringify(opts.agent)}: expected ${Object.keys(AGENTS).join(' or ')} (cursor and codex have no read hook that can add context: see git ctx hooks install --help)`);
  const agent = opts.agent as AgentName;
  const root = await findRepoRoot(opts.cwd);
  const file = path.join(root, spec.file);
  let text: string | undefined;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new CtxError('CONFIG', `cannot read ${spec.file}: ${(e as Error).message}`, { file: spec.file });
  }
  let settings: Record<string, unknown> = {};
  if (text !== undefined && text.trim()) {
    try {
      settings = JSON.parse(text) as Record<string, unknown>;
    } catch (e) {
      throw new CtxError('CONFIG', `${spec.file} is not valid JSON (${(e as Error).message}); fix it first, nothing was written`, { file: spec.file });
    }
    if (!settings || typeof settings !== 'object' || Array.isArray(settings)) throw new CtxError('CONFIG', `${spec.file} must hold a JSON object; nothing was written`, { file: spec.file });
  }
  const hooks = (settings.hooks ??= {}) as Record<string, unknown>;
  if (typeof hooks !== 'object' || Array.isArray(hooks)) throw new CtxError('CONFIG', `"hooks" in ${spec.file} must be an object; nothing was written`, { file: spec.file });
  const groups = (Array.isArray(hooks[spec.event]) ? hooks[spec.event] : []) as HookGroup[];
  const ours = (h: { command?: string }) => typeof h.command === 'string' && h.command.includes('hook agent-read');
  const present = groups.some((g) => g.hooks?.some(ours));
  const rel = spec.file;
  if (opts.uninstall) {
    if (!present) return { agent, file: rel, action: 'not-installed' };
    const kept = groups.map((g) => ({ ...g, hooks: (g.hooks ?? []).filter((h) => !ours(h)) })).filter((g) => g.hooks.length);
    if (kept.length) hooks[spec.event] = kept;
    else delete hooks[spec.event];
    if (!Object.keys(hooks).length) delete settings.hooks;
  } else {
    if (present) return { agent, file: rel, action: 'already-installed' };
    hooks[spec.event] = [...groups, { matcher: spec.matcher, hooks: [{ type: 'command', command: AGENT_COMMAND }] }];
  }
  const indent = text ? (/^[ \t]+(?=")/m.exec(text)?.[0] ?? '  ') : '  ';
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, JSON.stringify(settings, null, indent) + '\n');
  return { agent, file: rel, action: opts.uninstall ? 'uninstalled' : 'installed' };
}
