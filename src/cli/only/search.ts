// @spec SPEC-CLI-001

import { runProgram } from '../program.js';

/**
 * The entry of dist/cli-search.cjs: `git ctx search …` with the one command it runs (the full CLI
 * registers only that one too, so arguments, help and errors are the same), without the
 * other commands' code to load on every run (DEC-041). bin/git-ctx.js picks it when `search` is
 * the first argument.
 */
export function main(argv: string[]): Promise<number> {
  return runProgram(argv, { search: () => import('../commands/search.js') });
}

/** Everything is awaited before main resolves: bin/git-ctx.js may end the process then (DEC-041). */
export const exitWhenDone = true;
