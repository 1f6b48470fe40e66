// @spec SPEC-CLI-001

import type { Command } from './commander.js';
import type { CommandTable } from './program.js';
import { mark, phase } from '../util/timing.js';
import { reportTimingsAtExit } from './timings.js';

/**
 * Command modules, loaded on demand: `git ctx check` imports the check code only, not the
 * MCP SDK, ts-morph or tiktoken. Start-up time is most of a hook's budget. The order here is
 * the order in --help.
 */
const COMMANDS: CommandTable = {
  context: () => import('./commands/context.js'),
  check: () => import('./commands/check.js'),
  list: () => import('./commands/list.js'),
  show: () => import('./commands/show.js'),
  trace: () => import('./commands/trace.js'),
  for: () => import('./commands/for.js'),
  search: () => import('./commands/search.js'),
  graph: () => import('./commands/graph.js'),
  impact: () => import('./commands/impact.js'),
  stale: () => import('./commands/stale.js'),
  stamp: () => import('./commands/stamp.js'),
  ack: () => import('./commands/ack.js'),
  deprecate: () => import('./commands/deprecate.js'),
  supersede: () => import('./commands/supersede.js'),
  init: () => import('./commands/init.js'),
  new: () => import('./commands/new.js'),
  add: () => import('./commands/add.js'),
  proposals: () => import('./commands/proposals.js'),
  confirm: () => import('./commands/confirm.js'),
  reject: () => import('./commands/reject.js'),
  activate: () => import('./commands/activate.js'),
  bundles: () => import('./commands/bundles.js'),
  replay: () => import('./commands/replay.js'),
  hooks: () => import('./commands/hooks.js'),
  hook: () => import('./commands/hook.js'),
  pr: () => import('./commands/pr.js'),
  mcp: () => import('./commands/mcp.js'),
  rules: () => import('./commands/rules.js'),
  map: () => import('./commands/map.js'),
  import: () => import('./commands/import.js'),
  export: () => import('./commands/export.js'),
  vectors: () => import('./commands/vectors.js'),
  cache: () => import('./commands/cache.js'),
  sources: () => import('./commands/sources.js'),
  episodes: () => import('./commands/episodes.js'),
  feedback: () => import('./commands/feedback.js'),
  eval: () => import('./commands/eval.js'),
};

export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

/**
 * Command lines machines run with nothing to parse: an agent's file-read hook is called
 * with exactly `hook agent-read` and reads its input from stdin. They run without the
 * command-line parser, whose loading (commander and the program) is about a third of a kept
 * answer's own time (DEC-062); `--help` or any other argument goes through the program.
 */
const FIXED: Record<string, () => Promise<void>> = {
  'hook agent-read': async () => (await import('./agent-read-hook.js')).runAgentReadHook(),
};

/** The program with every command, or only `only` when the command to run is known. */
export async function buildProgram(only?: string): Promise<Command> {
  return (await import('./program.js')).buildProgramFrom(COMMANDS, only);
}

/** Run the CLI; resolves to the exit code (0 ok, 1 findings, 2 usage/environment error). */
export async function main(argv: string[]): Promise<number> {
  const fixed = FIXED[argv.slice(2).join(' ')];
  if (fixed) {
    reportTimingsAtExit();
    mark('main');
    try {
      await fixed();
      return 0;
    } catch (e) {
      return (await import('./program.js')).handleError(e);
    } finally {
      (await import('../git/running.js')).closeRunningBatches();
      phase('exit');
    }
  }
  return (await import('./program.js')).runProgram(argv, COMMANDS);
}
