import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { globalStoreDir, loadArtifactSet, type ArtifactSet } from '../artifacts/load.js';
import type { Artifact, LoadProblem } from '../artifacts/types.js';
import { loadConfig, type Config } from '../config.js';
import { CtxError } from '../errors.js';
import { hasGitBinary, runGit, splitZ } from '../git/exec.js';
import { fastHead } from '../git/fast-head.js';
import { findRepoRoot, openSnapshot } from '../snapshot/open.js';
import type { Snapshot } from '../snapshot/types.js';
import { WorktreeTree } from '../tree/index.js';
import { gitBlobHash, sha256 } from '../util/hash.js';
import { loadBaseline, type Baseline } from './baseline.js';
import { sortArtifacts } from './select.js';

/** Where the server reads from. */
export interface RepoReaderOptions {
  /** any directory inside the repository */
  cwd: string;
  /** include the user's global artifacts (default: the repository's config `global:`) */
  global?: boolean;
  /** override the global store (tests); default globalStoreDir() */
  globalDir?: string;
  /** force a Snapshot backend (tests) */
  backend?: 'git' | 'isomorphic-git';
  /** how many loaded states to keep (default 4: enough to flip between branches) */
  cacheSize?: number;
}

/** One loaded view of the repository's artifacts, shared by every tool call that sees the same content. */
export interface RepoState {
  /** cache key: identifies the artifact content this state was loaded from */
  key: string;
  root: string;
  /** HEAD when loaded (undefined in a repository without commits) */
  head: string | undefined;
  /** artifact files differ from HEAD (uncommitted edits, untracked files) */
  dirty: boolean;
  config: Config;
  /** the set as loaded; its snapshot is closed, open a new one for code reads */
  set: ArtifactSet;
  /** one artifact per id (byId), in the canonical order: scope, type order, id */
  ordered: Artifact[];
  baseline: Baseline;
  /** files that failed to load as artifacts at all (no artifact came out of them) */
  unreadable: LoadProblem[];
  /** whether global artifacts were included */
  global: boolean;
}

interface StatMemo {
  sig: string;
  blob: string;
}

interface KeyInfo {
  key: string;
  head: string | undefined;
  /** the artifact directories asked about (the dirty flag is git's status of them, on a load) */
  dirs: string[];
}

/**
 * Reads the repository fresh for every tool call, but cheaply: a warm call asks the tree
 * module (src/tree) what the artifact directories hold, as every command does — a folder
 * whose listing is the git index's own by its token (index file, stamp, folder), any other
 * by its entries, with the blob ids of files changed on disk hashed (by stat signature,
 * remembered across calls). With HEAD and the global store's listing that names the
 * artifact content exactly; the state loaded for that key is reused. The tree module reads
 * the git index again only when its stamp changed, so a warm call over a small records
 * folder runs no git process. A full worktree Snapshot listing is only taken on a miss.
 */
export class RepoReader {
  private rootP: Promise<{ root: string; gitDir: string; useGit: boolean }> | undefined;
  private readonly cache = new Map<string, RepoState>();
  private readonly inflight = new Map<string, Promise<RepoState>>();
  private readonly statMemo = new Map<string, StatMemo>();
  /** artifact dir and global flag of the last load; the key depends on them */
  private lastDir = '.contextia';
  private lastGlobal: boolean | undefined;

  constructor(readonly options: RepoReaderOptions) {}

  /** Repository top level and absolute git dir, resolved once. */
  location(): Promise<{ root: string; gitDir: string; useGit: boolean }> {
    this.rootP ??= (async () => {
      const useGit = this.options.backend ? this.options.backend === 'git' : await hasGitBinary();
      const root = await findRepoRoot(this.options.cwd, useGit ? 'git' : 'isomorphic-git');
      let gitDir: string;
      if (useGit) gitDir = path.resolve(root, (await runGit(['rev-parse', '--absolute-git-dir'], { cwd: root })).trim());
      else gitDir = await isoGitDir(root);
      return { root, gitDir, useGit };
    })();
    // a failed resolution (not a repository yet) must not stick: the user may git init and retry
    this.rootP.catch(() => (this.rootP = undefined));
    return this.rootP;
  }

  /** The current artifact state, from the cache when the content has not changed. */
  async state(): Promise<RepoState> {
    const loc = await this.location();
    const global = this.options.global ?? this.lastGlobal ?? false;
    const info = loc.useGit ? await this.keyFromTree(loc.root, this.lastDir, global) : undefined;
    if (info) {
      const hit = this.cache.get(info.key);
      if (hit) {
        // refresh LRU position
        this.cache.delete(info.key);
        this.cache.set(info.key, hit);
        return hit;
      }
      const running = this.inflight.get(info.key);
      if (running) return running;
    }
    const p = this.load(loc.root, info);
    if (info) {
      this.inflight.set(info.key, p);
      p.finally(() => this.inflight.delete(info.key)).catch(() => undefined);
    }
    return p;
  }

  /** A fresh worktree Snapshot, for analyses that read code (check, trace, assembly). Caller closes it. */
  async openSnapshot(): Promise<Snapshot> {
    const loc = await this.location();
    return openSnapshot({ cwd: loc.root, kind: 'worktree', backend: this.options.backend });
  }

