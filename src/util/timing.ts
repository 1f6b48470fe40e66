/**
 * Phase timings for diagnosing slow runs: with GIT_CTX_TIMINGS=1 every `mark` is printed to
 * stderr at exit as milliseconds since process start. Off by default and free when off.
 */
const enabled = process.env.GIT_CTX_TIMINGS === '1';
const marks: [string, number][] = [];

export function mark(label: string): void {
  if (!enabled) return;
  if (!marks.length) {
    process.on('exit', () => {
      let prev = 0;
      for (const [l, t] of marks) {
        process.stderr.write(`git-ctx timing: ${t.toFixed(1).padStart(7)} ms  (+${(t - prev).toFixed(1)})  ${l}\n`);
        prev = t;
      }
    });
  }
  marks.push([label, performance.now()]);
}
