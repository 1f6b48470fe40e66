import { loadArtifactSet } from '../artifacts/load.js';
import { loadConfig, type ZeroConfig } from '../config.js';
import { CtxError } from '../errors.js';
import { runGit } from '../git/exec.js';
import { diffPullRequest, diffStaged, findMergeBase, type ChangedFile } from '../git/diff.js';
import { findRepoRoot, openSnapshot, resolveRevision } from '../snapshot/open.js';
import { changedCodeIndexes } from './analyze.js';
import { annotationId } from '../artifacts/lookup.js';
import { changedSides, Governance, governByAnnotations, governByFrontmatter } from './governance.js';
import { editedRecords, entryMaker, listRecords } from './listing.js';
import { changeDescription, markRanked, rankChange, recordChangesOf } from './ranked.js';
import type { PrRanked, PrRecordChange, PrRetrieval, PrResult } from './types.js';
import { splitChangedFiles } from './ungoverned.js';

/*
 * The records for a change before it is a pull request (`git ctx for --diff <range>`,
 * `--staged`, MCP context_for_change): the pull request's ranked list — declared governance,
 * then retrieval over the change above the floor, and apart the records it adds, edits or
 * removes (DEC-080) — for a range of commits or
 * for what is staged, so an agent can ask before it opens a pull request.
 */

export interface AnalyzeChangeOptions {
  /** any directory inside the repository */
  cwd: string;
  /** `base..head`, `base...head` (both: merge base of the two ... head) or `base` (merge base of base and HEAD ... HEAD) */
  range?: string;
  /** the change is what the git index holds against HEAD */
  staged?: boolean;
  /** the change's title and body; absent, a range's commit messages stand in */
  title?: string;
  body?: string;
  /** records retrieval adds beyond the declared ones, at most (default 5) */
  max?: number;
  /** code index cache location; tests pass false */
  cache?: string | false;
  env?: NodeJS.ProcessEnv;
}

export interface ChangeAnswer {
  query: { kind: 'change'; range?: string; staged?: boolean; base: string; head: string; files: number };
  /** the records that govern the change, strongest first, each once (empty: no record governs the change) */
  ranked: PrRanked[];
  /** the record files the change adds, edits or removes (empty when none): news, not governance (DEC-080) */
  recordChanges: PrRecordChange[];
  retrieval: PrRetrieval;
  /** changed files no record can govern (lockfiles, generated, vendored, binaries…): counted, never scored (absent when none) */
  ungovernable?: PrResult['ungovernable'];
  /** the head has no config file: the records folders were read as `for` reads them without one */
  zeroConfig?: ZeroConfig;
  limitations: string[];
}

/** The empty tree: the base of a first commit. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** base and head commits of a range as the user wrote it (revisions are never passed as options). */
async function resolveRange(root: string, range: string): Promise<{ base: string; head: string; mergeBase: string }> {
  const m = /^(.*?)(\.\.\.?)(.*)$/.exec(range);
  const [baseRev, headRev] = m ? [m[1] || 'HEAD', m[3] || 'HEAD'] : [range, 'HEAD'];
  if (!baseRev.trim() || baseRev.startsWith('-') || headRev.startsWith('-')) throw new CtxError('USAGE', `not a range: ${range}`, { hint: 'write base..head, base...head or a base revision (compared with HEAD)' });
  const base = await resolveRevision(root, baseRev, 'git');
  const head = await resolveRevision(root, headRev, 'git');
  // `a..b` compares b with a itself; `a...b` and a lone base compare with their merge base, as a pull request does
  const mergeBase = m?.[2] === '..' ? base : await findMergeBase(root, base, head);
  if (!mergeBase) throw new CtxError('BAD_REVISION', `no merge base between ${baseRev} and ${headRev}`, { hint: 'the history may be shallow (git fetch --deepen) or the branches unrelated; base..head compares the two directly' });
  return { base, head, mergeBase };
}

/** The ranked records for a range of commits or for the staged change. */
export async function analyzeChange(opts: AnalyzeChangeOptions): Promise<ChangeAnswer> {
  if (!!opts.range === !!opts.staged) throw new CtxError('USAGE', 'give a range or staged, one of them');
  const root = await findRepoRoot(opts.cwd, 'git');
  let files: ChangedFile[];
  let baseRev: string;
  let head: string;
  let range: { from: string; to: string } | undefined;
  if (opts.range) {
    const r = await resolveRange(root, opts.range);
    files = (await diffPullRequest(root, r.base, r.head, { mergeBase: r.mergeBase })).files;
    baseRev = r.mergeBase;
    head = r.head;
    range = { from: r.mergeBase, to: r.head };
  } else {
    const hasHead = (await runGit(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: root, okCodes: [1] })).trim();
    baseRev = hasHead || EMPTY_TREE;
    files = await diffStaged(root, baseRev);
    head = 'index';
  }
  const headSnap = await openSnapshot(opts.staged ? { cwd: root, kind: 'index', backend: 'git' } : { cwd: root, kind: 'commit', rev: head, backend: 'git' });
  const baseSnap = baseRev === EMPTY_TREE ? undefined : await openSnapshot({ cwd: root, kind: 'commit', rev: baseRev, backend: 'git' });
  try {
    const limitations: string[] = [];
    const headConfig = await loadConfig(headSnap);
    const baseConfig = baseSnap ? await loadConfig(baseSnap).catch(() => headConfig) : headConfig;
    const headSet = await loadArtifactSet(headSnap, headConfig, { global: false });
    const baseSet = baseSnap ? await loadArtifactSet(baseSnap, baseConfig, { global: false }) : headSet;
    const { files: governable, ungovernable } = await splitChangedFiles(files, { headSnap, baseSnap: baseSnap ?? headSnap, headConfig, headSet }, limitations);
    const sides = changedSides(governable, [headConfig.dir, baseConfig.dir, ...headConfig.sources.map((s) => s.dir)]);
    const { headIndex, baseIndex } = await changedCodeIndexes(sides, { headSnap, baseSnap: baseSnap ?? headSnap, headConfig, baseConfig, cache: opts.cache }, limitations);
    // an annotation's id as the team spells it (`@adr 5`) names the record of the side it is on, else of the other (DEC-093)
    const gov = new Governance((w) => (headSet.byId.has(w) ? w : annotationId(headSet, w) !== w ? annotationId(headSet, w) : annotationId(baseSet, w)));
    governByAnnotations(gov, sides, headIndex, baseIndex);
    await governByFrontmatter(gov, sides, headSet, headIndex, baseIndex);
    const edited = editedRecords(sides, headSet, baseSet);
    const { listed } = listRecords(gov, sides, headSet, edited, entryMaker(headSet, headConfig, new Map()));
    const description = await changeDescription(root, range, { title: opts.title, body: opts.body });
    // a first commit has no base: every record it holds is added
    const recordChanges = recordChangesOf(edited, baseSnap ? baseSet : undefined);
    const { ranked, retrieval } = await rankChange([...listed.values()], governable, { headSnap, headSet, headIndex, description, changes: recordChanges, max: opts.max, env: opts.env });
    return {
      query: { kind: 'change', ...(opts.range ? { range: opts.range } : { staged: true }), base: baseRev, head, files: files.length },
      ranked,
      recordChanges: markRanked(recordChanges, ranked),
      retrieval,
      ...(ungovernable.length ? { ungovernable } : {}),
      ...(headConfig.zeroConfig?.sources.length ? { zeroConfig: headConfig.zeroConfig } : {}),
      limitations,
    };
  } finally {
    headSnap.close();
    baseSnap?.close();
  }
}
