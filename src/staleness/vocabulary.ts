import type { AnchorState, StaleStatus } from './types.js';

/**
 * One vocabulary for the states of records and of their anchors, used by every front end
 * (stale, map, for/trace marks, check, the hook) and explained once in docs/states.md
 * (DEC-049). A front end may colour or shorten these words; it may not use others.
 */

/** What each record state means, in the words docs/states.md uses. */
export const RECORD_STATES: Readonly<Record<StaleStatus | 'not judged', string>> = {
  fresh: 'its anchored code is as it was stamped',
  moved: 'its anchored code moved (renamed file, moved symbol) without changing: git ctx stamp --fix',
  stale: 'its anchored code changed since it was stamped: review the record, then git ctx ack',
  unstamped: 'it anchors code but was never stamped, so changes cannot be told: git ctx stamp',
  unanchored: 'it names no code at all (no anchors, paths, annotations or code in its text): nothing can drift',
  'not judged': 'stamped, but staleness was not judged in this run (--no-staleness or an error)',
};

/** The qualifier of a record whose only anchors are code named in its text (an ADR's `src/x.ts`). */
export const MENTIONED_ONLY = 'mentioned code only';

/** A record's state as every front end writes it: `unstamped (mentioned code only)`. */
export function recordStateLabel(status: StaleStatus | 'not judged', mentionedOnly = false): string {
  return mentionedOnly && status !== 'unanchored' ? `${status} (${MENTIONED_ONLY})` : status;
}

/** What each anchor state means. */
export const ANCHOR_STATES: Readonly<Record<AnchorState, string>> = {
  ok: 'as stamped',
  changed: 'its content changed since the stamp',
  moved: 'the same content is at another place now',
  removed: 'gone: the file was deleted, the symbol removed, or the glob matches nothing',
  replaced: 'the path holds a different, unrelated file now',
  added: 'not covered by the stamp: new to the record since it was stamped, or the record was never stamped',
  unresolved: 'an endpoint whose registering code cannot be found: nothing to compare',
};

/**
 * An anchor's state as a phrase that says what happened to what: `added` alone reads as if
 * the code were added, while it is the anchor that the stamp does not cover.
 */
export function anchorStateText(state: AnchorState, anchor: string, opts: { record: string; mentioned?: boolean; recordStamped: boolean; movedTo?: string }): string {
  const what = opts.mentioned ? `${anchor} (named in ${opts.record}'s text)` : anchor;
  switch (state) {
    case 'added':
      return opts.recordStamped ? `${what}: added to ${opts.record} after its stamp, not verified yet` : `${what}: not stamped yet (${opts.record} has no stamp)`;
    case 'moved':
      return `${what}: moved to ${opts.movedTo ?? '?'}`;
    case 'changed':
      return `${what}: changed since the stamp`;
    case 'removed':
      return `${what}: removed (no longer found)`;
    case 'replaced':
      return `${what}: replaced by an unrelated file`;
    default:
      return `${what}: ${state}`;
  }
}
