// @spec SPEC-SCALE-001

import type { ArtifactSet } from '../artifacts/load.js';
import { parseAnchor } from '../code/anchors.js';
import { buildCodeIndex, type CodeIndex } from '../code/code-index.js';
import type { Config } from '../config.js';
import { WorktreeSnapshot } from '../snapshot/git-snapshot.js';
import type { Snapshot } from '../snapshot/types.js';
import { trackedListing, treeShortcuts } from '../tree/index.js';
import { normalizeRepoPath } from '../util/paths.js';
import { FocusSnapshot } from './focus.js';
import { PlaceSnapshot } from './snapshot.js';
import { RecordingSnapshot } from './kept.js';

export { FocusSnapshot } from './focus.js';
export { PlaceSnapshot } from './snapshot.js';
export { keepAnswer, keptAnswer, keepingOn, RecordingSnapshot, type PlaceQuestion } from './kept.js';

/**
 * The place index: how a question about one place (`trace <file>`, `for <file>`, the agent's
 * file-read hook) is answered on a large repository without listing, stat-ing or indexing
 * the whole working tree. The tree-wide view comes from the git index, remembered by its
 * stamp (the tree module's trackedListing); the place itself, the package.json files above it and the files
 * the artifacts anchor to are read from the working tree, fresh; the code index covers
 * those files only, and the neighbours a walk reaches are added on demand. Off with
 * GIT_CTX_TREE=git (every question then reads the whole tree, as `check` does).
 */
export function placeIndexEnabled(snapshot: Snapshot): boolean {
  const s = snapshot instanceof RecordingSnapshot ? snapshot.inner : snapshot;
  return treeShortcuts() && s instanceof WorktreeSnapshot;
}

/** The place and the package.json files that could hold it (what trace reads to name the package). */
export function focusOf(place: string): string[] {
  const p = normalizeRepoPath(place);
  const out = [p];
  const segs = p.split('/');
  for (let i = segs.length - 1; i >= 0; i--) out.push([...segs.slice(0, i), 'package.json'].join('/'));
  return out;
}

/**
 * A snapshot answering one-place questions about `place` (a repository path) from the place
 * index, or the snapshot itself when the index does not apply (a commit or the staged view,
 * which git lists cheaply anyway; isomorphic-git; GIT_CTX_TREE=git).
 */
export function openPlace(snapshot: Snapshot, place: string): Snapshot {
  if (!placeIndexEnabled(snapshot)) return snapshot;
  return new PlaceSnapshot(snapshot, () => trackedListing(snapshot.root), focusOf(place));
}

/**
 * A snapshot for a question about no one place (`search`): the tree-wide views (mentions)
 * from the place index, never a listing of the working tree, and `focus` (files the
 * question names) fresh from the working tree; or the snapshot itself where the index does
 * not apply, as for openPlace.
 */
export function openTreeView(snapshot: Snapshot, focus: string[]): Snapshot {
  if (!placeIndexEnabled(snapshot)) return snapshot;
  return new PlaceSnapshot(snapshot, () => trackedListing(snapshot.root), focus);
}

/** Files named by the artifacts' file, symbol and line anchors and by their stamps (their symbols are judged). */
function anchorFiles(set: ArtifactSet): string[] {
  const out = new Set<string>();
  for (const a of set.artifacts) {
    // a stamp names the code it was judged on: the code a record read in place mentions, and
    // the symbols annotations in other files anchor (without their files, judged "removed")
    for (const raw of a.stamp?.fingerprints ? [...a.anchors, ...Object.keys(a.stamp.fingerprints)] : a.anchors) {
      const s = parseAnchor(raw);
      if (s.kind === 'file' || s.kind === 'symbol' || s.kind === 'lines') out.add(s.path);
    }
  }
  return [...out];
}

/**
 * The code index a one-place question needs: over a place snapshot, the focus files and the
 * anchored files only (read from the working tree, cached by blob like every code index);
 * otherwise the whole-repository index.
 */
export async function placeCodeIndex(snapshot: Snapshot, set: ArtifactSet, config: Config = set.config): Promise<CodeIndex> {
  if (!(snapshot instanceof PlaceSnapshot)) return buildCodeIndex(snapshot, config);
  snapshot.addFocus(anchorFiles(set));
  return buildCodeIndex(new FocusSnapshot(snapshot, snapshot.focusPaths()), config);
}

/** Annotations of files a walk reached, by file. */
export interface AnnotationSource {
  annotationsIn: CodeIndex['annotationsIn'];
}

/**
 * An index that also knows the annotations of `files` (the imports, importers, callers and
 * callees a walk reached): the index itself when it covers the whole repository, else a
 * focused index over those files, read from the working tree.
 */
export async function widenIndex(index: CodeIndex, files: string[]): Promise<AnnotationSource> {
  if (!(index.snapshot instanceof FocusSnapshot) || !files.length) return index;
  const extra = await buildCodeIndex(new FocusSnapshot(index.snapshot.inner, files), index.config, { sharedWith: index });
  return {
    annotationsIn: (file: string) => {
      const own = index.annotationsIn(file);
      return own.length ? own : extra.annotationsIn(file);
    },
  };
}
