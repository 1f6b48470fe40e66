// @spec SPEC-ANCHORS-001

import { memo } from '../cache/memo.js';
import type { Config } from '../config.js';
import type { Snapshot } from '../snapshot/types.js';
import type { ListingDelta } from '../tree/index.js';
import type { SnapshotEntry } from '../snapshot/types.js';
import { CODE_CACHE_VERSION } from './code-cache.js';
import { classificationSettings } from './extract.js';
import type { CodeLanguage } from './types.js';

/**
 * One file of the git index's listing that the code index classified as carrying something
 * (a record: annotations, symbols, a problem): its path, blob id and language, and its size
 * when it was over the size bound (such a record is not cached by blob: the bound is
 * configurable). Every other considered file of the listing was tag-free.
 */
export type KeptCarrier = [path: string, blob: string, language: CodeLanguage, size?: number];

/**
 * The code index's classification of the git index's listing, kept by the index's stamp
 * (DEC-070). The classification of a file is a function of its blob, its language, the tags
 * and the selection (include/exclude, the records folder, the size bound): at one stamp the
 * listing names the same blobs, so a warm run takes the carriers from here and classifies
 * only the paths where the working tree differs from the index (tree/worktree.ts'
 * ListingDelta), instead of looking up every one of 100,000 blobs.
 */
export interface KeptClasses {
  carriers: KeptCarrier[];
}

/** How the snapshot's whole listing differs from the git index, when it was made from one state of it. */
export function listingDelta(snapshot: Snapshot): ListingDelta | undefined {
  return snapshot.kind === 'worktree' ? snapshot.tree?.listingDelta() : undefined;
}

function keyOf(delta: ListingDelta, config: Config): string {
  return `${CODE_CACHE_VERSION} ${delta.stamp} ${classificationSettings(config)}`;
}

const isCarrier = (c: unknown): c is KeptCarrier =>
  Array.isArray(c) && (c.length === 3 || (c.length === 4 && typeof c[3] === 'number')) && typeof c[0] === 'string' && typeof c[1] === 'string' && typeof c[2] === 'string';

/** The classification kept for this listing's stamp and this config, or undefined. */
export function keptClasses(root: string, delta: ListingDelta, config: Config): KeptClasses | undefined {
  const v = memo<KeptClasses>(root, 'code-index-kept').get(keyOf(delta, config));
  return v && Array.isArray(v.carriers) && v.carriers.every(isCarrier) ? v : undefined;
}

/** Keep the classification of this listing's stamp (written only when it was not kept already). */
export function keepClasses(root: string, delta: ListingDelta, config: Config, value: KeptClasses): void {
  memo<KeptClasses>(root, 'code-index-kept').set(keyOf(delta, config), value);
}

/** The entries of a sorted listing at these paths (a few: each found by binary search). */
export function differing(sorted: SnapshotEntry[], paths: ReadonlySet<string>): SnapshotEntry[] {
  const out: SnapshotEntry[] = [];
  for (const p of paths) {
    let lo = 0;
    let hi = sorted.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = sorted[mid]!.path;
      if (at === p) {
        out.push(sorted[mid]!);
        break;
      }
      if (at < p) lo = mid + 1;
      else hi = mid - 1;
    }
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
