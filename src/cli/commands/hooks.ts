import type { Command } from '../commander.js';
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { onPath } from '../on-path.js';
import { ExitCode, io } from '../shared.js';

/** Whether the project's own install holds the CLI the pre-commit hook runs first (`node_modules/.bin/git-ctx` at the work tree's top). */
function reachableInProject(cwd: string): boolean {
  const top = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd, encoding: 'utf8' }).stdout?.trim();
  if (!top) return false;
  try {
    accessSync(path.join(top, 'node_modules', '.bin', process.platform === 'win32' ? 'git-ctx.cmd' : 'git-ctx'), constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

interface HooksInstallCliOptions {
  root?: string;
  force?: boolean;
  uninstall?: boolean;
  json?: boolean;
  agent?: string;
}

/** `git ctx hooks install [--force] [--uninstall]`. */
export function register(program: Command): void {
  const hooks = program.command('hooks').description('Manage the git hooks git-ctx installs');
  hooks
    .command('install')
    .description('Install the pre-commit hook into the effective hooks directory (core.hooksPath honoured)')
    .option('-C, --root <dir>', 'repository (default: the current directory)')
    .option('--uninstall', 'remove the hook and restore the hook it chained, if any')
    .option('--force', 'install even where husky manages the hooks or core.hooksPath is shared; replace a stale chained hook')
    .option('--json', 'print the result as JSON')
    .option('--agent <name>', "instead of the git hook, add git-ctx's file-read hook to a coding agent's project settings: claude (.claude/settings.json) or gemini (.gemini/settings.json)")
    .addHelpText(
      'after',
      [
        '',
        'Where a hook manager owns the hooks, git-ctx becomes an entry in its own configuration, so',
        "the manager's next install keeps it: lefthook (lefthook.yml), simple-git-hooks (package.json),",
        'the pre-commit framework (.pre-commit-config.yaml) and husky v5–v9 (.husky/pre-commit).',
        'That entry is committed and shared: it runs node_modules/.bin/git-ctx (else git-ctx on',
        'PATH), and a teammate without git-ctx gets a one-line notice, never a blocked commit.',
        'Without a manager, an existing pre-commit hook is never overwritten: it is renamed to',
        'pre-commit.git-ctx-chained, runs first, and its failure stops the commit. --uninstall undoes it.',
        '',
        "With --agent, the agent's settings file is merged (other hooks kept), never duplicated;",
        '--agent claude --uninstall removes only what git-ctx added.',
        'Cursor (beforeReadFile answers only allow/deny) and Codex CLI (no file-read hook) cannot be',
        'given context by a read hook: --agent cursor|codex says so and names what to use instead,',
        'rule files (git ctx rules export --format cursor|agents) or the MCP server (git ctx mcp).',
        '',
        'Examples:',
        '  git ctx hooks install                 # into lefthook.yml, package.json, … or .git/hooks',
        '  git ctx hooks install --json          # what was done, for scripts',
        '  git ctx hooks install --uninstall     # remove the entry or hook, restore a chained hook',
        '  git ctx hooks install --force         # into the hooks directory even where husky rules',
        '  git ctx hooks install --agent claude  # Claude Code reads the governing decisions on every file read',
        '  git ctx hooks install --agent gemini  # the same for Gemini CLI (.gemini/settings.json)',
        '',
        'Exit codes: 0 done (or nothing to do), 1 nothing written and action needed, 2 error.',
      ].join('\n'),
    )
    .action(async (o: HooksInstallCliOptions) => {
      if (o.agent !== undefined) {
        const { installAgentHook } = await import('../../hooks/agent-install.js');
        const r = await installAgentHook({ cwd: o.root ? path.resolve(io().cwd, o.root) : io().cwd, agent: o.agent, uninstall: o.uninstall });
        const said = { installed: `added the file-read hook to ${r.file}`, 'already-installed': `${r.file} already runs the file-read hook`, uninstalled: `removed the file-read hook from ${r.file}`, 'not-installed': `${r.file} has no git-ctx file-read hook` };
        io().out(o.json ? JSON.stringify(r, null, 2) + '\n' : `${said[r.action]}\n`);
        if ((r.action === 'installed' || r.action === 'already-installed') && !onPath(io().env)) {
          io().err(`git-ctx: note: git-ctx is not on this PATH; the agent runs "git-ctx hook agent-read" on each read and gets nothing until it is (npm install -g git-ctx, or npm link in a checkout)\n`);
        }
        return;
      }
      const [{ installHook }, { renderInstall }] = await Promise.all([import('../../hooks/install.js'), import('../../hooks/render.js')]);
      const cwd = o.root ? path.resolve(io().cwd, o.root) : io().cwd;
      const result = await installHook({ cwd, force: o.force, uninstall: o.uninstall });
      io().out(o.json ? JSON.stringify(result, null, 2) + '\n' : renderInstall(result));
      // the hook git runs from .git/hooks stops the commit when it finds no CLI (a hook manager's
      // entry only prints a notice): someone trying git-ctx without installing it learns it now
      const ownHook = !result.manager && (result.action === 'installed' || result.action === 'updated' || result.action === 'unchanged' || result.action === 'chained');
      if (ownHook && !onPath(io().env) && !reachableInProject(cwd)) {
        io().err('git-ctx: note: the hook runs node_modules/.bin/git-ctx or git-ctx on PATH and finds neither here: your commits stop until one is there (npm install -g git-ctx, or npm link in a checkout), or skip it with GIT_CTX_SKIP=1\n');
      }
      if (result.action === 'husky-manual' || result.action === 'manager-manual' || result.action === 'shared-hooks-dir') throw new ExitCode(1);
    });
}
