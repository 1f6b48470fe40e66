// @spec SPEC-CLI-001

import { runProgram } from '../program.js';

/**
 * The entry of dist/cli-trace.cjs: `git ctx trace …` with the one command it runs (the full CLI
 * registers only that one too, so arguments, help and errors are the same), without the
 * other commands' code to load on every run (DEC-041). bin/git-ctx.js picks it when `trace` is
 * the first argument.
 */
export function main(argv: string[]): Promise<number> {
  return runProgram(argv, { trace: () => import('../commands/trace.js') });
}

/** Everything is awaited before main resolves: bin/git-ctx.js may end the process then (DEC-041). */
export const exitWhenDone = true;
