import type { ArtifactSet } from '../artifacts/load.js';
import type { CodeIndex } from '../code/code-index.js';
import type { ChangedFile } from '../git/diff.js';
import { runGit } from '../git/exec.js';
import type { Snapshot } from '../snapshot/types.js';
import type { ChangeRecord } from '../retrieve/change.js';
import { hunkSymbols } from './hunk-symbols.js';
import type { Artifact } from '../artifacts/types.js';
import type { GovernanceMatch, PrArtifact, PrPlace, PrRanked, PrRecordChange, PrRetrieval } from './types.js';

/*
 * The pull request's one ranked list (issue 31 item 2): declared governance first, then what
 * retrieval over the change finds above its floor. Each record once, with the changed files and
 * lines that brought it in and a one-line why. Only records that stand before the change govern
 * it: a record the pull request adds is news, said apart (`recordChanges`), never ranked; one it
 * edits is ranked only when declared or found like any other, and marked (DEC-080).
 */

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** How strongly one kind of declaration ties a record to the change: a symbol's annotation or anchor most, a folder glob least. */
const DECLARED_WEIGHT: Record<GovernanceMatch['via'], number> = { annotation: 3, anchor: 3, paths: 1, mention: 0 };

/** The description of a change: what was given, else the commit messages of the range (first line as the title). */
export async function changeDescription(root: string, range: { from: string; to: string } | undefined, given: { title?: string; body?: string }): Promise<{ title?: string; body?: string; source: PrRetrieval['description'] }> {
  if (given.title?.trim() || given.body?.trim()) return { ...given, source: 'given' };
  if (!range) return { source: 'none' };
  const log = await runGit(['log', '--format=%B%x00', '--max-count=50', `${range.from}..${range.to}`, '--'], { cwd: root }).catch(() => '');
  const messages = log.split('\0').map((m) => unwrapMerge(m.trim())).filter(Boolean);
  if (!messages.length) return { source: 'none' };
  const [first, ...rest] = messages.join('\n\n').split('\n');
  return { title: first!, body: rest.join('\n').trim(), source: 'commits' };
}

/**
 * A merge commit's message as its pull request's description (DEC-097): git's and the forges'
 * first line ("Merge pull request #623 from owner/branch", "Merge branch 'x' into main") says
 * that branches met, not what changed; a forge writes the pull request's title on the lines
 * after it. That title becomes the first line, the branch's own name (without its owner) beside
 * it, as its author's words for the change: "Merge", "pull request" and the owner's name are no
 * words of the change. @decision DEC-097
 */
export function unwrapMerge(message: string): string {
  const [first = '', ...rest] = message.split('\n');
  const m = MERGE_LINE.exec(first.trim());
  if (!m) return message;
  const branch = m[1] ? m[1].replace(/^[^/]+\//, '') : (m[2] ?? '');
  const words = branch.replace(/[/_-]+/g, ' ').trim();
  const [title = '', ...body] = rest.join('\n').trim().split('\n');
  return [[title.trim(), words && `(${words})`].filter(Boolean).join(' '), ...body].join('\n').trim();
}

/** A merge commit's first line: a GitHub pull request (its branch as owner/name), a merged branch, a GitLab merge request. */
const MERGE_LINE = /^Merge (?:pull request #\d+ from (\S+)|(?:remote-tracking )?branch '([^']+)'(?: of \S+)?(?: into \S+)?)\s*$/;

/** Per changed head path, the names of the symbols its hunks sit in, from the code index of the changed files. */
export async function changedSymbols(files: readonly ChangedFile[], index: CodeIndex | undefined): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!index) return out;
  for (const f of files) {
    if (f.status === 'deleted' || f.binary || !f.hunks.length) continue;
    const syms = await index.symbolsOf(f.path).catch(() => []);
    if (!syms.length) continue;
    const names = new Set<string>();
    for (const h of f.hunks.slice(0, 50)) {
      const s = h.newStart;
      const e = h.newLines > 0 ? s + h.newLines - 1 : s;
      for (const x of syms) if (x.line <= e && x.endLine >= s) names.add(x.name);
    }
    if (names.size) out.set(f.path, [...names].slice(0, 20));
  }
  return out;
}

