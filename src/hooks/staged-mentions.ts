// @spec SPEC-HOOK-001

import { memo } from '../cache/memo.js';
import { IndexSnapshot } from '../snapshot/git-snapshot.js';
import { GlobIndex, globIndexFor, matchEdges, type PathLookup } from '../util/glob.js';
import { mark } from '../util/timing.js';
import type { SnapshotEntry } from '../snapshot/types.js';
import type { RawChange, StagedDelta } from '../tree/index.js';

/**
 * Which paths and globs the records mention exist in the staged snapshot, without listing
 * its 100,000 files (DEC-033). Resolving a mention needs the first two files a pattern
 * matches and the last (matchEdges: resolveMentions tells a file from a directory, a match
 * from none, and one folder from several by them).
 * Those are remembered per commit in the `hook-mentions` cache; the staged answers follow from
 * what `git diff-index --cached <commit>` adds and deletes:
 *
 *   staged matches = (matches at the commit − deleted) ∪ (added that match)
 *
 * so the first two and the last staged matches are among those remembered and the added ones,
 * unless one of those remembered was deleted (the third is not known): then, or for a pattern not
 * remembered, the whole listing is read once, as before, and the memo is made again.
 */

const MEMO_VERSION = 2;
const KEY = `git-ctx/hook-mentions ${MEMO_VERSION}`;
/** Patterns remembered at most (a bound on the file). */
const MAX_PATTERNS = 20_000;

interface Memo {
  commit: string;
  /** pattern → its first two matches and its last (path order, matchEdges) in the commit's tree */
  answers: Record<string, string[]>;
}

/** Whether a raw diff mode is a path the snapshot lists (gitlinks are not listed). */
const listed = (mode: string) => mode !== '000000' && mode !== '160000';

/** Paths added to and deleted from the listing between a diff's two sides. */
function existence(changes: RawChange[]): { added: string[]; deleted: Set<string> } {
  const added: string[] = [];
  const deleted = new Set<string>();
  for (const c of changes) {
    const before = listed(c.oldMode);
    const after = listed(c.newMode);
    if (!before && after) added.push(c.path);
    else if (before && !after) deleted.add(c.path);
  }
  return { added, deleted };
}

/**
 * The first two and the last matches of each pattern after a change, from those before it, or
 * undefined for a pattern whose answer cannot be derived (not remembered, or one of two
 * remembered matches deleted).
 */
function derive(answers: Record<string, string[]>, patterns: Iterable<string>, added: string[], deleted: Set<string>): Map<string, string[]> | undefined {
  const out = new Map<string, string[]>();
  // the same matcher as the whole listing's, over the added files only (built once)
  const addedIndex = added.length ? new GlobIndex(added) : undefined;
  for (const p of patterns) {
    const before = answers[p];
    if (!Array.isArray(before)) return undefined;
    const kept = before.filter((f) => !deleted.has(f));
    if (before.length >= 2 && kept.length < before.length) return undefined;
    const extra = addedIndex?.match(p) ?? [];
    out.set(p, extra.length ? edgesOfBoth(kept, extra) : kept);
  }
  return out;
}

