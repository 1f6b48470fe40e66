// @spec SPEC-SCALE-001

import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync, type BigIntStats } from 'node:fs';
import path from 'node:path';
import { resolveGitDir } from '../git/git-dir.js';
import { mark } from '../util/timing.js';
import { parseGitIndex, type GitIndexFile } from './index-file.js';

/**
 * How far the tree module may answer from what it keeps. By default: from the index's stat
 * data, the listing remembered by the index's stamp, the hook's per-commit memos, and git's
 * status run on private copies of the index. `GIT_CTX_TREE=git` asks git for every answer
 * (still on the private copies); `GIT_CTX_TREE=plain` also runs git on the user's index, as a
 * repository seen for the first time. The one switch left of the four that turned single
 * shortcuts off (DEC-045): the from-scratch answers every kept one is tested against.
 */
export function treeShortcuts(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.GIT_CTX_TREE !== 'git' && env.GIT_CTX_TREE !== 'plain';
}

/** Whether git may run on private copies of the index (see treeShortcuts). */
export function privateIndexCopies(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.GIT_CTX_TREE !== 'plain';
}

let located: { root: string; file: string } | undefined;

/**
 * The index file of a work tree (its own for a linked worktree; GIT_INDEX_FILE wins). Where
 * it is does not change while a process runs: found once per work tree, then every stamp
 * costs one stat.
 */
export function indexFileOf(root: string): string | undefined {
  if (process.env.GIT_INDEX_FILE) return path.resolve(root, process.env.GIT_INDEX_FILE);
  if (located?.root === root) return located.file;
  const dotgit = path.join(root, '.git');
  let file: string | undefined;
  try {
    if (statSync(dotgit).isDirectory()) file = path.join(dotgit, 'index');
    else {
      const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotgit, 'utf8'));
      file = m ? path.join(path.resolve(root, m[1]!.trim()), 'index') : undefined;
    }
  } catch {
    return undefined;
  }
  if (file) located = { root, file };
  return file;
}

const stampOf = (st: BigIntStats): string => `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}:${st.dev}`;

/**
 * What the git index file is right now, to the nanosecond: size, modification and change
 * times, inode, device. git rewrites the file (a new inode through rename) whenever it
 * changes, so an equal stamp means the same staged paths, blob ids and stat data. undefined
 * without an index (a fresh repository): nothing is remembered then.
 */
export function indexStamp(root: string): string | undefined {
  const f = indexFileOf(root);
  if (!f) return undefined;
  try {
    return stampOf(statSync(f, { bigint: true }));
  } catch {
    return undefined;
  }
}

/** The git index as read once: its file, the stamp of the bytes read, and the parsed entries. */
export interface IndexRead {
  file: string;
  stamp: string;
  /** undefined when this reader cannot parse it safely (see GitIndexFile): git answers then */
  index: GitIndexFile | undefined;
}

let last: IndexRead | undefined;

/**
 * The git index of a work tree, read and parsed once per process and stamp: every question
 * of a run (the place's stat data, the records folders, the focus files, the episode's dirty
 * flag) is answered from this one read. A long-lived process (the MCP server) calls it again
 * for each request and reads the file again only when its stamp changed. The stamp is the one
 * of the bytes read (fstat of the open file): the entries always belong to it.
 */
export function readIndex(root: string): IndexRead | undefined {
  const file = indexFileOf(root);
  if (!file) return undefined;
  // the same file read before: a stat says whether it is still that one
  if (last && last.file === file && indexStamp(root) === last.stamp) return last;
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const st = fstatSync(fd, { bigint: true });
    const buf = readFileSync(fd);
    last = { file, stamp: stampOf(st), index: sha256Objects(root) ? undefined : parseGitIndex(buf, st.mtimeNs) };
    mark('git index read');
    return last;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The parsed index (see readIndex), or undefined when there is none or it cannot be read safely. */
export function gitIndex(root: string): GitIndexFile | undefined {
  return readIndex(root)?.index;
}

/** Whether the index is still the one of `stamp` (one stat). */
export function indexStill(root: string, stamp: string | undefined): boolean {
  return stamp !== undefined && indexStamp(root) === stamp;
}

/** The index's trailing checksum: from the one read when it parsed, else its last 20 bytes. */
export function indexChecksum(root: string): string | undefined {
  const read = readIndex(root);
  if (read?.index) return read.index.checksum;
  const file = indexFileOf(root);
  if (!file) return undefined;
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    if (size < 32) return undefined;
    const buf = Buffer.alloc(20);
    return readSync(fd, buf, 0, 20, size - 20) === 20 ? buf.toString('hex') : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A repository storing sha256 object ids: its index entries are not the shape this reader knows. */
function sha256Objects(root: string): boolean {
  const gitDir = resolveGitDir(root);
  try {
    return gitDir !== undefined && /^\s*objectformat\s*=\s*sha256/im.test(readFileSync(path.join(gitDir, 'config'), 'utf8'));
  } catch {
    return false;
  }
}
