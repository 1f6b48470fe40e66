import { warmUp, type ArtifactSet } from '../artifacts/load.js';
import { codeIndexFor } from '../check/rules/anchors.js';
import { ruleCatalog, runCheck, severityAtLeast, type Baseline } from '../check/run.js';
import { LOAD_PROBLEM_RULES } from '../check/rules/core.js';
import type { CheckResult, Finding, FindingSeverity, Rule } from '../check/types.js';
import { loadConfig, type Config } from '../config.js';
import { CodeIndex, PartialIndexError } from '../code/code-index.js';
import { CONFIRM_SCOPE_KEY } from '../check/confirm/rules.js';
import { stagedScope } from '../check/confirm/scope.js';
import { CtxError } from '../errors.js';
import { runGit, splitZ } from '../git/exec.js';
import { CommitSnapshot, IndexSnapshot } from '../snapshot/git-snapshot.js';
import { openSnapshot } from '../snapshot/open.js';
import type { Snapshot } from '../snapshot/types.js';
import { mark, phase } from '../util/timing.js';
import type { GoverningRecord } from '../retrieve/governing.js';
import { detectDrift, type DriftFinding } from '../staleness/drift.js';
import { partialStagedIndex, rememberCarriers } from './staged-index.js';
import { StagedDelta, treeShortcuts, type RawChange } from '../tree/index.js';
import { StagedSnapshot } from './staged-mentions.js';

/** Options of `runPreCommit` (`git ctx hook pre-commit`). */
export interface PreCommitOptions {
  /** any directory inside the repository (git runs hooks at the top level) */
  cwd: string;
  /**
   * Run every check rule, warnings included. By default only the rules whose severity can
   * block (at or above `fail_on`) run: whole-repository warning rules (annotation/paths
   * mismatches, staleness history) cost more than a commit should wait for, and they are
   * `git ctx check`'s and CI's job. Drift is always checked.
   */
  allRules?: boolean;
  /** findings to accept, as for `git ctx check --baseline` */
  baseline?: Baseline;
  /** current time for date-based rules (tests) */
  now?: Date;
  /** code index cache location (tests pass false); default the repository's `code-index` cache */
  cache?: string | false;
}

/** What the pre-commit check found, and whether the commit is blocked. */
export interface PreCommitResult {
  /** the check of the whole staged snapshot */
  check: CheckResult;
  /** which rules ran: those that can block (default), or all of them */
  rules: 'blocking' | 'all';
  /** paths this commit adds, modifies or deletes, sorted */
  changedPaths: string[];
  /** every finding about a file of this commit */
  inCommit: Finding[];
  /** findings about other files at or above the failing severity (they block too) */
  elsewhere: Finding[];
  /** findings about other files below the failing severity: counted, not listed */
  elsewhereOmitted: number;
  drift: DriftFinding[];
  /** config `hook.drift` */
  driftMode: 'warn' | 'block';
  /** config `fail_on`: the lowest severity that blocks */
  failOn: FindingSeverity;
  /** why the commit is blocked; empty when it may proceed */
  blockedBy: ('findings' | 'rule-errors' | 'drift')[];
  /** the strongest records governing the staged change, above the relevance floor (never blocks) */
  governing: GoverningRecord[];
}

/** Paths that differ between HEAD and the index; every staged path when there is no HEAD yet. */
export async function changedPaths(staged: Snapshot): Promise<string[]> {
  if (!staged.commit) return (await staged.list()).map((e) => e.path);
  // plumbing, no renames: a rename is its old path deleted plus its new path added, and
  // both matter (anchors name the old one, findings the new one); --cached never looks
  // at the work tree, so partially staged files count with their staged content
  const out = await runGit(['diff-index', '--cached', '--name-only', '--no-renames', '-z', staged.commit, '--'], { cwd: staged.root });
  return [...new Set(splitZ(out))].sort();
}

/** The same paths as changedPaths, from the raw changes (modes and blob ids on both sides). */
function pathsOf(changes: RawChange[]): string[] {
  return [...new Set(changes.map((c) => c.path))].sort();
}

