// @spec SPEC-CLI-001

import { paint, useColor, type Paint } from '../util/color.js';
import { fdIsTTY, writeStd } from '../util/stdio.js';

/** I/O handles, injectable so tests can run commands in-process. */
export interface Io {
  cwd: string;
  out: (s: string) => void;
  err: (s: string) => void;
  color: boolean;
  env: NodeJS.ProcessEnv;
}

let currentIo: Io = {
  cwd: process.cwd(),
  // fd writes: process.stdout on a pipe would load net and the streams (src/util/stdio.ts)
  out: (s) => writeStd(1, s),
  err: (s) => writeStd(2, s),
  color: useColor({ isTTY: fdIsTTY(1) }),
  env: process.env,
};
export function io(): Io {
  return currentIo;
}
export function setIo(next: Partial<Io>): void {
  currentIo = { ...currentIo, ...next };
}
export function colors(): Paint {
  return paint(currentIo.color);
}

/** Commands signal a non-zero exit code by throwing this from an action. */
export class ExitCode extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}
