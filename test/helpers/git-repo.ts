import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

const created: string[] = [];
afterEach(() => {
  while (created.length) rmSync(created.pop()!, { recursive: true, force: true });
});

export interface TestRepo {
  dir: string;
  /** run git in the repo; returns trimmed stdout */
  git(...args: string[]): string;
  write(files: Record<string, string | Buffer>): void;
  /** stage everything and commit; returns the commit id */
  commit(message: string, files?: Record<string, string | Buffer>): string;
  rm(...paths: string[]): void;
}

let tick = 0;
/** Deterministic environment: fixed identity and dates, no signing, no gc, no global config. */
export function gitEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  tick++;
  const date = `2026-01-01T00:${String(Math.floor(tick / 60) % 60).padStart(2, '0')}:${String(tick % 60).padStart(2, '0')}Z`;
  return {
    ...process.env,
    GIT_AUTHOR_NAME: 'Test Author',
    GIT_AUTHOR_EMAIL: 'author@example.com',
    GIT_COMMITTER_NAME: 'Test Author',
    GIT_COMMITTER_EMAIL: 'author@example.com',
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_DATE: date,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    ...extra,
  };
}

/** A temporary directory (real path, symlinks resolved), removed after the test. */
export function tempDir(prefix = 'git-ctx-tmp-'): string {
  const d = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  created.push(d);
  return d;
}

/** mkdtemp + git init -b main with local identity; removed after the test. */
export function makeRepo(files: Record<string, string | Buffer> = {}, opts: { keep?: boolean } = {}): TestRepo {
  const dir = opts.keep ? realpathSync(mkdtempSync(path.join(tmpdir(), 'git-ctx-test-'))) : tempDir('git-ctx-test-');
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: dir, env: gitEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Test Author');
  git('config', 'user.email', 'author@example.com');
  git('config', 'commit.gpgsign', 'false');
  git('config', 'gc.auto', '0');
  const write = (fs: Record<string, string | Buffer>) => {
    for (const [p, c] of Object.entries(fs)) {
      const abs = path.join(dir, p);
      mkdirSync(path.dirname(abs), { recursive: true });
      writeFileSync(abs, c);
    }
  };
  write(files);
  const repo: TestRepo = {
    dir,
    git,
    write,
    commit(message, more) {
      if (more) write(more);
      git('add', '-A');
      git('commit', '-q', '--allow-empty', '-m', message);
      return git('rev-parse', 'HEAD');
    },
    rm(...paths) {
      for (const p of paths) rmSync(path.join(dir, p), { recursive: true, force: true });
    },
  };
  return repo;
}

/** A pull request's history, as the PR analysis and the Action see it: the base commit on `main`, the head commit on its branch. */
export interface PullRequestRepo {
  repo: TestRepo;
  base: string;
  head: string;
}

/**
 * `main` holding `files` (and a fixture folder copied in first), then a `feature` branch whose one
 * commit is `change`: files to write, or work to do in the repository (a CLI run) before committing.
 */
export function pullRequestRepo(o: { fixture?: string; files?: Record<string, string | Buffer>; change: Record<string, string | Buffer> | ((repo: TestRepo) => void); branch?: string }): PullRequestRepo {
  const repo = makeRepo();
  if (o.fixture) cpSync(o.fixture, repo.dir, { recursive: true });
  repo.write(o.files ?? {});
  const base = repo.commit('base');
  repo.git('checkout', '-q', '-b', o.branch ?? 'feature');
  if (typeof o.change === 'function') o.change(repo);
  else repo.write(o.change);
  const head = repo.commit('change');
  return { repo, base, head };
}
