// @spec SPEC-RETRIEVE-001

import path from 'node:path';
import { zeroConfigLine } from '../artifacts/sources/zero-config-line.js';
import { fastHead } from '../git/fast-head.js';
import { keepAnswer, keptAnswer, RecordingSnapshot, type PlaceQuestion } from '../place/kept.js';
import { parseTraceTarget, type TraceTarget } from '../retrieve/trace-target.js';
import type { Snapshot } from '../snapshot/types.js';
import { recordingEnabled } from '../store/journal.js';
import { startEpisode, type EpisodeRecorder } from '../store/record.js';
import { indexStamp } from '../tree/state.js';
import type { Config } from '../config.js';
import type { DirtyProbe } from '../store/dirty.js';
import { io, loadRepo, noteZeroConfig, type RepoContext, type RepoOptions } from './shared.js';

/** What a kept CLI answer carries besides the command's own result: what its episode and its notice need. */
export interface KeptCliAnswer<V> {
  value: V;
  /** the config's `record:` setting */
  record?: boolean;
  /** whether the files the answer was computed from differ from HEAD; undefined: not known */
  dirty?: boolean;
  /** the zero-configuration notice (no config file), printed once per run */
  zeroNote?: string;
}

/** What a question's `compute` gives: the answer, the files it read, and whether it is whole (false: not kept). */
export interface Computed<V> {
  value: V;
  files: (answer: V) => string[];
  /** false when part of the answer is missing (a lane timed out or failed): such an answer is not kept */
  whole?: boolean;
}

/** A one-place CLI question answered: from a kept answer or computed (and kept). */
export interface PlaceAnswered<V> {
  root: string;
  commit: string | undefined;
  target: TraceTarget;
  answer: KeptCliAnswer<V>;
  /** the episode recorder, its dirty flag judged with the answer */
  rec: EpisodeRecorder;
}

/**
 * A one-place question of the CLI (`trace <place>`, `for <place>`) answered from the answer
 * kept for it when nothing it was computed from changed (DEC-062), else computed by `compute`
 * over the repository read through the place index, and kept. `options` is whatever else the
 * answer is a function of (filters, caps). A question about a commit (`--at`), the staged
 * view or global records is computed each time.
 */
export async function answerPlaceQuestion<V>(
  o: RepoOptions,
  place: string,
  command: PlaceQuestion['command'],
  options: unknown,
  compute: (repo: RepoContext, target: TraceTarget) => Promise<Computed<V>>,
): Promise<PlaceAnswered<V>> {
  const question = (target: TraceTarget): PlaceQuestion => ({ command, place: target.path, options: { place, target, options } });
  return answerKept<V, TraceTarget>(o, command, (root, cwd) => parseTraceTarget(place, root, cwd), question, (t) => t.path, compute);
}

/** A search answered (its words), from a kept answer or computed (and kept). */
export type SearchAnswered<V> = Omit<PlaceAnswered<V>, 'target'>;

/**
 * A search (`search <words>`) answered like a place question (DEC-062): the kept answer when
 * nothing it was computed from changed, else `compute` over the repository read through the
 * files the words name (`named`), and kept. `options` as for a place.
 */
export async function answerSearchQuestion<V>(o: RepoOptions, text: string, options: unknown, named: () => string[], compute: (repo: RepoContext) => Promise<Computed<V>>): Promise<SearchAnswered<V>> {
  const question = (): PlaceQuestion => ({ command: 'search', place: text, options });
  // words naming no file read nothing of the tree but the set: the kept search set answers for it (DEC-066)
  const { target: _, ...answered } = await answerKept<V, null>(o, 'search', () => null, question, named, (repo) => compute(repo), named().length === 0);
  return answered;
}

