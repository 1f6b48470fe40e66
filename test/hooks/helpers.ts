import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fingerprintAnchor } from '../../src/code/anchors.js';
import { buildCodeIndex } from '../../src/code/code-index.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/open.js';
import { BIN, ROOT } from '../helpers/cli.js';
import { gitEnv, makeRepo, tempDir as sharedTempDir, type TestRepo } from '../helpers/git-repo.js';

export const FIXTURES = path.join(ROOT, 'test/fixtures');

/** A temporary directory removed after the test. */
export function tempDir(prefix = 'git-ctx-hook-'): string {
  return sharedTempDir(prefix);
}

let shimDir: string | undefined;
/**
 * A directory holding a `git-ctx` script that runs this checkout's CLI, so that the hook
 * (which looks for `git-ctx` on PATH) calls the code under test. Created once per worker.
 */
export function shimBin(): string {
  if (shimDir) return shimDir;
  shimDir = realpathSync(mkdtempSync(path.join(tmpdir(), 'git-ctx-shim-')));
  const file = path.join(shimDir, 'git-ctx');
  writeFileSync(file, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
  chmodSync(file, 0o755);
  return shimDir;
}

/** PATH with the shim first; `withShim: false` gives a PATH without any git-ctx. */
export function hookPath(withShim = true): string {
  const rest = (process.env.PATH ?? '').split(path.delimiter).filter((p) => !p.includes('node_modules'));
  return [...(withShim ? [shimBin()] : []), ...rest].join(path.delimiter);
}

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout + stderr: git shows a hook's output on stderr, tools differ */
  output: string;
}

/** Run git in a repo the way a user does (hooks enabled), with the shim on PATH. */
export function gitRun(repo: TestRepo | string, args: string[], env: NodeJS.ProcessEnv = {}): GitResult {
  const cwd = typeof repo === 'string' ? repo : repo.dir;
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: gitEnv({ PATH: hookPath(), NO_COLOR: '1', ...env }) });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, output: r.stdout + r.stderr };
}

/** A repository with the hook-repo fixture committed as its first commit. */
export function fixtureRepo(name = 'hook-repo'): TestRepo {
  const repo = makeRepo();
  cpSync(path.join(FIXTURES, name), repo.dir, { recursive: true });
  repo.commit('fixture');
  return repo;
}

/** Install the hook with this checkout's CLI; returns the parsed --json result. */
export function install(repo: TestRepo, ...args: string[]): Record<string, unknown> {
  const r = spawnSync(process.execPath, [BIN, 'hooks', 'install', '--json', ...args], { cwd: repo.dir, encoding: 'utf8', env: gitEnv({ NO_COLOR: '1' }) });
  if (r.status !== 0 && r.status !== 1) throw new Error(`hooks install failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

/** The state `git status`/`git diff` report: what the hook must leave exactly as it was. */
export function repoState(repo: TestRepo): string {
  return [
    repo.git('status', '--porcelain=v1', '--untracked-files=all'),
    repo.git('diff'),
    repo.git('diff', '--cached'),
    repo.git('ls-files', '-s', '--debug').replace(/^\s+(ctime|mtime|dev|uid|size|flags).*$/gm, ''),
  ].join('\n--\n');
}

/**
 * Record an artifact's stamp the way `git ctx ack` does: HEAD plus the current fingerprint
 * of each anchor, as found in the working tree. Written into the frontmatter as text.
 */
export async function stampArtifact(repo: TestRepo, file: string, anchors: string[]): Promise<void> {
  const snapshot = await openSnapshot({ cwd: repo.dir, kind: 'worktree' });
  try {
    const config = await loadConfig(snapshot);
    const index = await buildCodeIndex(snapshot, config, { cache: false });
    const fps: Record<string, string> = {};
    for (const a of anchors) {
      const fp = await fingerprintAnchor(a, snapshot, index);
      if (fp.status !== 'ok' || !fp.fingerprint) throw new Error(`cannot fingerprint ${a}: ${fp.status}`);
      fps[a] = fp.fingerprint;
    }
    const abs = path.join(repo.dir, file);
    const text = readFileSync(abs, 'utf8').replace(/^stamp:\n(?: {2}.*\n)*/m, '');
    const head = repo.git('rev-parse', 'HEAD');
    const stamp = `stamp:\n  commit: ${head}\n  fingerprints:\n${Object.entries(fps)
      .map(([k, v]) => `    ${JSON.stringify(k)}: ${v}\n`)
      .join('')}`;
    const close = text.indexOf('\n---', 3);
    writeFileSync(abs, text.slice(0, close + 1) + stamp + text.slice(close + 1));
  } finally {
    snapshot.close();
  }
}
