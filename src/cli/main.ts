import { Command, CommanderError } from 'commander';
import { isCtxError } from '../errors.js';
import { VERSION } from '../version.js';
import { ExitCode, io } from './shared.js';
import { register as registerCheck } from './commands/check.js';
import { register as registerList } from './commands/list.js';
import { register as registerShow } from './commands/show.js';

export function buildProgram(): Command {
  const program = new Command('git-ctx')
    .description('Git-native project context for coding agents and reviewers.\nRun "git ctx <TASK-ID>" to assemble the context bundle of a task.')
    .version(VERSION, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .showSuggestionAfterError(true)
    .configureOutput({ writeOut: (s) => io().out(s), writeErr: (s) => io().err(s) })
    .exitOverride();
  // each issue's commands register here
  registerCheck(program);
  registerList(program);
  registerShow(program);
  return program;
}

/** Run the CLI; resolves to the exit code (0 ok, 1 findings, 2 usage/environment error). */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (e) {
    return handleError(e);
  }
}

export function handleError(e: unknown): number {
  if (e instanceof ExitCode) return e.code;
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
    return 2;
  }
  if (isCtxError(e)) {
    io().err(`git-ctx: ${e.located}\n`);
    if (e.hint) io().err(`  hint: ${e.hint}\n`);
    return 2;
  }
  const err = e as Error;
  io().err(`git-ctx: unexpected error: ${err?.stack ?? String(e)}\nThis is a bug in git-ctx; please report it with the command you ran.\n`);
  return 2;
}
