import { GlobIndex } from '../util/glob.js';
import { buildGraph, REVERSE_NAMES } from '../artifacts/graph.js';
import { loadArtifactSet, type ArtifactSet } from '../artifacts/load.js';
import { successorOf } from '../staleness/lifecycle.js';
import { RELATION_KINDS, type Artifact } from '../artifacts/types.js';
import { runCheck, findingKey, ruleCatalog } from '../check/run.js';
import { STALENESS_RULES } from '../check/rules/staleness.js';
import type { Finding } from '../check/types.js';
import { findEndpoint, findSymbol, parseAnchor } from '../code/anchors.js';
import { buildCodeIndex, type CodeIndex } from '../code/code-index.js';
import type { Annotation } from '../code/types.js';
import { loadConfig, type Config } from '../config.js';
import { detectDrift } from '../staleness/drift.js';
import { findRepoRoot, openSnapshot, resolveRevision } from '../snapshot/open.js';
import { normalizeRepoPath } from '../util/paths.js';
import { compilePaths } from '../util/path-set.js';
import { diffPullRequest, findMergeBase, type ChangedFile, type Hunk } from './diff.js';
import { NarrowedSnapshot } from '../snapshot/narrow.js';
import type { Snapshot } from '../snapshot/types.js';
import { judgeStaleness } from './stale.js';
import type { GovernanceMatch, Inclusion, PrArtifact, PrFile, PrLocation, PrResult, PrSimilarDecision, UnstampedChange } from './types.js';

export interface AnalyzePullRequestOptions {
  /** any directory inside the repository */
  cwd: string;
  /** the branch the PR merges into (revision) */
  base: string;
  /** the PR's head (revision) */
  head: string;
  /** also list artifacts stale at head that the PR does not touch */
  includeStale?: boolean;
  /** run the coherence check at the merge base and at head (default true) */
  check?: boolean;
  /** code index cache location (see CodeIndexOptions.cache); tests pass false */
  cache?: string | false;
  /** git rename limit for the diff */
  renameLimit?: number;
  /**
   * When base and head share no history here (a shallow clone that could not be deepened),
   * compare head with base itself instead of failing, and say so in `limitations`.
   */
  allowMissingMergeBase?: boolean;
  /** per changed file, at most this many records retrieval finds beyond the declared ones (default 3; 0 = none) */
  related?: number;
}

/** A changed line range on one side; a gap is a pure insertion/deletion point between line n and n+1. */
type Range = { start: number; end: number } | { gap: number };

function sideRanges(hunks: Hunk[], side: 'old' | 'new'): Range[] {
  return hunks.map((h) => {
    const start = side === 'old' ? h.oldStart : h.newStart;
    const n = side === 'old' ? h.oldLines : h.newLines;
    return n > 0 ? { start, end: start + n - 1 } : { gap: start };
  });
}

/** Does a changed range touch the lines [s, e]? A gap only counts when the lines surround it. */
function touchesSpan(r: Range, s: number, e: number): boolean {
  if ('gap' in r) return s <= r.gap && e >= r.gap + 1;
  return r.start <= e && r.end >= s;
}

/**
 * The innermost annotated symbols a range touches: among the symbol annotations overlapping
 * it, those whose span holds no other overlapping annotated span. Two sibling functions in
 * one hunk both count; a class whose method was changed yields to the method.
 */
export function innermostAnnotations(annotations: Annotation[], r: Range): Annotation[] {
  const hits = annotations.filter((a) => a.symbol !== undefined && touchesSpan(r, a.startLine, a.endLine));
  return hits.filter((a) => !hits.some((b) => b.startLine >= a.startLine && b.endLine <= a.endLine && (b.startLine > a.startLine || b.endLine < a.endLine)));
}


interface ChangeView {
  file: ChangedFile;
  headPath?: string;
  basePath?: string;
  head: Range[];
  base: Range[];
  /** a change without hunks (binary, pure rename, mode): the whole file counts, no symbol does */
  wholeFile: boolean;
}

/**
 * Staleness is reported per artifact (marks, counts, fail-on stale); a check rule that
 * reports the same drift as a finding would say it twice.
 */
