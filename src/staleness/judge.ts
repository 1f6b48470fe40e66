import { picomatch } from '../util/picomatch.js';
import { buildGraph, reverseEdges } from '../artifacts/graph.js';
import type { ArtifactSet } from '../artifacts/load.js';
import type { Artifact } from '../artifacts/types.js';
import { findMovedSymbol, findSymbol, fingerprintAnchor, parseAnchor, splitSetFingerprint, type AnchorFingerprint, type AnchorSpec } from '../code/anchors.js';
import { buildCodeIndex, type CodeIndex } from '../code/code-index.js';
import type { Config } from '../config.js';
import { resolveRevision } from '../snapshot/open.js';
import { CommitSnapshot, IndexSnapshot } from '../snapshot/git-snapshot.js';
import { blameCommits, pendingChanges, type BlameCandidate, type BlameEnv } from './blame.js';
import type { Snapshot } from '../snapshot/types.js';
import { anchorPath, anchorsOf, fingerprintAnchors, fingerprintAt, SymbolReader, withPath, type ArtifactAnchor } from './anchors.js';
import { artifactBaselines } from './baseline.js';
import { judgementKey, ResultCache, type CachedJudgement } from '../cache/stale-results.js';
import { shallowFromGitDir, snapshotDigest } from './repo-state.js';
import { fullCommitIds, isShallowRepository, reachableFrom, reusedPaths, tracePaths, type CommitInfo, type PathTrace } from './history.js';
import { RangeHistory } from './range.js';
import { plural } from '../util/plural.js';
import type { AnchorVerdict, ArtifactJudgement, BaseSource, CommitRef, ExplanationSource, GlobFileChange, JudgeMethod, Lifecycle, StaleReport, StaleStatus } from './types.js';

export interface JudgeOptions {
  snapshot: Snapshot;
  config: Config;
  set: ArtifactSet;
  /** a code index of `snapshot` (built when absent; pass one to share it) */
  index?: CodeIndex;
  /** only these artifacts (default: every repository artifact) */
  ids?: string[];
  /** judge against this revision instead of each artifact's stamp */
  since?: string;
  /** git's rename limit for the history walks (-l); default: git's own */
  renameLimit?: number;
  /** use the extraction and results caches under <git-dir>/ctx (default true) */
  cache?: boolean;
}

/** Per-run shared state. */
interface Ctx {
  opts: JudgeOptions;
  index: CodeIndex;
  reader: SymbolReader;
  head?: string;
  range?: RangeHistory;
  shallow: boolean;
  snapshots: Map<string, Snapshot>;
  lifecycle: (a: Artifact) => Lifecycle;
}

const toRef = (c: CommitInfo, change: string): CommitRef => ({ id: c.id, author: c.author, email: c.email, date: c.date, subject: c.subject, change });

function snapshotAt(ctx: Ctx, commit: string): Snapshot {
  let s = ctx.snapshots.get(commit);
  if (!s) {
    s = new CommitSnapshot(ctx.opts.snapshot.root, commit);
    ctx.snapshots.set(commit, s);
  }
  return s;
}

/**
 * Judge artifacts for drift: fresh, moved, stale, unanchored or unstamped, with evidence
 * (which anchors and symbols changed, and the commits that touched them). Returns data;
 * never prints. History is walked only for artifacts that need an explanation or have
 * no fingerprints, in one `git log` for all of them.
 */
