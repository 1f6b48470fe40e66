// @spec SPEC-CLI-001

import type { ProgressSink } from '../util/progress.js';
import { now as processNow } from '../util/timing.js';

export interface ProgressLineOptions {
  write: (s: string) => void;
  /** ms since some origin; injectable for tests */
  now?: () => number;
  /** nothing is drawn for a step until it has run this long (ms) */
  delay?: number;
  /** at most one redraw per this many ms */
  every?: number;
}

/**
 * A one-line progress display for a TTY's stderr: silent for steps that finish within a
 * second, then `label  done/total (pct%)` redrawn in place at most ten times a second, and
 * erased when the step ends, so the output that follows is never interleaved with it.
 */
export function progressLine(o: ProgressLineOptions): ProgressSink & { clear(): void } {
  const now = o.now ?? processNow;
  const delay = o.delay ?? 1000;
  const every = o.every ?? 100;
  let step: { label: string; start: number; drawn: number; shown: boolean } | undefined;
  const clear = () => {
    if (step?.shown) o.write('\r\x1b[K');
    step = undefined;
  };
  const sink = (label: string, done: number, total: number) => {
    const t = now();
    if (!step || step.label !== label) {
      clear();
      step = { label, start: t, drawn: -Infinity, shown: false };
    }
    if (done >= total) {
      clear();
      return;
    }
    if (t - step.start < delay || t - step.drawn < every) return;
    step.drawn = t;
    step.shown = true;
    const pct = total ? Math.floor((done / total) * 100) : 0;
    o.write(`\r\x1b[K${label}  ${done}/${total} (${pct}%)`);
  };
  return Object.assign(sink, { clear });
}
