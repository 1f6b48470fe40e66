// @spec SPEC-RULES-001

/** The agents whose loading `git ctx rules verify` models (one may read several formats). */
export const TOOLS = ['agents', 'claude', 'gemini', 'cursor', 'copilot', 'kiro', 'windsurf'] as const;
export type Tool = (typeof TOOLS)[number];

export interface ToolLimit {
  /** characters */
  chars: number;
  /** what the limit applies to: everything loaded on every request, or each rule file */
  of: 'always' | 'file';
  /** where the number comes from */
  source: string;
}

/**
 * The tools' own size limits, the defaults of `rules verify`'s warnings (override per tool
 * with `rule_files.limits: { claude: 30000 }`, in characters). Tools that document none
 * (Cursor, Gemini CLI, Kiro) get no warning unless configured.
 */
export const TOOL_LIMITS: Partial<Record<Tool, ToolLimit>> = {
  claude: { chars: 40_000, of: 'always', source: 'Claude Code warns "Large CLAUDE.md will impact performance" above 40,000 characters' },
  agents: { chars: 32_768, of: 'always', source: 'OpenAI Codex reads AGENTS.md up to project_doc_max_bytes, 32 KiB by default' },
  copilot: { chars: 4_000, of: 'always', source: 'GitHub Copilot code review reads the first 4,000 characters of a custom instructions file' },
  windsurf: { chars: 12_000, of: 'file', source: 'Windsurf limits each workspace rule file to 12,000 characters (docs.windsurf.com, Memories & Rules)' },
};

/** The limit in force for a tool: configured (characters, applied to what loads on every request) or the tool's own. */
export function limitFor(tool: Tool, configured: Record<string, number>): ToolLimit | undefined {
  const c = configured[tool];
  if (c !== undefined) return { chars: c, of: TOOL_LIMITS[tool]?.of ?? 'always', source: 'rule_files.limits in .contextia/config.yaml' };
  return TOOL_LIMITS[tool];
}
