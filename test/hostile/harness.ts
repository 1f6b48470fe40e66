import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { gitEnv, tempDir } from '../helpers/git-repo.js';

/** Every hostile case must finish well inside this (the test timeout is the time limit). */
export const CASE_MS = 60_000;

export interface HostileRepo {
  /** the repository's work tree: <parent>/repo */
  dir: string;
  /** a directory beside the repository that nothing may create or change: <parent>/outside */
  outside: string;
  parent: string;
  git(...args: string[]): string;
  write(files: Record<string, string | Buffer>): void;
  commit(message: string): void;
  /** path → content hash (or link target) of everything in the parent except the work tree */
  outsideState(): Record<string, string>;
  /** path → content hash of the artifact directory */
  artifactState(): Record<string, string>;
}

function walk(root: string, skip: (rel: string) => boolean): Record<string, string> {
  const out: Record<string, string> = {};
  const rec = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const abs = path.join(d, name);
      const rel = path.relative(root, abs).split(path.sep).join('/');
      if (skip(rel)) continue;
      const st = lstatSync(abs);
      if (st.isSymbolicLink()) out[rel] = `link:${readlinkSync(abs)}`;
      else if (st.isDirectory()) {
        out[`${rel}/`] = 'dir';
        rec(abs);
      } else out[rel] = createHash('sha256').update(readFileSync(abs)).digest('hex');
    }
  };
  rec(root);
  return out;
}

/** A repository in its own parent directory, with a sibling `outside/` holding one file. */
export function hostileRepo(files: Record<string, string | Buffer> = {}): HostileRepo {
  const parent = tempDir('git-ctx-hostile-');
  const dir = path.join(parent, 'repo');
  const outside = path.join(parent, 'outside');
  mkdirSync(dir);
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'keep.txt'), 'outside the repository\n');
  const git = (...args: string[]) => spawnSync('git', args, { cwd: dir, env: gitEnv(), encoding: 'utf8' }).stdout.trim();
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Test Author');
  git('config', 'user.email', 'author@example.com');
  git('config', 'commit.gpgsign', 'false');
  git('config', 'gc.auto', '0');
  const write = (fs: Record<string, string | Buffer>) => {
    for (const [p, c] of Object.entries(fs)) {
      mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
      writeFileSync(path.join(dir, p), c);
    }
  };
  write(files);
  return {
    dir,
    outside,
    parent,
    git,
    write,
    commit(message) {
      git('add', '-A');
      git('commit', '-q', '--allow-empty', '--no-verify', '-m', message);
    },
    outsideState: () => walk(parent, (rel) => rel === 'repo'),
    artifactState: () => {
      const d = path.join(dir, '.contextia');
      try {
        return lstatSync(d).isDirectory() ? walk(d, () => false) : { '.contextia': 'not a directory' };
      } catch {
        return {};
      }
    },
  };
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The built CLI as a real process, killed at the case time limit (a hang fails the case). */
export function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}, limitMs = CASE_MS - 5_000): Run {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: limitMs,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...gitEnv(), NO_COLOR: '1', ...env },
  });
  const ms = performance.now() - t0;
  if (r.error) throw new Error(`git-ctx ${args.join(' ')} did not finish: ${r.error.message}`);
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, ms };
}

/** No stack trace, no "please report": a known error is one line (plus an optional hint). */
export function expectKnownError(r: Run, path: string): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toContain(path);
  expect(r.stderr).not.toMatch(/please report|\n\s+at /);
  expect(r.stderr.trim().split('\n').filter((l) => !l.startsWith('  hint:')).length).toBe(1);
}

/** Run `fn` and assert nothing outside the work tree and nothing under the artifact directory changed. */
export async function expectContained<T>(repo: HostileRepo, fn: () => T | Promise<T>, opts: { artifactsMayChange?: boolean } = {}): Promise<T> {
  const out = repo.outsideState();
  const arts = repo.artifactState();
  const res = await fn();
  expect(repo.outsideState()).toEqual(out);
  if (!opts.artifactsMayChange) expect(repo.artifactState()).toEqual(arts);
  return res;
}

/** `---` frontmatter + body. */
export const artifact = (yaml: string, body = '# Body\n\nText.\n') => `---\n${yaml.trimEnd()}\n---\n${body}`;

/** A "billion laughs" YAML fragment: `levels` anchors, each a list of 9 aliases of the previous. */
export function aliasBomb(levels = 9, key = 'lol'): string {
  const lines = [`${key}0: &${key}0 [x, x, x, x, x, x, x, x, x]`];
  for (let i = 1; i <= levels; i++) lines.push(`${key}${i}: &${key}${i} [${Array.from({ length: 9 }, () => `*${key}${i - 1}`).join(', ')}]`);
  return lines.join('\n');
}

export const OK_DEC = artifact('id: DEC-OK-001\ntype: decision\ntitle: A sound decision\nstatus: accepted\npaths: [src/**]');
