import { runGit } from '../git/exec.js';
import { findMergeBase } from '../git/diff.js';

async function hasCommit(root: string, sha: string): Promise<boolean> {
  try {
    await runGit(['cat-file', '-e', '--end-of-options', `${sha}^{commit}`], { cwd: root });
    return true;
  } catch {
    return false;
  }
}

async function isShallow(root: string): Promise<boolean> {
  return (await runGit(['rev-parse', '--is-shallow-repository'], { cwd: root })).trim() === 'true';
}

export interface EnsureHistoryOptions {
  root: string;
  base: string;
  head: string;
  /** remote to fetch from (default origin) */
  remote?: string;
  /** deepening rounds before giving up (each doubles the depth) */
  rounds?: number;
  log?: (msg: string) => void;
}

/**
 * Make sure both commits and their merge base are present. actions/checkout fetches one
 * commit by default (the test merge commit), so the PR's base and head are fetched by SHA
 * and the history deepened, doubling, until they meet; unshallowing is the last step.
 * Returns what could not be done, as sentences for the report (never throws: the analysis
 * then says what it could not judge).
 */
export async function ensureHistory(o: EnsureHistoryOptions): Promise<string[]> {
  const remote = o.remote ?? 'origin';
  const log = o.log ?? (() => {});
  const notes: string[] = [];
  const fetch = async (args: string[]): Promise<boolean> => {
    try {
      log(`git fetch ${args.join(' ')}`);
      await runGit(['fetch', '--no-tags', '--no-recurse-submodules', '--quiet', ...args], { cwd: o.root });
      return true;
    } catch (e) {
      log(`fetch failed: ${(e as Error).message}`);
      return false;
    }
  };
  const missing = [];
  for (const sha of [o.base, o.head]) if (!(await hasCommit(o.root, sha))) missing.push(sha);
  let depth = 50;
  if (missing.length && !(await fetch([`--depth=${depth}`, remote, ...missing]))) {
    const still = [];
    for (const sha of missing) if (!(await hasCommit(o.root, sha))) still.push(sha);
    if (still.length) {
      notes.push(`Could not fetch ${still.map((s) => s.slice(0, 12)).join(' and ')} from ${remote}: check out the repository with fetch-depth: 0, or let the token read it.`);
      return notes;
    }
  }
  const rounds = o.rounds ?? 6;
  for (let i = 0; i < rounds && !(await findMergeBase(o.root, o.base, o.head)); i++) {
    if (!(await isShallow(o.root))) break;
    await fetch([`--deepen=${depth}`, remote, o.base, o.head]);
    depth *= 2;
  }
  if (!(await findMergeBase(o.root, o.base, o.head)) && (await isShallow(o.root))) await fetch(['--unshallow', remote]);
  if (!(await findMergeBase(o.root, o.base, o.head))) {
    notes.push(`The history of ${o.base.slice(0, 12)} and ${o.head.slice(0, 12)} could not be joined here (no merge base after fetching); use fetch-depth: 0 in actions/checkout.`);
  }
  return notes;
}
