import type { Snapshot, SnapshotEntry } from './types.js';

/**
 * A snapshot seen through a set of paths (the files of a commit or a pull request). A code
 * index built over it lists, reads and parses only those files: a 1,000-file PR in a
 * 10,000-file repository costs 1,000 files, a 10-file commit ten, and the TypeScript parser
 * loads only if one of them carries a tag or an anchor.
 */
export class NarrowedSnapshot implements Snapshot {
  readonly kind;
  readonly root;
  readonly commit;
  readonly backend;
  constructor(
    readonly inner: Snapshot,
    protected readonly keep: ReadonlySet<string>,
  ) {
    this.kind = inner.kind;
    this.root = inner.root;
    this.commit = inner.commit;
    this.backend = inner.backend;
  }
  async list(): Promise<SnapshotEntry[]> {
    return (await this.inner.list()).filter((e) => this.keep.has(e.path));
  }
  async listUnder(prefix: string): Promise<SnapshotEntry[]> {
    return (await this.inner.listUnder(prefix)).filter((e) => this.keep.has(e.path));
  }
  read(p: string): Promise<Buffer | undefined> {
    return this.keep.has(p) ? this.inner.read(p) : Promise.resolve(undefined);
  }
  readMany(paths: string[]): Promise<(Buffer | undefined)[]> {
    return Promise.all(paths.map((p) => this.read(p)));
  }
  blobOf(p: string): Promise<string | undefined> {
    return this.keep.has(p) ? this.inner.blobOf(p) : Promise.resolve(undefined);
  }
  close(): void {
    // the inner snapshot belongs to the caller
  }
}
