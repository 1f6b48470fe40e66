import { loadArtifactSet, type ArtifactSet } from '../artifacts/load.js';
import { runCheck, findingKey, ruleCatalog } from '../check/run.js';
import { STALENESS_RULES } from '../check/rules/staleness.js';
import type { Finding } from '../check/types.js';
import { buildCodeIndex, type CodeIndex } from '../code/code-index.js';
import { loadConfig, type Config } from '../config.js';
import { findRepoRoot, openSnapshot, resolveRevision } from '../snapshot/open.js';
import { diffPullRequest, findMergeBase, type ChangedFile } from '../git/diff.js';
import { CONFIRM_SCOPE_KEY } from '../check/confirm/rules.js';
import { scopeOfChanges } from '../check/confirm/scope.js';
import { NarrowedSnapshot } from '../snapshot/narrow.js';
import type { Snapshot } from '../snapshot/types.js';
import { judgeStaleness, madeStaleBy } from './stale.js';
import { splitChangedFiles } from './ungoverned.js';
import { annotationId } from '../artifacts/lookup.js';
import { changedSides, Governance, governByAnnotations, governByFrontmatter, type ChangedSides } from './governance.js';
import { editedRecords, entryMaker, listRecords, unstampedChanges, type EntryOf } from './listing.js';
import { changeDescription, markRanked, rankChange, recordChangesOf } from './ranked.js';
import type { Inclusion, PrArtifact, PrFile, PrLocation, PrResult, PrSimilarDecision } from './types.js';

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
  /** records retrieval over the change adds beyond the declared ones, at most (default 5; 0 = none) */
  related?: number;
  /** the pull request's title and body (the Action has them); absent, the commit messages of the range stand in */
  title?: string;
  body?: string;
  /** environment for the semantic lane's settings (default process.env) */
  env?: NodeJS.ProcessEnv;
}

export { innermostAnnotations } from './governance.js';

/**
 * Staleness is reported per artifact (marks, counts, fail-on stale); a check rule that
 * reports the same drift as a finding would say it twice.
 */
// every rule that judges staleness (stale-artifact, moved-anchor, proposed-shipped)
const STALENESS_RULE_IDS = new Set(STALENESS_RULES.map((r) => r.id));

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

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
 * Decisions the PR adds (active at head, absent at the merge base) that resemble an active
 * decision at head (SPEC-AUTHORING-001). A failing embedder is a limitation, not a failure.
 */
async function addedLookAlikes(root: string, headSet: ArtifactSet, baseSet: ArtifactSet, limitations: string[]): Promise<PrSimilarDecision[]> {
  const { activeDecisions, conflictThreshold, configuredEmbedder, DecisionSimilarity } = await import('../authoring/similar.js');
  const { areLinked, confirmRestatements, JUDGED_RECORDS } = await import('../authoring/draft-similar.js');
  const active = activeDecisions(headSet);
  const added = active.filter((a) => a.origin === 'repo' && !baseSet.byId.has(a.id));
  if (!added.length || active.length < 2) return [];
  try {
    const embedder = configuredEmbedder(headSet);
    const sim = await DecisionSimilarity.open(root, headSet, active, embedder);
    const threshold = conflictThreshold(headSet);
    // the pair score proposes, search's judgement (as add's) decides; linked records are not look-alikes
    const wanted = new Set(added.map((a) => a.id));
    const { pairs: confirmed, unjudged } = await confirmRestatements(root, headSet, sim.pairs(threshold, { only: wanted, skip: areLinked }), { threshold, embedder: embedder ?? null });
    if (unjudged) limitations.push(`${unjudged} look-alike pair${unjudged === 1 ? ' was' : 's were'} judged by the pair score alone: more than ${JUDGED_RECORDS} decisions to compare with search`);
    const byId = new Map(added.map((a) => [a.id, [] as { id: string; title: string; similarity: number }[]]));
    for (const { a, b, score } of confirmed) {
      byId.get(a.id)?.push({ id: b.id, title: b.title, similarity: score.similarity });
      byId.get(b.id)?.push({ id: a.id, title: a.title, similarity: score.similarity });
    }
    return added
      .map((a) => ({ id: a.id, title: a.title, file: a.file, similar: byId.get(a.id)!.sort((x, y) => y.similarity - x.similarity || (x.id < y.id ? -1 : 1)) }))
      .filter((x) => x.similar.length);
  } catch (e) {
    limitations.push(`Added decisions were not compared with the active ones: ${(e as Error).message}`);
    return [];
  }
}

/**
 * Everything the pull-request bot says, as data: the files and hunks changed between the
 * merge base and head, the artifacts that govern them (annotations on the innermost changed
 * symbols, frontmatter anchors, `paths:` globs) with their `requires` and one hop of
 * relations, staleness at head, anchored code changed without a re-stamp, and coherence
 * findings the PR introduces. Reads only git objects: nothing from the PR is executed.
 */
