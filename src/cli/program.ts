// @spec SPEC-CLI-001

/**
 * The command-line program around a table of commands: src/cli/main.ts runs it with every
 * command, and registers only the one it runs when that is known.
 */

import { Command, CommanderError } from './commander.js';
import { isCtxError } from '../errors.js';
import { VERSION } from '../version.js';
import { ExitCode, io } from './io.js';
import { mark, phase } from '../util/timing.js';
import { reportTimingsAtExit } from './timings.js';
import { addExamples } from './examples.js';
import { progressLine } from './progress.js';
import { setProgressSink } from '../util/progress.js';
import { fdIsTTY } from '../util/stdio.js';
import { closeRunningBatches } from '../git/running.js';

export type CommandModule = { register(program: Command): void };
/** Command name → its module, loaded on demand. */
export type CommandTable = Record<string, () => Promise<CommandModule>>;

/** The program with every command of `commands`, or only `only` when the command to run is known. */
export async function buildProgramFrom(commands: CommandTable, only?: string): Promise<Command> {
  const program = new Command('git-ctx')
    .description('Git-native project context for coding agents and reviewers.\nRun "git ctx <TASK-ID>" to assemble the context bundle of a task.')
    .version(VERSION, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .showSuggestionAfterError(true)
    .configureOutput({ writeOut: (s) => io().out(s), writeErr: (s) => io().err(s) })
    .exitOverride();
  const names = only === '-V' || only === '--version' ? [] : only && commands[only] ? [only] : Object.keys(commands);
  const mods = await Promise.all(names.map((n) => commands[n]!()));
  for (const m of mods) m.register(program);
  addExamples(program);
  return program;
}

/** Run the CLI with `commands`; resolves to the exit code (0 ok, 1 findings, 2 usage/environment error). */
export async function runProgram(argv: string[], commands: CommandTable): Promise<number> {
  reportTimingsAtExit();
  // a progress line for long whole-repository work, on a terminal only (never in CI logs or pipes)
  const line = !process.env.CI && fdIsTTY(2) ? progressLine({ write: (s) => process.stderr.write(s) }) : undefined;
  if (line) setProgressSink(line);
  try {
    mark('main');
    const args = rewriteIdShorthand(Object.keys(commands), argv);
    const program = await buildProgramFrom(commands, args[2]);
    mark('command loaded');
    await program.parseAsync(args);
    return 0;
  } catch (e) {
    return handleError(e);
  } finally {
    line?.clear();
    closeRunningBatches();
    // what is left after the answer: cache writes, closing handles, Node's own exit
    phase('exit');
  }
}

/**
 * `git ctx TASK-042` is short for `git ctx context TASK-042`: when the first argument is not a
 * command or an option but looks like an artifact id (has an upper-case letter, a digit, a
 * dash or a slash), "context" is inserted. A lower-case word is left to commander, so a
 * mistyped command still gets "did you mean …?".
 */
export function rewriteIdShorthand(commands: Command | Iterable<string>, argv: string[]): string[] {
  const first = argv[2];
  if (first === undefined || first.startsWith('-')) return argv;
  const names = commands instanceof Command ? commands.commands.flatMap((c) => [c.name(), ...c.aliases()]) : [...commands];
  const known = new Set(['help', ...names]);
  if (known.has(first)) return argv;
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*(?:\/[A-Za-z0-9][A-Za-z0-9_.-]*)*$/.test(first) || !/[A-Z0-9/-]/.test(first)) return argv;
  return [argv[0]!, argv[1]!, 'context', ...argv.slice(2)];
}

/**
 * Words people type for what a command of another name does (the issue that asked for the
 * answers speaks of `why` and `reverse`): an unknown command among them gets the command to run,
 * where commander's "did you mean" finds no name spelled alike.
 */
const COMMAND_FOR: Record<string, string> = {
  why: 'every answer of git ctx for <file> and git ctx search <words> says why it was found (its evidence, per signal with --json)',
  explain: 'every answer of git ctx for <file> and git ctx search <words> says why it was found (its evidence, per signal with --json)',
  reverse: 'the relations other records state to a record are listed by git ctx show <id> (computed); what relies on it, by git ctx impact <id>',
  find: 'git ctx search <words or a question> finds records; git ctx for <file> the records that concern a file',
  ask: 'git ctx search <words or a question> finds records; git ctx for <file> the records that concern a file',
  query: 'git ctx search <words or a question> finds records; git ctx for <file> the records that concern a file',
  lint: 'git ctx check checks the records and the code they name',
  validate: 'git ctx check checks the records and the code they name',
  verify: 'git ctx check checks the records and the code they name; git ctx rules verify checks the rule files agents load',
};

/** File-system failures caused by the environment (SPEC-HOSTILE-001): one line naming the path, exit 2. */
const ENVIRONMENT_ERRNOS = new Map([
  ['ENOTDIR', 'a file is where a directory was expected'],
  ['EEXIST', 'already exists and is not what was expected (a file where a directory belongs?)'],
  ['EISDIR', 'is a directory where a file was expected'],
  ['EACCES', 'permission denied'],
  ['EPERM', 'operation not permitted'],
  ['EROFS', 'read-only file system'],
  ['ENOSPC', 'no space left on the device'],
  ['ELOOP', 'too many levels of symbolic links'],
  ['ENAMETOOLONG', 'file name too long'],
]);

export function handleError(e: unknown): number {
  if (e instanceof ExitCode) return e.code;
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
    const word = e.code === 'commander.unknownCommand' ? /'([^']+)'/.exec(e.message)?.[1] : undefined;
    const hint = word ? COMMAND_FOR[word.toLowerCase()] : undefined;
    if (hint) io().err(`  hint: ${hint}\n`);
    return 2;
  }
  if (isCtxError(e)) {
    io().err(`git-ctx: ${e.located}\n`);
    if (e.hint) io().err(`  hint: ${e.hint}\n`);
    return 2;
  }
  const err = e as Error;
  // the environment, not a bug: a path that is a file where a directory belongs, no permission, a full disk
  const sys = e as NodeJS.ErrnoException;
  if (sys?.path && sys.code && ENVIRONMENT_ERRNOS.has(sys.code)) {
    io().err(`git-ctx: ${sys.path}: ${ENVIRONMENT_ERRNOS.get(sys.code)} (${sys.code} in ${sys.syscall ?? 'a file operation'})\n`);
    return 2;
  }
  io().err(`git-ctx: unexpected error: ${err?.stack ?? String(e)}\nThis is a bug in git-ctx; please report it with the command you ran.\n`);
  return 2;
}