/**
 * Rules that read more of the code index than its annotations and problems (the whole file
 * list, endpoints, staleness): with any of them, the hook builds a whole index as before.
 * (A partial index throws PartialIndexError rather than answer such a question wrongly.)
 */
const WHOLE_INDEX_RULES = new Set(['dead-anchor', 'annotation-paths-mismatch', 'stale-artifact', 'moved-anchor', 'proposed-shipped']);
/** Rules that read the code index at all. */
const INDEX_RULES = new Set([...WHOLE_INDEX_RULES, 'code-file-skipped', 'annotation-unknown-id']);

/** Ids of the rules that can block: effective severity (config overrides applied) at or above fail_on. */
function blockingRules(config: Config): string[] {
  return ruleCatalog()
    .filter((r) => {
      const sev = config.severities[r.id] ?? r.severity;
      return sev !== 'off' && severityAtLeast(sev, config.fail_on);
    })
    .map((r) => r.id);
}

/** HEAD as a snapshot; the git backend needs no process for it until something is read. */
async function headSnapshot(staged: Snapshot): Promise<Snapshot | undefined> {
  if (!staged.commit) return undefined;
  if (staged.backend === 'git') return new CommitSnapshot(staged.root, staged.commit);
  return openSnapshot({ cwd: staged.root, kind: 'commit', rev: staged.commit, backend: staged.backend });
}

const CAPTURE_RULE = 'hook-capture-artifacts';
const SKIPPED_RULE = 'code-file-skipped';
/** the ctx.cache key under which src/check/rules/anchors.ts keeps its CodeIndex */
const CODE_INDEX_KEY = 'code-index';

/**
 * The pre-commit check: judge the staged snapshot (never the working tree) with the check
 * engine, and look for drift this commit introduces. Any finding at or above `fail_on`
 * anywhere in the snapshot blocks, because that is the tree being committed; findings in the
 * commit's own files are listed first since they are usually the cause. Drift blocks only
 * with `hook.drift: block`. Reads only: never writes to the index or the working tree.
 * Returns data; the CLI prints it and picks the exit code.
 */
