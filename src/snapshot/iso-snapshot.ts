// @spec SPEC-SNAPSHOT-001

import fs from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gitBlobHash } from '../util/hash.js';
import type { Snapshot, SnapshotEntry, SnapshotKind } from './types.js';

type Iso = typeof import('isomorphic-git');
let isoPromise: Promise<Iso> | undefined;
function loadIso(): Promise<Iso> {
  isoPromise ??= import('isomorphic-git').then((m) => ((m as unknown as { default?: Iso }).default ?? m) as Iso);
  return isoPromise;
}

/**
 * The same Snapshot interface served by isomorphic-git, for machines without a git
 * binary. Slower (pure JS object reads), so it is the fallback, never the default.
 */
export class IsoSnapshot implements Snapshot {
  readonly backend = 'isomorphic-git' as const;
  private entries: Promise<SnapshotEntry[]> | undefined;
  private byPath = new Map<string, SnapshotEntry>();
  constructor(
    readonly kind: SnapshotKind,
    readonly root: string,
    readonly commit: string | undefined,
  ) {}

  private async walk(which: 'tree' | 'stage'): Promise<SnapshotEntry[]> {
    const git = await loadIso();
    const trees = which === 'tree' ? [git.TREE({ ref: this.commit! })] : [git.STAGE()];
    const out: SnapshotEntry[] = [];
    await git.walk({
      fs,
      dir: this.root,
      trees,
      map: async (filepath, [entry]) => {
        if (!entry || filepath === '.') return true;
        const type = await entry.type();
        if (type === 'tree') return true;
        if (type !== 'blob') return null;
        const mode = ((await entry.mode()) ?? 0o100644).toString(8);
        out.push({ path: filepath, mode, blob: await entry.oid() });
        return true;
      },
    });
    return out;
  }

  private async load(): Promise<SnapshotEntry[]> {
    let entries: SnapshotEntry[];
    if (this.kind === 'commit') entries = await this.walk('tree');
    else if (this.kind === 'index') entries = await this.walk('stage');
    else {
      const git = await loadIso();
      const staged = await this.walk('stage');
      const files = new Map(staged.map((e) => [e.path, { path: e.path, mode: e.mode } as SnapshotEntry]));
      // untracked, not ignored files
      const matrix = await git.statusMatrix({ fs, dir: this.root });
      for (const [f, head, workdir] of matrix) {
        if (head === 0 && workdir === 2 && !files.has(f)) files.set(f, { path: f, mode: '100644' });
      }
      const checked = await Promise.all(
        [...files.values()].map(async (e) => {
          try {
            const st = await lstat(path.join(this.root, e.path));
            if (st.isSymbolicLink()) return { ...e, mode: '120000' };
            return st.isFile() ? e : undefined;
          } catch {
            return undefined;
          }
        }),
      );
      entries = checked.filter((e): e is SnapshotEntry => !!e);
    }
    entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    for (const e of entries) this.byPath.set(e.path, e);
    return entries;
  }

  list(): Promise<SnapshotEntry[]> {
    this.entries ??= this.load();
    return this.entries;
  }
  async listUnder(prefix: string): Promise<SnapshotEntry[]> {
    const p = prefix.endsWith('/') ? prefix : prefix + '/';
    return (await this.list()).filter((e) => !prefix || e.path.startsWith(p));
  }
  async read(p: string): Promise<Buffer | undefined> {
    await this.list();
    const e = this.byPath.get(p);
    if (!e || e.mode === '120000') return undefined;
    if (this.kind === 'worktree') {
      try {
        return await readFile(path.join(this.root, p));
      } catch {
        return undefined;
      }
    }
    const git = await loadIso();
    const { blob } = await git.readBlob({ fs, dir: this.root, oid: e.blob! });
    return Buffer.from(blob);
  }
  readMany(paths: string[]): Promise<(Buffer | undefined)[]> {
    return Promise.all(paths.map((p) => this.read(p)));
  }
  async blobOf(p: string): Promise<string | undefined> {
    await this.list();
    const e = this.byPath.get(p);
    if (!e) return undefined;
    if (e.blob) return e.blob;
    const buf = await this.read(p);
    return buf ? gitBlobHash(buf) : undefined;
  }
  close(): void {}
}

export async function isoFindRoot(cwd: string): Promise<string> {
  const git = await loadIso();
  return git.findRoot({ fs, filepath: path.resolve(cwd) });
}

/** Resolve a revision, including the `~N` / `^N` suffixes that isomorphic-git does not parse itself. */
export async function isoResolve(root: string, rev: string): Promise<string | undefined> {
  const git = await loadIso();
  const m = /^(.*?)((?:[~^]\d*)*)$/.exec(rev);
  const base = m?.[1] || 'HEAD';
  const suffix = m?.[2] ?? '';
  try {
    let oid: string;
    if (/^[0-9a-f]{40}$/.test(base)) oid = base;
    else if (/^[0-9a-f]{4,39}$/.test(base)) oid = await git.expandOid({ fs, dir: root, oid: base });
    else oid = await git.resolveRef({ fs, dir: root, ref: base });
    for (const step of suffix.match(/[~^]\d*/g) ?? []) {
      const n = step.length > 1 ? Number(step.slice(1)) : 1;
      if (step[0] === '~') {
        for (let i = 0; i < n; i++) oid = (await git.readCommit({ fs, dir: root, oid })).commit.parent[0]!;
      } else if (n > 0) {
        oid = (await git.readCommit({ fs, dir: root, oid })).commit.parent[n - 1]!;
      }
      if (!oid) return undefined;
    }
    // tags and other objects must end at a commit
    await git.readCommit({ fs, dir: root, oid });
    return oid;
  } catch {
    return undefined;
  }
}
