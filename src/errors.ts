/**
 * One small errors module. Every known failure is a CtxError with a stable code;
 * front ends map them to exit code 2. Messages say what was wrong, what was expected
 * and where (file:line when there is one).
 */
export type ErrorCode =
  | 'USAGE'
  | 'NOT_A_REPO'
  | 'GIT_MISSING'
  | 'GIT_FAILED'
  | 'BAD_REVISION'
  | 'UNKNOWN_ID'
  | 'PARSE'
  | 'CONFIG'
  | 'EXISTS'
  | 'LOCKED'
  | 'PATH_OUTSIDE_REPO'
  | 'BUDGET'
  | 'IO'
  | 'STORE'
  /** a git source (another repository's records) cannot be resolved, fetched or read */
  | 'SOURCE';

export class CtxError extends Error {
  readonly code: ErrorCode;
  readonly file?: string;
  readonly line?: number;
  readonly hint?: string;
  constructor(code: ErrorCode, message: string, options: { cause?: unknown; file?: string; line?: number; hint?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CtxError';
    this.code = code;
    this.file = options.file;
    this.line = options.line;
    this.hint = options.hint;
  }
  /** "file:line: message" when a location is known. */
  get located(): string {
    if (!this.file) return this.message;
    return `${this.file}${this.line ? `:${this.line}` : ''}: ${this.message}`;
  }
}

export function isCtxError(e: unknown): e is CtxError {
  return e instanceof CtxError;
}