  private async load(root: string, info: KeyInfo | undefined): Promise<RepoState> {
    const snapshot = await openSnapshot({ cwd: root, kind: 'worktree', backend: this.options.backend });
    try {
      const config = await loadConfig(snapshot);
      const global = this.options.global ?? config.global;
      const globalDir = this.options.globalDir ?? globalStoreDir();
      const set = await loadArtifactSet(snapshot, config, { global, globalDir });
      const baseline = await loadBaseline(snapshot, config, global ? globalDir : undefined);
      let keyInfo = info;
      // the key assumed the previous artifact dir and global flag; when the config says
      // otherwise, recompute so the next call hits instead of reloading once more
      if (info && (config.dir !== this.lastDir || global !== (this.options.global ?? this.lastGlobal ?? false))) {
        keyInfo = await this.keyFromTree(root, config.dir, global);
      }
      this.lastDir = config.dir;
      this.lastGlobal = config.global;
      const loadedFiles = new Set(set.artifacts.map((a) => a.file));
      const state: RepoState = {
        key: keyInfo?.key ?? `uncached:${Date.now()}`,
        root,
        head: snapshot.commit,
        dirty: keyInfo ? await dirtyUnder(root, keyInfo.dirs) : false,
        config,
        set,
        ordered: sortArtifacts([...set.byId.values()], config),
        baseline,
        unreadable: set.problems.filter((p) => !loadedFiles.has(p.file)),
        global,
      };
      if (keyInfo) {
        this.cache.set(keyInfo.key, state);
        const max = this.options.cacheSize ?? 4;
        while (this.cache.size > max) this.cache.delete(this.cache.keys().next().value!);
      }
      return state;
    } finally {
      snapshot.close();
    }
  }

  /** Identify the artifact content from the tree module: HEAD, each folder's token or entries, the global store. */
  private async keyFromTree(root: string, dir: string, global: boolean): Promise<KeyInfo> {
    const dirs = [...new Set(['.contextia', dir])];
    // a fresh view per call: the index is read again only when its stamp changed
    const tree = new WorktreeTree(root);
    const head = await headOf(root);
    const parts = [`head:${head ?? ''}`, `dirs:${dirs.join(',')}`, `global:${global}`];
    for (const d of dirs) {
      const clean = await tree.cleanListing(d);
      if (clean) {
        parts.push(`#${d}\0${clean.token}`);
        continue;
      }
      parts.push(`#${d}`);
      for (const e of await tree.load(d)) parts.push(`${e.path}\0${e.mode}\0${e.blob ?? (await this.worktreeBlob(path.join(root, e.path)))}`);
    }
    if (global) {
      const gdir = this.options.globalDir ?? globalStoreDir();
      for (const f of await walkMarkdown(gdir)) parts.push(`~global/${f}\0${await this.worktreeBlob(path.join(gdir, f))}`);
    }
    return { key: sha256(parts.join('\n')), head, dirs };
  }

  /** Blob id of a file on disk, re-hashed only when its stat signature changed. */
  private async worktreeBlob(abs: string): Promise<string> {
    const st = await lstat(abs, { bigint: true }).catch(() => undefined);
    if (!st) return 'absent';
    if (st.isSymbolicLink()) return 'symlink';
    const sig = `${st.mtimeNs}:${st.ctimeNs}:${st.size}:${st.ino}`;
    const memo = this.statMemo.get(abs);
    if (memo && memo.sig === sig) return memo.blob;
    const buf = await readFile(abs).catch(() => undefined);
    const blob = buf ? gitBlobHash(buf) : 'unreadable';
    this.statMemo.set(abs, { sig, blob });
    return blob;
  }
}

/** HEAD from the filesystem (no process) where the layout is plain, else from git; undefined in a repository without commits. */
async function headOf(root: string): Promise<string | undefined> {
  const fast = fastHead(root);
  if (fast) return fast.commit;
  const out = await runGit(['rev-parse', '--verify', '--quiet', 'HEAD'], { cwd: root, okCodes: [1] }).catch(() => '');
  return out.trim() || undefined;
}

/** Whether artifact files differ from HEAD (staged or not, or untracked): git's status of the folders, asked on a load only. */
async function dirtyUnder(root: string, dirs: string[]): Promise<boolean> {
  const out = await runGit(['status', '--porcelain=v2', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all', '--', ...dirs], { cwd: root });
  return splitZ(out).some((rec) => rec.startsWith('1 ') || rec.startsWith('u ') || rec.startsWith('? '));
}

async function walkMarkdown(dir: string): Promise<string[]> {
  const out: string[] = [];
  const rec = async (d: string, rel: string): Promise<void> => {
    const entries = await readdir(d, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await rec(path.join(d, e.name), r);
      else if (e.name.endsWith('.md')) out.push(r);
    }
  };
  await rec(dir, '');
  return out.sort();
}

/** `.git` is a directory, or (worktrees, submodules) a file naming the real one. */
async function isoGitDir(root: string): Promise<string> {
  const dotgit = path.join(root, '.git');
  const st = await lstat(dotgit).catch(() => undefined);
  if (st?.isFile()) {
    const m = /^gitdir:\s*(.+)$/m.exec(await readFile(dotgit, 'utf8'));
    if (m) return path.resolve(root, m[1]!.trim());
  }
  if (!st) throw new CtxError('NOT_A_REPO', `no .git directory in ${root}`);
  return dotgit;
}