// every rule that judges staleness (stale-artifact, moved-anchor, proposed-shipped)
const STALENESS_RULE_IDS = new Set(STALENESS_RULES.map((r) => r.id));

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The successor of a superseded record, as the PR report carries it. */
function successorField(set: ArtifactSet, id: string): Pick<PrArtifact, 'successor'> {
  const s = successorOf(set, id);
  return s ? { successor: { id: s.id, ...(s.title !== undefined ? { title: s.title } : {}), ...(s.status !== undefined ? { status: s.status } : {}), via: s.via } } : {};
}

function isInactive(a: Artifact, config: Config): boolean {
  return !!a.status && (config.types[a.type]?.inactive ?? []).includes(a.status);
}

function multisetMinus(a: Finding[], b: Finding[]): Finding[] {
  const counts = new Map<string, number>();
  for (const f of b) counts.set(findingKey(f), (counts.get(findingKey(f)) ?? 0) + 1);
  return a.filter((f) => {
    const k = findingKey(f);
    const n = counts.get(k) ?? 0;
    if (n > 0) {
      counts.set(k, n - 1);
      return false;
    }
    return true;
  });
}

/**
 * Everything the pull-request bot says, as data: the files and hunks changed between the
 * merge base and head, the artifacts that govern them (annotations on the innermost changed
 * symbols, frontmatter anchors, `paths:` globs) with their `requires` and one hop of
 * relations, staleness at head, anchored code changed without a re-stamp, and coherence
 * findings the PR introduces. Reads only git objects: nothing from the PR is executed.
 */
/**
 * Decisions the PR adds (active at head, absent at the merge base) that resemble an active
 * decision at head (SPEC-AUTHORING-001). A failing embedder is a limitation, not a failure.
 */
async function addedLookAlikes(root: string, headSet: ArtifactSet, baseSet: ArtifactSet, limitations: string[]): Promise<PrSimilarDecision[]> {
  const { activeDecisions, conflictThreshold, configuredEmbedder, DecisionSimilarity } = await import('../authoring/similar.js');
  const active = activeDecisions(headSet);
  const added = active.filter((a) => a.origin === 'repo' && !baseSet.byId.has(a.id));
  if (!added.length || active.length < 2) return [];
  try {
    const sim = await DecisionSimilarity.open(root, headSet, active, configuredEmbedder(headSet));
    const threshold = conflictThreshold(headSet);
    return added
      .map((a) => ({ id: a.id, title: a.title, file: a.file, similar: sim.similarTo(a.id, threshold).map((s) => ({ id: s.id, title: s.title, similarity: s.similarity })) }))
      .filter((x) => x.similar.length);
  } catch (e) {
    limitations.push(`Added decisions were not compared with the active ones: ${(e as Error).message}`);
    return [];
  }
}

