// @spec SPEC-RETRIEVE-001

import path from 'node:path';
import { violationNote } from '../check/confirm/note.js';
import { loadConfig } from '../config.js';
import { isInactive } from '../artifacts/in-force.js';
import { loadArtifactSet, type ArtifactSet } from '../artifacts/load.js';
import type { Artifact } from '../artifacts/types.js';
import { keepAnswer, keptAnswer, openPlace, RecordingSnapshot, type PlaceQuestion } from '../place/index.js';
import { answeredWhole, filesOf } from '../retrieve/episode.js';
import { retrieveForPlace } from '../retrieve/engine.js';
import { openSnapshot } from '../snapshot/open.js';
import { successorOf, successorText } from '../staleness/lifecycle.js';
import type { Snapshot } from '../snapshot/types.js';
import { startDirtyProbe } from '../store/dirty.js';
import { recordingEnabled } from '../store/journal.js';
import { indexStamp } from '../tree/index.js';
import { mark } from '../util/timing.js';
import { inside, type PlaceAnswer } from './place-answer-types.js';

/**
 * The agent-read hook's answer computed from the records, the code and the retrieval lanes.
 * agent-read.ts loads this module only when no kept answer holds (DEC-062): a warm hook runs
 * none of it.
 */
export async function answerFile(abs: string): Promise<{ none: string } | { root: string; commit: string | undefined; rel: string; answer: PlaceAnswer }> {
  let snapshot;
  try {
    snapshot = await openSnapshot({ cwd: path.dirname(abs), kind: 'worktree' });
  } catch {
    return { none: 'not inside a git repository' };
  }
  mark('snapshot opened');
  try {
    const rel = inside(snapshot.root, abs);
    if (rel === undefined) return { none: 'outside the repository' };
    const question: PlaceQuestion = { command: 'agent-read', place: rel };
    // a layout the file-system reader of HEAD does not take (a linked worktree): kept all the same
    const answer = keptAnswer<PlaceAnswer>(snapshot.root, snapshot.commit, question) ?? (await answerPlace(snapshot, rel, question));
    return { root: snapshot.root, commit: snapshot.commit, rel, answer };
  } finally {
    snapshot.close();
  }
}

/** The answer from the records, the code and the retrieval lanes; kept when all it read holds still. */
export async function answerPlace(snapshot: Snapshot, rel: string, question: PlaceQuestion): Promise<PlaceAnswer> {
  const started = Date.now();
  const stamp = indexStamp(snapshot.root);
  const seen = new RecordingSnapshot(snapshot);
  const answer = await computeAnswer(seen, rel);
  // the files the episode's dirty flag is judged on are part of what the answer is kept by
  if (!('skipped' in answer)) for (const f of filesOf(answer.r)) seen.files.add(f);
  // a lane that timed out or failed: shown, computed again next time
  if ('skipped' in answer || answeredWhole(answer.r)) keepAnswer(seen, question, answer, started, stamp);
  return answer;
}

async function computeAnswer(seen: RecordingSnapshot, rel: string): Promise<PlaceAnswer> {
  const config = await loadConfig(seen);
  mark('config loaded');
  if (rel.startsWith(config.dir + '/')) return { skipped: 'a record itself' };
  // the episode's dirty flag, judged beside the retrieval (when episodes are recorded)
  const probe = recordingEnabled(process.env, { record: config.record }) ? startDirtyProbe(seen.root, seen.commit) : undefined;
  // one file asked about: the place index answers without listing the working tree
  const place = openPlace(seen, rel);
  if ((await place.blobOf(rel)) === undefined) return { skipped: 'not a file of the repository' };
  const set = await loadArtifactSet(place, config);
  // a record read where it lives (docs/adr/0006-….md): the records sharing its words are no answer
  // (it came first among them, "related" to its own file); an agent needs only whether it still stands
  const own = set.artifacts.find((a) => a.origin === 'repo' && a.file === rel);
  if (own && !isInactive(own, config)) return { skipped: 'a record itself' };
  const r = await retrieveForPlace({ snapshot: place, set, target: { path: rel }, staleness: false, caps: { declared: 5, fused: 3, links: 2 } });
  mark('retrieved');
  const note = own ? inactiveRecordNote(set, own, rel) : await violationNote(place, config, set, rel);
  mark('confirmations');
  if (own) r.results = [];
  // what an answer depends on in the evidence store is not the tree's: not kept
  if (config.retrieval?.feedback_ranking) seen.whole = true;
  const blobs: Record<string, string> = {};
  for (const x of r.results) {
    const b = set.byId.get(x.id)?.blob;
    if (b) blobs[x.id] = b;
  }
  const dirty = await probe?.judge(filesOf(r), 50);
  return { r, note, blobs, record: config.record, ...(dirty === undefined ? {} : { dirty }) };
}

/**
 * The one line for an agent reading a record no longer in force: which record replaces it, so
 * it follows that one and not the text in front of it (envgen's 0006, superseded by 0007).
 */
function inactiveRecordNote(set: ArtifactSet, own: Artifact, rel: string): string {
  const s = successorOf(set, own.id);
  const next = s ? `${successorText(s)}${s.title ? ` "${s.title}"` : ''}${s.file ? ` (${s.file})` : ''}: follow that one, not this text` : 'git-ctx knows no record that replaces it (its text may name one): do not follow it as a rule';
  return `${rel} is ${own.id} "${own.title}", ${own.status ?? 'inactive'} and no longer in force; ${next}.\n`;
}
