import type { ArtifactSet } from '../artifacts/load.js';
import { stampLine, stampsInSidecar, stampsPath } from '../artifacts/sources/stamps.js';
import type { Artifact } from '../artifacts/types.js';
import { editFrontmatterText } from '../artifacts/write.js';
import { buildCodeIndex, type CodeIndex } from '../code/code-index.js';
import type { Config } from '../config.js';
import type { ChangedFile, Hunk } from '../git/diff.js';
import { runGit } from '../git/exec.js';
import type { Snapshot } from '../snapshot/types.js';
import { currentFingerprints, judgeArtifacts } from '../staleness/judge.js';
import type { AnchorVerdict } from '../staleness/types.js';
import type { PrArtifact, PrStaleness, UnstampedChange } from './types.js';

export interface PrStaleOptions {
  snapshot: Snapshot;
  config: Config;
  set: ArtifactSet;
  /** a full code index of `snapshot`, shared with the caller when it has one */
  index?: CodeIndex;
  /** only these ids; undefined = every repository artifact */
  ids?: string[];
  cache?: string | false;
}

function describe(v: AnchorVerdict): PrStaleness['anchors'][number] {
  const last = v.commits?.[v.commits.length - 1];
  const mentioned = v.origins.length === 1 && v.origins[0] === 'mentioned';
  return { anchor: v.anchor, state: v.state, ...(v.movedTo ? { movedTo: v.movedTo } : {}), commits: v.commits?.length ?? 0, ...(last ? { last: { id: last.id, author: last.author } } : {}), ...(mentioned ? { mentioned } : {}) };
}

/**
 * Staleness at head, from the staleness engine (src/staleness), reduced to what a PR
 * comment shows: the verdict and the anchors that are not ok.
 */
export async function judgeStaleness(opts: PrStaleOptions): Promise<{ byId: Map<string, PrStaleness>; warnings: string[] }> {
  const byId = new Map<string, PrStaleness>();
  if (opts.ids && !opts.ids.length) return { byId, warnings: [] };
  const report = await judgeArtifacts({ snapshot: opts.snapshot, config: opts.config, set: opts.set, index: opts.index, ids: opts.ids, cache: opts.cache !== false });
  for (const j of report.artifacts) {
    byId.set(j.id, { status: j.status, anchors: j.anchors.filter((v) => v.state !== 'ok').map(describe), ...(j.mentioned ? { mentioned: true } : {}) });
  }
  return { byId, warnings: report.warnings };
}

/** A replacement of some lines of a file the PR touches, to post as a GitHub suggestion. */
export interface StampSuggestion {
  /** the file the stamp lives in: the record, or the stamps sidecar of records read in place */
  file: string;
  /** first and last line replaced, at head (1-based, inclusive) */
  startLine: number;
  endLine: number;
  /** the replacement lines */
  lines: string[];
  /** the lines sit within GitHub's diff of the PR (changed lines and 3 of context), where a review comment can carry it */
  inDiff: boolean;
}

/** A record the PR makes stale: its anchored code changes and its stamp stays behind. */
export interface MadeStale {
  id: string;
  type: string;
  title: string;
  file: string;
  changes: UnstampedChange[];
  /** the command that re-stamps it once reviewed: `git ctx ack <id>`, or `git ctx stamp <id> --fix` when its anchors only moved */
  restamp: string;
  /** the command that replaces it when it no longer holds, once its successor is written (`git ctx new <type>`) */
  supersede: string;
  /** the command that writes that successor */
  successor: string;
  /** where the stamp lives in a file the PR already touches: the corrected stamp lines */
  suggestion?: StampSuggestion;
  /** the record only mentions the changed code (no anchor or annotation declares it) */
  mentioned?: true;
}

/** GitHub shows this many lines of context around each change; review comments may sit on them. */
const GITHUB_CONTEXT = 3;

/** Whether lines of a file sit in GitHub's diff view of it: the changed lines with their context, nearby hunks joined. */
export function visibleInDiff(hunks: readonly Hunk[], startLine: number, endLine: number): boolean {
  const spans = hunks.map((h) => [h.newStart - GITHUB_CONTEXT, h.newStart + Math.max(h.newLines, 1) - 1 + GITHUB_CONTEXT] as const).sort((a, b) => a[0] - b[0]);
  let cur: [number, number] | undefined;
  for (const [a, b] of spans) {
    if (cur && a <= cur[1] + 1) cur[1] = Math.max(cur[1], b);
    else {
      if (cur && startLine >= cur[0] && endLine <= cur[1]) return true;
      cur = [a, b];
    }
  }
  return !!cur && startLine >= cur[0] && endLine <= cur[1];
}

