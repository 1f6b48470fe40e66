// @spec SPEC-RETRIEVE-001

import path from 'node:path';
import type { Config } from '../config.js';
import type { RetrievalResult } from '../retrieve/types.js';

/** What a file's question is answered with, before the session's memory: kept as it is (DEC-062). */
export type PlaceAnswer =
  | { skipped: string }
  | {
      r: RetrievalResult;
      /** which lines of the file break a decision's confirmation (DEC-052) */
      note: string;
      /** each result's record blob: a record changed since a session was shown it is shown again */
      blobs: Record<string, string>;
      /** the config's `record:` setting, for the episode */
      record: Config['record'];
      /** whether the files the answer was computed from differ from HEAD (the episode's flag); undefined: not known */
      dirty?: boolean;
    };

/** A file's path in the repository at `root` (with `/`), or undefined when it is outside. */
export function inside(root: string, abs: string): string | undefined {
  const rel = path.relative(root, abs).split(path.sep).join('/');
  return rel.startsWith('..') || path.isAbsolute(rel) ? undefined : rel;
}