export async function analyzePullRequest(opts: AnalyzePullRequestOptions): Promise<PrResult> {
  const { root, baseId, headId, mergeBase, diff, limitations } = await resolveRange(opts);
  const headSnap = await openSnapshot({ cwd: root, kind: 'commit', rev: headId, backend: 'git' });
  const baseSnap = await openSnapshot({ cwd: root, kind: 'commit', rev: mergeBase, backend: 'git' });
  try {
    const headConfig = await loadConfig(headSnap);
    const baseConfig = await loadConfig(baseSnap).catch(() => headConfig);
    const headSet = await loadArtifactSet(headSnap, headConfig, { global: false });
    const baseSet = await loadArtifactSet(baseSnap, baseConfig, { global: false });

    // files no record can govern are counted, never scored (DEC-060)
    const { files: governable, ungovernable } = await splitChangedFiles(diff.files, { headSnap, baseSnap, headConfig, headSet }, limitations);
    const sides = changedSides(governable, [headConfig.dir, baseConfig.dir]);
    const { headIndex, baseIndex } = await changedCodeIndexes(sides, { headSnap, baseSnap, headConfig, baseConfig, cache: opts.cache }, limitations);

    // an annotation's id as the team spells it (`@adr 5`) names the record of the side it is on, else of the other (DEC-093)
    const gov = new Governance((w) => (headSet.byId.has(w) ? w : annotationId(headSet, w) !== w ? annotationId(headSet, w) : annotationId(baseSet, w)));
    governByAnnotations(gov, sides, headIndex, baseIndex);
    await governByFrontmatter(gov, sides, headSet, headIndex, baseIndex);
    const edited = editedRecords(sides, headSet, baseSet);
    const unstamped = await unstampedChanges(gov, sides, { headSnap, baseSnap, headConfig, headSet, cache: opts.cache });

    const toEntry = entryMaker(headSet, headConfig, unstamped);
    const { listed, unknownIds } = listRecords(gov, sides, headSet, edited, toEntry);
    if (unknownIds.length) limitations.push(`Changed code is annotated with ids that no artifact declares: ${unknownIds.join(', ')}.`);
    await judgeListed(listed, toEntry, { headSnap, headConfig, headSet, includeStale: opts.includeStale, cache: opts.cache }, limitations);
    const coherence = opts.check !== false ? await coherenceChange({ headSnap, baseSnap, headConfig, baseConfig, headSet, baseSet, files: diff.files }) : { introduced: [], resolved: 0, ruleErrors: [] };

    // --- order and counts --------------------------------------------------------------
    const order: Record<Inclusion, number> = { direct: 0, edited: 1, required: 2, related: 3, mentioned: 4, 'stale-elsewhere': 5 };
    const artifacts = [...listed.values()].sort((x, y) => order[x.inclusion] - order[y.inclusion] || cmp(x.id, y.id));
    const locations = locationsOf(gov, artifacts, listed, headSet);
    const files: PrFile[] = sides.views.map((v) => {
      const p = v.file.path;
      const governedBy = artifacts
        .filter((a) => a.inclusion === 'direct' && a.matches.some((m) => m.file === p || (v.basePath !== undefined && m.file === v.basePath)))
        .map((a) => a.id);
      return { path: p, ...(v.file.oldPath ? { oldPath: v.file.oldPath } : {}), status: v.file.status, binary: v.file.binary, hunks: v.file.hunks.length, governedBy };
    });
    const description = await changeDescription(root, { from: mergeBase, to: headId }, { title: opts.title, body: opts.body });
    // retrieval reads only what can be governed: the ungovernable files are counted apart (DEC-060)
    const recordChanges = recordChangesOf(edited, baseSet);
    const { ranked, retrieval } = await rankChange(artifacts, governable, { headSnap, headSet, headIndex, description, changes: recordChanges, max: opts.related, env: opts.env });

    const similarDecisions = await addedLookAlikes(headSnap.root, headSet, baseSet, limitations);
    const { introduced } = coherence;
    const proposals = (await import('../authoring/pr-proposals.js')).proposedInPullRequest(headSet, baseSet);
    const madeStale = await madeStaleBy(artifacts, { headSnap, headConfig, headSet, files: diff.files, mergeBase, cache: opts.cache });

    return {
      version: 1,
      base: { rev: opts.base, commit: baseId },
      head: { rev: opts.head, commit: headId },
      mergeBase,
      files,
      ranked,
      recordChanges: markRanked(recordChanges, ranked),
      retrieval,
      artifacts,
      locations,
      coherence,
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
      ...(headConfig.zeroConfig?.sources.length ? { zeroConfig: headConfig.zeroConfig } : {}),
      ...(similarDecisions.length ? { similarDecisions } : {}),
      ...(proposals.length ? { proposals } : {}),
      ...(ungovernable.length ? { ungovernable } : {}),
      ...(madeStale.length ? { madeStale } : {}),
    };
  } finally {
    headSnap.close();
    baseSnap.close();
  }
}