/** The first two and the last, in path order, of two lists of matches of one pattern. */
function edgesOfBoth(a: string[], b: string[]): string[] {
  return matchEdges([...matchEdges(a), ...matchEdges(b)].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
}

function readMemo(root: string): Memo | undefined {
  const v = memo<Partial<Memo>>(root, 'hook-mentions').get(KEY);
  if (!v || typeof v.commit !== 'string' || !v.answers || typeof v.answers !== 'object') return undefined;
  return v as Memo;
}

function writeMemo(root: string, commit: string, answers: Map<string, string[]>): void {
  const entries = [...answers].slice(-MAX_PATTERNS);
  memo<Memo>(root, 'hook-mentions').set(KEY, { commit, answers: Object.fromEntries(entries) });
}

/**
 * The staged snapshot of the pre-commit hook: the git index as IndexSnapshot reads it,
 * answering the records' mentions from the per-commit memo above (pathLookup is what the
 * artifact loader asks a snapshot for). `GIT_CTX_TREE=git` turns it off.
 */
export class StagedSnapshot extends IndexSnapshot {
  constructor(
    root: string,
    commit: string,
    private readonly delta: StagedDelta,
  ) {
    super(root, commit);
  }

  /** A path this commit changes is looked up in the diff (its index side), not by listing. */
  protected override async entry(p: string): Promise<SnapshotEntry | undefined> {
    const known = await this.delta.stagedEntry(p);
    if (known === undefined) return super.entry(p);
    return known ?? undefined;
  }

  /** Nothing to list ahead for paths a diff already named. */
  override prefetch(paths: string[]): void {
    super.prefetch(paths.filter((p) => !this.delta.named(p)));
  }

  async pathLookup(patterns: string[]): Promise<PathLookup> {
    const wanted = [...new Set(patterns)];
    const head = this.commit!;
    const memo = readMemo(this.root);
    if (memo) {
      try {
        const since = existence(await this.delta.since(memo.commit));
        const staged = derive(memo.answers, wanted, since.added, since.deleted);
        if (staged) {
          mark(`staged mentions: ${wanted.length} patterns from the memo of ${memo.commit.slice(0, 12)}`);
          if (memo.commit !== head) await this.advance(memo);
          return { match: (p) => staged.get(p) ?? [] };
        }
      } catch {
        // the remembered commit is gone: read the listing
      }
    }
    const index = await globIndexFor(this);
    mark(`staged mentions: ${wanted.length} patterns resolved from the listing`);
    try {
      this.remember(index, wanted, await this.delta.headChanges);
    } catch {
      // nothing remembered; the answers stand
    }
    return index;
  }

  /** The memo moved to HEAD, when every answer can be derived (else it stays where it is). */
  private async advance(memo: Memo): Promise<void> {
    try {
      const [since, head] = await Promise.all([this.delta.since(memo.commit), this.delta.headChanges]);
      // a path's presence at the memo's commit and at HEAD, from the two diffs against the index
      const sinceBy = new Map(since.map((c) => [c.path, c]));
      const headBy = new Map(head.map((c) => [c.path, c]));
      const added: string[] = [];
      const deleted = new Set<string>();
      for (const p of new Set([...sinceBy.keys(), ...headBy.keys()])) {
        const s = sinceBy.get(p);
        const h = headBy.get(p);
        const atMemo = s ? listed(s.oldMode) : listed(h!.newMode);
        const atHead = h ? listed(h.oldMode) : listed(s!.newMode);
        if (!atMemo && atHead) added.push(p);
        else if (atMemo && !atHead) deleted.add(p);
      }
      const answers = derive(memo.answers, Object.keys(memo.answers), added, deleted);
      if (answers) writeMemo(this.root, this.commit!, answers);
    } catch {
      // the memo stays at its commit
    }
  }

  /** HEAD's answers from the whole staged listing and what this commit changes. */
  private remember(index: GlobIndex, wanted: string[], headChanges: RawChange[]): void {
    const { added, deleted } = existence(headChanges);
    // HEAD lists what the index lists, less what this commit adds, plus what it deletes
    const addedSet = new Set(added);
    const deletedIndex = deleted.size ? new GlobIndex(deleted) : undefined;
    const answers = new Map<string, string[]>();
    for (const p of wanted) {
      const now = index.match(p);
      const kept = addedSet.size ? now.filter((f) => !addedSet.has(f)) : now;
      const extra = deletedIndex?.match(p) ?? [];
      answers.set(p, extra.length ? edgesOfBoth(kept, extra) : matchEdges(kept));
    }
    writeMemo(this.root, this.commit!, answers);
    mark(`staged mentions: ${answers.size} answers of ${this.commit!.slice(0, 12)} remembered`);
  }
}