export async function judgeArtifacts(opts: JudgeOptions): Promise<StaleReport> {
  const { snapshot, config, set } = opts;
  const root = snapshot.root;
  const head = snapshot.commit;
  // the filesystem answers without a git process; ask git only when it cannot
  const shallow = head ? (shallowFromGitDir(root) ?? (await isShallowRepository(root))) : false;
  const wanted = opts.ids ? new Set(opts.ids) : undefined;
  // the identity describes the project as a whole: it anchors nothing, so it is not judged
  // (counting it as unanchored would be noise) unless asked for by id
  const artifacts = [...set.byId.values()].filter((a) => a.origin === 'repo' && (wanted ? wanted.has(a.id) : a.type !== 'identity'));

  // Results of earlier runs: a judgement is a function of HEAD, the artifact file and the
  // current fingerprints of its anchors, unless a lost anchor was searched for across the
  // whole snapshot (then the snapshot's content is part of the key). A hit skips stamp
  // resolution and the history walk. --since runs are not cached (rare, and one entry per
  // id would make them evict the everyday ones).
  const useResults = opts.cache !== false && !!head && !opts.since;
  const results = await ResultCache.open(root, useResults);
  const pre = new Map<string, string>();
  const preKey = (a: Artifact) => {
    let k = pre.get(a.id);
    // a record read in place keeps its stamp outside its file (the sidecar): the stamp is part of the key
    if (k === undefined) pre.set(a.id, (k = judgementKey([head, shallow, opts.renameLimit ?? null, a.file, a.blob, a.format === 'adr' ? (a.stamp ?? null) : null])));
    return k;
  };
  // Stamp commits of artifacts that will probably miss the cache are resolved while the code
  // index is built: git walks the commit graph on the other core while this one parses.
  const early = head ? artifacts.filter((a) => a.stamp?.commit && !(useResults && results.likelyHit(a.id, preKey(a)))).map((a) => a.stamp!.commit!) : [];
  const prefetch = early.length ? resolveStamps(root, head!, early) : undefined;
  prefetch?.catch(() => undefined); // awaited below; an index failure must not leave it unhandled

  const index = opts.index ?? (await buildCodeIndex(snapshot, config, opts.cache === false ? { cache: false } : {}));
  const reader = await SymbolReader.open(root, config, opts.cache !== false);
  const graph = buildGraph(set);
  const ctx: Ctx = {
    opts,
    index,
    reader,
    head,
    range: head ? new RangeHistory(root, head, { renameLimit: opts.renameLimit }) : undefined,
    shallow,
    snapshots: new Map(),
    lifecycle: (a) => {
      const t = config.types[a.type];
      return { status: a.status, inactive: !!a.status && !!t && t.inactive.includes(a.status), supersededBy: reverseEdges(graph, a.id).superseded_by ?? [] };
    },
  };
  try {
    const work = artifacts.map((a) => ({ a, anchors: anchorsOf(a, index, { mentions: true }) }));
    const currents = new Map<string, Map<string, AnchorFingerprint>>();
    for (const { a, anchors } of work) currents.set(a.id, await fingerprintAnchors(anchors, snapshot, index));

    let digest: Promise<string> | undefined;
    const keys = new Map<string, string>();
    const hits = new Map<string, CachedJudgement>();
    if (useResults) {
      for (const { a, anchors } of work) {
        const cur = currents.get(a.id)!;
        const fps = a.stamp?.fingerprints && Object.keys(a.stamp.fingerprints).length ? a.stamp.fingerprints : undefined;
        const local = !!fps && Object.keys(fps).every((k) => cur.get(k)?.status === 'ok' || cur.get(k)?.status === 'unresolved');
        const anchorState = anchors.map((x) => {
          const f = cur.get(x.key);
          return [x.key, x.origins, f?.status, f?.fingerprint, f?.location?.path, f?.location?.symbol];
        });
        const whole = local ? '' : await (digest ??= snapshotDigest(snapshot));
        const key = judgementKey([preKey(a), anchorState, whole]);
        keys.set(a.id, key);
        const hit = results.get(a.id, key);
        if (hit) hits.set(a.id, hit);
      }
    }
    const misses = work.filter(({ a }) => !hits.has(a.id));

    // stamp commits of the misses: resolved early (above), plus any the guess left out
    const stampIds = misses.map(({ a }) => a.stamp?.commit).filter((c): c is string => !!c);
    const got = prefetch ? await prefetch : undefined;
    const rest = stampIds.filter((c) => !got?.asked.has(c));
    const more = head && rest.length ? await resolveStamps(root, head, rest) : undefined;
    const full = new Map([...(got?.full ?? []), ...(more?.full ?? [])]);
    const exists = new Set(full.values());
    const reachable = new Set([...(got?.reachable ?? []), ...(more?.reachable ?? [])]);

    const since = opts.since ? await resolveRevision(root, opts.since) : undefined;
    // artifacts whose stamp cannot explain history need their own baseline
    const needBaseline = misses.filter(({ a }) => {
      const c = a.stamp?.commit ? full.get(a.stamp.commit) : undefined;
      return !since && (!c || !reachable.has(c));
    });
    const baselines = head && needBaseline.length ? await artifactBaselines(root, head, config.dir, needBaseline.map((w) => w.a.file)) : new Map<string, CommitInfo>();

    // declare, per base, the paths of the artifacts that will need history (not fresh by
    // fingerprints, or judged by history), so that each base is walked once, limited to
    // those paths
    if (ctx.range) {
      for (const { a, anchors } of misses) {
        const cur = currents.get(a.id)!;
        const fps = a.stamp?.fingerprints ?? {};
        const keys = Object.keys(fps);
        const fresh = !since && keys.length > 0 && keys.length === anchors.length && keys.every((k) => cur.get(k)?.status === 'ok' && cur.get(k)?.fingerprint === fps[k]);
        if (fresh) continue;
        const c = a.stamp?.commit ? full.get(a.stamp.commit) : undefined;
        const bases = [since, c && reachable.has(c) ? c : undefined, baselines.get(a.file)?.id].filter((x): x is string => !!x);
        const paths = [...anchors.map((x) => anchorPathspec(x.spec)), ...keys.map((k) => anchorPathspec(parseAnchor(k)))].filter((x): x is string => x !== undefined);
        for (const b of bases) ctx.range.want(b, paths);
      }
    }

    const judgements: ArtifactJudgement[] = [];
    const judged: { id: string; d: Drift }[] = [];
    let cachedRenameLimit: { needed?: number } | undefined;
    for (const { a, anchors } of work) {
      const hit = hits.get(a.id);
      if (hit) {
        judgements.push(withLifecycle(hit.judgement, ctx.lifecycle(a)));
        if (hit.renameLimit) cachedRenameLimit = { needed: Math.max(cachedRenameLimit?.needed ?? 0, hit.renameLimit.needed ?? 0) || undefined };
        continue;
      }
      const stampCommit = a.stamp?.commit ? full.get(a.stamp.commit) ?? a.stamp.commit : undefined;
      const stampInfo = a.stamp
        ? { commit: stampCommit, fingerprinted: !!a.stamp.fingerprints && Object.keys(a.stamp.fingerprints).length > 0, exists: stampCommit ? exists.has(stampCommit) : undefined, reachable: stampCommit ? reachable.has(stampCommit) : undefined }
        : undefined;
      const baseline = baselines.get(a.file);
      const d = await judgeOne(ctx, a, anchors, currents.get(a.id)!, { stampInfo, since, baseline });
      judgements.push(withLifecycle(d, ctx.lifecycle(a)));
      judged.push({ id: a.id, d });
    }
    // the rename limit is known only once every walk is done; a judgement that walked
    // history carries it, so that a later cache hit still warns
    const limit = ctx.range?.renameLimitHit ? { needed: ctx.range.renameLimitNeeded } : undefined;
    for (const { id, d } of judged) {
      // whether an uncommitted change is staged or not is not part of the key: not kept
      if (d.anchors.some((v) => v.uncommitted)) continue;
      const key = keys.get(id);
      if (key) results.set(id, key, preKey(set.byId.get(id)!), { judgement: d, renameLimit: limit && d.base ? limit : undefined });
    }
    await results.save();
    await reader.save();
    await index.flush();

    const counts: Record<StaleStatus, number> = { fresh: 0, moved: 0, stale: 0, unanchored: 0, unstamped: 0 };
    for (const j of judgements) counts[j.status]++;
    const warnings: string[] = [];
    if (ctx.shallow) warnings.push('shallow clone: commits before the graft are absent; verdicts rest on fingerprints, and commit evidence is limited to the history present');
    const renameLimit = ctx.range?.renameLimitHit ? { hit: true as const, needed: Math.max(ctx.range.renameLimitNeeded ?? 0, cachedRenameLimit?.needed ?? 0) || undefined } : cachedRenameLimit ? { hit: true as const, needed: cachedRenameLimit.needed } : undefined;
    if (renameLimit) {
      warnings.push(`git's rename limit was hit: inexact rename detection was skipped in at least one commit, so edited moves may read as delete + add${renameLimit.needed ? ` (set diff.renameLimit to at least ${renameLimit.needed})` : ''}`);
    }
    return {
      version: 1,
      head,
      snapshot: { kind: snapshot.kind, commit: snapshot.commit },
      shallow: ctx.shallow,
      renameLimit,
      artifacts: judgements,
      counts,
      warnings,
    };
  } finally {
    for (const s of ctx.snapshots.values()) s.close();
  }
}

