// @spec SPEC-RETRIEVE-001

import { agentRead } from '../hooks/agent-read.js';
import { readAllStdin } from '../util/stdin.js';
import { mark, phase } from '../util/timing.js';
import { io } from './io.js';

/**
 * `git ctx hook agent-read`: the payload on stdin, the records governing the file on stdout.
 * Never fails the agent's read: problems go to stderr and the exit code stays 0.
 */
export async function runAgentReadHook(): Promise<void> {
  let payload;
  try {
    payload = JSON.parse((await readAllStdin()).toString('utf8') || '{}');
    mark('payload read');
  } catch (e) {
    io().err(`git-ctx hook agent-read: stdin is not JSON (${(e as Error).message}); nothing added\n`);
    return;
  }
  try {
    const r = await agentRead(payload, io().cwd);
    phase('render');
    if (r.stdout) io().out(r.stdout);
  } catch (e) {
    // an agent's read must never fail because of us
    io().err(`git-ctx hook agent-read: ${(e as Error).message}; nothing added\n`);
  }
}
