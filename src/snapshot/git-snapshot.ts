import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { CatFileBatch, runGit, splitZ } from '../git/exec.js';
import { gitBlobHash } from '../util/hash.js';
import type { Snapshot, SnapshotEntry, SnapshotKind } from './types.js';

function underPrefix(entries: SnapshotEntry[], prefix: string): SnapshotEntry[] {
  if (!prefix) return entries;
  const p = prefix.endsWith('/') ? prefix : prefix + '/';
  return entries.filter((e) => e.path.startsWith(p));
}

/** Parse `git ls-tree -r -z` / `git ls-files -s -z` lines. */
function parseStaged(out: string, kind: 'tree' | 'index'): SnapshotEntry[] {
  const res: SnapshotEntry[] = [];
  for (const line of splitZ(out)) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const meta = line.slice(0, tab).split(' ');
    const p = line.slice(tab + 1);
    if (kind === 'tree') {
      // <mode> SP <type> SP <object> TAB <file>
      if (meta[1] !== 'blob') continue;
      res.push({ path: p, mode: meta[0]!, blob: meta[2]! });
    } else {
      // <mode> SP <object> SP <stage> TAB <file>; keep stage 0 (or first conflict stage)
      if (meta[0] === '160000') continue;
      res.push({ path: p, mode: meta[0]!, blob: meta[1]! });
    }
  }
  res.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  // during a merge conflict the index holds several stages of one path; keep one
  return res.filter((e, i) => i === 0 || res[i - 1]!.path !== e.path);
}

abstract class GitBacked implements Snapshot {
  abstract readonly kind: SnapshotKind;
  readonly backend = 'git' as const;
  protected cat: CatFileBatch;
  private entries: Promise<SnapshotEntry[]> | undefined;
  private byPath: Map<string, SnapshotEntry> | undefined;
  constructor(readonly root: string, readonly commit: string | undefined) {
    this.cat = new CatFileBatch(root);
  }
  protected abstract load(): Promise<SnapshotEntry[]>;
  list(): Promise<SnapshotEntry[]> {
    this.entries ??= this.load().then((e) => {
      this.byPath = new Map(e.map((x) => [x.path, x]));
      return e;
    });
    return this.entries;
  }
  async listUnder(prefix: string): Promise<SnapshotEntry[]> {
    return underPrefix(await this.list(), prefix);
  }
  protected async entry(p: string): Promise<SnapshotEntry | undefined> {
    await this.list();
    return this.byPath!.get(p);
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
  protected async load(): Promise<SnapshotEntry[]> {
    const out = await runGit(['ls-tree', '-r', '-z', '--full-tree', this.commit!], { cwd: this.root });
    return parseStaged(out, 'tree');
  }
}

export class IndexSnapshot extends GitBacked {
  readonly kind = 'index' as const;
  protected async load(): Promise<SnapshotEntry[]> {
    const out = await runGit(['ls-files', '-s', '-z'], { cwd: this.root });
    return parseStaged(out, 'index');
  }
}

/**
 * The working tree: tracked files plus untracked files that are not ignored, read from
 * disk. Blob ids are computed in-process (sha1), the same value git would store.
 */
export class WorktreeSnapshot extends GitBacked {
  readonly kind = 'worktree' as const;
  private blobs = new Map<string, string | undefined>();
  protected async load(): Promise<SnapshotEntry[]> {
    const out = await runGit(['ls-files', '-z', '--cached', '--others', '--exclude-standard', '-s'], { cwd: this.root });
    // with -s, untracked files have no stage info; parse both shapes
    const res: SnapshotEntry[] = [];
    const seen = new Set<string>();
    for (const line of splitZ(out)) {
      const tab = line.indexOf('\t');
      let p: string;
      let mode = '100644';
      if (tab >= 0 && /^\d{6} [0-9a-f]{40,64} \d$/.test(line.slice(0, tab))) {
        p = line.slice(tab + 1);
        mode = line.slice(0, 6);
        if (mode === '160000') continue;
      } else {
        p = line;
      }
      if (seen.has(p)) continue;
      seen.add(p);
      res.push({ path: p, mode });
    }
    // drop files deleted from disk but still in the index; detect symlinks from disk
    const checked = await Promise.all(
      res.map(async (e) => {
        try {
          const st = await lstat(path.join(this.root, e.path));
          if (st.isSymbolicLink()) return { ...e, mode: '120000' };
          if (!st.isFile()) return undefined;
          return e;
        } catch {
          return undefined;
        }
      }),
    );
    const entries = checked.filter((e): e is SnapshotEntry => e !== undefined);
    entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return entries;
  }
  override async read(p: string): Promise<Buffer | undefined> {
    const e = await this.entry(p);
    if (!e || e.mode === '120000') return undefined;
    try {
      return await readFile(path.join(this.root, p));
    } catch {
      return undefined;
    }
  }
  override async blobOf(p: string): Promise<string | undefined> {
    if (this.blobs.has(p)) return this.blobs.get(p);
    const buf = await this.read(p);
    const id = buf ? gitBlobHash(buf) : undefined;
    this.blobs.set(p, id);
    return id;
  }
}