interface OneInput {
  stampInfo?: ArtifactJudgement['stamp'];
  since?: string;
  baseline?: CommitInfo;
}

/**
 * Stamp commits resolved: full ids of those present in the object store, and which of them
 * are ancestors of HEAD. Two git processes at most (cat-file, rev-list).
 */
async function resolveStamps(root: string, head: string, ids: string[]): Promise<{ asked: Set<string>; full: Map<string, string>; reachable: Set<string> }> {
  const full = await fullCommitIds(root, ids);
  const reachable = full.size ? await reachableFrom(root, head, [...new Set(full.values())]) : new Set<string>();
  return { asked: new Set(ids), full, reachable };
}

/** A judgement without its lifecycle, which is what the results cache holds. */
type Drift = Omit<ArtifactJudgement, 'lifecycle'>;

/** Attach the lifecycle (computed fresh: it depends on other artifacts), its note first. */
function withLifecycle(d: Drift, lifecycle: Lifecycle): ArtifactJudgement {
  const note = lifecycle.supersededBy.length
    ? [`superseded by ${lifecycle.supersededBy.join(', ')} (a lifecycle fact, reported apart from drift)`]
    : lifecycle.inactive
      ? [`status ${lifecycle.status}: no longer in force`]
      : [];
  return { ...d, lifecycle, notes: [...note, ...d.notes] };
}

