import path from 'node:path';
import { CtxError } from '../errors.js';

/** Repository paths are always posix, relative, and never escape the root. */
export function toRepoPath(root: string, input: string, cwd = root): string {
  const abs = path.resolve(cwd, input);
  const rel = path.relative(root, abs);
  if (rel === '' ) return '';
  if (rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new CtxError('PATH_OUTSIDE_REPO', `path ${input} is outside the repository ${root}`);
  }
  return rel.split(path.sep).join('/');
}

export function normalizeRepoPath(p: string): string {
  let s = p.replace(/\\/g, '/');
  while (s.startsWith('./')) s = s.slice(2);
  return s.replace(/\/+$/, '');
}
