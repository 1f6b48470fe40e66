// @spec SPEC-STORE-001

import { statSync } from 'node:fs';
import type { SqlDatabase } from './driver.js';

/** How long to keep episodes; episodes that received feedback are kept regardless (eval replays them). */
export interface Retention {
  max_episodes: number;
  max_age_days: number;
}
export const DEFAULT_RETENTION: Retention = { max_episodes: 100_000, max_age_days: 180 };

/**
 * What a table family's repository needs of the open database: the connection, the
 * evidence directory, the clock, the retention, and the store's one way of writing (an
 * IMMEDIATE transaction, or a savepoint inside one). The Store (store.ts) is the only maker.
 */
export interface StoreDb {
  readonly db: SqlDatabase;
  readonly dir: string;
  readonly retention: Retention;
  /** rotate the episode journal past this many bytes */
  readonly rotateBytes: number;
  clock(): number;
  write<T>(fn: () => T): T;
  /** one column of the first row of a statement */
  scalar(sql: string, column?: string, ...params: unknown[]): unknown;
}

export function statOrUndefined(file: string): { size: number; mtimeMs: number } | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}