/** Judge one artifact's drift (lifecycle apart: see withLifecycle). */
async function judgeOne(ctx: Ctx, a: Artifact, anchors: ArtifactAnchor[], current: Map<string, AnchorFingerprint>, inp: OneInput): Promise<Drift> {
  const j: Drift = { id: a.id, type: a.type, file: a.file, status: 'fresh', method: 'none', stamp: inp.stampInfo, explanation: 'unavailable', anchors: [], notes: [] };
  const stampedFps = a.stamp?.fingerprints && Object.keys(a.stamp.fingerprints).length ? a.stamp.fingerprints : undefined;
  const mentionedOnly = (x: ArtifactAnchor) => x.origins.length === 1 && x.origins[0] === 'mentioned';
  if (!stampedFps && !inp.since && anchors.some(mentionedOnly)) {
    // code a record only names in its text is judged against a stamp, never guessed from
    // the record's history (a record is often written long after the code it describes)
    const mentioned = anchors.filter(mentionedOnly);
    anchors = anchors.filter((x) => !mentionedOnly(x));
    if (!anchors.length) {
      j.status = 'unstamped';
      j.mentioned = true;
      j.notes.push(`${plural(mentioned.length, 'mentioned anchor')} (code named in the record's text), judged only once stamped: run git ctx stamp ${a.id}`);
      j.anchors = mentioned.map((x) => ({ anchor: x.key, kind: x.spec.kind, origins: x.origins, state: 'added', after: current.get(x.key)?.fingerprint, path: current.get(x.key)?.location?.path }));
      return j;
    }
    j.notes.push(`${plural(mentioned.length, 'mentioned anchor')} not judged: the record has no stamp`);
  }
  if (!anchors.length && !stampedFps) {
    j.status = 'unanchored';
    return j;
  }
  const st = inp.stampInfo;
  const stampUsable = !!(st?.commit && st.reachable);

  // the base the history explanation (and, without fingerprints, the verdict) rests on
  let base: { commit: string; source: BaseSource } | undefined;
  let explanation: ExplanationSource = 'unavailable';
  if (inp.since) {
    base = { commit: inp.since, source: 'since' };
    explanation = 'since';
  } else if (stampUsable) {
    base = { commit: st!.commit!, source: 'stamp' };
    explanation = 'stamp-range';
  } else if (inp.baseline) {
    base = { commit: inp.baseline.id, source: 'artifact-history' };
    explanation = 'artifact-history';
  }
  if (st?.commit && !stampUsable && !inp.since) {
    const why = !st.exists ? (ctx.shallow ? 'absent from this shallow clone' : 'not in this repository (rebased away, squash-merged, or never fetched)') : 'not an ancestor of HEAD (rebased away or squash-merged)';
    j.notes.push(`stamp commit ${st.commit.slice(0, 12)} is ${why}; ${stampedFps ? 'fingerprints decide, and ' : ''}the history explanation falls back to the artifact's own history${inp.baseline ? ` (since ${inp.baseline.id.slice(0, 12)}, the last commit that changed ${a.file})` : ', which is not available'}`);
  }

  let stamped: Map<string, string>;
  if (stampedFps && !inp.since) {
    j.method = 'fingerprints';
    stamped = new Map(Object.entries(stampedFps));
  } else {
    if (!base) {
      j.status = 'unstamped';
      j.method = 'none';
      j.notes.push('no stamp, and the artifact file has no commit to judge from: run git ctx stamp');
      j.anchors = anchors.map((x) => ({ anchor: x.key, kind: x.spec.kind, origins: x.origins, state: 'added', after: current.get(x.key)?.fingerprint, path: current.get(x.key)?.location?.path }));
      return j;
    }
    j.method = 'history';
    stamped = await virtualStamp(ctx, anchors, current, base.commit);
    j.notes.push(
      inp.since
        ? `judged by history: anchors fingerprinted at ${inp.since.slice(0, 12)} (--since) and now`
        : base.source === 'stamp'
          ? `judged by history: the stamp has a commit but no fingerprints, so the anchors were fingerprinted at ${base.commit.slice(0, 12)} and now`
          : `judged by history: ${a.stamp ? 'the stamp cannot be used' : 'no stamp'}, so the anchors were fingerprinted at ${base.commit.slice(0, 12)} (the last commit that changed ${a.file}) and now`,
    );
  }
  j.base = base;
  j.explanation = explanation;

  const verdicts = await compare(ctx, stamped, anchors, current, base?.commit);
  j.anchors = verdicts;
  const isBad = (v: AnchorVerdict) => v.state === 'changed' || v.state === 'removed' || v.state === 'replaced' || v.state === 'added';
  const bad = verdicts.some(isBad);
  j.status = bad ? 'stale' : verdicts.some((v) => v.state === 'moved') ? 'moved' : 'fresh';
  // the verdict rests on mentioned code only (weaker than declared anchors): say so everywhere
  const deciding = verdicts.filter(j.status === 'stale' ? isBad : j.status === 'moved' ? (v) => v.state === 'moved' : () => true);
  if (deciding.length && deciding.every((v) => v.origins.length === 1 && v.origins[0] === 'mentioned')) j.mentioned = true;
  if (j.status !== 'fresh' && !base) j.notes.push('no commit history to explain the change (the stamp commit is absent and the artifact file has no usable history)');
  return j;
}

