// @spec SPEC-SOURCES-001

import path from 'node:path';
import { readFile } from 'node:fs/promises';
import type { Artifact, LoadProblem } from '../types.js';
import { CtxError } from '../../errors.js';
import { runGit } from '../../git/exec.js';
import type { Snapshot } from '../../snapshot/types.js';
import { writeFileAtomic } from '../../util/atomic.js';
import { containedPath, mkdirContained } from '../../util/contained.js';

/**
 * Where a record came from (DEC-054): who owns it, the agent session that produced it, the
 * commit the work stood at, how it was captured, and how sure the team is of it. Frontmatter
 * records keep these keys in their own frontmatter; records read in place (ADR folders,
 * which git-ctx never restyles) keep them in `<dir>/provenance.jsonl`, committed beside the
 * configuration like the stamps sidecar.
 */
export interface Provenance {
  owner?: string;
  session_id?: string;
  commit?: string;
  /** how it was captured: ai_chat, meeting, manual */
  source?: string;
  /** internal: never shown to an agent (see AGENT_HIDDEN_KEYS) */
  confidence?: string;
  /** YYYY-MM-DD the record was proposed or added (frontmatter records use `created`) */
  date?: string;
}

export const PROVENANCE_KEYS = ['owner', 'session_id', 'commit', 'source', 'confidence', 'date'] as const;
export type ProvenanceKey = (typeof PROVENANCE_KEYS)[number];

/** Capture channels (`source:`) git-ctx writes; others are kept as written. */
export const SOURCES = ['ai_chat', 'meeting', 'manual'] as const;

/**
 * Confidence levels. Internal: the coding agent treats every decision equally, so no text or
 * data an agent reads carries the key or these words (humans see them in show, list, proposals).
 */
export const CONFIDENCE = { confirmed: 'owner_confirmed', inferred: 'ai_inferred', generated: 'auto_generated' } as const;
export const CONFIDENCE_WORDS: readonly string[] = ['confidence', ...Object.values(CONFIDENCE)];

/** Frontmatter keys removed from everything an agent reads. */
export const AGENT_HIDDEN_KEYS: readonly string[] = ['confidence'];

/** A copy of frontmatter data without the keys an agent must not see. */
export function agentVisible(data: Record<string, unknown>): Record<string, unknown> {
  if (!AGENT_HIDDEN_KEYS.some((k) => k in data)) return data;
  const out = { ...data };
  for (const k of AGENT_HIDDEN_KEYS) delete out[k];
  return out;
}

export const PROVENANCE_FILE = 'provenance.jsonl';

export function provenancePath(dir: string): string {
  return `${dir}/${PROVENANCE_FILE}`;
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : undefined);

/** The provenance of a loaded record (frontmatter keys, or the sidecar's merged into its data at load). */
export function provenanceOf(a: Artifact): Provenance {
  const d = a.data ?? {};
  const p: Provenance = {};
  for (const k of PROVENANCE_KEYS) {
    const v = str(d[k]);
    if (v !== undefined) p[k] = v;
  }
  p.owner ??= a.owner;
  p.source ??= a.source;
  p.date ??= a.created?.slice(0, 10);
  return Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) as Provenance;
}

/** Whether a record's provenance lives in the sidecar rather than its own file. */
export function provenanceInSidecar(a: Artifact): boolean {
  return a.format === 'adr';
}

