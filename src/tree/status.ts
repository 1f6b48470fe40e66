// @spec SPEC-SCALE-001

import { lstatSync, readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeCacheFile } from '../cache/file.js';
import { kindFile, memo, type Memo } from '../cache/memo.js';
import { resolveGitDir } from '../git/git-dir.js';
import { runGit, splitZ } from '../git/exec.js';
import { trackedListing, type TrackedListing } from './listing.js';
import { indexFileOf, indexStamp, privateIndexCopies } from './state.js';
import { sha256 } from '../util/hash.js';
import { mark } from '../util/timing.js';

/** Bump when what the key covers changes: an old private index is then copied afresh. */
const STATUS_VERSION = 1;

/** How the working tree differs from the git index, as one `git status` saw it. */
export interface WorktreeState {
  /** the git index's stamp the whole state describes */
  stamp: string;
  /** the tracked files, as the index records them (paths, modes, staged blob ids) */
  listing: TrackedListing;
  /** tracked paths deleted from disk */
  gone: Set<string>;
  /** tracked paths whose content on disk differs from the index (or unmerged): read and hash them */
  changed: Set<string>;
  /** untracked, not ignored paths (files, or what git lists for a nested repository) */
  untracked: string[];
}

/** Size, times and inode of a file, or '-' when it does not exist. */
function statStamp(file: string | undefined): string {
  if (!file) return '-';
  try {
    const st = statSync(file, { bigint: true });
    return `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}`;
  } catch {
    return '-';
  }
}

/**
 * The configuration files that decide what git status reports (excludes files, the
 * untracked cache setting, fsmonitor): a change to any of them means a fresh private index.
 */
function configStamp(gitDir: string): string {
  const home = os.homedir();
  const xdg = process.env.XDG_CONFIG_HOME || path.join(home, '.config');
  const files = [path.join(gitDir, 'config'), path.join(gitDir, 'info', 'exclude'), path.join(home, '.gitconfig'), path.join(xdg, 'git', 'config'), path.join(xdg, 'git', 'ignore')];
  const env = ['GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG_NOSYSTEM', 'GIT_CONFIG_COUNT'].map((k) => `${k}=${process.env[k] ?? ''}`).join(',');
  return [...files.map(statStamp), statStamp(process.env.GIT_CONFIG_GLOBAL), env].join('|');
}

interface PrivateKey {
  /** git's untracked cache is used unless the repository turned it off explicitly */
  untrackedCache: boolean;
}

interface PrivateIndexPlace {
  /** the copy */
  file: string;
  /** what the copy was made for: the real index's stamp and git's configuration */
  key: string;
  keyMemo: Memo<PrivateKey>;
  gitDir: string;
  real: string;
}

/** Where the private copy for this work tree and use lives, and the key it must have; undefined where it cannot apply. */
function privateIndexPlace(root: string, stamp: string, use: string): PrivateIndexPlace | undefined {
  // one per work tree (linked worktrees of a clone share the cache folder, not their index) and use
  const tree = sha256(root).slice(0, 12) + use;
  // git writes the copy itself (GIT_INDEX_FILE): the one cache whose file a caller must name
  const file = kindFile(root, 'worktree-index', tree);
  const keyMemo = memo<PrivateKey>(root, 'worktree-index-key', tree);
  const gitDir = resolveGitDir(root);
  const real = indexFileOf(root);
  if (!file || !keyMemo.on || !gitDir || !real) return undefined;
  // a split index names a shared index file in the git directory, which a write of the copy
  // could add to or expire: such repositories keep the plain listing
  if (hasSharedIndex(path.dirname(real)) || hasSharedIndex(gitDir)) return undefined;
  return { file, keyMemo, gitDir, real, key: `${STATUS_VERSION} ${stamp} ${configStamp(gitDir)}` };
}

/** The private copy when it is already there for this index and configuration (no process, no copy). */
function knownPrivateIndex(place: PrivateIndexPlace): { file: string; untrackedCache: boolean } | undefined {
  const known = place.keyMemo.get(place.key);
  return known && typeof known.untrackedCache === 'boolean' && statStamp(place.file) !== '-' ? { file: place.file, untrackedCache: known.untrackedCache } : undefined;
}

/**
 * The private copy of the git index that `git status` may keep refreshed: its own stat data
 * and git's untracked cache (`core.untrackedCache`) live there, so a warm run stats files
 * and directories but reads no directory that has not changed, without ever writing the
 * user's index. Copied afresh whenever the real index or git's configuration changes.
 */
async function privateIndex(root: string, stamp: string, use = ''): Promise<{ file: string; untrackedCache: boolean } | undefined> {
  const place = privateIndexPlace(root, stamp, use);
  if (!place) return undefined;
  return knownPrivateIndex(place) ?? copyPrivateIndex(root, stamp, place);
}

/** Copy the real index to the private place (see privateIndex) and remember what for. */
async function copyPrivateIndex(root: string, stamp: string, place: PrivateIndexPlace): Promise<{ file: string; untrackedCache: boolean } | undefined> {
  const { file, keyMemo, key, real } = place;
  let bytes: Buffer;
  let mtimeSec: number;
  try {
    mtimeSec = Math.floor(statSync(real).mtimeMs / 1000);
    bytes = readFileSync(real);
  } catch {
    return undefined;
  }
  // the index may have changed while it was read: copy only a stable one
  if (indexStamp(root) !== stamp) return undefined;
  // an explicit `core.untrackedCache=false` (a filesystem whose directory times cannot be
  // trusted) is honoured; unset or true lets git keep the cache in the private copy
  const uc = (await runGit(['config', '--type=bool', '--get', 'core.untrackedCache'], { cwd: root, okCodes: [1] }).catch(() => '')).trim();
  if (!writeCacheFile(file, bytes)) return undefined;
  // git tells racily clean entries (written in the same instant as the index) by the index
  // file's time: the copy keeps the original's, rounded down to the second, so that every
  // entry git would re-check in the real index is re-checked in the copy too
  try {
    utimesSync(file, mtimeSec, mtimeSec);
  } catch {
    return undefined;
  }
  const value: PrivateKey = { untrackedCache: uc !== 'false' };
  if (!keyMemo.set(key, value)) return undefined;
  mark('worktree status: private index copied');
  return { file, ...value };
}