/** The path a walk must cover for an anchor (endpoints: everything, since their file can move). */
function anchorPathspec(spec: AnchorSpec): string | undefined {
  if (spec.kind === 'glob') return spec.pattern;
  if (spec.kind === 'endpoint') return '';
  return spec.path;
}

/** Fingerprints of the current anchors as they were at `base` (renames followed back). */
async function virtualStamp(ctx: Ctx, anchors: ArtifactAnchor[], current: Map<string, AnchorFingerprint>, base: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const baseSnap = snapshotAt(ctx, base);
  const commits = ctx.range ? await ctx.range.commitsSince(base) : [];
  for (const an of anchors) {
    let spec: AnchorSpec = an.spec;
    if (spec.kind === 'endpoint') {
      // an endpoint is judged through the code that registers it now
      const loc = current.get(an.key)?.location;
      if (!loc?.symbol) continue;
      spec = { kind: 'symbol', raw: `${loc.path}#${loc.symbol}`, path: loc.path, symbol: loc.symbol };
    }
    const p = anchorPath(spec);
    let key = an.key;
    if (p) {
      const origin = originOf(commits, p);
      if (origin === undefined) continue; // did not exist at base: reads as added
      if (origin !== p) {
        key = withPath(spec, origin);
        spec = parseAnchor(key);
      }
    }
    const fp = await fingerprintAt(spec, baseSnap, ctx.reader, ctx.index);
    if (fp) out.set(key, fp);
  }
  return out;
}

/**
 * The path a file had at the start of `commits` (walking renames backwards), or undefined
 * when it was added inside the range — including a path re-used after a delete.
 */
export function originOf(commits: CommitInfo[], path: string): string | undefined {
  let p = path;
  for (let i = commits.length - 1; i >= 0; i--) {
    for (const ch of commits[i]!.changes) {
      if (ch.path !== p) continue;
      if (ch.status === 'A' || ch.status === 'C') return undefined;
      if (ch.status === 'R') {
        p = ch.from!;
        break;
      }
    }
  }
  return p;
}