export async function analyzePullRequest(opts: AnalyzePullRequestOptions): Promise<PrResult> {
  const root = await findRepoRoot(opts.cwd, 'git');
  const baseId = await resolveRevision(root, opts.base, 'git');
  const headId = await resolveRevision(root, opts.head, 'git');
  const limitations: string[] = [];
  let mergeBase = await findMergeBase(root, baseId, headId);
  if (!mergeBase) {
    if (!opts.allowMissingMergeBase) {
      // diffPullRequest raises the explanatory error
      await diffPullRequest(root, baseId, headId, { renameLimit: opts.renameLimit });
    }
    mergeBase = baseId;
    limitations.push(
      `No merge base between ${baseId.slice(0, 12)} and ${headId.slice(0, 12)} in this clone (shallow history?): head was compared with the base branch tip, so changes made on the base branch since the PR branched show as changes of this PR.`,
    );
  }
  const diff = await diffPullRequest(root, baseId, headId, { renameLimit: opts.renameLimit, mergeBase });
  if (diff.renameLimitHit) limitations.push('git skipped rename detection (rename limit): some renamed files are treated as deleted and added.');

  const headSnap = await openSnapshot({ cwd: root, kind: 'commit', rev: headId, backend: 'git' });
  const baseSnap = await openSnapshot({ cwd: root, kind: 'commit', rev: mergeBase, backend: 'git' });
  try {
    const headConfig = await loadConfig(headSnap);
    const baseConfig = await loadConfig(baseSnap).catch(() => headConfig);
    const headSet = await loadArtifactSet(headSnap, headConfig, { global: false });
    const baseSet = await loadArtifactSet(baseSnap, baseConfig, { global: false });

    // --- changed files, split into code and artifact files -----------------------------
    const artifactDirs = [headConfig.dir, baseConfig.dir].map((d) => d.replace(/\/+$/, '') + '/');
    const isArtifactPath = (p: string) => artifactDirs.some((d) => p.startsWith(d));
    const views: ChangeView[] = [];
    const headPaths = new Set<string>();
    const basePaths = new Set<string>();
    for (const f of diff.files) {
      const headPath = f.status === 'deleted' ? undefined : f.path;
      const basePath = f.status === 'added' ? undefined : (f.oldPath ?? f.path);
      const v: ChangeView = {
        file: f,
        headPath,
        basePath,
        head: sideRanges(f.hunks, 'new'),
        base: sideRanges(f.hunks, 'old'),
        wholeFile: f.hunks.length === 0,
      };
      views.push(v);
      if (headPath && !isArtifactPath(headPath)) headPaths.add(headPath);
      if (basePath && !isArtifactPath(basePath)) basePaths.add(basePath);
    }

    const headIndex = await buildCodeIndex(new NarrowedSnapshot(headSnap, headPaths), headConfig, { cache: opts.cache });
    const baseIndex = await buildCodeIndex(new NarrowedSnapshot(baseSnap, basePaths), baseConfig, { cache: opts.cache });
    for (const p of headIndex.problems) {
      if (p.kind === 'syntax-error') limitations.push(`${p.file}: ${p.message}${p.line ? ` (line ${p.line})` : ''}; the symbols found there may be incomplete.`);
      else if (p.kind === 'too-large') limitations.push(`${p.file}: ${p.message}`);
    }

    // --- direct governance ------------------------------------------------------------
    const matches = new Map<string, GovernanceMatch[]>();
    const addMatch = (id: string, m: GovernanceMatch) => {
      const l = matches.get(id);
      if (!l) matches.set(id, [m]);
      else if (!l.some((x) => x.via === m.via && x.file === m.file && x.symbol === m.symbol && x.pattern === m.pattern && x.side === m.side)) l.push(m);
    };
    const locationIds = new Map<string, { file: string; line: number; endLine: number; symbol?: string; ids: Set<string> }>();
    const addLocation = (file: string, line: number, endLine: number, symbol: string | undefined, id: string) => {
      const k = `${file}\0${line}\0${endLine}`;
      let l = locationIds.get(k);
      if (!l) locationIds.set(k, (l = { file, line, endLine, symbol, ids: new Set() }));
      l.ids.add(id);
    };

    const annotate = (index: CodeIndex, path: string, ranges: Range[], wholeFile: boolean, side: 'head' | 'base') => {
      const anns = index.annotationsIn(path);
      if (!anns.length) return;
      for (const a of anns) {
        if (a.symbol !== undefined) continue;
        for (const id of a.ids) addMatch(id, { via: 'annotation', file: path, tag: a.tag, line: side === 'head' ? a.line : undefined, side });
      }
      if (wholeFile) return;
      for (const r of ranges) {
        for (const a of innermostAnnotations(anns, r)) {
          for (const id of a.ids) {
            addMatch(id, { via: 'annotation', file: path, symbol: a.symbol, tag: a.tag, ...(side === 'head' ? { line: a.startLine, endLine: a.endLine } : {}), side });
            if (side === 'head') addLocation(path, a.startLine, a.endLine, a.symbol, id);
          }
        }
      }
    };
    for (const v of views) {
      if (v.headPath && headPaths.has(v.headPath)) annotate(headIndex, v.headPath, v.head, v.wholeFile, 'head');
      if (v.basePath && basePaths.has(v.basePath)) annotate(baseIndex, v.basePath, v.base, v.wholeFile, 'base');
    }

    // frontmatter anchors and paths globs of every artifact at head
    const headOf = new Map(views.filter((v) => v.basePath && v.headPath).map((v) => [v.basePath!, v.headPath!]));
    const byHead = new Map<string, ChangeView>();
    const byBase = new Map<string, ChangeView>();
    for (const v of views) {
      if (v.headPath && headPaths.has(v.headPath)) byHead.set(v.headPath, v);
      if (v.basePath && basePaths.has(v.basePath)) byBase.set(v.basePath, v);
    }
    const codePaths = [...new Set([...headPaths, ...basePaths])].sort(cmp);
    // one sorted index of the changed paths: each paths:/glob entry is compiled once and
    // tested only against files under its static base
    const changed = new GlobIndex(codePaths);
    for (const a of headSet.artifacts) {
      if (a.origin !== 'repo') continue;
      const pathSet = compilePaths(a.paths);
      for (const entry of pathSet.includes) {
        for (const p of changed.match(normalizeRepoPath(entry) ? entry : '')) if (pathSet.covers(p)) addMatch(a.id, { via: 'paths', file: p, pattern: entry, side: headPaths.has(p) ? 'head' : 'base' });
      }
      for (const raw of a.anchors) {
        const spec = parseAnchor(raw);
        switch (spec.kind) {
          case 'symbol': {
            const hv = byHead.get(spec.path);
            if (hv) {
              const sym = findSymbol(await headIndex.symbolsOf(spec.path), spec.symbol);
              if (sym && !hv.wholeFile && hv.head.some((r) => touchesSpan(r, sym.docLine, sym.endLine))) {
                addMatch(a.id, { via: 'anchor', file: spec.path, symbol: sym.name, pattern: raw, line: sym.line, endLine: sym.endLine, side: 'head' });
                addLocation(spec.path, sym.line, sym.endLine, sym.name, a.id);
                break;
              }
            }
            const bv = byBase.get(spec.path);
            if (bv) {
              const sym = findSymbol(await baseIndex.symbolsOf(spec.path), spec.symbol);
              if (sym && (bv.file.status === 'deleted' || (!bv.wholeFile && bv.base.some((r) => touchesSpan(r, sym.docLine, sym.endLine))))) {
                addMatch(a.id, { via: 'anchor', file: spec.path, symbol: sym.name, pattern: raw, side: 'base' });
              }
            }
            break;
          }
          case 'lines': {
            const hv = byHead.get(spec.path);
            if (hv && (hv.wholeFile || hv.head.some((r) => touchesSpan(r, spec.start, spec.end)))) {
              addMatch(a.id, { via: 'anchor', file: spec.path, pattern: raw, line: spec.start, endLine: spec.end, side: 'head' });
              addLocation(spec.path, spec.start, spec.end, undefined, a.id);
            } else if (byBase.has(spec.path) && !byHead.has(spec.path)) addMatch(a.id, { via: 'anchor', file: spec.path, pattern: raw, side: 'base' });
            break;
          }
          case 'file': {
            for (const p of changed.match(spec.path)) addMatch(a.id, { via: 'anchor', file: p, pattern: raw, side: headPaths.has(p) ? 'head' : 'base' });
            break;
          }
          case 'glob': {
            for (const p of changed.match(spec.pattern)) addMatch(a.id, { via: 'anchor', file: p, pattern: raw, side: headPaths.has(p) ? 'head' : 'base' });
            break;
          }
          case 'endpoint': {
            // the narrowed index holds only changed files: a hit here is registering code the PR changed
            for (const r of await findEndpoint(headIndex, spec.method, spec.path)) {
              const hv = byHead.get(r.file);
              if (!hv) continue;
              const sym = r.symbol ? findSymbol(await headIndex.symbolsOf(r.file), r.symbol) : undefined;
              const [s, e] = sym ? [sym.line, sym.endLine] : [r.line, r.line];
              if (hv.wholeFile || hv.head.some((x) => touchesSpan(x, s, e))) {
                addMatch(a.id, { via: 'anchor', file: r.file, symbol: r.symbol, pattern: raw, line: s, endLine: e, side: 'head' });
                addLocation(r.file, s, e, r.symbol, a.id);
              }
            }
            break;
          }
        }
      }
    }

    // --- artifact files the PR adds, edits or deletes ----------------------------------
    const headByFile = new Map(headSet.artifacts.filter((a) => a.origin === 'repo').map((a) => [a.file, a]));
    const baseByFile = new Map(baseSet.artifacts.filter((a) => a.origin === 'repo').map((a) => [a.file, a]));
    const edited = new Map<string, { artifact: Artifact; removed: boolean }>();
    for (const v of views) {
      const h = v.headPath ? headByFile.get(v.headPath) : undefined;
      if (h) edited.set(h.id, { artifact: h, removed: false });
      else if (v.basePath && baseByFile.has(v.basePath)) {
        const b = baseByFile.get(v.basePath)!;
        if (!headSet.byId.has(b.id)) edited.set(b.id, { artifact: b, removed: true });
      }
    }

    // --- anchored code changed without a re-stamp (the hook's drift, over merge base...head)
    const drift = await detectDrift({
      staged: headSnap,
      head: baseSnap,
      config: headConfig,
      set: headSet,
      changedPaths: codePaths,
      cache: opts.cache,
    });
    const unstamped = new Map<string, UnstampedChange[]>();
    for (const d of drift) {
      const l = unstamped.get(d.artifact) ?? [];
      l.push({ anchor: d.anchor, change: d.change, path: d.path, symbol: d.symbol, line: d.line, movedTo: d.movedTo });
      unstamped.set(d.artifact, l);
      if (!matches.has(d.artifact) && d.path) addMatch(d.artifact, { via: 'anchor', file: d.path, symbol: d.symbol, pattern: d.anchor, line: d.line, side: d.change === 'removed' ? 'base' : 'head' });
    }

    // --- assemble the list: direct, edited, then requires and one hop of relations -----
    const listed = new Map<string, PrArtifact>();
    const toEntry = (a: Artifact, inclusion: Inclusion, extra: Partial<PrArtifact> = {}): PrArtifact => ({
      id: a.id,
      type: a.type,
      title: a.title,
      ...(a.status !== undefined ? { status: a.status } : {}),
      ...(a.summary !== undefined ? { summary: a.summary } : {}),
      file: a.file,
      inclusion,
      matches: [],
      inactive: isInactive(a, headConfig),
      ...successorField(headSet, a.id),
      unstamped: unstamped.get(a.id) ?? [],
      ...extra,
    });
    const unknownIds: string[] = [];
    for (const id of [...matches.keys()].sort(cmp)) {
      const a = headSet.byId.get(id);
      if (!a) {
        // an annotation naming an id no artifact declares: check reports it; here it is noted
        unknownIds.push(id);
        continue;
      }
      // a base-side match that head still has (same symbol, renamed file or not) adds nothing
      const all = matches.get(id)!;
      const heads = all.filter((m) => m.side === 'head');
      const ms = all.filter((m) => m.side === 'head' || !heads.some((h) => h.via === m.via && h.symbol === m.symbol && h.pattern === m.pattern && (h.file === m.file || headOf.get(m.file) === h.file))).sort((x, y) => cmp(x.file, y.file) || (x.line ?? 0) - (y.line ?? 0) || cmp(x.via, y.via));
      listed.set(id, toEntry(a, 'direct', { matches: ms }));
    }
    for (const [id, e] of [...edited].sort((x, y) => cmp(x[0], y[0]))) {
      if (listed.has(id)) continue;
      listed.set(id, toEntry(e.artifact, 'edited', e.removed ? { file: e.artifact.file, inactive: true } : {}));
    }
    if (unknownIds.length) limitations.push(`Changed code is annotated with ids that no artifact declares: ${unknownIds.join(', ')}.`);

    const graph = buildGraph(headSet);
    const seeds = [...listed.keys()];
    // requires, transitively: they are always loaded together with what requires them
    const queue = [...seeds];
    while (queue.length) {
      const from = queue.shift()!;
      for (const e of graph.out.get(from) ?? []) {
        if (e.kind !== 'requires' || !e.resolved || listed.has(e.to)) continue;
        listed.set(e.to, toEntry(headSet.byId.get(e.to)!, 'required', { via: { from, edge: 'requires' } }));
        queue.push(e.to);
      }
    }
    const relationKinds = new Set<string>(RELATION_KINDS);
    for (const from of seeds) {
      const hop: { to: string; edge: string }[] = [];
      for (const e of graph.out.get(from) ?? []) if (relationKinds.has(e.kind) && e.resolved) hop.push({ to: e.to, edge: e.kind });
      for (const e of graph.in.get(from) ?? []) if (relationKinds.has(e.kind)) hop.push({ to: e.from, edge: REVERSE_NAMES[e.kind] });
      hop.sort((x, y) => cmp(x.to, y.to) || cmp(x.edge, y.edge));
      for (const h of hop) {
        if (listed.has(h.to)) continue;
        const a = headSet.byId.get(h.to);
        if (a) listed.set(h.to, toEntry(a, 'related', { via: { from, edge: h.edge } }));
      }
    }

    // records whose text mentions a changed file: listed apart, below what governs it
    for (const a of headSet.artifacts) {
      if (a.origin !== 'repo' || !a.mentions?.length || listed.has(a.id) || headSet.byId.get(a.id) !== a) continue;
      const ms: GovernanceMatch[] = [];
      for (const m of a.mentions) {
        const hash = m.target.indexOf('#');
        for (const p of changed.match(hash < 0 ? m.target : m.target.slice(0, hash))) {
          if (!ms.some((x) => x.file === p)) ms.push({ via: 'mention', file: p, pattern: m.target, line: m.line, side: headPaths.has(p) ? 'head' : 'base' });
        }
      }
      if (ms.length) listed.set(a.id, toEntry(a, 'mentioned', { matches: ms.sort((x, y) => cmp(x.file, y.file)) }));
    }

    // --- staleness at head ---------------------------------------------------------------
    const judged = await judgeStaleness({ snapshot: headSnap, config: headConfig, set: headSet, ids: opts.includeStale ? undefined : [...listed.keys()].filter((id) => headSet.byId.has(id)), cache: opts.cache });
    for (const w of judged.warnings) limitations.push(w);
    for (const [id, s] of judged.byId) {
      const entry = listed.get(id);
      if (entry) entry.staleness = s;
      else if (opts.includeStale && s.status === 'stale') {
        const a = headSet.byId.get(id);
        if (a) listed.set(id, toEntry(a, 'stale-elsewhere', { staleness: s }));
      }
    }

    // --- coherence: findings new at head -------------------------------------------------
    let introduced: Finding[] = [];
    let resolved = 0;
    let ruleErrors: PrResult['coherence']['ruleErrors'] = [];
    if (opts.check !== false) {
      // staleness findings are reported above, from the head judgement: skip those rules here
      // (they would judge every artifact twice more) and reuse the sets already loaded
      const rules = ruleCatalog().map((r) => r.id).filter((id) => !STALENESS_RULE_IDS.has(id));
      const h = await runCheck({ snapshot: headSnap, config: headConfig, set: headSet, global: false, rules });
      const b = await runCheck({ snapshot: baseSnap, config: baseConfig, set: baseSet, global: false, rules });
      introduced = multisetMinus(h.findings, b.findings).filter((f) => !STALENESS_RULE_IDS.has(f.rule));
      resolved = multisetMinus(b.findings, h.findings).length;
      ruleErrors = h.ruleErrors;
    }

    // --- order and counts --------------------------------------------------------------
    const order: Record<Inclusion, number> = { direct: 0, edited: 1, required: 2, related: 3, mentioned: 4, 'stale-elsewhere': 5 };
    const artifacts = [...listed.values()].sort((x, y) => order[x.inclusion] - order[y.inclusion] || cmp(x.id, y.id));
    const warnIds = new Set(artifacts.filter((a) => a.unstamped.length || a.staleness?.status === 'stale').map((a) => a.id));
    const locations: PrLocation[] = [...locationIds.values()]
      .map((l) => {
        const ids = [...l.ids].filter((id) => headSet.byId.has(id)).sort(cmp);
        const level: PrLocation['level'] = ids.some((id) => warnIds.has(id)) ? 'warning' : 'notice';
        const parts = ids.map((id) => {
          const a = listed.get(id);
          const flags = [a?.unstamped.length ? 'changed without re-stamp' : '', a?.staleness?.status === 'stale' ? 'stale' : ''].filter(Boolean);
          return `${id}${a ? ` (${a.title})` : ''}${flags.length ? ` [${flags.join(', ')}]` : ''}`;
        });
        return { file: l.file, line: l.line, endLine: l.endLine, ...(l.symbol ? { symbol: l.symbol } : {}), ids, level, message: `This PR changes code governed by ${parts.join('; ')}` };
      })
      .filter((l) => l.ids.length)
      .sort((x, y) => (x.level === y.level ? 0 : x.level === 'warning' ? -1 : 1) || cmp(x.file, y.file) || x.line - y.line);

    const files: PrFile[] = views.map((v) => {
      const p = v.file.path;
      const governedBy = artifacts
        .filter((a) => a.inclusion === 'direct' && a.matches.some((m) => m.file === p || (v.basePath !== undefined && m.file === v.basePath)))
        .map((a) => a.id);
      return { path: p, ...(v.file.oldPath ? { oldPath: v.file.oldPath } : {}), status: v.file.status, binary: v.file.binary, hunks: v.file.hunks.length, governedBy };
    });
    await addAlsoRelevant(files, headSnap, headSet, headIndex, new Set(artifacts.filter((a) => a.inclusion !== 'stale-elsewhere').map((a) => a.id)), opts.related ?? 3);

    const similarDecisions = await addedLookAlikes(headSnap.root, headSet, baseSet, limitations);

    return {
      version: 1,
      base: { rev: opts.base, commit: baseId },
      head: { rev: opts.head, commit: headId },
      mergeBase,
      files,
      artifacts,
      locations,
      coherence: { introduced, resolved, ruleErrors },
      counts: {
        files: files.length,
        governed: files.filter((f) => f.governedBy.length).length,
        direct: artifacts.filter((a) => a.inclusion === 'direct').length,
        stale: artifacts.filter((a) => a.staleness?.status === 'stale').length,
        unstamped: artifacts.filter((a) => a.unstamped.length).length,
        errors: introduced.filter((f) => f.severity === 'error').length,
        warnings: introduced.filter((f) => f.severity === 'warning').length,
      },
      limitations,
      ...(similarDecisions.length ? { similarDecisions } : {}),
    };
  } finally {
    headSnap.close();
    baseSnap.close();
  }
}

/**
 * The PR bot's "also relevant" list: per changed file still present at head, the records
 * retrieval finds by weaker evidence (keywords read from the code, mentions), leaving out
 * every record already listed. Declared ones stay first; these are rendered apart.
 */
async function addAlsoRelevant(files: PrFile[], snapshot: Snapshot, set: ArtifactSet, index: CodeIndex, listed: Set<string>, max: number): Promise<void> {
  if (max <= 0) return;
  const { retrieveForPlace } = await import('../retrieve/engine.js');
  for (const f of files) {
    if (f.status === 'deleted' || f.binary || f.path.startsWith(set.config.dir + '/')) continue;
    const r = await retrieveForPlace({ snapshot, set, index, target: { path: f.path }, neighbours: false, staleness: false, caps: { declared: 0, fused: max + listed.size, links: 0 } });
    const extra = r.results.filter((x) => x.slot === 'fused' && !listed.has(x.id) && !f.governedBy.includes(x.id)).slice(0, max);
    if (extra.length) f.alsoRelevant = extra.map((x) => ({ id: x.id, type: x.type, title: x.title, ...(x.status != null ? { status: x.status } : {}), why: x.why.map((w) => w.text).join('; ') }));
  }
}
