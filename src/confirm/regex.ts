// @spec SPEC-CONFIRM-001

import { Worker } from 'node:worker_threads';

/**
 * How long one file may take under one record's regular expressions before the run is
 * stopped. JavaScript's engine backtracks, and a pattern such as `(a+)+$` takes time
 * exponential in a line's length; Node has no linear-time engine built in, and a running
 * match cannot be interrupted from its own thread. So patterns run in a worker thread,
 * which is terminated when a file passes this bound (DEC-052).
 */
export const REGEX_BOUND_MS = 2000;

/** One file under some patterns: `forbid` line by line, `require` over the whole text. */
export interface RegexJob {
  text: string;
  forbid: string[];
  require: string[];
}

/** Per forbid pattern, its matches as [line, column] (1-based); per require pattern, whether it matched. */
export interface RegexAnswer {
  forbid: [number, number][][];
  require: boolean[];
}

/** The worker's whole program: it receives jobs one at a time and answers each. */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (job) => {
  const lines = job.text.split('\\n');
  const forbid = job.forbid.map((src) => {
    const re = new RegExp(src);
    const hits = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i].endsWith('\\r') ? lines[i].slice(0, -1) : lines[i];
      const m = re.exec(line);
      if (m) hits.push([i + 1, m.index + 1]);
    }
    return hits;
  });
  const require = job.require.map((src) => new RegExp(src, 'm').test(job.text));
  parentPort.postMessage({ forbid, require });
});
`;

/**
 * Runs regular-expression jobs in a worker thread under a per-job time bound. A job that
 * passes the bound answers undefined; the worker is then terminated and a fresh one serves
 * the next job. Nothing from the repository is executed: patterns are only matched.
 */
export class BoundedRegex {
  private worker: Worker | undefined;

  constructor(private readonly boundMs = REGEX_BOUND_MS) {}

  private start(): Worker {
    const w = new Worker(WORKER_SOURCE, { eval: true });
    // an idle worker must not keep the process alive
    w.unref();
    return w;
  }

  run(job: RegexJob): Promise<RegexAnswer | undefined> {
    const w = (this.worker ??= this.start());
    return new Promise((resolve, reject) => {
      const done = (fn: () => void) => {
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', onError);
        fn();
      };
      const onMessage = (a: RegexAnswer) => done(() => resolve(a));
      const onError = (e: Error) => {
        this.worker = undefined;
        done(() => reject(e));
      };
      const timer = setTimeout(() => {
        done(() => resolve(undefined));
        this.worker = undefined;
        void w.terminate();
      }, this.boundMs);
      w.on('message', onMessage);
      w.on('error', onError);
      w.postMessage(job);
    });
  }

  close(): void {
    const w = this.worker;
    this.worker = undefined;
    if (w) void w.terminate();
  }
}
