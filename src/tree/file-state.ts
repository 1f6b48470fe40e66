// @spec SPEC-SCALE-001

import { lstatSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { gitBlobHash } from '../util/hash.js';
import type { GitIndexFile } from './index-file.js';

/** What one file on disk is against its index entry (see fileState). */
export type FileState = 'clean' | 'dirty' | 'absent' | 'git';

/** A file whose stat changed is hashed up to this size; a larger one is left to git. */
const MAX_HASH_BYTES = 32 * 1024 * 1024;

/** The index entry at exactly `p` (stage 0 first). */
export function entryAt(index: GitIndexFile, p: string) {
  const at = index.under(p).filter((e) => e.path === p);
  return at.find((e) => index.stage(e) === 0) ?? at[0];
}

/** One file's work tree against the index: git's own comparison (stat data, then content) for the plain cases. */
export function fileState(root: string, index: GitIndexFile, p: string): FileState {
  const e = entryAt(index, p);
  const abs = path.join(root, p);
  let st;
  try {
    // no error built for a missing file: an answer names files that are not on disk (a pinned
    // source's records), and an error with its stack costs more than the stat
    st = lstatSync(abs, { bigint: true, throwIfNoEntry: false });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return 'git';
  }
  if (!st) return e ? 'dirty' : 'absent'; // deleted; or never a file (nothing read)
  if (!e) return st.isFile() || st.isSymbolicLink() ? 'dirty' : 'absent'; // not in the index: not in the commit either
  if (index.stage(e) !== 0) return 'dirty';
  if (index.special(e)) return 'git';
  const mode = index.mode(e);
  if (mode === '160000') return 'clean'; // a submodule: its own repository
  if (mode === '120000') {
    if (!st.isSymbolicLink()) return 'dirty';
    return gitBlobHash(Buffer.from(readlinkSync(abs, 'buffer'))) === index.blob(e) ? 'clean' : 'dirty';
  }
  if (!st.isFile()) return 'dirty';
  if (((Number(st.mode) & 0o100) !== 0) !== (mode === '100755')) return 'git'; // core.fileMode decides
  if (index.statMatches(e, st)) return 'clean';
  if (st.size > BigInt(MAX_HASH_BYTES)) return 'git';
  // stat changed (a touch, a checkout): the content decides, as for git
  return gitBlobHash(readFileSync(abs)) === index.blob(e) ? 'clean' : 'dirty';
}
