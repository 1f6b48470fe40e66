import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { CtxError } from '../errors.js';
import { released, running } from './running.js';

export interface GitRunOptions {
  cwd: string;
  input?: string | Buffer;
  /** Return stdout as a Buffer (for -z output with arbitrary bytes). */
  buffer?: boolean;
  /** Exit codes that are not failures (e.g. 1 for `git diff --quiet`). */
  okCodes?: number[];
  env?: NodeJS.ProcessEnv;
}

let gitAvailable: boolean | undefined;
const GIT_BIN = process.env.GIT_CTX_GIT_BINARY ?? 'git';

/**
 * True when a git binary can be run. GIT_CTX_NO_GIT=1 forces the isomorphic-git path.
 * No probe process is spawned: git is assumed present until a spawn fails with ENOENT
 * (see runGit), which saves a process on every command's start-up.
 */
export async function hasGitBinary(): Promise<boolean> {
  if (process.env.GIT_CTX_NO_GIT === '1') return false;
  return gitAvailable !== false;
}

const BASE_ENV = { GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0' };

export function runGit(args: string[], opts: GitRunOptions & { buffer: true }): Promise<Buffer>;
export function runGit(args: string[], opts: GitRunOptions): Promise<string>;
export function runGit(args: string[], opts: GitRunOptions): Promise<string | Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      GIT_BIN,
      args,
      {
        cwd: opts.cwd,
        encoding: 'buffer',
        maxBuffer: 1024 * 1024 * 1024,
        env: { ...process.env, ...BASE_ENV, ...opts.env },
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as NodeJS.ErrnoException).code === 'number' ? Number((err as NodeJS.ErrnoException).code) : (err as { code?: unknown }).code) : 0;
        if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') {
          gitAvailable = false;
          reject(new CtxError('GIT_MISSING', 'git binary not found on PATH', { cause: err }));
          return;
        }
        if (err && !(typeof code === 'number' && opts.okCodes?.includes(code))) {
          const msg = stderr.toString('utf8').trim() || err.message;
          const sub = args.find((a) => !a.startsWith('-')) ?? args[0];
          reject(new CtxError('GIT_FAILED', `git ${sub} failed: ${msg}`, { cause: err }));
          return;
        }
        resolve(opts.buffer ? stdout : stdout.toString('utf8'));
      },
    );
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}

/** Split NUL-terminated git output. */
export function splitZ(out: string): string[] {
  const parts = out.split('\0');
  if (parts.length && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

interface Pending {
  resolve: (v: { oid: string; type: string; content: Buffer } | undefined) => void;
  reject: (e: unknown) => void;
}

/**
 * One long-lived `git cat-file --batch` process. Requests are written in order and
 * answers are parsed from a single stdout stream, so many reads cost one spawn.
 */
export class CatFileBatch {
  private child: ChildProcessWithoutNullStreams | undefined;
  private queue: Pending[] = [];
  private buf: Buffer = Buffer.alloc(0);
  private held: Buffer[] = [];
  private heldLen = 0;
  private need: { oid: string; type: string; size: number } | undefined;
  private failed: unknown;

  constructor(private readonly cwd: string) {}

  private start(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const child = spawn(GIT_BIN, ['cat-file', '--batch'], { cwd: this.cwd, env: { ...process.env, ...BASE_ENV } });
    child.stdout.on('data', (d: Buffer) => {
      // a large blob arrives in many chunks: hold them until the object is complete, so a
      // 200 MB file costs one copy rather than one growing copy per 64 KB chunk (quadratic)
      if (this.need && this.buf.length + this.heldLen + d.length < this.need.size + 1) {
        this.held.push(d);
        this.heldLen += d.length;
        return;
      }
      if (this.held.length) {
        this.buf = Buffer.concat([this.buf, ...this.held, d]);
        this.held = [];
        this.heldLen = 0;
      } else this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
      this.drain();
    });
    child.on('error', (e) => this.fail(e));
    child.on('close', () => this.fail(new CtxError('GIT_FAILED', 'git cat-file --batch exited')));
    child.stdin.on('error', (e) => this.fail(e));
    this.child = child;
    running(this);
    return child;
  }

  private fail(e: unknown): void {
    this.failed = e;
    this.child = undefined;
    released(this);
    const q = this.queue;
    this.queue = [];
    for (const p of q) p.reject(e);
  }

  private drain(): void {
    for (;;) {
      if (!this.need) {
        const nl = this.buf.indexOf(10);
        if (nl < 0) return;
        const header = this.buf.subarray(0, nl).toString('utf8');
        this.buf = this.buf.subarray(nl + 1);
        const p = this.queue.shift();
        if (!p) return;
        if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
          p.resolve(undefined);
          continue;
        }
        const [oid, type, size] = header.split(' ');
        this.need = { oid: oid!, type: type!, size: Number(size) };
        this.queue.unshift(p);
      }
      const n = this.need;
      if (this.buf.length < n.size + 1) return;
      const content = Buffer.from(this.buf.subarray(0, n.size));
      this.buf = this.buf.subarray(n.size + 1);
      this.need = undefined;
      this.queue.shift()!.resolve({ oid: n.oid, type: n.type, content });
    }
  }

  /** Read an object by name (oid, or rev:path). Undefined when missing. */
  read(name: string): Promise<{ oid: string; type: string; content: Buffer } | undefined> {
    if (/[\n]/.test(name)) return Promise.reject(new CtxError('USAGE', `object name contains a newline: ${JSON.stringify(name)}`));
    const child = this.start();
    if (this.failed && !this.child) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.queue.push({ resolve, reject });
      child.stdin.write(name + '\n');
    });
  }

  close(): void {
    const c = this.child;
    this.child = undefined;
    released(this);
    if (c) {
      c.removeAllListeners('close');
      c.stdin.end();
    }
  }
}
