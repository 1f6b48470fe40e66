// @spec SPEC-CACHE-001

/**
 * Phase timings for diagnosing slow runs. With GIT_CTX_TIMINGS=1 the core records named
 * phases (`phase`) and finer steps within them (`mark`); a front end renders them (the CLI
 * prints them on stderr at exit). Off by default and free when off: both calls return at once.
 *
 * The phases of a run, in order: start-up (Node boot and loading the CLI, from process start),
 * snapshot, config, listing, parse, analyses, render, exit (what runs after the result is
 * rendered: cache writes, closing handles). A phase lasts until the next one starts.
 */
export type Phase = 'start-up' | 'snapshot' | 'config' | 'listing' | 'parse' | 'analyses' | 'render' | 'exit';

export interface TimingStep {
  /** a phase name, or a step label inside the current phase */
  label: string;
  kind: 'phase' | 'step';
  /** milliseconds since process start */
  at: number;
}

/**
 * Milliseconds since the process started, as `performance.now()` counts them, without the
 * perf_hooks module that the first use of the global `performance` loads (~1 ms, DEC-041).
 */
export const now = (): number => process.uptime() * 1000;

export const timingsEnabled = (env: NodeJS.ProcessEnv = process.env): boolean => env.GIT_CTX_TIMINGS === '1';

const enabled = timingsEnabled();
const steps: TimingStep[] = enabled ? [{ label: 'start-up', kind: 'phase', at: 0 }] : [];

/** Start a phase now (the previous one ends). Repeating the current phase is a no-op. */
export function phase(name: Phase): void {
  if (!enabled) return;
  const last = lastPhase();
  if (last === name) return;
  steps.push({ label: name, kind: 'phase', at: now() });
}

/** A step within the current phase (a cache read, a rule, a parser loaded). */
export function mark(label: string): void {
  if (!enabled) return;
  steps.push({ label, kind: 'step', at: now() });
}

function lastPhase(): string | undefined {
  for (let i = steps.length - 1; i >= 0; i--) if (steps[i]!.kind === 'phase') return steps[i]!.label;
  return undefined;
}

/** What was recorded so far (empty when timings are off). */
export function timingSteps(): readonly TimingStep[] {
  return steps;
}

/**
 * The report as text lines: each phase with its start and duration, its steps indented with
 * the time since the previous line, and the total. `end` is the time the run ended.
 */
export function renderTimings(recorded: readonly TimingStep[], end: number): string[] {
  const lines: string[] = [];
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  for (let i = 0; i < recorded.length; i++) {
    const s = recorded[i]!;
    if (s.kind === 'phase') {
      const next = recorded.findIndex((x, j) => j > i && x.kind === 'phase');
      const stop = next < 0 ? end : recorded[next]!.at;
      lines.push(`git-ctx timing: ${s.label.padEnd(9)} ${ms(s.at).padStart(10)} +${ms(stop - s.at)}`);
    } else {
      const prev = recorded[i - 1]!.at;
      lines.push(`git-ctx timing:   · ${s.label} (+${ms(s.at - prev)})`);
    }
  }
  lines.push(`git-ctx timing: total     ${ms(end).padStart(10)}`);
  return lines;
}
