// @spec SPEC-RETRIEVE-001

import path from 'node:path';
import { loadArtifactSet } from '../artifacts/load.js';
import { loadConfig } from '../config.js';
import { violationNote } from '../check/confirm/note.js';
import { retrieveForPlace } from '../retrieve/engine.js';
import { renderRetrievalContext } from '../retrieve/render.js';
import { openPlace } from '../place/index.js';
import { openSnapshot } from '../snapshot/open.js';
import { cacheStore } from '../cache/memo.js';
import { sha256 } from '../util/hash.js';
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
  let snapshot;
  try {
    snapshot = await openSnapshot({ cwd: path.dirname(abs), kind: 'worktree' });
  } catch {
    return none('not inside a git repository');
  }
  mark('snapshot opened');
  try {
    const rel = path.relative(snapshot.root, abs).split(path.sep).join('/');
    if (rel.startsWith('..') || path.isAbsolute(rel)) return none('outside the repository');
    const config = await loadConfig(snapshot);
    mark('config loaded');
    if (rel.startsWith(config.dir + '/')) return none('a record itself');
    // one file asked about: the place index answers without listing the working tree
    snapshot = openPlace(snapshot, rel);
    if ((await snapshot.blobOf(rel)) === undefined) return none('not a file of the repository');
    const rec = startEpisode(snapshot.root, { caller: { kind: 'hook', command: payload.tool_name ?? 'read', ...(payload.session_id ? { session: payload.session_id } : {}) }, commit: snapshot.commit, record: config.record, dirtyWaitMs: 50, ...(typeof payload.tool_use_id === 'string' ? { context: { tool_call: payload.tool_use_id } } : {}) });
    const set = await loadArtifactSet(snapshot, config);
    const r = await retrieveForPlace({ snapshot, set, target: { path: rel }, staleness: false, caps: { declared: 5, fused: 3, links: 2 } });
    mark('retrieved');
    // which lines of the file break a decision's confirmation (DEC-052)
    const note = await violationNote(snapshot, config, set, rel);
    mark('confirmations');
    await finishRetrieval(rec, r);
    mark('episode recorded');
    if (!r.results.length && !note) return none('nothing found');

    // session memory: which records this agent session has been shown
    const session = cacheStore<{ shown?: Record<string, string>; at?: number }>(snapshot.root, 'agent-session', sha256(payload.session_id ?? 'no-session').slice(0, 32));
    const mem = session.read() ?? {};
    const shown = mem.at && Date.now() - mem.at < SESSION_TTL_MS ? (mem.shown ?? {}) : {};
    // a record changed since it was shown is shown again
    const earlier = new Set(r.results.filter((x) => shown[x.id] === set.byId.get(x.id)?.blob).map((x) => x.id));
    let text = r.results.length ? renderRetrievalContext(r, { shownEarlier: earlier }) : '';
    if (text.length > MAX_INJECT_CHARS) text = text.slice(0, MAX_INJECT_CHARS - 80) + '\n… (cut to stay short: `git ctx for ' + rel + '` shows everything)\n';
    text = note + text;
    const fresh = r.results.filter((x) => !earlier.has(x.id)).map((x) => x.id);
    for (const id of fresh) shown[id] = set.byId.get(id)!.blob;
    session.write({ at: Date.now(), shown });
    const event = payload.hook_event_name ?? 'PostToolUse';
    const stdout = JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: text } }) + '\n';
    return { stdout, shown: fresh, repeated: [...earlier] };
  } finally {
    snapshot.close();
  }
}
