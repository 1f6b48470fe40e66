// @spec SPEC-STALENESS-001

/*
 * The comparator of the staleness judge: stamped fingerprints against the anchors as they are
 * now (or as they were at a base commit, renames followed back), moved symbols found, and
 * the evidence attached (changed symbols, files of a set, the commits that touched them).
 * The planner (judge.ts) decides what each record is compared against.
 */

import { picomatch } from '../util/picomatch.js';
import type { Artifact } from '../artifacts/types.js';
import { findMovedSymbol, findSymbol, fingerprintAnchor, parseAnchor, splitSetFingerprint, type AnchorFingerprint, type AnchorSpec } from '../code/anchors.js';
import type { CodeIndex } from '../code/code-index.js';
import { CommitSnapshot, IndexSnapshot } from '../snapshot/git-snapshot.js';
import { blameCommits, pendingChanges, type BlameCandidate, type BlameEnv } from './blame.js';
import type { Snapshot } from '../snapshot/types.js';
import type { JudgeOptions } from './judge.js';
import { anchorPath, fingerprintAt, SymbolReader, withPath, type ArtifactAnchor } from './anchors.js';
import { reusedPaths, tracePaths, type CommitInfo, type PathTrace } from './history.js';
import { RangeHistory } from './range.js';
import type { AnchorVerdict, CommitRef, GlobFileChange, Lifecycle } from './types.js';

/** Per-run shared state. */
export interface Ctx {
  opts: JudgeOptions;
  index: CodeIndex;
  reader: SymbolReader;
  head?: string;
  range?: RangeHistory;
  shallow: boolean;
  snapshots: Map<string, Snapshot>;
  lifecycle: (a: Artifact) => Lifecycle;
}

export const toRef = (c: CommitInfo, change: string): CommitRef => ({ id: c.id, author: c.author, email: c.email, date: c.date, subject: c.subject, change });

export function snapshotAt(ctx: Ctx, commit: string): Snapshot {
  let s = ctx.snapshots.get(commit);
  if (!s) {
    s = new CommitSnapshot(ctx.opts.snapshot.root, commit);
    ctx.snapshots.set(commit, s);
  }
  return s;
}

/** The path a walk must cover for an anchor (endpoints: everything, since their file can move). */
export function anchorPathspec(spec: AnchorSpec): string | undefined {
  if (spec.kind === 'glob') return spec.pattern;
  if (spec.kind === 'endpoint') return '';
  return spec.path;
}

/** Fingerprints of the current anchors as they were at `base` (renames followed back). */
export async function virtualStamp(ctx: Ctx, anchors: ArtifactAnchor[], current: Map<string, AnchorFingerprint>, base: string): Promise<Map<string, string>> {
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
export async function compare(ctx: Ctx, stamped: Map<string, string>, anchors: ArtifactAnchor[], current: Map<string, AnchorFingerprint>, base: string | undefined): Promise<AnchorVerdict[]> {
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
export function indexSnapshot(ctx: Ctx): Snapshot {
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