export async function runPreCommit(opts: PreCommitOptions): Promise<PreCommitResult> {
  phase('snapshot');
  let staged = await openSnapshot({ cwd: opts.cwd, kind: 'index' });
  // what this commit changes, with blob ids: the changed paths, and the delta the staged
  // code index and mentions are derived by (DEC-033)
  const delta = staged instanceof IndexSnapshot && staged.commit ? new StagedDelta(staged.root, staged.commit) : undefined;
  if (delta && treeShortcuts()) {
    staged.close();
    staged = new StagedSnapshot(delta.root, delta.head, delta);
  }
  const headChanges = delta?.headChanges;
  let head: Snapshot | undefined;
  let built: Promise<CodeIndex> | undefined;
  try {
    warmUp(staged);
    phase('config');
    const config = await loadConfig(staged);
    if (config.hook.drift !== 'warn' && config.hook.drift !== 'block') {
      throw new CtxError('CONFIG', `hook.drift must be warn or block (got ${JSON.stringify(config.hook.drift)})`, { file: `${config.dir}/config.yaml` });
    }
    // drift needs the artifact set the check loads; a no-op rule hands it over instead of
    // parsing every artifact a second time
    let set: ArtifactSet | undefined;
    let index: CodeIndex | undefined;
    const capture: Rule = {
      id: CAPTURE_RULE,
      severity: 'info',
      description: 'hands the loaded artifact set (and code index, when a rule built one) to the hook',
      run: async (ctx) => {
        set = ctx.set;
        // reuse the annotation rules' index rather than scanning the repository again
        if (ctx.cache.has(CODE_INDEX_KEY)) index = await codeIndexFor(ctx);
        return [];
      },
    };
    // a skipped file is always reported: the commit's own oversized file must not pass unseen
    // what reading the records found (a mistyped status, a heading copied from another record) is
    // free once they are read: said for the commit's own records, blocking only at fail_on @decision DEC-133
    const recordWarnings = LOAD_PROBLEM_RULES.filter((id) => config.severities[id] !== 'off');
    const rules = opts.allRules ? undefined : [...new Set([...blockingRules(config), ...recordWarnings, ...(config.severities[SKIPPED_RULE] === 'off' ? [] : [SKIPPED_RULE])]), CAPTURE_RULE];
    const ruleCache = new Map<string, unknown>();
    // confirmations block only what this commit adds: a legacy violation never blocks (DEC-052)
    const { root, commit } = staged;
    ruleCache.set(CONFIRM_SCOPE_KEY, () => stagedScope(root, commit));
    // the annotation rules alone need only the index's annotations and problems: a partial
    // index of what is staged (DEC-033) answers them as the whole one would
    const partialOk = delta && headChanges && rules && !rules.some((r) => WHOLE_INDEX_RULES.has(r)) && rules.some((r) => INDEX_RULES.has(r));
    if (partialOk) {
      built = (async () => (await partialStagedIndex({ staged, config, delta })) ?? CodeIndex.build(staged, config))();
      built.catch(() => undefined); // a rule awaits it and reports the failure
      ruleCache.set(CODE_INDEX_KEY, built);
    }
    const [check, changed] = await Promise.all([
      runCheck({ snapshot: staged, config, baseline: opts.baseline, now: opts.now, rules, extraRules: [capture], cache: ruleCache }),
      headChanges ? headChanges.then(pathsOf) : changedPaths(staged),
    ]);
    mark('hook: check done');
    phase('analyses');
    head = await headSnapshot(staged);
    let drift: DriftFinding[] = [];
    if (set) {
      const driftOpts = { staged, head, config, set, changedPaths: changed, cache: opts.cache };
      try {
        drift = await detectDrift({ ...driftOpts, index });
      } catch (e) {
        if (!(e instanceof PartialIndexError)) throw e;
        // an endpoint anchor asks for the whole file list: build the whole index after all
        drift = await detectDrift({ ...driftOpts, index: await CodeIndex.build(staged, config) });
        mark('hook: drift needed a whole code index');
      }
    }
    const indexUsed = (ruleCache.get(CODE_INDEX_KEY) as Promise<CodeIndex> | undefined) ?? built;
    // a failed build was reported by the rule that awaited it; nothing to remember then
    const usable = await indexUsed?.catch(() => undefined);
    if (headChanges && usable) rememberCarriers(staged, config, usable, await headChanges);

    mark('hook: drift done');
    // which decisions this commit touches: said, never blocking, and a failure is silence
    const governing = set ? await import('../retrieve/governing.js').then((m) => m.governingRecords({ snapshot: staged, set: set!, paths: changed, index: index ?? usable })).catch(() => []) : [];
    mark('hook: governing records');
    const inCommitFiles = new Set(changed);
    const failOn = config.fail_on;
    const inCommit: Finding[] = [];
    const elsewhere: Finding[] = [];
    let elsewhereOmitted = 0;
    for (const f of check.findings) {
      if (f.file && inCommitFiles.has(f.file)) inCommit.push(f);
      else if (severityAtLeast(f.severity, failOn)) elsewhere.push(f);
      else elsewhereOmitted++;
    }
    const blockedBy: PreCommitResult['blockedBy'] = [];
    if (check.findings.some((f) => severityAtLeast(f.severity, failOn))) blockedBy.push('findings');
    if (check.ruleErrors.length) blockedBy.push('rule-errors');
    if (drift.length && config.hook.drift === 'block') blockedBy.push('drift');
    return {
      check,
      rules: opts.allRules ? 'all' : 'blocking',
      changedPaths: changed,
      inCommit,
      elsewhere,
      elsewhereOmitted,
      drift,
      driftMode: config.hook.drift,
      failOn,
      blockedBy,
      governing,
    };
  } finally {
    // a code index started ahead of the check may still be reading (the check failed early):
    // let it settle, or its next read would start a git process after the close below
    await built?.catch(() => undefined);
    staged.close();
    head?.close();
  }
}
