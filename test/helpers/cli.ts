import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(ROOT, 'bin/git-ctx.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the built CLI as a real process (as users and hooks do). */
export function runCli(args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; input?: string }): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd,
    encoding: 'utf8',
    input: opts.input,
    env: { ...process.env, NO_COLOR: '1', GIT_CONFIG_NOSYSTEM: '1', ...opts.env },
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
