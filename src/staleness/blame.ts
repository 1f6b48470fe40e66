// @spec SPEC-STALENESS-001
import { findSymbol, fingerprintAnchor, indexContentHasher, type AnchorSpec, type ContentHasher } from '../code/anchors.js';
import type { CodeIndex } from '../code/code-index.js';
import type { Snapshot } from '../snapshot/types.js';
import { SymbolReader, withPath } from './anchors.js';
import type { CommitInfo } from './history.js';

/** What blame needs from a judging run: snapshots by commit, and the readers. */
export interface BlameEnv {
  at(commit: string): Snapshot;
  reader: SymbolReader;
  index: CodeIndex;
}

/** A commit that touched an anchor, with the anchor's path before and after it. */
export interface BlameCandidate {
  commit: CommitInfo;
  /** where the anchor was in the first parent (undefined: not there) */
  before?: string;
  /** where it is after the commit (undefined: deleted) */
  after?: string;
}

/** An anchor's fingerprint in a snapshot, in both the current and the legacy (pre-`set1:`) form. */
interface Print {
  fp?: string;
  legacy?: string;
}

/** At most this many commits are fingerprinted per anchor; beyond it, every touch is listed. */
export const BLAME_LIMIT = 64;

/**
 * Content hashes of set anchors in a snapshot: a file whose blob is the one the index's
 * snapshot holds is read from the index (parsed already); others through the reader.
 */
function hasherFor(env: BlameEnv, snap: Snapshot): ContentHasher {
  if (snap === env.index.snapshot) return indexContentHasher(env.index);
  const viaIndex = indexContentHasher(env.index);
  const viaReader = env.reader.contentHasher(snap);
  return async (path, blob) => (blob && blob === (await env.index.snapshot.blobOf(path)) ? viaIndex(path, blob) : viaReader(path, blob));
}

/** Fingerprint an anchor (at `path`, for path-bound kinds) in a snapshot. */
export async function printAt(env: BlameEnv, spec: AnchorSpec, path: string | undefined, snap: Snapshot): Promise<Print> {
  if (spec.kind === 'endpoint') return {};
  if (spec.kind === 'symbol') {
    if (!path) return {};
    // the same blob as in the index's snapshot: its symbols are parsed already
    const blob = snap === env.index.snapshot ? undefined : await snap.blobOf(path);
    if (snap === env.index.snapshot || (blob && blob === (await env.index.snapshot.blobOf(path)))) return { fp: findSymbol(await env.index.symbolsOf(path), spec.symbol)?.fingerprint };
    return { fp: blob ? await env.reader.fingerprintSymbol(snap, path, spec.symbol) : undefined };
  }
  const s: AnchorSpec = path && (spec.kind === 'file' || spec.kind === 'lines') && path !== spec.path ? { ...spec, path, raw: withPath(spec, path) } : spec;
  if ((s.kind === 'file' || s.kind === 'lines') && !path) return {};
  const f = await fingerprintAnchor(s, snap, env.index, hasherFor(env, snap));
  return f.status === 'ok' ? { fp: f.fingerprint, legacy: f.legacy } : {};
}

const matches = (p: Print, stamped: string | undefined) => stamped !== undefined && (p.fp === stamped || (p.legacy !== undefined && p.legacy === stamped));

/**
 * The commits to blame for an anchor's drift: those that moved its content away from the
 * stamped fingerprint. Walking oldest first from the base, a commit whose result equals the
 * stamp (the commit carrying the stamp with the reviewed change, or a revert) clears the
 * blame so far; a commit that leaves the fingerprint as it was (a comment, formatting, a
 * test file under a glob, the stamp itself) is not blamed. Without a stamped fingerprint
 * (an anchor added since), every commit that changed it is blamed.
 *
 * The anchor changes only in the commits that touch it, so the state before a candidate is
 * the state after the previous one (or at the base), and the state after the last one is
 * the state at HEAD: the base and HEAD snapshots are shared by every anchor, and only the
 * intermediate commits of anchors touched more than once are read.
 */
export async function blameCommits(env: BlameEnv, spec: AnchorSpec, stamped: string | undefined, base: { commit: string; path?: string }, head: string, candidates: BlameCandidate[]): Promise<CommitInfo[] | undefined> {
  if (spec.kind === 'endpoint' || candidates.length > BLAME_LIMIT) return undefined;
  if (!candidates.length) return [];
  const bound = spec.kind === 'file' || spec.kind === 'lines' || spec.kind === 'symbol';
  // the state at the base is what was stamped (the base is the stamp commit, or the
  // commit a history judgement fingerprinted): read only when nothing was stamped
  let prev: Print = stamped !== undefined ? { fp: stamped } : !bound || base.path !== undefined ? await printAt(env, spec, base.path, env.at(base.commit)) : {};
  let blamed: CommitInfo[] = [];
  for (const [i, c] of candidates.entries()) {
    const snap = env.at(i === candidates.length - 1 ? head : c.commit.id);
    const after = !bound || c.after !== undefined ? await printAt(env, spec, c.after, snap) : {};
    if (matches(after, stamped)) blamed = [];
    else if (prev.fp !== after.fp) blamed.push(c.commit);
    prev = after;
  }
  return blamed;
}

/**
 * Uncommitted changes to an anchor: whether the index differs from HEAD (staged) and the
 * working tree from the index (working tree), for the snapshot being judged.
 */
export async function pendingChanges(env: BlameEnv, spec: AnchorSpec, path: string | undefined, now: Snapshot, head: Snapshot, index: Snapshot | undefined): Promise<('staged' | 'working tree')[]> {
  if (now.kind === 'commit' || spec.kind === 'endpoint') return [];
  const h = await printAt(env, spec, path, head);
  const n = await printAt(env, spec, path, now);
  if (h.fp === n.fp) return [];
  if (now.kind === 'index' || !index) return [now.kind === 'index' ? 'staged' : 'working tree'];
  const i = await printAt(env, spec, path, index);
  const out: ('staged' | 'working tree')[] = [];
  if (i.fp !== h.fp) out.push('staged');
  if (n.fp !== i.fp) out.push('working tree');
  return out;
}
