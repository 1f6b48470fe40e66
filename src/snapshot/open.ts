// @spec SPEC-SNAPSHOT-001

import path from 'node:path';
import { CtxError } from '../errors.js';
import { hasGitBinary, runGit } from '../git/exec.js';
import { fastHead } from '../git/fast-head.js';
import { CommitSnapshot, IndexSnapshot, WorktreeSnapshot } from './git-snapshot.js';
import { IsoSnapshot, isoFindRoot, isoResolve } from './iso-snapshot.js';
import type { Snapshot, SnapshotKind } from './types.js';

export interface OpenSnapshotOptions {
  /** any directory inside the repository */
  cwd: string;
  kind?: SnapshotKind;
  /** revision for commit snapshots (branch, tag, sha, HEAD~2, …) */
  rev?: string;
  /** force a backend (tests); default: git when a binary exists */
  backend?: 'git' | 'isomorphic-git';
}

/** The repository top level for a directory, or a NOT_A_REPO error. */
export async function findRepoRoot(cwd: string, backend?: 'git' | 'isomorphic-git'): Promise<string> {
  const useGit = backend ? backend === 'git' : await hasGitBinary();
  try {
    if (useGit) {
      const out = await runGit(['rev-parse', '--show-toplevel'], { cwd });
      return path.resolve(out.trim());
    }
    return path.resolve(await isoFindRoot(cwd));
  } catch (e) {
    if (e instanceof CtxError && e.code === 'GIT_MISSING') throw e;
    throw new CtxError('NOT_A_REPO', `not inside a git repository: ${cwd}`, { cause: e, hint: 'run git init first, or pass --root' });
  }
}

/** Resolve a revision to a commit id; BAD_REVISION when it does not exist. Never passes rev as an option. */
export async function resolveRevision(root: string, rev: string, backend?: 'git' | 'isomorphic-git'): Promise<string> {
  const useGit = backend ? backend === 'git' : await hasGitBinary();
  if (useGit) {
    try {
      const out = await runGit(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], { cwd: root });
      const id = out.trim();
      if (id) return id;
    } catch {
      /* fall through */
    }
  } else {
    const id = await isoResolve(root, rev);
    if (id) return id;
  }
  throw await badRevision(root, rev);
}

/**
 * The error for a revision that is not a commit, saying what it is when it names something
 * else (`HEAD:src` is a tree, `HEAD:README.md` a blob) rather than only "unknown".
 */
async function badRevision(root: string, rev: string): Promise<CtxError> {
  const hint = 'pass a commit, branch or tag that exists in this repository';
  let type = '';
  if (!rev.startsWith('-')) type = (await runGit(['cat-file', '-t', rev], { cwd: root, okCodes: [1, 128] }).catch(() => '')).trim();
  if (type === 'tree' || type === 'blob') return new CtxError('BAD_REVISION', `${rev} names a ${type} (${type === 'tree' ? 'a directory' : 'a file'}), not a commit`, { hint });
  // `HEAD:../../etc/passwd` reaches for a path above the top level: git refuses it as a fatal
  // error, which must read as a refused revision, not as a missing repository
  const colon = rev.indexOf(':');
  if (colon >= 0 && !rev.startsWith('-') && path.posix.normalize(`./${rev.slice(colon + 1)}`).startsWith('../')) {
    return new CtxError('BAD_REVISION', `${rev} names a path outside the repository, not a commit`, { hint });
  }
  // `HEAD~5` in a clone made with --depth 1 (CI checkouts): the commit exists, only not here
  if (!rev.startsWith('-') && (await runGit(['rev-parse', '--is-shallow-repository'], { cwd: root }).catch(() => '')).trim() === 'true') {
    return new CtxError('BAD_REVISION', `unknown revision: ${rev} (this is a shallow clone: history before its oldest fetched commit is absent)`, { hint: 'fetch the history it needs (git fetch --deepen=<n>, or git fetch --unshallow), or pass a commit this clone has' });
  }
  return new CtxError('BAD_REVISION', `unknown revision: ${rev}`, { hint });
}

async function headOrUndefined(root: string, backend?: 'git' | 'isomorphic-git'): Promise<string | undefined> {
  try {
    return await resolveRevision(root, 'HEAD', backend);
  } catch {
    return undefined;
  }
}

/** Open the repository as the working tree, the index, or a commit. */
export async function openSnapshot(opts: OpenSnapshotOptions): Promise<Snapshot> {
  const kind = opts.kind ?? (opts.rev ? 'commit' : 'worktree');
  let backend = opts.backend ?? ((await hasGitBinary()) ? 'git' : 'isomorphic-git');
  let root: string | undefined;
  let commit: string | undefined;
  // HEAD of a plain repository from the filesystem, no process; git answers anything unusual
  const fast = backend === 'git' && !opts.backend && kind !== 'commit' ? fastHead(opts.cwd) : undefined;
  if (fast) {
    root = fast.root;
    commit = fast.commit;
  } else if (backend === 'git') {
    // the top level and the commit in one process: rev-parse answers each argument in turn
    // and exits 1 (after printing the top level) when the revision does not resolve
    const rev = kind === 'commit' ? (opts.rev ?? 'HEAD') : 'HEAD';
    let out: string | undefined;
    try {
      out = await runGit(['rev-parse', '--show-toplevel', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], { cwd: opts.cwd, okCodes: [1] });
    } catch (e) {
      // no git binary after all (ENOENT on the first spawn): serve the same view without it
      if (!(e instanceof CtxError && e.code === 'GIT_MISSING')) {
        // git exits 128 both outside a repository and on a revision it refuses outright
        // (a path above the top level): a second look tells the two apart
        const top = kind === 'commit' ? await findRepoRoot(opts.cwd, 'git').catch(() => undefined) : undefined;
        if (top) throw await badRevision(top, rev);
        throw new CtxError('NOT_A_REPO', `not inside a git repository: ${opts.cwd}`, { cause: e, hint: 'run git init first, or pass --root' });
      }
      if (opts.backend) throw e;
      backend = 'isomorphic-git';
    }
    if (out !== undefined) {
      const [top, id] = out.split('\n');
      if (!top) throw new CtxError('NOT_A_REPO', `not inside a git repository: ${opts.cwd}`, { hint: 'run git init first, or pass --root' });
      root = path.resolve(top);
      commit = id || undefined;
      if (kind === 'commit' && !commit) throw await badRevision(root, rev);
    }
  }
  if (backend === 'isomorphic-git') {
    root = await findRepoRoot(opts.cwd, backend);
    commit = kind === 'commit' ? await resolveRevision(root, opts.rev ?? 'HEAD', backend) : await headOrUndefined(root, backend);
  }
  root = root!;
  if (kind === 'commit') return backend === 'git' ? new CommitSnapshot(root, commit!) : new IsoSnapshot('commit', root, commit!);
  if (backend === 'isomorphic-git') return new IsoSnapshot(kind, root, commit);
  return kind === 'index' ? new IndexSnapshot(root, commit) : new WorktreeSnapshot(root, commit);
}
