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
