import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BIN, type CliResult } from '../helpers/cli.js';

/** One request the fake server received. */
export interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export type Handler = (req: Seen, res: ServerResponse, n: number) => void;

/** A local HTTP server on 127.0.0.1 (a free port) that answers with the test's handler. */
export async function fakeServer(handler: Handler): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      const s: Seen = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      seen.push(s);
      handler(s, res, seen.length);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/**
 * The fake model: each dimension is a concept, and a text's vector counts the words of each
 * concept it uses, so paraphrases with no word in common still land close together.
 */
export const CONCEPTS: string[][] = [
  ['money', 'cents', 'pennies', 'decimals', 'decimal', 'amounts', 'prices', 'price', 'invoice', 'invoices', 'integer'],
  ['mail', 'email', 'emails', 'letters', 'queue', 'queued', 'delivered', 'worker', 'sent', 'sends'],
  ['cache', 'cached', 'cdn', 'quick', 'fast', 'storefront', 'pages', 'edge'],
  ['login', 'session', 'sessions', 'cookie', 'cookies', 'signed', 'secret'],
  ['logs', 'log', 'json', 'lines', 'collector', 'trace'],
  ['time', 'times', 'timestamps', 'utc', 'zone', 'clock'],
  ['pictures', 'images', 'resized', 'upload', 'uploads', 'widths', 'photos'],
  ['the', 'a', 'of', 'and', 'are', 'is', 'we', 'how', 'why'],
];
export const DIMS = CONCEPTS.length;

export function fakeVector(text: string): number[] {
  const v = new Array<number>(DIMS).fill(0);
  for (const w of text.toLowerCase().split(/[^a-z]+/)) {
    CONCEPTS.forEach((c, i) => {
      if (c.includes(w)) v[i]! += 1;
    });
  }
  v[DIMS - 1]! += 0.125; // never the zero vector (and exact in float32)
  return v;
}

/** An OpenAI-compatible /v1/embeddings answer, data in reverse order (clients must sort by index). */
export function openaiAnswer(body: unknown): unknown {
  const input = (body as { input: string[] }).input;
  return { object: 'list', model: (body as { model: string }).model, data: input.map((t, index) => ({ object: 'embedding', index, embedding: fakeVector(t) })).reverse() };
}

/** Run the built CLI as a real process without blocking this one (the fake server answers meanwhile). */
export function runCliAsync(args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd, env: { ...process.env, NO_COLOR: '1', GIT_CONFIG_NOSYSTEM: '1', ...opts.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