function hasSharedIndex(dir: string): boolean {
  try {
    return readdirSync(dir).some((n) => n.startsWith('sharedindex.'));
  } catch {
    return false;
  }
}

/** The text after the n-th space of a status line (the path, which may hold spaces). */
function nthField(line: string, n: number): string {
  let i = -1;
  for (let k = 0; k < n; k++) i = line.indexOf(' ', i + 1);
  return line.slice(i + 1);
}

/**
 * `git status --porcelain=v2 -z --untracked-files=all` limited to `spec` (`--` and paths), run
 * when it can on a private copy of the index: git keeps the stat data it refreshed there, so
 * files it had to re-read (racily clean after a checkout, touched without a change) are
 * re-read once, not on every run, while the user's index is never written (DEC-041). Run on
 * the user's index, read-only, when the private copy does not apply (GIT_CTX_TREE=plain,
 * caches off, a split index) or the index changed meanwhile.
 */
export function statusUnder(root: string, spec: string[]): Promise<string> {
  const args = ['--literal-pathspecs', 'status', '--porcelain=v2', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all', ...spec];
  const stamp = privateIndexCopies() ? indexStamp(root) : undefined;
  // a copy of its own, without git's untracked cache: whether a file was added to a records
  // folder is read from the folder each time (a few directories), never from a cache that a
  // file written in the same instant as the cache could slip past; check's copy keeps its cache
  const onCopy = (priv: { file: string } | undefined): Promise<string> => {
    if (!priv) return runGit(args, { cwd: root });
    return runGit(['-c', 'core.untrackedCache=false', ...args], { cwd: root, env: { GIT_INDEX_FILE: priv.file, GIT_OPTIONAL_LOCKS: '1' } }).then((out) => (indexStamp(root) === stamp ? out : runGit(args, { cwd: root })));
  };
  if (!stamp) return onCopy(undefined);
  // a warm run starts git here and now, without a turn of the event loop: the earlier it
  // starts (and the smaller this process still is, which a fork copies), the sooner it answers
  const place = privateIndexPlace(root, stamp, '-scoped');
  const known = place ? knownPrivateIndex(place) : undefined;
  if (known || !place) return onCopy(known);
  return copyPrivateIndex(root, stamp, place).then(onCopy);
}

/**
 * The whole working tree's state against the git index with one `git status` on a private
 * copy of the index (see privateIndex) beside the remembered index listing (trackedListing).
 * undefined when this path does not apply (no index yet, caches disabled, the index changed
 * while it was read): the caller then lists the tree the plain way.
 */
export async function worktreeState(root: string): Promise<WorktreeState | undefined> {
  if (!privateIndexCopies()) return undefined;
  const stamp = indexStamp(root);
  if (!stamp) return undefined;
  const priv = await privateIndex(root, stamp);
  if (!priv) return undefined;
  const [listing, status] = await Promise.all([
    trackedListing(root),
    runGit(
      [
        '-c',
        `core.untrackedCache=${priv.untrackedCache}`,
        '--literal-pathspecs',
        'status',
        '--porcelain=v2',
        '-z',
        // git keeps its untracked cache only for the normal mode: untracked folders are
        // reported as `dir/` and expanded below, limited to them
        '--untracked-files=normal',
        '--no-renames',
        '--ignore-submodules=dirty',
      ],
      // the private index is this tool's own file: git may refresh it (GIT_OPTIONAL_LOCKS)
      { cwd: root, env: { GIT_INDEX_FILE: priv.file, GIT_OPTIONAL_LOCKS: '1' } },
    ),
  ]);
  mark('worktree status: git status on the private index');
  // a path with a newline is left out of the listing: the plain way lists it
  if (listing.skipped) return undefined;
  const gone = new Set<string>();
  const changed = new Set<string>();
  const untracked: string[] = [];
  const dirs: string[] = [];
  for (const line of splitZ(status)) {
    if (line.startsWith('? ')) {
      const p = line.slice(2);
      (p.endsWith('/') ? dirs : untracked).push(p);
    } else if (line.startsWith('1 ')) {
      // 1 XY sub mH mI mW hH hI path: Y is the work tree against the index
      const y = line[3];
      const p = nthField(line, 8);
      if (y === 'D') gone.add(p);
      else if (y !== '.') changed.add(p);
    } else if (line.startsWith('u ')) changed.add(nthField(line, 10)); // unmerged: read the file itself
  }
  // a tracked file replaced by a folder: the normal mode does not name the folder's files
  for (const p of gone) {
    try {
      if (lstatSync(path.join(root, p)).isDirectory()) dirs.push(`${p}/`);
    } catch {
      /* deleted: nothing there */
    }
  }
  if (dirs.length) {
    // untracked folders in full, as the plain listing gives them (only what status named)
    const out = await runGit(['--literal-pathspecs', 'ls-files', '-z', '-o', '--exclude-standard', '--', ...dirs], { cwd: root });
    for (const p of splitZ(out)) if (p) untracked.push(p);
  }
  // everything above must describe one state of the index
  if (indexStamp(root) !== stamp) return undefined;
  return { stamp, listing, gone, changed, untracked };
}
