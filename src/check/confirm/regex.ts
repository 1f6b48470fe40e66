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
const answer = (job) => {
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
  return { forbid, require };
};
// a batch: one answer per job, in order, each posted as soon as it is known
parentPort.on('message', (jobs) => {
  for (let i = 0; i < jobs.length; i++) parentPort.postMessage([i, answer(jobs[i])]);
});
`;

/**
 * Runs regular-expression jobs in a worker thread under a per-job time bound. A job that
 * passes the bound answers undefined; the worker is then terminated and a fresh one serves
 * the next job. Nothing from the repository is executed: patterns are only matched.
 */
export class BoundedRegex {
  private worker: Worker | undefined;
  /** the current worker is running its program: its start-up is not counted against a bound */
  private ready: Promise<void> | undefined;

  constructor(private readonly boundMs = REGEX_BOUND_MS) {}

  private start(): Worker {
    const w = new Worker(WORKER_SOURCE, { eval: true });
    this.ready = new Promise((resolve) => {
      w.once('online', () => resolve());
      w.once('error', () => resolve());
    });
    // an idle worker must not keep the process alive
    w.unref();
    return w;
  }

  /** One job; undefined when it passed the bound. */
  async run(job: RegexJob): Promise<RegexAnswer | undefined> {
    return (await this.runAll([job]))[0];
  }

  /**
   * Many jobs in one message (a round trip per file would cost more than most matches):
   * the worker answers each in order, and the bound applies to each job from the moment
   * the previous one was answered. A job past the bound answers undefined; the rest run on
   * a fresh worker.
   */
  async runAll(jobs: RegexJob[]): Promise<(RegexAnswer | undefined)[]> {
    const out: (RegexAnswer | undefined)[] = new Array<RegexAnswer | undefined>(jobs.length);
    let from = 0;
    while (from < jobs.length) {
      const batch = jobs.slice(from);
      const got = await this.batch(batch, (i, a) => (out[from + i] = a));
      // got = answered jobs; the next one passed the bound
      if (got < batch.length) out[from + got] = undefined;
      from += got + 1;
    }
    return out;
  }

  /** Run a batch; resolves with how many were answered before one passed the bound (all: batch.length). */
  private async batch(jobs: RegexJob[], onAnswer: (i: number, a: RegexAnswer) => void): Promise<number> {
    const w = (this.worker ??= this.start());
    // a batch in flight keeps the process alive (an idle worker does not)
    w.ref();
    try {
      await this.ready;
      return await this.answers(w, jobs, onAnswer);
    } finally {
      w.unref();
    }
  }

  private answers(w: Worker, jobs: RegexJob[], onAnswer: (i: number, a: RegexAnswer) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      let answered = 0;
      let timer: NodeJS.Timeout;
      const done = (fn: () => void) => {
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', onError);
        fn();
      };
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          done(() => resolve(answered));
          this.worker = undefined;
          void w.terminate();
        }, this.boundMs);
      };
      const onMessage = ([i, a]: [number, RegexAnswer]) => {
        onAnswer(i, a);
        answered = i + 1;
        if (answered === jobs.length) done(() => resolve(answered));
        else arm();
      };
      const onError = (e: Error) => {
        this.worker = undefined;
        done(() => reject(e));
      };
      w.on('message', onMessage);
      w.on('error', onError);
      arm();
      w.postMessage(jobs);
    });
  }

  close(): void {
    const w = this.worker;
    this.worker = undefined;
    if (w) void w.terminate();
  }
}
