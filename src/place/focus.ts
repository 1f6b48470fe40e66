// @spec SPEC-SCALE-001

import type { Snapshot, SnapshotEntry } from '../snapshot/types.js';

/**
 * A snapshot seen through a few named files, each looked up in the underlying snapshot with
 * one listing limited to them: a code index built over it classifies, reads and parses those
 * files only, and never lists the tree (unlike NarrowedSnapshot, which filters a full
 * listing). Files absent from the underlying snapshot are absent here.
 */
export class FocusSnapshot implements Snapshot {
  readonly kind;
  readonly root;
  readonly commit;
  readonly backend;
  private readonly keep: Set<string>;
  private listed: Promise<SnapshotEntry[]> | undefined;
  constructor(
    readonly inner: Snapshot,
    paths: Iterable<string>,
  ) {
    this.kind = inner.kind;
    this.root = inner.root;
    this.commit = inner.commit;
    this.backend = inner.backend;
    this.keep = new Set([...paths].filter((p) => p));
    inner.prefetch?.([...this.keep]);
  }
  list(): Promise<SnapshotEntry[]> {
    this.listed ??= (async () => {
      const paths = [...this.keep].sort();
      const blobs = await Promise.all(paths.map((p) => this.inner.blobOf(p)));
      const out: SnapshotEntry[] = [];
      // a link has no blob here (never followed), so it is simply not part of the view
      paths.forEach((p, i) => {
        if (blobs[i] !== undefined) out.push({ path: p, mode: '100644', blob: blobs[i] });
      });
      return out;
    })();
    return this.listed;
  }
  async listUnder(prefix: string): Promise<SnapshotEntry[]> {
    const dir = prefix.replace(/\/+$/, '');
    return (await this.list()).filter((e) => !dir || e.path.startsWith(dir + '/'));
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