/** The common path of kept CLI answers: `about` is what the question asks of the tree (a place, or nothing), `reads` what loadRepo reads fresh. */
async function answerKept<V, T>(
  o: RepoOptions,
  command: PlaceQuestion['command'],
  about: (root: string, cwd: string) => T,
  question: (about: T) => PlaceQuestion,
  reads: (about: T) => string | string[],
  compute: (repo: RepoContext, about: T) => Promise<Computed<V>>,
  searchSet = false,
): Promise<{ root: string; commit: string | undefined; target: T; answer: KeptCliAnswer<V>; rec: EpisodeRecorder }> {
  const env = io().env;
  const cwd = o.root ? path.resolve(io().cwd, o.root) : io().cwd;
  const keepable = !o.at && !o.staged && !o.global;
  const episode = (root: string, commit: string | undefined, answer: KeptCliAnswer<V>, kind: Snapshot['kind']) => startEpisode(root, { caller: { kind: 'cli', command }, commit, reads: kind, env, record: answer.record, probe: false });
  const head = keepable ? fastHead(cwd) : undefined;
  if (head) {
    const target = about(head.root, cwd);
    const kept = keptAnswer<KeptCliAnswer<V>>(head.root, head.commit, question(target), env);
    if (kept) {
      if (kept.zeroNote) io().err(`git-ctx: ${kept.zeroNote}\n`);
      return { root: head.root, commit: head.commit, target, answer: kept, rec: episode(head.root, head.commit, kept, 'worktree') };
    }
    if (searchSet) {
      const done = await fromSearchSet(head.root, head.commit, env, target, question(target), compute);
      if (done) return { root: head.root, commit: head.commit, target, answer: done, rec: episode(head.root, head.commit, done, 'worktree') };
    }
  }
  const started = Date.now();
  let seen: RecordingSnapshot | undefined;
  const repo = await loadRepo(o, (root, at) => reads(about(root, at)), keepable ? (s) => (seen = new RecordingSnapshot(s)) : undefined);
  try {
    const { snapshot, config } = repo;
    const stamp = indexStamp(snapshot.root);
    const target = about(snapshot.root, repo.cwd);
    // what loading the set read, before the answer reads more: the next search with other words reads this (DEC-066)
    if (searchSet && seen) {
      const identity = await (snapshot as { listIdentity?: () => Promise<string | undefined> }).listIdentity?.().catch(() => undefined);
      const { keepSearchSet } = await import('../place/search-set.js');
      keepSearchSet(seen, repo.set, identity, started, stamp);
    }
    // the episode's dirty flag, judged beside the answer (when episodes are recorded)
    const probe = recordingEnabled(env, { record: config.record }) ? (await import('../store/dirty.js')).startDirtyProbe(snapshot.root, snapshot.commit, { reads: snapshot.kind }) : undefined;
    const { value, files, whole } = await compute(repo, target);
    const answer = await answered(value, files, config, probe, seen, question(target), started, stamp, env, whole);
    return { root: snapshot.root, commit: snapshot.commit, target, answer, rec: episode(snapshot.root, snapshot.commit, answer, snapshot.kind) };
  } finally {
    repo.close();
  }
}

/** A computed answer with its dirty flag and notice, kept (when `seen` noted what it read). */
async function answered<V>(value: V, files: (answer: V) => string[], config: Config, probe: DirtyProbe | undefined, seen: RecordingSnapshot | undefined, q: PlaceQuestion, started: number, stamp: string | undefined, env: NodeJS.ProcessEnv, whole = true): Promise<KeptCliAnswer<V>> {
  const read = files(value);
  const dirty = await probe?.judge(read, 100);
  const z = config.zeroConfig;
  const answer: KeptCliAnswer<V> = { value, record: config.record, ...(dirty === undefined ? {} : { dirty }), ...(z?.sources.length ? { zeroNote: zeroConfigLine(z, config.dir) } : {}) };
  if (seen) {
    // what the dirty flag is judged on is part of what the answer is kept by
    for (const f of read) seen.files.add(f);
    if (config.retrieval?.feedback_ranking) seen.whole = true;
    // an answer a lane gave up on (a timeout on a cold, busy machine) is computed again next time
    if (!whole) seen.whole = true;
    keepAnswer(seen, q, answer, started, stamp, env);
  }
  return answer;
}

/**
 * A search computed over the kept search set (DEC-066): no snapshot, config or artifact set
 * opened. Undefined when there is none for this state of the repository, or when the search
 * read something it does not hold (then the caller computes it from the repository).
 */
async function fromSearchSet<V, T>(root: string, commit: string | undefined, env: NodeJS.ProcessEnv, target: T, q: PlaceQuestion, compute: (repo: RepoContext, about: T) => Promise<Computed<V>>): Promise<KeptCliAnswer<V> | undefined> {
  const started = Date.now();
  const stamp = indexStamp(root);
  const { keptSearchSet } = await import('../place/search-set.js');
  const kept = keptSearchSet(root, commit, env);
  if (!kept) return undefined;
  const { set, snapshot, config } = kept;
  noteZeroConfig(config);
  const probe = recordingEnabled(env, { record: config.record }) ? (await import('../store/dirty.js')).startDirtyProbe(root, commit, { reads: 'worktree' }) : undefined;
  let computed: Computed<V>;
  try {
    computed = await compute({ snapshot, config, set, cwd: io().cwd, close: () => undefined }, target);
  } catch (e) {
    if (kept.missed()) return undefined;
    throw e;
  }
  // a lane that read what the entry lacks failed quietly: its answer is not the answer
  if (kept.missed()) return undefined;
  return answered(computed.value, computed.files, config, probe, kept.recorder(), q, started, stamp, env, computed.whole);
}
