// @spec SPEC-STALENESS-001

import { existsSync } from 'node:fs';
import path from 'node:path';
import { resolveGitDir } from '../git/git-dir.js';
import type { Snapshot } from '../snapshot/types.js';
import { sha256 } from '../util/hash.js';

/**
 * True when the clone is shallow, from the filesystem (`<git-dir>/shallow` lists the
 * grafts): no git process. Undefined when the git dir cannot be found that way.
 */
export function shallowFromGitDir(root: string): boolean | undefined {
  const g = resolveGitDir(root);
  return g === undefined ? undefined : existsSync(path.join(g, 'shallow'));
}

/**
 * A digest of everything a snapshot holds (paths, modes, blob ids). Judgements that search
 * the whole snapshot (a lost anchor looked for elsewhere) depend on it; the others do not.
 * Work-tree files that are modified or untracked have no blob id in the listing and are
 * hashed here, which reads only them.
 */
export async function snapshotDigest(snapshot: Snapshot): Promise<string> {
  const parts: string[] = [snapshot.kind, snapshot.commit ?? ''];
  for (const e of await snapshot.list()) parts.push(`${e.mode} ${e.blob ?? (await snapshot.blobOf(e.path)) ?? '-'} ${e.path}`);
  return sha256(parts.join('\n'));
}
