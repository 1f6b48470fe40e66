// @spec SPEC-SNAPSHOT-001

import { closeSync, constants as fsConstants, lstatSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CatFileBatch, runGit } from '../git/exec.js';
import { parseStaged, WorktreeTree } from '../tree/index.js';
import { gitBlobHash } from '../util/hash.js';
import type { Snapshot, SnapshotEntry, SnapshotKind } from './types.js';

/** undefined where the platform has no such flag (Windows) */
const O_NOFOLLOW: number | undefined = (fsConstants as Record<string, number | undefined>).O_NOFOLLOW;

/** `-- <paths>` for a listing limited to paths, nothing for the whole tree. */
function pathspec(prefix: string | string[] | undefined): string[] {
  const ps = (prefix === undefined ? [] : Array.isArray(prefix) ? prefix : [prefix]).filter((p) => p !== '');
  return ps.length ? ['--', ...ps] : [];
}

/** The entry at a path in a listing sorted by path (list() promises that order), or undefined. */
function findSorted(entries: SnapshotEntry[], p: string): SnapshotEntry | undefined {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (entries[mid]!.path < p) lo = mid + 1;
    else hi = mid;
  }
  const e = entries[lo];
  return e && e.path === p ? e : undefined;
}

function underPrefix(entries: SnapshotEntry[], prefix: string): SnapshotEntry[] {
  if (!prefix) return entries;
  const p = prefix.endsWith('/') ? prefix : prefix + '/';
  return entries.filter((e) => e.path.startsWith(p));
}

abstract class GitBacked implements Snapshot {
  abstract readonly kind: SnapshotKind;
  readonly backend = 'git' as const;
  protected cat: CatFileBatch;
  private entries: Promise<SnapshotEntry[]> | undefined;
  /** the whole listing once loaded (sorted by path: looked up by binary search, no 100k-entry map) */
  private loaded: SnapshotEntry[] | undefined;
  /** listings limited to one directory, for commands that never need the whole tree */
  private scoped = new Map<string, Promise<Map<string, SnapshotEntry>>>();
  constructor(readonly root: string, readonly commit: string | undefined) {
    this.cat = new CatFileBatch(root);
  }
  /** List every file, or only those at or below the given paths (literal, never patterns). */
  protected abstract load(prefix?: string | string[]): Promise<SnapshotEntry[]>;
  /** entries of single files asked for with prefetch() */
  private exact = new Map<string, Promise<SnapshotEntry | undefined>>();
  /**
   * Look up these files with one listing limited to them, for a caller about to ask for a
   * few files by path (drift checks the files a commit changed): cheaper than listing their
   * top-level directories, which in a monorepo can hold most of the tree.
   */
  prefetch(paths: string[]): void {
    if (this.entries) return;
    const todo = [...new Set(paths)].filter((p) => p && !this.exact.has(p));
    if (!todo.length || todo.length > 1000) return;
    const listed = this.load(todo).then((e) => new Map(e.map((x) => [x.path, x])));
    listed.catch(() => undefined); // each lookup below reports the failure
    for (const p of todo) this.exact.set(p, listed.then((m) => m.get(p)));
  }
  /** whether a file is better looked up alone than by listing its top-level folder */
  protected preferExact(_p: string): boolean {
    return false;
  }
  list(): Promise<SnapshotEntry[]> {
    this.entries ??= this.load().then((e) => {
      this.loaded = e;
      return e;
    });
    return this.entries;
  }
  private scope(prefix: string): Promise<Map<string, SnapshotEntry>> {
    let m = this.scoped.get(prefix);
    if (!m) {
      m = this.load(prefix).then((e) => new Map(e.map((x) => [x.path, x])));
      this.scoped.set(prefix, m);
    }
    return m;
  }
  /**
   * Files below a directory. Until something asks for the whole tree, only that directory
   * is listed: `git ctx TASK-042` in a 100,000-file monorepo lists .contextia/, not the repo.
   */
  async listUnder(prefix: string): Promise<SnapshotEntry[]> {
    const dir = prefix.replace(/\/+$/, '');
    if (this.entries || !dir) return underPrefix(await this.list(), dir);
    return [...(await this.scope(dir)).values()].filter((e) => e.path.startsWith(dir + '/'));
  }
  protected async entry(p: string): Promise<SnapshotEntry | undefined> {
    if (this.entries) {
      await this.entries;
      return findSorted(this.loaded!, p);
    }
    const known = this.exact.get(p);
    if (known) return known;
    // a single lookup lists only the path's top-level directory (or the file itself)
    for (const [dir, m] of this.scoped) if (p.startsWith(dir + '/')) return (await m).get(p);
    // a file in a large folder whose listing may never be needed (config.yaml in a records
    // folder of thousands): the file alone
    if (this.preferExact(p)) {
      this.prefetch([p]);
      const one = this.exact.get(p);
      if (one) return one;
    }
    return (await this.scope(p.split('/')[0]!)).get(p);
  }
  async read(p: string): Promise<Buffer | undefined> {
    const e = await this.entry(p);
    if (!e || e.mode === '120000' || !e.blob) return undefined;
    const obj = await this.cat.read(e.blob);
    return obj?.content;
  }
  readMany(paths: string[]): Promise<(Buffer | undefined)[]> {
    return Promise.all(paths.map((p) => this.read(p)));
  }
  async blobOf(p: string): Promise<string | undefined> {
    return (await this.entry(p))?.blob;
  }
  close(): void {
    this.cat.close();
  }
}

