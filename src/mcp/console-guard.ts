/**
 * Imported first by the stdio entry, before anything else loads: stdout carries JSON-RPC
 * and nothing else may reach it. console.log/info/debug (and stray process.stdout
 * writes from any dependency) are sent to stderr; the transport gets the real stdout
 * through `jsonRpcStdout`. Kept free of imports but node:stream so that it really runs
 * before any other module's top-level code.
 */
import { Writable } from 'node:stream';

const realWrite = process.stdout.write.bind(process.stdout) as (chunk: string | Uint8Array, cb?: (err?: Error | null) => void) => boolean;

const toStderr = (...args: unknown[]) => console.error(...args);
/* eslint-disable no-console -- replacing these is the point of this module */
console.log = toStderr;
console.info = toStderr;
console.debug = toStderr;
/* eslint-enable no-console */
// a write that bypasses console (a dependency printing a banner) is moved to stderr too
process.stdout.write = ((chunk: string | Uint8Array, encodingOrCb?: unknown, cb?: unknown) =>
  process.stderr.write(chunk as string, encodingOrCb as BufferEncoding, cb as () => void)) as typeof process.stdout.write;

/** The only way to the real stdout: a stream for the JSON-RPC transport. */
export const jsonRpcStdout = new Writable({
  write(chunk: Buffer, _enc, callback) {
    // honour backpressure: the callback fires when the real stdout has taken the chunk
    realWrite(chunk, (err) => callback(err ?? null));
  },
});
