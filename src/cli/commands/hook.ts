import type { Command } from '../commander.js';
import { accessSync, constants, realpathSync } from 'node:fs';
import path from 'node:path';
import { ExitCode, colors, io } from '../shared.js';
import { CtxError } from '../../errors.js';
import { phase } from '../../util/timing.js';

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * How the user can run git-ctx from their own shell, for the suggested `ack` command. The
 * pre-commit framework installs git-ctx into its own environment and puts it on PATH only
 * while hooks run: when no other git-ctx is on PATH (or in node_modules/.bin), name the
 * framework's copy by its full path so the suggestion works as printed.
 */
export function userCommand(env: NodeJS.ProcessEnv, cwd: string, self: string | undefined = process.argv[1]): string {
  if (!env.PRE_COMMIT || !self) return 'git ctx';
  let real: string;
  try {
    real = realpathSync(self);
  } catch {
    return 'git ctx';
  }
  const inFramework = (p: string): boolean => /[\\/]pre-commit[\\/]/.test(p);
  if (!inFramework(self) && !inFramework(real)) return 'git ctx';
  const dirs = [path.join(cwd, 'node_modules', '.bin'), ...(env.PATH ?? '').split(path.delimiter)];
  for (const dir of dirs) {
    if (!dir) continue;
    const bin = path.join(dir, 'git-ctx');
    try {
      accessSync(bin, constants.X_OK);
      const target = realpathSync(bin);
      if (!inFramework(bin) && !inFramework(target) && target !== real) return 'git ctx';
    } catch {
      /* not here */
    }
  }
  return `${shellQuote(process.execPath)} ${shellQuote(real)}`;
}

interface HookCliOptions {
  root?: string;
  json?: boolean;
  baseline?: string;
  allRules?: boolean;
}

/**
 * `git ctx hook pre-commit`: what the installed hook (and husky, lefthook and the
 * pre-commit framework) run. The hook modules are imported inside the action so that
 * every other command's start-up does not pay for them, and vice versa.
 */
export function register(program: Command): void {
  const hook = program.command('hook').description('Run a git hook (called by the installed hook scripts)');
  hook
    .command('pre-commit')
    .description('Check the staged snapshot: block on coherence errors, warn when anchored code changes without a re-stamp')
    .option('-C, --root <dir>', 'repository to check (default: the current directory)')
    .option('--json', 'print the result as JSON')
    .option('--all-rules', 'run every check rule, warnings included (default: only the rules that can block)')
    .option('--baseline <file>', 'accept the findings listed in this file (from git ctx check --write-baseline)')
    .addHelpText(
      'after',
      [
        '',
        'Judges the index (staged content), never the working tree. Blocks (exit 1) on any finding at',
        'or above fail_on (default: error) in the staged snapshot, and on drift when hook.drift is block.',
        'Only the rules that can block run, plus drift; --all-rules adds the warning rules (slower).',
        'Skip once: git commit --no-verify. Skip git-ctx only: GIT_CTX_SKIP=1.',
        'Exit codes: 0 commit may proceed, 1 blocked, 2 usage or environment error.',
      ].join('\n'),
    )
    .action(async (o: HookCliOptions) => {
      if (io().env.GIT_CTX_SKIP === '1') {
        io().err('git-ctx: GIT_CTX_SKIP=1 set, skipping the pre-commit check\n');
        return;
      }
      const cwd = o.root ? path.resolve(io().cwd, o.root) : io().cwd;
      const [{ runPreCommit }, { renderPreCommit }, { readBaseline }] = await Promise.all([
        import('../../hooks/pre-commit.js'),
        import('../../hooks/render.js'),
        import('../../check/run.js'),
      ]);
      const baseline = o.baseline ? await readBaseline(path.resolve(cwd, o.baseline)) : undefined;
      const result = await runPreCommit({ cwd, baseline, allRules: o.allRules });
      const run = userCommand(io().env, cwd);
      if (run !== 'git ctx') for (const d of result.drift) d.command = d.command.replace(/^git ctx /, `${run} `);
      phase('render');
      io().out(o.json ? JSON.stringify({ version: 1, tool: 'git-ctx', hook: 'pre-commit', ...result }, null, 2) + '\n' : renderPreCommit(result, colors()));
      if (result.blockedBy.length) throw new ExitCode(1);
    });
  hook
    .command('agent-read')
    .description("A coding agent's file-read hook: inject the records governing the file, once per agent session")
    .addHelpText(
      'after',
      [
        '',
        'Reads the hook payload (JSON) on stdin: Claude Code PreToolUse/PostToolUse on Read, Gemini CLI',
        'BeforeTool/AfterTool on read_file. Prints {"hookSpecificOutput": {"hookEventName", "additionalContext"}}',
        'with the governing records (summaries); a record already shown in the session gets one line.',
        'Never blocks the agent: problems go to stderr and the exit code is 0.',
        'Install: git ctx hooks install --agent claude|gemini',
        'Example: echo \'{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"Read","tool_input":{"file_path":"src/a.ts"}}\' | git ctx hook agent-read',
      ].join('\n'),
    )
    .action(async () => {
      const { runAgentReadHook } = await import('../agent-read-hook.js');
      await runAgentReadHook();
    });
  // `git ctx hook install` is the singular group typed for the plural one (DEC-109): point at
  // `hooks install` instead of commander's bare "unknown command 'install'"
  hook
    .command('install', { hidden: true })
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new CtxError('USAGE', 'git ctx hook runs a hook; installing one is git ctx hooks install', { hint: 'git ctx hooks install (add --uninstall to remove it)' });
    });
}
