// What the two dev-set benches (bench/retrieval.mjs, bench/pr-quality.mjs) share to reach a
// labelled repository: where `fetch` leaves its mirror, one clone of it kept between runs, a git
// environment with fixed identities and dates (commits the benches write get the same ids on
// every run, whatever the user's git config), and the known failures they print without a stack.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

/** Files of a record folder that hold records (as git-ctx's ADR source reads them). */
export const RECORD_EXT = /\.(md|markdown|rst|txt)$/i;

export const gitEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};

/** A known failure: the bench prints its message without a stack and exits 2. */
export class BenchError extends Error {}

export function fail(msg) {
  throw new BenchError(msg);
}

/** Where `fetch github:owner/name` leaves the mirror of a set's `repository`, or null when it names none. */
export function mirrorOf(repository) {
  return typeof repository === 'string' && /^[\w.-]+\/[\w.-]+$/.test(repository) ? `/work/.mirror/${repository.replace('/', '+')}/repo` : null;
}

/**
 * A clone of `repo` at `dir`, made once without a checkout (later runs reuse it). `what` names
 * the repository in the message when `repo` is missing.
 */
export function cloneOnce(repo, dir, what) {
  if (!repo || !existsSync(repo)) fail(`repository ${repo || '(none)'} not found; pass --repo PATH to a clone of ${what}`);
  if (!existsSync(path.join(dir, '.git'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(path.dirname(dir), { recursive: true });
    try {
      execFileSync('git', ['clone', '--quiet', '--no-checkout', repo, dir], { env: gitEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (e) {
      fail(`git clone ${repo} failed: ${e.stderr?.toString().trim() || e.message}`);
    }
  }
  return dir;
}

/**
 * Checks `commit` out (detached, forced) in the clone at `dir`, also when the mirror lacks some of
 * its blobs: `fetch` may leave a snapshot's largest files out, and a plain checkout then stops.
 * Each absent blob reads as an empty file (a replace ref to the empty blob, for checkout and for
 * `git show`), and its path is marked skip-worktree so git does not report the empty copy as a
 * change. The tree measured is then the commit's with those files empty. Returns their paths.
 */
export function checkoutPinned(dir, commit) {
  const run = (args, input) =>
    execFileSync('git', args, { cwd: dir, env: gitEnv, encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1 << 28 });
  const blobs = run(['ls-tree', '-r', '-z', commit])
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const tab = line.indexOf('\t');
      const [, type, oid] = line.slice(0, tab).split(' ');
      return { type, oid, path: line.slice(tab + 1) };
    })
    .filter((e) => e.type === 'blob');
  // --no-replace-objects: a blob replaced by an earlier run is still absent and needs its path marked again
  const missing = new Set(
    run(['--no-replace-objects', 'cat-file', '--batch-check'], blobs.map((b) => b.oid).join('\n') + '\n')
      .split('\n')
      .filter((l) => l.endsWith(' missing'))
      .map((l) => l.split(' ')[0]),
  );
  const absent = blobs.filter((b) => missing.has(b.oid));
  if (absent.length) {
    const empty = run(['hash-object', '-w', '--stdin'], '').trim();
    for (const oid of new Set(absent.map((b) => b.oid))) run(['update-ref', `refs/replace/${oid}`, empty]);
  }
  // paths an earlier run marked would stop a checkout that changes or removes them
  const marked = run(['ls-files', '-v', '-z'])
    .split('\0')
    .filter((l) => l.startsWith('S '))
    .map((l) => l.slice(2));
  if (marked.length) run(['update-index', '--no-skip-worktree', '--', ...marked]);
  run(['checkout', '--quiet', '--force', '--detach', commit]);
  if (absent.length) run(['update-index', '--skip-worktree', '--', ...absent.map((b) => b.path)]);
  return absent.map((b) => b.path);
}
