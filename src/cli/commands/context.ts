import { Option, type Command } from '../commander.js';
import type { ArtifactSet } from '../../artifacts/load.js';
import type { Artifact } from '../../artifacts/types.js';
import type { StaleMark } from '../../staleness/marks.js';
import type { Depth } from '../../artifacts/types.js';
import type { Bundle } from '../../assemble/types.js';
import type { Snapshot } from '../../snapshot/types.js';
import { CtxError, isCtxError } from '../../errors.js';
import { now, phase } from '../../util/timing.js';
import { ExitCode, addRepoOptions, formatOption, io, parsePositiveInt, type RepoOptions } from '../shared.js';

interface ContextOptions extends RepoOptions {
  depth?: Depth;
  budget?: number;
  encoding?: string;
  maxDepth?: number;
  format: 'context' | 'markdown' | 'json';
  json?: boolean;
  record?: boolean;
  verify?: boolean;
  related?: number;
}

export function register(program: Command): void {
  const cmd = program
    .command('context')
    .argument('<id>', 'artifact id (usually a task: git ctx TASK-042 is short for git ctx context TASK-042)')
    .description(
      'Assemble the context bundle of an artifact: follow links and requires transitively, order identity → task → specs → norms → decisions, fit a token budget, stamp with the commit',
    )
    .addOption(new Option('-d, --depth <depth>', 'detail per artifact (default: config assemble.depth, full)').choices(['meta', 'summary', 'full']))
    .option('-b, --budget <tokens>', 'token budget; lowers detail, then drops, lowest priority first', parsePositiveInt('--budget'))
    .option('--encoding <name>', 'tiktoken encoding for token counts (default: config assemble.encoding, o200k_base)')
    .option('--max-depth <hops>', 'link hops to follow from the id (default: unlimited)', parsePositiveInt('--max-depth'))
    .addOption(formatOption(['context', 'markdown', 'json'], 'context'))
    .option('--json', 'shorthand for --format json')
    .option('--related <n>', 'add up to n records retrieved for the paths and anchors of the id (not linked; marked, listed last, dropped first by the budget)', parsePositiveInt('--related'))
    .option('--record', 'record the bundle manifest as a git note (refs/notes/ctx) on its commit')
    .option('--verify', 'compare with the bundle recorded on the commit for the same id and options; exit 1 when it differs');
  addRepoOptions(cmd).action(async (id: string, o: ContextOptions) => {
    const t0 = now();
    const { findRepoRoot, openSnapshot } = await import('../../snapshot/open.js');
    const { warmUp } = await import('../../artifacts/load.js');
    const { default: path } = await import('node:path');
    const cwd = o.root ? path.resolve(io().cwd, o.root) : io().cwd;
    if (o.at && o.staged) throw new CtxError('USAGE', '--at and --staged cannot be combined');
    // git resolves the repository while the assembly code loads (it is loaded here rather
    // than at the top so that other commands never pay for it)
    const snapshot = openSnapshot({ cwd, kind: o.at ? 'commit' : o.staged ? 'index' : 'worktree', rev: o.at }).then((s) => {
      warmUp(s);
      return s;
    });
    snapshot.catch(() => undefined); // awaited by assembleBundle
    const { assembleBundle, renderBundle, recordBundle, verifyBundle } = await import('../../assemble/index.js');
    let bundle;
    try {
      bundle = await assembleBundle({ id, snapshot, global: o.global || undefined, depth: o.depth, budget: o.budget, encoding: o.encoding, maxDepth: o.maxDepth, related: o.related, staleness: staleHook });
    } catch (e) {
      // a budget that cannot hold even identity + task is a finding about the request, not an environment error
      if (isCtxError(e) && e.code === 'BUDGET') {
        io().err(`git-ctx: ${e.message}\n${e.hint ? `  hint: ${e.hint}\n` : ''}`);
        throw new ExitCode(1);
      }
      throw e;
    }
    const root = o.verify || o.record ? await findRepoRoot(cwd) : cwd;
    let code = 0;
    if (o.verify) {
      const r = await verifyBundle(bundle, root);
      if (!r) {
        io().err(`git-ctx: no recorded bundle for ${bundle.header.root} with these options on ${bundle.header.commit ?? 'this repository'}\n  hint: record one with --record\n`);
        code = 1;
      } else if (r.ok) io().err(`verified: ${bundle.header.digest} matches the recorded bundle\n`);
      else {
        io().err(`git-ctx: the bundle no longer matches the recorded one\n${r.differences.map((d) => `  ${d}\n`).join('')}`);
        code = 1;
      }
    }
    if (o.record) {
      const r = await recordBundle(root, bundle);
      io().err(r.recorded ? `recorded ${r.manifest.digest} on ${r.manifest.commit} (refs/notes/ctx)\n` : `already recorded: ${r.manifest.digest} on ${r.manifest.commit}\n`);
    }
    phase('render');
    io().out(renderBundle(bundle, o.json ? 'json' : o.format));
    const opened = await snapshot;
    try {
      await recordBundleEpisode(opened, bundle, now() - t0);
    } finally {
      opened.close();
    }
    if (code) throw new ExitCode(code);
  });
}

/** A bundle is a retrieval too: its entries, loaded in full or in part, are the evidence (never fails the command). */
async function recordBundleEpisode(snapshot: Snapshot, bundle: Bundle, ms: number): Promise<void> {
  const { startEpisode, recordsAsEvidence } = await import('../../store/record.js');
  const { loadConfig } = await import('../../config.js');
  const record = await loadConfig(snapshot).then((c) => c.record, () => true);
  await startEpisode(snapshot.root, { caller: { kind: 'cli', command: 'context' }, env: io().env, record, probe: false }).finish({
    query: { kind: 'bundle', text: bundle.header.root },
    ms: Math.round(ms * 10) / 10,
    commit: bundle.header.commit ?? undefined,
    dirty: bundle.header.dirty,
    evidence: recordsAsEvidence(bundle.entries.map((e) => ({ id: e.id, type: e.type, slot: e.role, grounding: 'loaded' as const }))),
  });
}

/** Stale marks for bundle entries; the staleness engine loads only when something is stamped. */
export async function staleHook(arts: Artifact[], set: ArtifactSet): Promise<Map<string, StaleMark>> {
  if (!arts.some((a) => a.stamp?.commit)) return new Map();
  return (await import('../../staleness/marks.js')).staleMarks(arts, set);
}
