// the guard must be the first import: ES modules evaluate in import order
import { jsonRpcStdout } from './console-guard.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createServer, type CreateServerOptions } from './server.js';

/** Options of `runStdio`. */
export type RunStdioOptions = Omit<CreateServerOptions, 'log'>;

/** How long requests still being answered when stdin ends may take before the server stops anyway. */
const DRAIN_MS = 120_000;

/**
 * Serve MCP over stdin/stdout until the client goes away (stdin ends or closes).
 * Resolves then, so the CLI can return its exit code. Logs go to stderr.
 * Requests read before stdin ended are answered first: a script that pipes its requests in
 * (`printf '…' | git ctx mcp`) got the answer to `initialize` and lost the tool calls after
 * it (trials30). @decision DEC-129
 */
export async function runStdio(options: RunStdioOptions): Promise<void> {
  const server = createServer({ ...options, log: (m) => process.stderr.write(m.endsWith('\n') ? m : m + '\n') });
  const transport = new StdioServerTransport(process.stdin, jsonRpcStdout);
  await new Promise<void>((resolve, reject) => {
    let done = false;
    let ending = false;
    const pending = new Set<string | number>();
    const finish = () => {
      if (done) return;
      done = true;
      server.close().then(resolve, reject);
    };
    const end = () => {
      if (ending) return;
      ending = true;
      if (!pending.size) return finish();
      setTimeout(finish, DRAIN_MS).unref();
    };
    transport.onclose = finish;
    process.stdin.once('end', end);
    process.stdin.once('close', end);
    server
      .connect(transport)
      .then(() => {
        // the protocol set its handler on connect: count the requests it is answering
        const onmessage = transport.onmessage;
        transport.onmessage = (message: JSONRPCMessage) => {
          if ('method' in message && 'id' in message) pending.add(message.id);
          onmessage?.(message);
        };
        const send = transport.send.bind(transport);
        transport.send = async (message: JSONRPCMessage) => {
          await send(message);
          if (!('method' in message) && 'id' in message && message.id !== undefined && pending.delete(message.id) && ending && !pending.size) finish();
        };
      })
      .catch(reject);
  });
}
