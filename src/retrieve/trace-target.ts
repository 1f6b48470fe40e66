// @spec SPEC-RETRIEVE-001

import path from 'node:path';
import { CtxError } from '../errors.js';
import { normalizeRepoPath } from '../util/paths.js';

// Apart from the trace itself (trace.ts, with its globs and anchors): a kept answer parses the
// place it is asked about without loading them (DEC-067).

/** A place in the code: a file, a line in it, or a symbol in it. */
export interface TraceTarget {
  path: string;
  line?: number;
  symbol?: string;
}

/** Parse `path`, `path:line` or `path#symbol` (path relative to `cwd`, made repository-relative). */
export function parseTraceTarget(input: string, root: string, cwd: string = root): TraceTarget {
  let rest = input;
  let symbol: string | undefined;
  let line: number | undefined;
  const hash = rest.indexOf('#');
  if (hash > 0) {
    symbol = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  } else {
    const m = /^(.*):(\d+)$/.exec(rest);
    if (m) {
      rest = m[1]!;
      line = Number(m[2]);
    }
  }
  const abs = path.resolve(cwd, rest);
  const rel = path.relative(root, abs);
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw new CtxError('PATH_OUTSIDE_REPO', `path ${rest} is outside the repository ${root}`);
  return { path: normalizeRepoPath(rel.split(path.sep).join('/')), line, symbol };
}
