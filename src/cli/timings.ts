// @spec SPEC-CACHE-001

import { now, renderTimings, timingSteps, timingsEnabled } from '../util/timing.js';

let hooked = false;

/** GIT_CTX_TIMINGS=1: every phase of the run on stderr, printed as the process exits. */
export function reportTimingsAtExit(env: NodeJS.ProcessEnv = process.env): void {
  if (hooked || !timingsEnabled(env)) return;
  hooked = true;
  process.on('exit', () => {
    process.stderr.write(renderTimings(timingSteps(), now()).join('\n') + '\n');
  });
}