/** Places of declared matches: per file, the governed line spans at head (none for a whole-file match). */
function declaredPlaces(matches: readonly GovernanceMatch[]): PrPlace[] {
  const byFile = new Map<string, [number, number][]>();
  for (const m of matches) {
    if (m.via === 'mention') continue;
    const l = byFile.get(m.file) ?? [];
    if (m.line !== undefined && !l.some(([s, e]) => s === m.line && e === (m.endLine ?? m.line))) l.push([m.line, m.endLine ?? m.line]);
    byFile.set(m.file, l);
  }
  return [...byFile].sort((a, b) => cmp(a[0], b[0])).map(([path, lines]) => ({ path, lines: lines.sort((x, y) => x[0] - y[0]) }));
}

function declaredWhy(matches: readonly GovernanceMatch[]): string {
  const m = matches.find((x) => x.via === 'annotation') ?? matches.find((x) => x.via === 'anchor' && x.symbol) ?? matches.find((x) => x.via === 'anchor') ?? matches[0];
  if (!m) return 'governs the changed code';
  const files = new Set(matches.filter((x) => x.via !== 'mention').map((x) => x.file)).size;
  const more = files > 1 ? ` (and ${files - 1} more file${files > 2 ? 's' : ''})` : '';
  const where = `${m.file}${m.symbol ? `#${m.symbol}` : ''}`;
  if (m.via === 'annotation') return `@${m.tag ?? 'spec'} annotation on ${where}${more}`;
  if (m.via === 'anchor') return `anchored to ${m.pattern ?? where}, which this change touches${more}`;
  return `its paths ${m.pattern ?? ''} cover ${m.file}${more}`;
}

/**
 * The record files a change adds, edits or removes (from `editedRecords`), by id: added when
 * the id is not at the merge base (or there is no base: a first commit).
 */
export function recordChangesOf(edited: ReadonlyMap<string, { artifact: Artifact; removed: boolean }>, baseSet: ArtifactSet | undefined): PrRecordChange[] {
  return [...edited]
    .map(([id, e]): PrRecordChange => {
      const a = e.artifact;
      const change = e.removed ? 'removed' : baseSet?.byId.has(id) ? 'edited' : 'added';
      return { id, type: a.type, title: a.title, ...(a.status !== undefined ? { status: a.status } : {}), file: a.file, change };
    })
    .sort((x, y) => cmp(x.change, y.change) || cmp(x.id, y.id));
}

/** The record changes, each marked `alsoRanked` when the record also governs the change (it is in `ranked`, marked `editedHere`). */
export function markRanked(changes: readonly PrRecordChange[], ranked: readonly PrRanked[]): PrRecordChange[] {
  const ids = new Set(ranked.map((x) => x.id));
  return changes.map((c) => (ids.has(c.id) ? { ...c, alsoRanked: true } : c));
}

/**
 * The ranked list. `artifacts` are the PR's listed records (direct ones join the list;
 * required, related and mentioned ones only when retrieval finds them too); `retrieved` is the
 * change retrieval's answer above its floor. A record in `changes` as added never joins; one
 * edited or removed joins only as declared or retrieved, marked `editedHere`.
 */
