// @spec SPEC-STORE-001

import { fastHead } from '../git/fast-head.js';
import type { DirtyProbe } from './dirty.js';
import { appendEpisode, recordingEnabled } from './journal.js';
import type { Episode, EpisodeQuery, EvidenceRef, Grounding, LaneRecord, SupportRef } from './types.js';
import { now } from '../util/timing.js';

/**
 * Recording for front ends: `startEpisode` at the start of a retrieval (it starts the
 * dirty-flag probe beside the retrieval), `finish` with what was answered (a retrieval's
 * result becomes an episode in src/retrieve/episode.ts, a PR analysis in src/pr/record.ts). Imports no SQLite
 * (DEC-017): safe in the hook, bundles and the Action.
 */
export interface EpisodeRecorder {
  /** Append the episode to the journal; resolves to its id, or undefined when not recorded. Never rejects. */
  finish(parts: {
    query: EpisodeQuery;
    lanes?: LaneRecord[];
    evidence: EvidenceRef[];
    refs?: SupportRef[];
    commit?: string;
    dirty?: boolean;
    ms?: number;
    /** the repository files the answer was computed from (the place, the records' files): the dirty flag is theirs (DEC-032) */
    files?: string[];
  }): Promise<string | undefined>;
}

export interface StartEpisodeOptions {
  caller: Episode['caller'];
  /** HEAD, when the front end knows it already (else read from the filesystem) */
  commit?: string;
  env?: NodeJS.ProcessEnv;
  /** config `record` */
  record?: boolean;
  clock?: () => number;
  /** the front end knows commit and dirty flag itself (a bundle's header): no dirty probe */
  probe?: boolean;
  /** what the answer read: the work tree (default), the index (`--staged`) or a commit (`--at`, never dirty) */
  reads?: 'worktree' | 'index' | 'commit';
  /** longest wait at finish for a git process of the dirty probe still running (default 50 ms); past it the flag is left unknown */
  dirtyWaitMs?: number;
  /** what the caller knows of its call: the agent's tool call id, the CI run (recorded as context references) */
  context?: { tool_call?: string; run?: string };
}

const OFF: EpisodeRecorder = { finish: async () => undefined };

export function startEpisode(root: string, opts: StartEpisodeOptions): EpisodeRecorder {
  const env = opts.env ?? process.env;
  if (!recordingEnabled(env, { record: opts.record })) return OFF;
  const clock = opts.clock ?? Date.now;
  const t0 = now();
  const at = clock();
  let commit = opts.commit;
  // the probe's code (the git index reader, git processes) is loaded only when a probe runs:
  // a kept answer brings its dirty flag along (DEC-062)
  let probe: Promise<DirtyProbe | undefined> | undefined;
  if (opts.probe !== false) {
    try {
      commit ??= fastHead(root)?.commit;
      const c = commit;
      probe = import('./dirty.js').then(
        (m) => m.startDirtyProbe(root, c, { reads: opts.reads ?? 'worktree' }),
        () => undefined,
      );
    } catch {
      probe = undefined;
    }
  }
  return {
    async finish(parts) {
      try {
        const ms = parts.ms ?? Math.round((now() - t0) * 10) / 10;
        const files = parts.files ?? (parts.query.kind === 'place' && parts.query.place ? [parts.query.place] : []);
        const p = probe && (await probe.catch(() => undefined));
        const dirty = parts.dirty ?? (p && files.length ? await p.judge(files, opts.dirtyWaitMs ?? 50) : undefined);
        const c = parts.commit ?? commit;
        const refs = [...queryRefs(parts.query), ...(parts.refs ?? []), ...contextRefs(opts.context)];
        return appendEpisode(root, { at, caller: opts.caller, ...(c ? { commit: c } : {}), ...(dirty === undefined ? {} : { dirty }), query: parts.query, lanes: parts.lanes ?? [], evidence: parts.evidence, ...(refs.length ? { refs } : {}), ms }, { env, clock });
      } catch {
        return undefined;
      }
    },
  };
}

/** The place a query asked about, as references: its path, and the symbol when the text names one (`path#Symbol`). */
export function queryRefs(q: EpisodeQuery): SupportRef[] {
  if (q.kind !== 'place' || q.place === undefined) return [];
  const out: SupportRef[] = [{ role: 'query', kind: 'path', value: q.place, grounding: 'loaded', rank: 0 }];
  const hash = q.text?.indexOf('#') ?? -1;
  if (hash > 0) out.push({ role: 'query', kind: 'symbol', value: `${q.place}#${q.text!.slice(hash + 1)}`, grounding: 'loaded', rank: 0 });
  return out;
}

function contextRefs(c: StartEpisodeOptions['context']): SupportRef[] {
  const out: SupportRef[] = [];
  if (c?.tool_call) out.push({ role: 'context', kind: 'tool_call', value: c.tool_call, grounding: 'loaded', rank: 0 });
  if (c?.run) out.push({ role: 'context', kind: 'run', value: c.run, grounding: 'loaded', rank: 0 });
  return out;
}

/** An artifact id as a typed reference: tasks are `task`, every other record `artifact`. */
export function artifactRef(id: string, type: string | undefined, rank: number, grounding: Grounding, slot?: string): EvidenceRef {
  return { kind: type === 'task' ? 'task' : 'artifact', value: id, grounding, rank, ...(slot ? { slot } : {}) };
}

/** A list of records as evidence in rank order, each with its band and grounding (trace, bundles, the PR analysis, get_context). */
export function recordsAsEvidence(list: { id: string; type?: string; slot: string; grounding: Grounding }[]): EvidenceRef[] {
  return list.map((x, i) => artifactRef(x.id, x.type, i + 1, x.grounding, x.slot));
}

/** The query of a place given as path, path:line or path#Symbol. */
export function placeQuery(text: string, target: { path: string }): EpisodeQuery {
  return { kind: 'place', text, place: target.path };
}

/** `record:` in the configuration committed at `commit` (undefined when it cannot be read: the default, record). */
export async function recordConfiguredAt(root: string, commit: string): Promise<boolean | undefined> {
  try {
    // loaded here, not at the top: the agent-read hook imports this module and never needs them
    const [{ openSnapshot }, { loadConfig }] = await Promise.all([import('../snapshot/open.js'), import('../config.js')]);
    const snap = await openSnapshot({ cwd: root, kind: 'commit', rev: commit, backend: 'git' });
    try {
      return (await loadConfig(snap)).record;
    } finally {
      snap.close();
    }
  } catch {
    return undefined;
  }
}
