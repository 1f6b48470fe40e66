import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

// The worker file is resolved beside the compiled counter, so this runs the built module
// (dist/, built by the global setup) exactly as the CLI does.
type CounterModule = typeof import('../../src/rules/counter.js');
const load = async () => (await import(pathToFileURL(path.join(ROOT, 'dist/rules/counter.js')).href)) as CounterModule;

describe('token encoder on a worker thread (cold rules export)', () => {
  it('counts exactly as the encoder on the main thread', { timeout: 60_000 }, async () => {
    const { startEncoder } = await load();
    const { get_encoding } = await import('@dqbd/tiktoken');
    const texts = ['', 'hello world', '### DEC-0001: decision 1 about billing\n\nRound totals with banker\u2019s rounding.', 'ünïcödé ✓ 日本語', 'x'.repeat(5000)];
    const enc = get_encoding('o200k_base');
    const want = texts.map((t) => enc.encode_ordinary(t).length);
    enc.free();
    const thread = startEncoder('o200k_base');
    expect(thread).toBeDefined();
    try {
      // two requests in flight at once are answered each with its own counts
      const [a, b] = await Promise.all([thread!.count(texts), thread!.count(texts.slice(1, 3))]);
      expect(a).toEqual(want);
      expect(b).toEqual(want.slice(1, 3));
    } finally {
      thread!.stop();
    }
  });

  it('a counter whose worker fails falls back to counting on the main thread', { timeout: 60_000 }, async () => {
    const { rulesCounter } = await load();
    const broken = { encoding: 'o200k_base', count: () => Promise.reject(new Error('worker died')), stop: () => undefined };
    const config = { assemble: { encoding: 'o200k_base' } } as Parameters<CounterModule['rulesCounter']>[1];
    const c = rulesCounter('/nonexistent-repo-root', config, { encoder: broken });
    expect(await c.count(['hello world', 'hello world again'])).toEqual([2, 3]);
    // texts the JavaScript counter leaves to tiktoken (DEC-030) reach the broken worker, then the main thread
    const { get_encoding } = await import('@dqbd/tiktoken');
    const enc = get_encoding('o200k_base');
    const texts = ['\u65e5\u672c\u8a9e\u306e\u898f\u5247', 'emoji \u2705 rule', 'plain ascii beside them'];
    const want = texts.map((t) => enc.encode_ordinary(t).length);
    enc.free();
    expect(await c.count(texts)).toEqual(want);
    c.free();
  });
});
