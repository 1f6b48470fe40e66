// @spec SPEC-CACHE-001

/**
 * Progress of long whole-repository work (a cold code index over 100k files), reported by
 * the core as data and rendered by a front end: the CLI draws a line on a TTY, everything
 * else sets no sink and pays one function call per report.
 */
export type ProgressSink = (label: string, done: number, total: number) => void;

let sink: ProgressSink | undefined;

export function setProgressSink(next: ProgressSink | undefined): void {
  sink = next;
}

/** `done` of `total` units of the step `label`; done === total ends the step. */
export function reportProgress(label: string, done: number, total: number): void {
  sink?.(label, done, total);
}