function quoteArg(s: string): string {
  return /^[\w./@:=+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The records this pull request makes stale (anchored code changed, stamp not renewed), with
 * the exact commands that settle each, and — when the PR already edits the file the stamp is
 * written in — the stamp lines as `git ctx ack` would write them at the PR head, to apply as
 * a suggestion. Reads only the head's git objects.
 */
export async function madeStaleBy(
  artifacts: readonly PrArtifact[],
  at: { headSnap: Snapshot; headConfig: Config; headSet: ArtifactSet; files: readonly ChangedFile[]; mergeBase: string; cache?: string | false },
): Promise<MadeStale[]> {
  const out: MadeStale[] = [];
  const touched = new Map(at.files.filter((f) => f.status !== 'deleted').map((f) => [f.path, f]));
  const prCommits = await commitsOf(at.headSnap.root, at.mergeBase, at.headSnap.commit);
  let index: CodeIndex | undefined;
  for (const a of artifacts) {
    if (!a.file || a.inclusion === 'stale-elsewhere' || a.inactive) continue;
    const changes = a.unstamped.length ? a.unstamped : staleByCommits(a, prCommits);
    if (!changes.length) continue;
    const onlyMoved = changes.every((u) => u.change === 'moved');
    const item: MadeStale = {
      id: a.id,
      type: a.type,
      title: a.title,
      file: a.file,
      changes,
      restamp: onlyMoved ? `git ctx stamp ${a.id} --fix` : `git ctx ack ${a.id}`,
      supersede: `git ctx supersede ${a.id} --by <new id>`,
      successor: `git ctx new ${quoteArg(a.type)} --title ${quoteArg('…')}`,
      ...(a.staleness?.mentioned ? { mentioned: true as const } : {}),
    };
    const record = at.headSet.byId.get(a.id);
    const stampFile = record && (stampsInSidecar(record) ? stampsPath(at.headConfig.dir) : record.file);
    const changed = stampFile ? touched.get(stampFile) : undefined;
    if (record && stampFile && changed && at.headSnap.commit) {
      index ??= await buildCodeIndex(at.headSnap, at.headConfig, { cache: at.cache });
      const s = await suggestStamp(record, stampFile, at.headSnap, index);
      if (s) item.suggestion = { ...s, inDiff: visibleInDiff(changed.hunks, s.startLine, s.endLine) };
    }
    out.push(item);
  }
  return out;
}

/** The commits of the pull request (merge base..head), to tell staleness it caused from staleness it found. */
async function commitsOf(root: string, mergeBase: string, head: string | undefined): Promise<Set<string>> {
  if (!head || head === mergeBase) return new Set();
  const out = await runGit(['rev-list', '--max-count=100000', `${mergeBase}..${head}`], { cwd: root }).catch(() => '');
  return new Set(out.split('\n').filter(Boolean));
}

/** A record without a stamp, stale at head because a commit of this PR changed its code: those anchors. */
function staleByCommits(a: PrArtifact, prCommits: ReadonlySet<string>): UnstampedChange[] {
  if (a.staleness?.status !== 'stale') return [];
  return a.staleness.anchors
    .filter((x) => x.last && prCommits.has(x.last.id) && ['changed', 'replaced', 'removed', 'moved'].includes(x.state))
    .map((x) => ({ anchor: x.anchor, change: x.state === 'removed' ? 'removed' : x.state === 'moved' ? 'moved' : 'changed', ...(x.movedTo ? { movedTo: x.movedTo } : {}) }));
}

/** The lines `git ctx ack` would change in the stamp's file at the head, as a replacement of a line range. */
async function suggestStamp(record: Artifact, file: string, snap: Snapshot, index: CodeIndex): Promise<Omit<StampSuggestion, 'inDiff'> | undefined> {
  const buf = await snap.read(file);
  if (!buf) return undefined;
  const { fingerprints } = await currentFingerprints(record, snap, index);
  if (!Object.keys(fingerprints).length) return undefined;
  const sorted = Object.fromEntries(Object.entries(fingerprints).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
  const stamp = { commit: snap.commit!, fingerprints: sorted };
  const before = buf.toString('utf8').split('\n');
  if (stampsInSidecar(record)) {
    const i = before.findIndex((l) => {
      try {
        return (JSON.parse(l) as { id?: unknown }).id === record.id;
      } catch {
        return false;
      }
    });
    return i < 0 ? undefined : { file, startLine: i + 1, endLine: i + 1, lines: [stampLine(record.id, stamp)] };
  }
  let after: string[];
  try {
    after = editFrontmatterText(buf.toString('utf8'), [{ op: 'set', path: ['stamp'], value: stamp }], file).split('\n');
  } catch {
    return undefined;
  }
  // the changed block: common lines kept at both ends
  let s = 0;
  while (s < before.length && s < after.length && before[s] === after[s]) s++;
  if (s === before.length && s === after.length) return undefined;
  let e = 0;
  while (e < before.length - s && e < after.length - s && before[before.length - 1 - e] === after[after.length - 1 - e]) e++;
  // a pure insertion replaces the line before it, which it keeps
  const start = before.length - e > s ? s : Math.max(0, s - 1);
  return { file, startLine: start + 1, endLine: before.length - e, lines: after.slice(start, after.length - e) };
}
