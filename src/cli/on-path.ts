import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/**
 * Whether `git-ctx` is on this PATH: an agent's settings file (the file-read hook) and a
 * project's MCP configuration run the bare command from the agent's own shell, with no
 * node_modules/.bin, so without it every file read, or the MCP server's start, runs a command
 * that is not there and the agent gets nothing.
 */
export function onPath(env: NodeJS.ProcessEnv): boolean {
  const names = process.platform === 'win32' ? ['git-ctx.cmd', 'git-ctx.exe', 'git-ctx'] : ['git-ctx'];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const n of names) {
      try {
        accessSync(path.join(dir, n), constants.X_OK);
        return true;
      } catch {
        /* not here */
      }
    }
  }
  return false;
}