/** Parse the sidecar; a malformed line is one problem, the other lines still count. */
export function parseProvenance(text: string, file: string): { entries: Map<string, Provenance>; problems: LoadProblem[] } {
  const entries = new Map<string, Provenance>();
  const problems: LoadProblem[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!.trim();
    if (!l) continue;
    let v: unknown;
    try {
      v = JSON.parse(l);
    } catch {
      problems.push({ file, line: i + 1, rule: 'provenance-malformed', message: 'not a JSON object (one {"id", "owner", "session_id", "commit", "source", …} per line; resolve a merge conflict by keeping both records\' lines)' });
      continue;
    }
    const o = v as Record<string, unknown>;
    if (!o || typeof o !== 'object' || Array.isArray(o) || typeof o.id !== 'string' || !o.id) {
      problems.push({ file, line: i + 1, rule: 'provenance-malformed', message: 'a provenance line without an "id"' });
      continue;
    }
    const p: Provenance = {};
    for (const k of PROVENANCE_KEYS) {
      const s = str(o[k]);
      if (s !== undefined) p[k] = s;
    }
    entries.set(o.id, p);
  }
  return { entries, problems };
}

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Records sorted by id, keys in a fixed order, a blank line between records (merges stay clean, as with stamps). */
export function renderProvenance(entries: Map<string, Provenance>): string {
  const ids = [...entries.keys()].sort(byKey);
  const line = (id: string) => {
    const p = entries.get(id)!;
    return JSON.stringify({ id, ...Object.fromEntries(PROVENANCE_KEYS.filter((k) => p[k] !== undefined).map((k) => [k, p[k]])) });
  };
  return ids.length ? ids.map(line).join('\n\n') + '\n' : '';
}

export async function readSidecarProvenance(snapshot: Snapshot, dir: string): Promise<{ entries: Map<string, Provenance>; problems: LoadProblem[] }> {
  const file = provenancePath(dir);
  const buf = await snapshot.read(file);
  return buf ? parseProvenance(buf.toString('utf8'), file) : { entries: new Map(), problems: [] };
}

/**
 * Give ADR records of the repository their sidecar provenance: owner and source as fields
 * (so the owner and source filters see them) and every key in the record's data (so show
 * prints them). The data object is replaced, never mutated: a cached record may share it.
 */
export function attachSidecarProvenance(artifacts: Artifact[], entries: Map<string, Provenance>): void {
  if (!entries.size) return;
  for (const a of artifacts) {
    if (a.format !== 'adr' || a.origin !== 'repo') continue;
    const p = entries.get(a.id);
    if (!p) continue;
    if (p.owner) a.owner = p.owner;
    if (p.source) a.source = p.source;
    a.data = { ...a.data, ...p };
  }
}

/**
 * Merge provenance of some records into the working tree's sidecar (null: drop the record's
 * line), keeping every other line. Atomic, inside the work tree.
 */
export async function updateSidecarProvenance(root: string, dir: string, updates: Map<string, Provenance | null>): Promise<{ file: string; changed: boolean }> {
  const file = provenancePath(dir);
  const abs = await containedPath(root, file);
  const before = await readFile(abs, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return '';
    throw new CtxError('IO', `cannot read ${file}: ${e.message}`, { cause: e, file });
  });
  const { entries, problems } = parseProvenance(before, file);
  if (problems.length) throw new CtxError('USAGE', `${file}:${problems[0]!.line}: ${problems[0]!.message}`, { file, hint: 'fix or remove that line, then try again' });
  for (const [id, p] of updates) {
    if (p === null) entries.delete(id);
    else entries.set(id, { ...entries.get(id), ...p });
  }
  const after = renderProvenance(entries);
  if (after !== before) {
    await mkdirContained(root, path.posix.dirname(file));
    await writeFileAtomic(abs, after);
  }
  return { file, changed: after !== before };
}

/** HEAD and the git user of a work tree, for provenance (each undefined when git has none). */
export async function gitWhoWhere(root: string): Promise<{ commit?: string; owner?: string }> {
  const one = (args: string[]) =>
    runGit(args, { cwd: root, okCodes: [1, 128] })
      .then((s) => s.trim() || undefined)
      .catch(() => undefined);
  const [commit, email, name] = await Promise.all([one(['rev-parse', '--verify', '-q', 'HEAD']), one(['config', 'user.email']), one(['config', 'user.name'])]);
  return { ...(commit ? { commit } : {}), ...(email || name ? { owner: email ?? name } : {}) };
}

const DAY = 86_400_000;

/** Whole days from a YYYY-MM-DD (or ISO) date to now; undefined when unreadable. */
export function ageDays(date: string | undefined, now: Date): number | undefined {
  if (!date) return undefined;
  const t = Date.parse(date.length === 10 ? `${date}T00:00:00Z` : date);
  return Number.isNaN(t) ? undefined : Math.max(0, Math.floor((now.getTime() - t) / DAY));
}
