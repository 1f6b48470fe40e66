// @spec SPEC-STORE-001

import { offloadPayloads } from './payloads.js';
import { closeSync, existsSync, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { ctxDir } from '../git/git-dir.js';
import type { Episode } from './types.js';

/**
 * Recording an episode never touches SQLite: it appends one JSON line to a journal under
 * `.git/ctx/evidence/` (one write with O_APPEND, so concurrent writers never interleave),
 * which the store ingests the next time a command opens the database (DEC-017). This keeps
 * recording at well under a millisecond, keeps the native module out of the hook, bundles
 * and the Action, and means a recording can never fail or block the command it records.
 */
export const JOURNAL_FILE = 'journal.jsonl';
export const EVIDENCE_DIR = 'evidence';

/** `<git-dir>/ctx/evidence` of the repository holding `dir` (its top level or below), or undefined outside one. */
export function evidenceDir(dir: string): string | undefined {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if (existsSync(path.join(d, '.git'))) return ctxDir(d, EVIDENCE_DIR);
    if (path.dirname(d) === d) return undefined;
  }
}

/** Whether retrieval should be recorded: not with GIT_CTX_NO_RECORD=1 or `record: false` in config. */
export function recordingEnabled(env: NodeJS.ProcessEnv, cfg?: { record?: boolean }): boolean {
  if (env.GIT_CTX_NO_RECORD === '1' || env.GIT_CTX_NO_RECORD === 'true') return false;
  return cfg?.record !== false;
}

/**
 * A new episode id: time-ordered, unique across processes (ms time in base 36 + 6 random hex).
 * The id must not collide, not resist guessing: Math.random, which V8 seeds from the system's
 * entropy in every process, and no node:crypto on a kept answer's path (DEC-067).
 */
export function newEpisodeId(at: number): string {
  const random = Math.floor(Math.random() * 0x1000000).toString(16).padStart(6, '0');
  return `${Math.max(0, Math.floor(at)).toString(36).padStart(9, '0')}${random}`;
}

export type EpisodeDraft = Omit<Episode, 'id' | 'at'> & { id?: string; at?: number };

/**
 * Append an episode to the journal. Best effort by design: returns the episode id, or
 * undefined when nothing was written (outside a repository, recording off, a read-only
 * .git); never throws.
 */
export function appendEpisode(root: string, draft: EpisodeDraft, opts: { env?: NodeJS.ProcessEnv; record?: boolean; clock?: () => number } = {}): string | undefined {
  try {
    if (!recordingEnabled(opts.env ?? process.env, { record: opts.record })) return undefined;
    const dir = evidenceDir(root);
    if (!dir) return undefined;
    const at = draft.at ?? (opts.clock ?? Date.now)();
    // a long query goes to the content-addressed payload folder, the row keeps its hash
    const ep: Episode = { ...offloadPayloads(dir, draft), id: draft.id ?? newEpisodeId(at), at };
    const line = `${JSON.stringify({ v: 1, ...ep })}\n`;
    mkdirSync(dir, { recursive: true });
    const fd = openSync(path.join(dir, JOURNAL_FILE), 'a');
    try {
      writeSync(fd, line);
    } finally {
      closeSync(fd);
    }
    return ep.id;
  } catch {
    return undefined;
  }
}
