// @spec SPEC-HOSTILE-001

import { lstat, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { CtxError } from '../errors.js';

/**
 * Resolve a path to write inside the repository's work tree, refusing (PATH_OUTSIDE_REPO)
 * anything that leaves it: `..` segments, an absolute path elsewhere, and any existing
 * component that is a symbolic link, since a link (`.contextia -> ../x`, a linked folder
 * inside it) is where a checked-out repository can point a write outside itself. Paths
 * that do not exist yet are fine: they are created below the last real directory.
 */
export async function containedPath(root: string, target: string): Promise<string> {
  const top = path.resolve(root);
  const abs = path.resolve(top, target);
  const rel = path.relative(top, abs);
  if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) {
    throw new CtxError('PATH_OUTSIDE_REPO', `outside the repository (${top}); git-ctx writes only inside its work tree`, { file: target });
  }
  let cur = top;
  for (const seg of rel.split(path.sep)) {
    cur = path.join(cur, seg);
    const st = await lstat(cur).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return undefined;
      throw new CtxError('IO', `cannot stat ${cur}: ${e.message}`, { cause: e, file: cur });
    });
    if (!st) break;
    if (st.isSymbolicLink()) {
      const relCur = path.relative(top, cur).split(path.sep).join('/');
      throw new CtxError('PATH_OUTSIDE_REPO', `a symbolic link; git-ctx never writes through links (refused writing ${path.relative(top, abs).split(path.sep).join('/')})`, { file: relCur });
    }
  }
  return abs;
}

/** mkdir -p for a directory that must stay inside the repository (see containedPath). */
export async function mkdirContained(root: string, dir: string): Promise<string> {
  const abs = await containedPath(root, dir);
  await mkdir(abs, { recursive: true });
  return abs;
}

/**
 * The work tree a file belongs to, found lexically (no link followed): the nearest
 * ancestor holding a `.git` entry. For writers handed only a file path.
 */
export async function workTreeOf(file: string): Promise<string | undefined> {
  let dir = path.dirname(path.resolve(file));
  for (;;) {
    if (await lstat(path.join(dir, '.git')).then(() => true, () => false)) return dir;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** A name Windows cannot create as a file, in any segment of a path-like id (`CON`, `nul.txt`, `LPT1`). */
export function isReservedFileName(id: string): boolean {
  return id.split('/').some((seg) => /^(?:CON|PRN|AUX|NUL|COM[0-9\u00b9\u00b2\u00b3]|LPT[0-9\u00b9\u00b2\u00b3])(?:\..*)?$/i.test(seg.trim()));
}
