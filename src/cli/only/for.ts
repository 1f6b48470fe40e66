// @spec SPEC-CLI-001

import { runProgram } from '../program.js';

/**
 * The entry of dist/cli-for.cjs: `git ctx for …` with the one command it runs (the full CLI
 * registers only that one too, so arguments, help and errors are the same), without the
 * other commands' code to load on every run (DEC-041). bin/git-ctx.js picks it when `for` is
 * the first argument.
 */
export function main(argv: string[]): Promise<number> {
  return runProgram(argv, { for: () => import('../commands/for.js') });
}

/** Everything is awaited before main resolves: bin/git-ctx.js may end the process then (DEC-041). */
export const exitWhenDone = true;