/** Compare stamped fingerprints with the current anchors; find moves; attach evidence. */
async function compare(ctx: Ctx, stamped: Map<string, string>, anchors: ArtifactAnchor[], current: Map<string, AnchorFingerprint>, base: string | undefined): Promise<AnchorVerdict[]> {
  const byKey = new Map(anchors.map((a) => [a.key, a]));
  const verdicts: AnchorVerdict[] = [];
  const lost: { key: string; fp: string; spec: AnchorSpec }[] = [];
  for (const [key, fp] of stamped) {
    // a `!` paths entry stamped by an older version as an anchor of its own: it is an
    // exclusion of the other entries now, judged through them
    if (key.trim().startsWith('!')) continue;
    const cur = current.get(key);
    const an = byKey.get(key);
    const spec = an?.spec ?? parseAnchor(key);
    const origins = an?.origins ?? [];
    if (cur?.status === 'ok') {
      const state = stateOf(fp, cur);
      const v: AnchorVerdict = { anchor: key, kind: spec.kind, origins, state, before: fp, after: cur.fingerprint, path: cur.location?.path, changedSymbols: state === 'changed' && spec.kind === 'symbol' ? [spec.symbol] : undefined };
      // files moved inside a glob or directory: the same key, re-stamped by stamp --fix
      if (state === 'moved') v.movedTo = key;
      verdicts.push(v);
    } else if (cur?.status === 'unresolved') {
      verdicts.push({ anchor: key, kind: spec.kind, origins, state: 'unresolved', before: fp, note: 'the code registering this endpoint was not found' });
    } else lost.push({ key, fp, spec });
  }
  const added = anchors.filter((a) => !stamped.has(a.key));
  const addedOk = new Map<string, ArtifactAnchor>(added.filter((a) => current.get(a.key)?.status === 'ok').map((a) => [a.key, a]));

  // history, needed for evidence and for following renames
  const needHistory = lost.length > 0 || added.length > 0 || verdicts.some((v) => v.state !== 'ok');
  let commits: CommitInfo[] = [];
  let traces = new Map<string, PathTrace>();
  if (needHistory && base && ctx.range) {
    commits = await ctx.range.commitsSince(base);
    const origins = [...stamped.keys()].map((k) => anchorPath(parseAnchor(k))).filter((p): p is string => !!p);
    traces = tracePaths(commits, origins);
  }
  const reused = reusedPaths(commits, traces);

  for (const l of lost) {
    const an = byKey.get(l.key);
    const origins = an?.origins ?? [];
    const v: AnchorVerdict = { anchor: l.key, kind: l.spec.kind, origins, state: 'removed', before: l.fp };
    // 1. an anchor found now under another key with the same fingerprint
    const target = [...addedOk.values()].find((x) => current.get(x.key)?.fingerprint === l.fp && x.spec.kind === l.spec.kind);
    if (target) {
      v.state = 'moved';
      v.movedTo = target.key;
      v.after = l.fp;
      v.path = current.get(target.key)?.location?.path;
      addedOk.delete(target.key);
    } else {
      const p = anchorPath(l.spec);
      const t = p ? traces.get(p) : undefined;
      // 2. the file was renamed: look at the same anchor under the new name
      if (t?.current && t.current !== p) {
        const key2 = withPath(l.spec, t.current);
        const fp2 = (await fingerprintAt(parseAnchor(key2), ctx.opts.snapshot, ctx.reader, ctx.index)) ?? (l.spec.kind === 'symbol' ? findSymbol(await ctx.index.symbolsOf(t.current), l.spec.symbol)?.fingerprint : undefined);
        if (fp2 !== undefined) {
          v.movedTo = key2;
          v.after = fp2;
          v.path = t.current;
          v.state = fp2 === l.fp ? 'moved' : 'changed';
          if (v.state === 'changed') v.note = `renamed to ${t.current} and changed`;
          if (l.spec.kind === 'symbol' && v.state === 'changed') v.changedSymbols = [l.spec.symbol];
          addedOk.delete(key2);
        }
      }
      // 3. search the snapshot for the same content elsewhere
      if (v.state === 'removed') {
        if (l.spec.kind === 'symbol') {
          const hint = { path: t?.current ?? p, symbol: l.spec.symbol };
          const pre = commits.flatMap((c) => c.changes.filter((ch) => ch.status !== 'D').map((ch) => ch.path));
          let found = pre.length ? (await ctx.index.allSymbols([...new Set(pre)])).filter((x) => x.symbol.fingerprint === l.fp) : [];
          if (!found.length) found = await findMovedSymbol(l.fp, ctx.index, { hint });
          const m = found[0];
          if (m) {
            v.state = 'moved';
            v.movedTo = `${m.path}#${m.symbol.name}`;
            v.after = l.fp;
            v.path = m.path;
            addedOk.delete(v.movedTo);
          }
        } else if (l.spec.kind === 'file') {
          const hit = ctx.index.files.find((f) => f.blob === l.fp) ?? (await ctx.opts.snapshot.list()).find((e) => e.blob === l.fp);
          if (hit) {
            v.state = 'moved';
            v.movedTo = hit.path;
            v.after = l.fp;
            v.path = hit.path;
            addedOk.delete(hit.path);
          }
        }
      }
    }
    if (v.state === 'removed') v.note = an && an.origins.length === 1 && an.origins[0] === 'mentioned' ? 'mentioned code is gone (deleted, or its file or symbol removed)' : an ? 'dead anchor: declared, but not found now' : 'the anchor is gone (annotation removed, or its file or symbol deleted)';
    verdicts.push(v);
  }
  for (const a of added) {
    const cur = current.get(a.key);
    if (cur?.status === 'ok' && !addedOk.has(a.key)) continue; // consumed as the target of a move
    verdicts.push({
      anchor: a.key,
      kind: a.spec.kind,
      origins: a.origins,
      state: cur?.status === 'ok' ? 'added' : cur?.status === 'unresolved' ? 'unresolved' : 'removed',
      after: cur?.fingerprint,
      path: cur?.location?.path,
      note: cur?.status === 'ok' ? 'not covered by the stamp: never verified' : cur?.status === 'unresolved' ? 'the code registering this endpoint was not found' : 'dead anchor: declared, but not found now',
    });
  }

  // evidence: the commits of the range that moved each anchor that is not ok away from
  // its stamp (see blameCommits), and what is not committed yet
  const env: BlameEnv = { at: (c) => snapshotAt(ctx, c), reader: ctx.reader, index: ctx.index };
  for (const v of verdicts) {
    if (v.state === 'ok' || v.state === 'unresolved') continue;
    const spec = byKey.get(v.anchor)?.spec ?? parseAnchor(v.anchor);
    const p = anchorPath(spec);
    const t = p ? traces.get(p) : undefined;
    let cands: (BlameCandidate & { change: string })[] = [];
    let basePath: string | undefined = p;
    let replacedBy: CommitRef | undefined;
    if (t) {
      let at: string | undefined = t.origin;
      for (const x of t.touches) {
        const before: string | undefined = x.from ?? at;
        const after: string | undefined = x.kind === 'deleted' ? undefined : (x.to ?? at);
        cands.push({ commit: x.commit, before, after, change: x.kind === 'renamed' || x.kind === 'renamed+modified' ? `${x.kind} ${x.from} → ${x.to}` : x.kind });
        at = after;
      }
      const re = t.deletedIn ? reused.get(lastPath(t)) : undefined;
      if (re && (v.state === 'changed' || v.state === 'removed')) {
        v.state = 'replaced';
        v.note = `deleted in ${re.deletedIn.id.slice(0, 12)}; the path now holds an unrelated file added in ${re.addedIn.id.slice(0, 12)}`;
        replacedBy = toRef(re.addedIn, `added ${lastPath(t)} (unrelated file)`);
      } else if (t.deletedIn && v.state === 'removed') v.note = `deleted in ${t.deletedIn.id.slice(0, 12)}`;
    } else if (spec.kind === 'glob') {
      const isMatch = picomatch(spec.pattern, { dot: true });
      cands = commits.filter((c) => c.changes.some((ch) => isMatch(ch.path) || (ch.from && isMatch(ch.from)))).map((c) => ({ commit: c, change: 'changed files matching the glob' }));
    } else {
      const cp = v.path ?? p;
      basePath = cp;
      if (cp) {
        for (const c of commits) {
          const ch = c.changes.find((x) => x.path === cp || x.from === cp);
          if (ch) cands.push({ commit: c, before: ch.status === 'A' ? undefined : cp, after: cp, change: ch.status === 'A' ? 'added' : 'modified' });
        }
        if (cands[0]?.before === undefined && cands.length) basePath = undefined;
      }
    }
    // a move is explained by every commit that took part in it; drift only by the commits
    // that moved the content away from what was stamped
    const blamed = v.state === 'moved' || v.state === 'replaced' || !base || !ctx.head ? undefined : await blameCommits(env, spec, v.before, { commit: base, path: basePath }, ctx.head, cands);
    const kept = blamed ? new Set(blamed.map((c) => c.id)) : undefined;
    if (t || cands.length || spec.kind === 'glob') v.commits = cands.filter((c) => !kept || kept.has(c.commit.id)).map((c) => toRef(c.commit, c.change));
    if (replacedBy) (v.commits ??= []).push(replacedBy);
    if (ctx.head && ctx.opts.snapshot.kind !== 'commit' && v.state !== 'moved' && v.state !== 'removed') {
      const pending = await pendingChanges(env, spec, v.path ?? p, ctx.opts.snapshot, snapshotAt(ctx, ctx.head), ctx.opts.snapshot.kind === 'worktree' ? indexSnapshot(ctx) : undefined);
      if (pending.length) v.uncommitted = pending;
    }
    // which symbols changed inside a changed file
    if (v.state === 'changed' && spec.kind === 'file' && base) {
      const now = v.path ?? spec.path;
      const syms = await changedSymbolsBetween(ctx, base, spec.path, now);
      if (syms.length) v.changedSymbols = syms;
    }
    // which files of a glob or directory were added, removed, modified or moved
    if ((v.state === 'changed' || v.state === 'moved') && base && (spec.kind === 'glob' || (spec.kind === 'file' && current.get(v.anchor)?.contents))) {
      v.files = await setChanges(ctx, spec, base, current.get(v.anchor), commits);
    }
  }
  verdicts.sort((x, y) => (x.anchor < y.anchor ? -1 : x.anchor > y.anchor ? 1 : 0));
  return verdicts;
}