/** Phase: the revisions resolved, the merge base found (or head compared with the base tip, said in a limitation), and the diff. */
async function resolveRange(opts: AnalyzePullRequestOptions): Promise<{ root: string; baseId: string; headId: string; mergeBase: string; diff: Awaited<ReturnType<typeof diffPullRequest>>; limitations: string[] }> {
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
  return { root, baseId, headId, mergeBase, diff, limitations };
}

/** Phase: code indexes of the changed code only, on both sides; what could not be parsed is a limitation. */
export async function changedCodeIndexes(
  sides: ChangedSides,
  at: { headSnap: Snapshot; baseSnap: Snapshot; headConfig: Config; baseConfig: Config; cache?: string | false },
  limitations: string[],
): Promise<{ headIndex: CodeIndex; baseIndex: CodeIndex }> {
  const headIndex = await buildCodeIndex(new NarrowedSnapshot(at.headSnap, sides.headPaths), at.headConfig, { cache: at.cache });
  const baseIndex = await buildCodeIndex(new NarrowedSnapshot(at.baseSnap, sides.basePaths), at.baseConfig, { cache: at.cache });
  for (const p of headIndex.problems) {
    if (p.kind === 'syntax-error') limitations.push(`${p.file}: ${p.message}${p.line ? ` (line ${p.line})` : ''}; the symbols found there may be incomplete.`);
    else if (p.kind === 'too-large') limitations.push(`${p.file}: ${p.message}`);
  }
  return { headIndex, baseIndex };
}

/** Phase: staleness at head of the listed records (or of every record, with includeStale: the stale ones elsewhere join the list). */
async function judgeListed(
  listed: Map<string, PrArtifact>,
  toEntry: EntryOf,
  at: { headSnap: Snapshot; headConfig: Config; headSet: ArtifactSet; includeStale?: boolean; cache?: string | false },
  limitations: string[],
): Promise<void> {
  const { headSet } = at;
  const judged = await judgeStaleness({ snapshot: at.headSnap, config: at.headConfig, set: headSet, ids: at.includeStale ? undefined : [...listed.keys()].filter((id) => headSet.byId.has(id)), cache: at.cache });
  for (const w of judged.warnings) limitations.push(w);
  for (const [id, s] of judged.byId) {
    const entry = listed.get(id);
    if (entry) entry.staleness = s;
    else if (at.includeStale && s.status === 'stale') {
      const a = headSet.byId.get(id);
      if (a) listed.set(id, toEntry(a, 'stale-elsewhere', { staleness: s }));
    }
  }
}

/** Phase: coherence, the check findings new at head (and how many the PR resolves). */
async function coherenceChange(at: { headSnap: Snapshot; baseSnap: Snapshot; headConfig: Config; baseConfig: Config; headSet: ArtifactSet; baseSet: ArtifactSet; files: ChangedFile[] }): Promise<PrResult['coherence']> {
  // staleness findings are reported above, from the head judgement: skip those rules here
  // (they would judge every artifact twice more) and reuse the sets already loaded
  const rules = ruleCatalog().map((r) => r.id).filter((id) => !STALENESS_RULE_IDS.has(id));
  // confirmations count only on the lines the PR adds (DEC-052): none at the base
  const h = await runCheck({ snapshot: at.headSnap, config: at.headConfig, set: at.headSet, global: false, rules, cache: new Map([[CONFIRM_SCOPE_KEY, scopeOfChanges(at.files)]]) });
  const b = await runCheck({ snapshot: at.baseSnap, config: at.baseConfig, set: at.baseSet, global: false, rules, cache: new Map([[CONFIRM_SCOPE_KEY, new Map()]]) });
  return { introduced: multisetMinus(h.findings, b.findings).filter((f) => !STALENESS_RULE_IDS.has(f.rule)), resolved: multisetMinus(b.findings, h.findings).length, ruleErrors: h.ruleErrors };
}

/** Phase: the head locations to annotate, warnings (stale, changed without re-stamp) first. */
function locationsOf(gov: Governance, artifacts: PrArtifact[], listed: Map<string, PrArtifact>, headSet: ArtifactSet): PrLocation[] {
  const warnIds = new Set(artifacts.filter((a) => a.unstamped.length || a.staleness?.status === 'stale').map((a) => a.id));
  return [...gov.locations.values()]
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
}
