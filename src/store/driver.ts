// @spec SPEC-STORE-001

import { createRequire } from 'node:module';
import { CtxError } from '../errors.js';

/** The few calls of a better-sqlite3-style driver the store uses (libsql implements them). */
export interface SqlStatement {
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}
export interface SqlDatabase {
  prepare(sql: string): SqlStatement;
  exec(sql: string): unknown;
  close(): void;
  readonly inTransaction: boolean;
}
export type SqlDriver = new (file: string, options?: { timeout?: number }) => SqlDatabase;

let cached: SqlDriver | undefined;

/**
 * The SQLite driver (libsql, DEC-005), loaded on first use only: nothing on the path of
 * check, bundles, the pre-commit hook or the Action imports this module's driver, so they
 * run where the native binary is missing. `GIT_CTX_SQLITE_MODULE` names another module with
 * the same API (used by tests to prove the failure path; better-sqlite3 works too).
 */
export function loadDriver(env: NodeJS.ProcessEnv = process.env): SqlDriver {
  const name = env.GIT_CTX_SQLITE_MODULE || 'libsql';
  if (cached && name === 'libsql') return cached;
  try {
    // createRequire rather than import(): libsql is CommonJS and the store's API is synchronous
    const mod = createRequire(import.meta.url)(name) as SqlDriver | { default: SqlDriver };
    const driver = typeof mod === 'function' ? mod : mod.default;
    if (name === 'libsql') cached = driver;
    return driver;
  } catch (e) {
    throw new CtxError('STORE', `the evidence store needs the SQLite module "${name}", which could not be loaded (${(e as Error).message.split('\n')[0]})`, {
      cause: e,
      hint: 'reinstall git-ctx (npm install) on a platform with a prebuilt libsql binary; every command except episodes, feedback and eval works without it',
    });
  }
}

/**
 * Whether the SQLite driver's module can be found, without loading it (no native code, no
 * libc probe): lets `impact` skip opening the store on a warm run and still report where its
 * edges are kept (DEC-032). Found is not proof it loads; a front end that opens the store learns that.
 */
export function driverResolvable(env: NodeJS.ProcessEnv = process.env): boolean {
  const name = env.GIT_CTX_SQLITE_MODULE || 'libsql';
  if (cached && name === 'libsql') return true;
  try {
    createRequire(import.meta.url).resolve(name);
    return true;
  } catch {
    return false;
  }
}
