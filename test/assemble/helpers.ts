import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gitEnv, makeRepo, type TestRepo } from '../helpers/git-repo.js';
import { ROOT } from '../helpers/cli.js';

export const EXAMPLE = path.join(ROOT, '.contextia-example/.contextia');

/** Exactly the chain of TASK-042 (besides IDENTITY and the task itself). */
export const TASK_042_CHAIN = ['SPEC-BILLING-001', 'SPEC-CURRENCY-001', 'DEC-BILLING-001', 'DEC-BILLING-003', 'DEC-CURRENCY-001', 'NORM-ERROR-001', 'NORM-ASYNC-001'];

/**
 * Commit with a fixed date and identity regardless of how many git calls ran before in this
 * process, so the same tree always gives the same commit id (makeRepo's helper ticks its clock).
 */
export function commitFixed(repo: TestRepo, message: string, date = '2026-02-01T12:00:00Z'): string {
  const env = gitEnv({ GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
  execFileSync('git', ['add', '-A'], { cwd: repo.dir, env });
  execFileSync('git', ['commit', '-q', '--allow-empty', '-m', message], { cwd: repo.dir, env });
  return repo.git('rev-parse', 'HEAD');
}

/** A temp repository holding the Acme example under .contextia/, committed. */
export function exampleRepo(): { repo: TestRepo; commit: string } {
  const repo = makeRepo();
  cpSync(EXAMPLE, path.join(repo.dir, '.contextia'), { recursive: true });
  const commit = commitFixed(repo, 'Acme example');
  return { repo, commit };
}

/** Files under a directory, relative, sorted: for checking the example did not change under us. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const rec = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = path.join(d, n);
      if (statSync(p).isDirectory()) rec(p);
      else out.push(path.relative(dir, p));
    }
  };
  rec(dir);
  return out.sort();
}

export function read(p: string): string {
  return readFileSync(p, 'utf8');
}

/** A cheap deterministic counter for tests of the budget logic (one token per 4 characters). */
export const charCounter = {
  encoding: 'o200k_base',
  async count(texts: string[]) {
    return texts.map((t) => Math.ceil(t.length / 4));
  },
};

/** Minimal artifact file text. */
export function art(fm: Record<string, string>, body = ''): string {
  return `---\n${Object.entries(fm)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')}\n---\n${body}`;
}
