// @spec SPEC-RULES-001

// The token encoder on a worker thread (see startEncoder in ./counter.ts): building the
// o200k table and the first encode cost ~0.7 s of CPU, which a cold `rules export` then
// spends while the main thread loads the records. Messages: {id, texts} -> {id, counts} or {id, error}.
import { parentPort, workerData } from 'node:worker_threads';

type Encoder = { encode_ordinary(t: string): Uint32Array | number[] };

const port = parentPort!;
const ready: Promise<Encoder> = (async () => {
  const { get_encoding } = await import('@dqbd/tiktoken');
  const enc = get_encoding((workerData as { encoding: string }).encoding as Parameters<typeof get_encoding>[0]) as unknown as Encoder;
  // the first encode compiles the split pattern: pay it here too, off the main thread
  enc.encode_ordinary('warm up the encoder');
  return enc;
})();
// an encoder that cannot load is reported on the first request, not as an unhandled rejection
ready.catch(() => undefined);

port.on('message', (m: { id: number; texts: string[] }) => {
  ready.then(
    (enc) => port.postMessage({ id: m.id, counts: m.texts.map((t) => enc.encode_ordinary(t).length) }),
    (e: unknown) => port.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) }),
  );
});
