// @spec SPEC-RULES-001

import { Worker } from 'node:worker_threads';
import { cachedCounter, checkEncoding, type TokenCounter } from '../assemble/tokens.js';
import type { Config } from '../config.js';
import { tokenCounts } from '../cache/token-counts.js';
import { packageFile } from '../package-root.js';

type Encoder = { encode_ordinary(t: string): Uint32Array | number[]; free(): void };

/**
 * The token counter rule files are budgeted with: the assembly's encoding, sharing its
 * count cache. tiktoken's encoder stays loaded between calls (building the o200k table costs
 * ~0.6 s, and a plan counts in several batches) until `free()`.
 */
export function rulesCounter(root: string, config: Config, opts: { encoder?: EncoderThread } = {}): TokenCounter & { free(): void } {
  const encoding = config.assemble.encoding;
  checkEncoding(encoding);
  let enc: Encoder | undefined;
  let thread = opts.encoder?.encoding === encoding ? opts.encoder : undefined;
  const inner: TokenCounter = {
    encoding,
    count: (all) => (all.length ? exact(all) : Promise.resolve([])),
  };
  /** tiktoken's counts: on the worker thread when one was started, else here */
  async function exact(texts: string[]): Promise<number[]> {
    if (thread) {
      try {
        return await thread.count(texts);
      } catch {
        // the worker could not load the encoder or died: count here instead
        thread = undefined;
      }
    }
    if (!enc) {
      const { get_encoding } = await import('@dqbd/tiktoken');
      enc = get_encoding(encoding as Parameters<typeof get_encoding>[0]) as unknown as Encoder;
    }
    const e = enc;
    return texts.map((t) => e.encode_ordinary(t).length);
  }
  const cached = cachedCounter(inner, tokenCounts(root, encoding));
  return {
    encoding,
    count: (texts) => cached.count(texts),
    free() {
      enc?.free();
      enc = undefined;
    },
  };
}

/** A token encoder being built on a worker thread; see startEncoder. */
export interface EncoderThread {
  encoding: string;
  count(texts: string[]): Promise<number[]>;
  /** end the thread (it never keeps the process alive) */
  stop(): void;
}

/**
 * Start building the token encoder on a worker thread, so that a command that will need
 * token counts (a cold `rules export`: no count cache yet) overlaps the ~0.7 s of encoder
 * set-up with loading the records. Returns undefined where the worker cannot start (the
 * counter then loads the encoder itself, as before). The thread is unref'd.
 */
export function startEncoder(encoding: string): EncoderThread | undefined {
  let worker: Worker;
  try {
    checkEncoding(encoding);
    // tsc's build of ./count-worker.ts: a thread starts from a file of its own, bundled CLI or not
    worker = new Worker(packageFile('dist/rules/count-worker.js'), { workerData: { encoding } });
  } catch {
    return undefined;
  }
  worker.unref();
  let next = 0;
  const waiting = new Map<number, { resolve(c: number[]): void; reject(e: Error): void }>();
  const failAll = (e: Error) => {
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
  };
  worker.on('message', (m: { id: number; counts?: number[]; error?: string }) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (waiting.size === 0) worker.unref();
    if (m.counts) w?.resolve(m.counts);
    else w?.reject(new Error(m.error ?? 'token worker failed'));
  });
  worker.on('error', (e) => failAll(e));
  worker.on('exit', () => failAll(new Error('token worker exited')));
  return {
    encoding,
    count(texts) {
      return new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        // keep the process alive while a count is pending
        worker.ref();
        worker.postMessage({ id, texts });
      });
    },
    stop() {
      void worker.terminate();
    },
  };
}

/** Does the rules counter have counts cached for this repository (so a run may not need the encoder at all)? */
export function hasCountCache(root: string, encoding: string): boolean {
  return tokenCounts(root, encoding)?.exists() ?? false;
}
