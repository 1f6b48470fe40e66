// @spec SPEC-HOSTILE-001

import { lstatSync } from 'node:fs';
import path from 'node:path';
import { CtxError } from '../errors.js';
import type { Snapshot } from '../snapshot/types.js';
import type { LoadProblem } from './types.js';

/**
 * The artifact directory itself (or a folder above it) must be a real directory: a symbolic
 * link is never followed, so without this the set would read as a clean "0 artifacts".
 * A link is a finding (`symlink-skipped`); a regular file where the directory should be is
 * a known error (exit 2) naming the path.
 */
export async function checkArtifactDir(snapshot: Snapshot, dir: string): Promise<LoadProblem[]> {
  const segs = dir.split('/').filter(Boolean);
  for (let i = 1; i <= segs.length; i++) {
    const rel = segs.slice(0, i).join('/');
    let kind: 'link' | 'file' | undefined;
    if (snapshot.kind === 'commit') {
      const hit = (await snapshot.listUnder(segs.slice(0, i - 1).join('/'))).find((e) => e.path === rel);
      if (hit) kind = hit.mode === '120000' ? 'link' : 'file';
    } else {
      // the work tree (and what the index will become) as it is on disk, links not followed
      // one lstat per segment, synchronously: a thread-pool round trip (and node:fs/promises,
      // which a warm run otherwise never loads) costs more than the call itself
      const st = lstatSync(path.join(snapshot.root, ...segs.slice(0, i)), { throwIfNoEntry: false });
      if (st?.isSymbolicLink()) kind = 'link';
      else if (st && !st.isDirectory()) kind = 'file';
    }
    if (kind === 'link') return [{ file: rel, rule: 'symlink-skipped', message: `${rel} is a symbolic link; the artifact directory ${dir} is never read through a link, so no artifact loaded` }];
    if (kind === 'file') throw new CtxError('CONFIG', `a file where the artifact directory ${dir} should be; expected a directory`, { file: rel });
  }
  return [];
}
