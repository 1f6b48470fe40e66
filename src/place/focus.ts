// @spec SPEC-SCALE-001

import { NarrowedSnapshot } from '../snapshot/narrow.js';
import type { Snapshot, SnapshotEntry } from '../snapshot/types.js';

/**
 * A snapshot seen through a few named files, each looked up in the underlying snapshot with
 * one listing limited to them: a code index built over it classifies, reads and parses those
 * files only, and never lists the tree (NarrowedSnapshot, whose reads it shares, filters a
 * full listing). Files absent from the underlying snapshot are absent here.
 */
export class FocusSnapshot extends NarrowedSnapshot {
  private listed: Promise<SnapshotEntry[]> | undefined;
  constructor(inner: Snapshot, paths: Iterable<string>) {
    const keep = new Set([...paths].filter((p) => p));
    super(inner, keep);
    inner.prefetch?.([...keep]);
  }
  override list(): Promise<SnapshotEntry[]> {
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
  override async listUnder(prefix: string): Promise<SnapshotEntry[]> {
    const dir = prefix.replace(/\/+$/, '');
    return (await this.list()).filter((e) => !dir || e.path.startsWith(dir + '/'));
  }
}