export function rankedList(artifacts: readonly PrArtifact[], retrieved: readonly ChangeRecord[], set: ArtifactSet, changes: readonly PrRecordChange[] = []): PrRanked[] {
  const out: PrRanked[] = [];
  const added = new Set(changes.filter((c) => c.change === 'added').map((c) => c.id));
  const editedHere = new Set(changes.filter((c) => c.change !== 'added').map((c) => c.id));
  const seen = new Set<string>(added);
  const found = new Map(retrieved.map((r) => [r.id, r]));
  const direct = artifacts.filter((a) => a.inclusion === 'direct' && !added.has(a.id));
  const declaredScore = (a: PrArtifact) => {
    const perFile = new Map<string, number>();
    for (const m of a.matches) perFile.set(m.file, Math.max(perFile.get(m.file) ?? 0, DECLARED_WEIGHT[m.via]));
    let s = 0;
    for (const v of perFile.values()) s += v;
    return s + (found.get(a.id)?.strength ?? 0);
  };
  const mark = (id: string) => (editedHere.has(id) ? { editedHere: true } : {});
  const base = (a: PrArtifact) => ({ id: a.id, type: a.type, title: a.title, ...(a.status !== undefined ? { status: a.status } : {}), file: a.file, inactive: a.inactive });
  for (const a of direct.map((a) => ({ a, s: declaredScore(a) })).sort((x, y) => Number(x.a.inactive) - Number(y.a.inactive) || y.s - x.s || cmp(x.a.id, y.a.id))) {
    out.push({ ...base(a.a), strength: 'declared', score: round(a.s), why: declaredWhy(a.a.matches), places: declaredPlaces(a.a.matches), ...mark(a.a.id) });
    seen.add(a.a.id);
  }
  for (const r of retrieved) {
    if (seen.has(r.id)) continue;
    const a = set.byId.get(r.id);
    out.push({ id: r.id, type: r.type, title: r.title, ...(r.status != null ? { status: r.status } : {}), file: a?.file ?? r.file, strength: 'retrieved', score: r.strength, why: r.why, places: r.places, inactive: !!r.inactive, ...mark(r.id) });
    seen.add(r.id);
  }
  return out;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Phase: the one ranked list — declared and edited records, then what retrieval over the
 * change (its lines, symbols, paths and description) finds above the floor, through the
 * semantic lane `search` is configured with (the offline embedder by default).
 */
export async function rankChange(
  artifacts: readonly PrArtifact[],
  files: readonly ChangedFile[],
  at: { headSnap: Snapshot; headSet: ArtifactSet; headIndex?: CodeIndex; description: Awaited<ReturnType<typeof changeDescription>>; changes?: readonly PrRecordChange[]; max?: number; env?: NodeJS.ProcessEnv },
): Promise<{ ranked: PrRanked[]; retrieval: PrRetrieval }> {
  const { headSnap, headSet, description } = at;
  const max = at.max ?? 5;
  let found: Awaited<ReturnType<typeof import('../retrieve/change.js').retrieveForChange>> | undefined;
  if (max > 0) {
    const [{ retrieveForChange }, { semanticLaneFor }] = await Promise.all([import('../retrieve/change.js'), import('../semantic/lane.js')]);
    const symbols = await changedSymbols(files, at.headIndex);
    // Python/Go/Java/Ruby declarations and settings files' sections, which git's hunk header misses (hunk-symbols.ts)
    for (const [path, names] of await hunkSymbols(files, headSnap)) symbols.set(path, [...new Set([...(symbols.get(path) ?? []), ...names])]);
    const semantic = semanticLaneFor(headSnap.root, headSet, at.env ?? process.env);
    // a record the change adds is written about the change: it would take a place of the records that govern it
    const exclude = new Set((at.changes ?? []).filter((c) => c.change === 'added').map((c) => c.id));
    found = await retrieveForChange({ snapshot: headSnap, set: headSet, change: { files, title: description.title, body: description.body, symbols }, semantic, feedback: false, max, exclude });
  }
  const ranked = rankedList(artifacts, found?.results ?? [], headSet, at.changes);
  return { ranked, retrieval: { read: found?.query.read.length ?? 0, skipped: found?.query.skipped ?? [], belowFloor: found?.belowFloor ?? 0, description: description.source } };
}
