/**
 * The long-lived git processes running now (`cat-file --batch`): a command that forgot to close
 * one must not hang its process. Apart from git/exec.ts so that closing them when a command has
 * answered loads no node:child_process when none was started (a kept answer, DEC-067).
 */
const RUNNING = new Set<{ close(): void }>();

/** Note a process that runs until closed; `released` when it is. */
export function running(p: { close(): void }): void {
  RUNNING.add(p);
}

export function released(p: { close(): void }): void {
  RUNNING.delete(p);
}

/**
 * Close every `cat-file --batch` process still running. The CLI calls it when a command has
 * answered: a process left open would keep Node's event loop, and the command, alive.
 */
export function closeRunningBatches(): void {
  for (const b of [...RUNNING]) b.close();
}
