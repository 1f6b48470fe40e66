/*
 * The planner of the staleness judge: which records are judged, what each is compared
 * against (its stamp's fingerprints, the anchors at a base commit, or nothing yet), which
 * verdicts the results cache still holds, and the one history walk for those that need it.
 * The comparing itself is compare.ts.
 */

import { buildGraph, reverseEdges } from '../artifacts/graph.js';
import type { ArtifactSet } from '../artifacts/load.js';
import type { Artifact } from '../artifacts/types.js';
import { parseAnchor, type AnchorFingerprint } from '../code/anchors.js';
import { buildCodeIndex, type CodeIndex } from '../code/code-index.js';
import type { Config } from '../config.js';
import { resolveRevision } from '../snapshot/open.js';
import type { Snapshot } from '../snapshot/types.js';
import { anchorsOf, fingerprintAnchors, SymbolReader, type ArtifactAnchor } from './anchors.js';
import { artifactBaselines } from './baseline.js';
import { judgementKey, ResultCache, type CachedJudgement } from './result-cache.js';
import { shallowFromGitDir, snapshotDigest } from './repo-state.js';
import { fullCommitIds, isShallowRepository, reachableFrom, type CommitInfo } from './history.js';
import { RangeHistory } from './range.js';
import { plural } from '../util/plural.js';
import type { AnchorVerdict, ArtifactJudgement, BaseSource, ExplanationSource, JudgeMethod, Lifecycle, StaleReport, StaleStatus } from './types.js';
import { anchorPathspec, compare, virtualStamp, type Ctx } from './compare.js';

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
export { originOf } from './compare.js';
