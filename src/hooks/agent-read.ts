// @spec SPEC-RETRIEVE-001

import path from 'node:path';
import { renderRetrievalContext } from '../retrieve/render.js';
import { keptAnswer } from '../place/kept.js';
import { inside, type PlaceAnswer } from './place-answer-types.js';
import { fastHead } from '../git/fast-head.js';
import { cacheStore } from '../cache/memo.js';
import { keyDigest } from '../util/key-digest.js';
import { finishRetrieval } from '../retrieve/episode.js';
import { startEpisode } from '../store/record.js';
import { mark } from '../util/timing.js';

/**
 * A coding agent's file-read hook (Claude Code PreToolUse/PostToolUse on Read, Gemini CLI
 * BeforeTool/AfterTool on read_file): the payload on stdin names a session and a file; the
 * answer is the records governing that file, once per session, as `additionalContext`.
 * Records already shown in the session are named in one line, not repeated.
 */
export interface AgentReadPayload {
  session_id?: string;
  hook_event_name?: string;
  tool_name?: string;
  tool_input?: Record<string, unknown>;
  /** the agent's id of this tool call (Claude Code), recorded with the episode */
  tool_use_id?: string;
  cwd?: string;
}

export interface AgentReadResult {
  /** what to print on stdout ('' = nothing to add) */
  stdout: string;
  /** ids injected in full this time */
  shown: string[];
  /** ids named as shown earlier */
  repeated: string[];
  /** why nothing was added, when nothing was */
  skipped?: string;
}

/** Bound on what one read injects: the agent's context is not ours to fill. */
export const MAX_INJECT_CHARS = 6000;
const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;

/** The file a read tool was asked for, from the field names the agents use. */
export function payloadFile(p: AgentReadPayload): string | undefined {
  const i = p.tool_input ?? {};
  for (const k of ['file_path', 'absolute_path', 'path', 'filePath', 'target_file']) if (typeof i[k] === 'string' && i[k]) return i[k] as string;
  return undefined;
}

export async function agentRead(payload: AgentReadPayload, fallbackCwd: string): Promise<AgentReadResult> {
  const none = (skipped: string): AgentReadResult => ({ stdout: '', shown: [], repeated: [], skipped });
  // Cursor's beforeReadFile can only allow or deny, and wants JSON on every path: a hook wired
  // by hand never blocks a read, and adds nothing (there is no field for context)
  if (payload.hook_event_name === 'beforeReadFile') return { stdout: JSON.stringify({ permission: 'allow' }) + '\n', shown: [], repeated: [], skipped: "Cursor's beforeReadFile cannot add context" };
  const file = payloadFile(payload);
  if (!file) return none('no file in the tool input');
  const cwd = payload.cwd && path.isAbsolute(payload.cwd) ? payload.cwd : fallbackCwd;
  const abs = path.resolve(cwd, file);
  // the repository and HEAD read from the file system, and the answer kept for this file
  // (DEC-062); only on a miss is the code that computes one loaded: the snapshot, the records,
  // the code index, the lanes
  const head = fastHead(path.dirname(abs));
  const rel = head ? inside(head.root, abs) : undefined;
  const kept = head && rel !== undefined ? keptAnswer<PlaceAnswer>(head.root, head.commit, { command: 'agent-read', place: rel }) : undefined;
  const asked = kept && head && rel !== undefined ? { root: head.root, commit: head.commit, rel, answer: kept } : await (await import('./place-answer.js')).answerFile(abs);
  mark('answered');
  if ('none' in asked) return none(asked.none);
  const { root, answer } = asked;
  if ('skipped' in answer) return none(answer.skipped);
  const { r, note, blobs } = answer;
  // the dirty flag was judged with the answer, of files the answer is kept by
  const rec = startEpisode(root, { caller: { kind: 'hook', command: payload.tool_name ?? 'read', ...(payload.session_id ? { session: payload.session_id } : {}) }, commit: asked.commit, record: answer.record, probe: false, ...(typeof payload.tool_use_id === 'string' ? { context: { tool_call: payload.tool_use_id } } : {}) });
  await finishRetrieval(rec, r, answer.dirty);
  mark('episode recorded');
  // nothing governs the file: the agent is told nothing (silence is the answer; the episode has it)
  if (!r.results.length && !note) return none(r.weak?.length ? 'nothing governs it (only weak matches under the relevance floor)' : 'nothing found');

  // session memory: which records this agent session has been shown
  const session = cacheStore<{ shown?: Record<string, string>; at?: number }>(root, 'agent-session', keyDigest(payload.session_id ?? 'no-session'));
  const mem = session.read() ?? {};
  const shown = mem.at && Date.now() - mem.at < SESSION_TTL_MS ? (mem.shown ?? {}) : {};
  // a record changed since it was shown is shown again
  const earlier = new Set(r.results.filter((x) => shown[x.id] === blobs[x.id]).map((x) => x.id));
  let text = r.results.length ? renderRetrievalContext(r, { shownEarlier: earlier }) : '';
  if (text.length > MAX_INJECT_CHARS) text = text.slice(0, MAX_INJECT_CHARS - 80) + '\n… (cut to stay short: `git ctx for ' + asked.rel + '` shows everything)\n';
  text = note + text;
  const fresh = r.results.filter((x) => !earlier.has(x.id)).map((x) => x.id);
  for (const id of fresh) shown[id] = blobs[id]!;
  session.write({ at: Date.now(), shown });
  const event = payload.hook_event_name ?? 'PostToolUse';
  const stdout = JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } }) + '\n';
  return { stdout, shown: fresh, repeated: [...earlier] };
}