/** A stamped fingerprint against the current one: set fingerprints tell moves from changes, and accept the legacy form. */
function stateOf(stamped: string, cur: AnchorFingerprint): 'ok' | 'changed' | 'moved' {
  if (cur.fingerprint === stamped) return 'ok';
  const was = splitSetFingerprint(stamped);
  if (!was) return cur.legacy !== undefined && cur.legacy === stamped ? 'ok' : 'changed';
  const now = cur.fingerprint ? splitSetFingerprint(cur.fingerprint) : undefined;
  return now && now.content === was.content ? 'moved' : 'changed';
}

/** The index view, opened once per run (uncommitted changes are told apart from staged ones through it). */
function indexSnapshot(ctx: Ctx): Snapshot {
  let s = ctx.snapshots.get('\0index');
  if (!s) {
    s = new IndexSnapshot(ctx.opts.snapshot.root, undefined);
    ctx.snapshots.set('\0index', s);
  }
  return s;
}

/** Per file of a glob or directory: added, removed, modified or moved since `base`, with the commits of the range that touched it. */
async function setChanges(ctx: Ctx, spec: AnchorSpec, base: string, cur: AnchorFingerprint | undefined, commits: CommitInfo[]): Promise<GlobFileChange[]> {
  const baseSnap = snapshotAt(ctx, base);
  const then = (await fingerprintAnchor(spec, baseSnap, ctx.index, ctx.reader.contentHasher(baseSnap))).contents ?? {};
  const now = cur?.contents ?? {};
  const out: GlobFileChange[] = [];
  const gone = Object.keys(then).filter((f) => !(f in now));
  const fresh = Object.keys(now).filter((f) => !(f in then));
  const touched = (f: string) => commits.filter((c) => c.changes.some((ch) => ch.path === f || ch.from === f)).map((c) => c.id);
  for (const f of fresh) {
    const from = gone.find((g) => then[g] === now[f]);
    if (from) {
      gone.splice(gone.indexOf(from), 1);
      out.push({ path: f, change: 'moved', from, commits: touched(f) });
    } else out.push({ path: f, change: 'added', commits: touched(f) });
  }
  for (const f of gone) out.push({ path: f, change: 'removed', commits: touched(f) });
  for (const f of Object.keys(now)) if (f in then && then[f] !== now[f]) out.push({ path: f, change: 'modified', commits: touched(f) });
  return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

function lastPath(t: PathTrace): string {
  const r = t.touches.filter((x) => x.to);
  return r.length ? r[r.length - 1]!.to! : t.origin;
}

/** Names of symbols whose text differs between a file at `base` and now (added/removed included). */
async function changedSymbolsBetween(ctx: Ctx, base: string, basePath: string, nowPath: string): Promise<string[]> {
  const before = await ctx.reader.symbolsOf(snapshotAt(ctx, base), basePath);
  if (!before) return [];
  const after = await ctx.index.symbolsOf(nowPath);
  const b = new Map(before.map((s) => [s.name, s.fingerprint]));
  const a = new Map(after.map((s) => [s.name, s.fingerprint]));
  const names = new Set([...b.keys(), ...a.keys()]);
  const out: string[] = [];
  for (const n of names) if (b.get(n) !== a.get(n)) out.push(n);
  // report the innermost changed declarations: a changed method also changes its class
  return out.sort().filter((n) => !out.some((o) => o.startsWith(n + '.')));
}

/** The fingerprints to write for an artifact now: every anchor that resolves (used by stamp). */
export async function currentFingerprints(artifact: Artifact, snapshot: Snapshot, index: CodeIndex): Promise<{ fingerprints: Record<string, string>; unresolved: string[]; files: string[] }> {
  // a new stamp is taken of what the record names now, not of what an older stamp held
  const anchors = anchorsOf(artifact.format === 'adr' ? withoutStamp(artifact) : artifact, index, { mentions: true });
  const fps = await fingerprintAnchors(anchors, snapshot, index);
  const fingerprints: Record<string, string> = {};
  const unresolved: string[] = [];
  const files = new Set<string>();
  for (const a of anchors) {
    const f = fps.get(a.key);
    if (f?.status === 'ok' && f.fingerprint) {
      fingerprints[a.key] = f.fingerprint;
      for (const p of f.paths ?? []) files.add(p);
    } else if (!(a.origins.length === 1 && a.origins[0] === 'mentioned')) unresolved.push(a.key); // a mention that names nothing is not an error
  }
  return { fingerprints, unresolved, files: [...files].sort() };
}

/** The fields anchorsOf reads, without the stamp. */
function withoutStamp(a: Artifact): Artifact {
  return { id: a.id, format: a.format, mentions: a.mentions, anchors: a.anchors, paths: a.paths } as Artifact;
}

export type { JudgeMethod };
