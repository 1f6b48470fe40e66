// @spec SPEC-SCALE-001

import { readIndex } from './state.js';

/**
 * The identity of a listing made of the git index and a few files looked up fresh in the
 * working tree (a place question's focus: the place, the package.json files above it, the
 * files anchors name): the index's stamp and the focus files that make the listing differ
 * from the index at that stamp. `kind` says what the listing holds: blob ids (`blob`) or
 * paths only (`presence`). A focus file the index records as a plain file with the blob it
 * has on disk changes nothing, so it is left out: two questions about different unchanged
 * files share one identity (DEC-031), and the memos keyed by it (the code graph's key, the
 * mentioned paths) serve both. Anything else (not tracked but on disk, modified, deleted, a
 * link, a conflict, an index that cannot be read here) is named with its blob or presence; a
 * file neither tracked nor on disk changes nothing either. undefined without an index.
 */
export function focusIdentity(root: string, fresh: ReadonlyMap<string, string | undefined>, kind: 'blob' | 'presence'): { stamp: string; sig: string } | undefined {
  // the stamp is the one of the bytes read: the entries compared below belong to it
  const read = readIndex(root);
  if (!read) return undefined;
  const index = read.index;
  const parts: string[] = [];
  for (const [p, blob] of fresh) {
    if (index) {
      const at = index.under(p).filter((e) => e.path === p);
      const mode = at.length === 1 && index.stage(at[0]!) === 0 ? index.mode(at[0]!) : undefined;
      const plain = mode === '100644' || mode === '100755';
      // neither tracked nor on disk (a package.json looked for above the place): nothing to overlay
      if (!at.length && blob === undefined) continue;
      if (plain && blob !== undefined && (kind === 'presence' || index.blob(at[0]!) === blob)) continue;
    }
    parts.push(kind === 'blob' ? `${p}=${blob ?? '-'}` : `${p}=${blob === undefined ? '-' : '+'}`);
  }
  return { stamp: read.stamp, sig: parts.sort().join(kind === 'blob' ? '\n' : ',') };
}
