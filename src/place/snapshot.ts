// @spec SPEC-SCALE-001

import type { Snapshot, SnapshotEntry } from '../snapshot/types.js';
import { focusIdentity, type TrackedListing, type WorktreeTree } from '../tree/index.js';
import { GlobIndex as GlobIndexLike, type PathLookup } from '../util/glob.js';
import { mentionLookup } from './mentions.js';

/**
 * The working tree as a one-place question needs it, without listing it. The whole-tree
 * listing (`list()`: mentions, package folders, the code graph) comes from the git index
 * (see trackedListing: tracked paths and staged blob ids, no stat of every file, no scan for
 * untracked ones); the files the question is about (its focus: the place, the package.json
 * files above it, files named by anchors) are looked up in the working tree itself, fresh,
 * with one git process limited to them, and override the staged view. Reads, blob ids and
 * folder listings are the working tree's, each limited to what is asked.
 */
/** Files looked up one by one before falling back to the working tree's folder listings. */
const SINGLE_LOOKUPS = 16;

export class PlaceSnapshot implements Snapshot {
  readonly kind;
  readonly root;
  readonly commit;
  readonly backend;
  private readonly focus = new Set<string>();
  private listed: Promise<SnapshotEntry[]> | undefined;
  private pathsListed: Promise<string[]> | undefined;
  private listing: Promise<TrackedListing> | undefined;
  private overlay: Promise<Map<string, string | undefined>> | undefined;
  /** single-file lookups so far: past a few, a folder listing is cheaper than a process each */
  private singles = 0;

  constructor(
    private readonly inner: Snapshot,
    private readonly tracked: () => Promise<TrackedListing>,
    focus: Iterable<string>,
  ) {
    this.kind = inner.kind;
    this.root = inner.root;
    this.commit = inner.commit;
    this.backend = inner.backend;
    this.addFocus(focus);
  }

  /** More files the question is about; only before the listing is first asked for. */
  addFocus(paths: Iterable<string>): void {
    const fresh = [...paths].filter((p) => p && !this.focus.has(p));
    for (const p of fresh) this.focus.add(p);
    if (fresh.length) this.inner.prefetch?.(fresh);
  }

  /** The files looked up in the working tree. */
  focusPaths(): string[] {
    return [...this.focus];
  }

  private base(): Promise<TrackedListing> {
    this.listing ??= this.tracked();
    return this.listing;
  }
  /** The focus files' blob ids in the working tree (undefined: absent or a link). */
  private fresh(): Promise<Map<string, string | undefined>> {
    this.overlay ??= Promise.all([...this.focus].map(async (p) => [p, await this.inner.blobOf(p)] as const)).then((x) => new Map(x));
    return this.overlay;
  }
  list(): Promise<SnapshotEntry[]> {
    this.listed ??= (async () => {
      const [listing, fresh] = await Promise.all([this.base(), this.fresh()]);
      const over = new Map(fresh);
      const out: SnapshotEntry[] = [];
      for (const e of listing.entries()) {
        if (!over.has(e.path)) out.push(e);
        else {
          const blob = over.get(e.path);
          over.delete(e.path);
          // deleted from disk (or now a link, which is never followed): not part of the tree
          if (blob !== undefined) out.push({ path: e.path, mode: e.mode === '120000' ? '100644' : e.mode, blob });
        }
      }
      // focus files git does not track yet (untracked, not ignored)
      for (const [p, blob] of over) if (blob !== undefined) out.push({ path: p, mode: '100644', blob });
      if (over.size) out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      return out;
    })();
    return this.listed;
  }
  /**
   * What list() is a function of, cheaply: the git index's stamp now and the focus files' blob
   * ids (undefined without an index). With `listed`, the stamp of the listing list() used
   * (undefined when it is not known to hold): equal identities mean equal listings.
   */
  async listIdentity(listed = false): Promise<string | undefined> {
    const state = await this.focusState('blob');
    if (!state) return undefined;
    // the listing list() used must be of the index the focus files were compared with
    if (listed && (await this.base()).stamp !== state.stamp) return undefined;
    return `${state.stamp}|${state.sig}`;
  }
  /** The git index's stamp and the focus files that make list() (`blob`) or listPaths() (`presence`) differ from it (tree/identity.ts). */
  private async focusState(kind: 'blob' | 'presence'): Promise<{ stamp: string; sig: string } | undefined> {
    return focusIdentity(this.root, await this.fresh(), kind);
  }
  /**
   * Which of these paths and globs (mentioned in records) match files, from a memo kept per
   * state of the git index and of the focus files; the listing is read only on a miss.
   */
  async pathLookup(patterns: string[]): Promise<PathLookup> {
    // the focus files' presence is part of the state the answers hold for
    const state = await this.focusState('presence');
    if (!state) return new GlobIndexLike(await this.listPaths());
    return mentionLookup(this.root, `${state.stamp}|${state.sig}`, patterns, () => this.listPaths());
  }
  /** The paths of list(), sorted, without building an entry per file. */
  listPaths(): Promise<string[]> {
    this.pathsListed ??= (async () => {
      const [listing, fresh] = await Promise.all([this.base(), this.fresh()]);
      const paths = listing.paths();
      const gone = new Set<string>();
      const added: string[] = [];
      const tracked = new Set<string>();
      for (const [p, blob] of fresh) {
        // binary search: is the focus file tracked?
        let lo = 0;
        let hi = paths.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (paths[mid]! < p) lo = mid + 1;
          else hi = mid;
        }
        if (paths[lo] === p) tracked.add(p);
        if (blob === undefined && tracked.has(p)) gone.add(p);
        if (blob !== undefined && !tracked.has(p)) added.push(p);
      }
      if (!gone.size && !added.length) return paths;
      const out = paths.filter((p) => !gone.has(p)).concat(added);
      return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    })();
    return this.pathsListed;
  }
  listUnder(prefix: string): Promise<SnapshotEntry[]> {
    return this.inner.listUnder(prefix);
  }
  /** The working tree's: folder listings are its own (listUnder above), and so are their tokens. */
  get tree(): WorktreeTree | undefined {
    return this.inner.tree;
  }
  /** Look one file up on its own (one git process) while that stays cheaper than listing its folder. */
  private single(p: string): void {
    if (this.focus.has(p) || ++this.singles > SINGLE_LOOKUPS) return;
    this.inner.prefetch?.([p]);
  }
  read(p: string): Promise<Buffer | undefined> {
    this.single(p);
    return this.inner.read(p);
  }
  readMany(paths: string[]): Promise<(Buffer | undefined)[]> {
    this.inner.prefetch?.(paths);
    return this.inner.readMany(paths);
  }
  blobOf(p: string): Promise<string | undefined> {
    this.single(p);
    return this.inner.blobOf(p);
  }
  prefetch(paths: string[]): void {
    this.inner.prefetch?.(paths);
  }
  close(): void {
    this.inner.close();
  }
}