export class CommitSnapshot extends GitBacked {
  readonly kind = 'commit' as const;
  protected async load(prefix?: string | string[]): Promise<SnapshotEntry[]> {
    const out = await runGit(['--literal-pathspecs', 'ls-tree', '-r', '-z', '--full-tree', this.commit!, ...pathspec(prefix)], { cwd: this.root });
    return parseStaged(out, 'tree');
  }
}

export class IndexSnapshot extends GitBacked {
  readonly kind = 'index' as const;
  protected async load(prefix?: string | string[]): Promise<SnapshotEntry[]> {
    const out = await runGit(['--literal-pathspecs', 'ls-files', '-s', '-z', ...pathspec(prefix)], { cwd: this.root });
    return parseStaged(out, 'index');
  }
}

/**
 * The working tree: tracked files plus untracked files that are not ignored, read from
 * disk. Blob ids are computed in-process (sha1), the same value git would store.
 */
export class WorktreeSnapshot extends GitBacked {
  readonly kind = 'worktree' as const;
  /** the working tree's state, from the git index read once (src/tree) */
  readonly tree: WorktreeTree;
  private blobs = new Map<string, string | undefined>();
  constructor(root: string, commit: string | undefined) {
    super(root, commit);
    this.tree = new WorktreeTree(root);
  }
  protected load(prefix?: string | string[]): Promise<SnapshotEntry[]> {
    return this.tree.load(prefix);
  }
  /** inside a folder of many files that git is asked about without listing it (WorktreeTree.cleanListing) */
  protected override preferExact(p: string): boolean {
    return this.tree.preferExact(p);
  }
  override async read(p: string): Promise<Buffer | undefined> {
    const e = await this.entry(p);
    if (!e || e.mode === '120000') return undefined;
    return this.readDisk(p);
  }
  /**
   * Many files at once, read synchronously: for the small source files a code index reads,
   * one open+read+close each beats the thread-pool round trips of fs/promises several times
   * over (1,000 files: ~30 ms against ~150 ms).
   */
  override async readMany(paths: string[]): Promise<(Buffer | undefined)[]> {
    const entries = await Promise.all(paths.map((p) => this.entry(p)));
    return paths.map((p, i) => {
      const e = entries[i];
      return !e || e.mode === '120000' ? undefined : this.readDisk(p);
    });
  }
  /** A tracked file may have become a symlink on disk since it was staged: never follow it. */
  private readDisk(p: string): Buffer | undefined {
    const abs = path.join(this.root, p);
    try {
      if (O_NOFOLLOW === undefined) return lstatSync(abs).isSymbolicLink() ? undefined : readFileSync(abs);
      // O_NOFOLLOW: opening a symlink fails (ELOOP), one system call instead of lstat + open
      const fd = openSync(abs, fsConstants.O_RDONLY | O_NOFOLLOW);
      try {
        return readFileSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch {
      return undefined;
    }
  }
  override async blobOf(p: string): Promise<string | undefined> {
    const e = await this.entry(p);
    if (!e) return undefined;
    if (e.blob) return e.blob;
    if (this.blobs.has(p)) return this.blobs.get(p);
    const buf = await this.read(p);
    const id = buf ? gitBlobHash(buf) : undefined;
    this.blobs.set(p, id);
    return id;
  }
}
