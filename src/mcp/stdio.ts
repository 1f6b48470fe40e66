// the guard must be the first import: ES modules evaluate in import order
import { jsonRpcStdout } from './console-guard.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createServer, type CreateServerOptions } from './server.js';

/** Options of `runStdio`. */
export type RunStdioOptions = Omit<CreateServerOptions, 'log'>;

/**
 * Serve MCP over stdin/stdout until the client goes away (stdin ends or closes).
 * Resolves then, so the CLI can return its exit code. Logs go to stderr.
 */
export async function runStdio(options: RunStdioOptions): Promise<void> {
  const server = createServer({ ...options, log: (m) => process.stderr.write(m.endsWith('\n') ? m : m + '\n') });
  const transport = new StdioServerTransport(process.stdin, jsonRpcStdout);
  await new Promise<void>((resolve, reject) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      server.close().then(resolve, reject);
    };
    transport.onclose = finish;
    process.stdin.once('end', finish);
    process.stdin.once('close', finish);
    server.connect(transport).catch(reject);
  });
}
