// @spec SPEC-STORE-001

import { closeSync, existsSync, openSync, readdirSync, readSync, renameSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { CtxError } from '../errors.js';
import { statOrUndefined, type StoreDb } from './db.js';
import { feedbackFor } from './feedback-repo.js';
import { JOURNAL_FILE } from './journal.js';
import { cleanPayloads } from './payloads.js';
import { staleWhenShown, type StaleWhenShown } from './markers-repo.js';
import type { Episode, EvidenceRef, FeedbackEntry, LaneRecord, SupportRef } from './types.js';

/*
 * The episodes table family (episodes, evidence, refs, and the journal offsets): ingesting
 * the append-only journal, retention, and reading episodes back.
 */

export interface IngestReport {
  ingested: number;
  /** journal lines that were not valid episodes (skipped, never fatal) */
  skipped: number;
  pruned: number;
}

export interface EpisodeFilter {
  /** ms since the epoch: episodes at or after */
  since?: number;
  /** repository-relative path (a folder matches what is under it) */
  place?: string;
  session?: string;
  limit?: number;
}

export interface EpisodeSummary {
  id: string;
  at: number;
  caller: Episode['caller'];
  commit?: string;
  dirty?: boolean;
  query: Episode['query'];
  ms?: number;
  evidence_count: number;
  feedback_count: number;
}

export interface EpisodeDetail extends Omit<Episode, 'evidence' | 'refs'> {
  /** the evidence, each artifact or task that a staleness run had judged not fresh (stale, moved, superseded) at the episode's commit with `stale` */
  evidence: (EvidenceRef & { stale?: StaleWhenShown })[];
  /** what framed or supported the answer: the place asked, code results were found through, commit, session, run, tool_call */
  refs: SupportRef[];
  feedback: FeedbackEntry[];
}

interface EpisodeRow {
  id: string;
  at: number;
  caller: string;
  session: string | null;
  command: string | null;
  commit_id: string | null;
  dirty: number | null;
  query_kind: string;
  query_text: string | null;
  place: string | null;
  ms: number | null;
  lanes: string;
}

const JOURNAL_NAME = /^journal(?:-(\d+))?\.jsonl$/;
/** a rotated journal is deleted once ingested and untouched this long (no writer can still hold it) */
const ROTATED_GRACE_MS = 60_000;

export function insertEpisodeRow(s: StoreDb, ep: Episode): boolean {
  const r = s.db
    .prepare('INSERT OR IGNORE INTO episodes (id, at, caller, session, command, commit_id, dirty, query_kind, query_text, place, ms, lanes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
    .run(
      ep.id,
      Math.floor(ep.at),
      ep.caller.kind,
      ep.caller.session ?? null,
      ep.caller.command ?? null,
      ep.commit ?? null,
      ep.dirty === undefined ? null : ep.dirty ? 1 : 0,
      ep.query.kind,
      ep.query.text ?? null,
      ep.query.place ?? null,
      ep.ms ?? null,
      encodeLanes(ep.lanes ?? []),
    );
  if (r.changes === 0) return false;
  const ins = s.db.prepare('INSERT OR IGNORE INTO evidence (episode, rank, kind, value, grounding, slot) VALUES (?, ?, ?, ?, ?, ?)');
  for (const ev of ep.evidence ?? []) ins.run(ep.id, ev.rank, ev.kind, ev.value, ev.grounding, ev.slot ?? null);
  if (ep.refs?.length) {
    const ref = s.db.prepare('INSERT OR IGNORE INTO refs (episode, n, role, kind, value, grounding, rank, of) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    ep.refs.forEach((r, n) => ref.run(ep.id, n, r.role, r.kind, r.value, r.grounding, r.rank, r.of ?? null));
  }
  return true;
}

/**
 * Move the journal's new lines into the database, in one write transaction that also
 * advances the ingested offsets: two processes ingesting at once serialize on the write
 * lock, so nothing is lost and nothing is inserted twice. Then apply retention.
 */
export function ingest(s: StoreDb): IngestReport {
  const report: IngestReport = { ingested: 0, skipped: 0, pruned: 0 };
  s.write(() => {
    const names = journalFiles(s.dir);
    for (const name of names) {
      const file = path.join(s.dir, name);
      const offset = Number(s.scalar('SELECT offset AS n FROM journal WHERE file = ?', 'n', name) ?? 0);
      const { text, consumed } = readFrom(file, offset);
      if (consumed === 0) continue;
      for (const line of text.split('\n')) {
        if (!line) continue;
        const ep = parseEpisodeLine(line);
        if (!ep) report.skipped++;
        else if (insertEpisodeRow(s, ep)) report.ingested++;
      }
      s.db.prepare('INSERT INTO journal (file, offset) VALUES (?, ?) ON CONFLICT(file) DO UPDATE SET offset = excluded.offset').run(name, offset + consumed);
    }
    rotateJournal(s);
    if (report.ingested > 0) report.pruned = pruneRows(s);
  });
  if (report.pruned > 0) {
    s.db.exec('PRAGMA incremental_vacuum');
    cleanPayloads(s.dir, payloadRefs(s), undefined, s.clock());
  }
  return report;
}

/** Hashes of the payloads (payloads.ts) stored episodes reference. */
export function payloadRefs(s: StoreDb): Set<string> {
  return new Set((s.db.prepare("SELECT DISTINCT value FROM refs WHERE kind = 'payload'").all() as { value: unknown }[]).map((r) => String(r.value)));
}

/** Under the write lock: rename a large, fully ingested active journal; delete old rotated ones. */
export function rotateJournal(s: StoreDb): void {
  const active = path.join(s.dir, JOURNAL_FILE);
  const offsetOf = (name: string) => Number(s.scalar('SELECT offset AS n FROM journal WHERE file = ?', 'n', name) ?? 0);
  for (const name of journalFiles(s.dir)) {
    if (name === JOURNAL_FILE) continue;
    const st = statOrUndefined(path.join(s.dir, name));
    if (!st) continue;
    if (offsetOf(name) >= st.size && s.clock() - st.mtimeMs > ROTATED_GRACE_MS) {
      unlinkSync(path.join(s.dir, name));
      s.db.prepare('DELETE FROM journal WHERE file = ?').run(name);
    }
  }
  const st = statOrUndefined(active);
  const off = offsetOf(JOURNAL_FILE);
  if (st && st.size >= s.rotateBytes && off >= st.size) {
    // a writer that opened the file before the rename appends to the rotated file, which is read again until it goes quiet
    const rotated = `journal-${s.clock()}.jsonl`;
    renameSync(active, path.join(s.dir, rotated));
    s.db.prepare('INSERT OR REPLACE INTO journal (file, offset) VALUES (?, ?)').run(rotated, off);
    s.db.prepare('DELETE FROM journal WHERE file = ?').run(JOURNAL_FILE);
  }
}

export function pruneRows(s: StoreDb): number {
  const cutoff = s.clock() - s.retention.max_age_days * 86_400_000;
  let n = s.db.prepare('DELETE FROM episodes WHERE at < ? AND id NOT IN (SELECT episode FROM feedback)').run(cutoff).changes;
  const total = Number(s.scalar('SELECT count(*) AS n FROM episodes'));
  if (total > s.retention.max_episodes) {
    n += s.db
      .prepare('DELETE FROM episodes WHERE id IN (SELECT id FROM episodes WHERE id NOT IN (SELECT episode FROM feedback) ORDER BY at ASC, id ASC LIMIT ?)')
      .run(total - s.retention.max_episodes).changes;
  }
  return n;
}

/** Episodes, newest first. */
export function listEpisodes(s: StoreDb, f: EpisodeFilter = {}): EpisodeSummary[] {
  const where: string[] = [];
  const params: unknown[] = [];
  if (f.since !== undefined) {
    where.push('e.at >= ?');
    params.push(Math.floor(f.since));
  }
  if (f.session !== undefined) {
    where.push('e.session = ?');
    params.push(f.session);
  }
  if (f.place !== undefined) {
    const p = f.place.replace(/\/+$/, '');
    // the place itself, anything under it, or an episode that returned it as evidence
    where.push("(e.place = ? OR substr(e.place, 1, ?) = ? OR e.id IN (SELECT episode FROM evidence WHERE kind = 'path' AND value = ?))");
    params.push(p, p.length + 1, `${p}/`, p);
  }
  const sql = `SELECT e.*, (SELECT count(*) FROM evidence v WHERE v.episode = e.id) AS evidence_count, (SELECT count(*) FROM feedback b WHERE b.episode = e.id) AS feedback_count
    FROM episodes e ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY e.at DESC, e.id DESC LIMIT ?`;
  params.push(f.limit ?? 50);
  return (s.db.prepare(sql).all(...params) as (EpisodeRow & { evidence_count: number; feedback_count: number })[]).map((r) => ({
    ...summaryOf(r),
    evidence_count: Number(r.evidence_count),
    feedback_count: Number(r.feedback_count),
  }));
}

/** The episode with this id or unique id prefix (at least 4 characters); undefined when none. Throws USAGE when the prefix is ambiguous. */
export function resolveEpisodeId(s: StoreDb, idOrPrefix: string): string | undefined {
  const exact = s.scalar('SELECT id AS n FROM episodes WHERE id = ?', 'n', idOrPrefix);
  if (exact !== undefined) return String(exact);
  if (idOrPrefix.length < 4 || !/^[0-9a-z]+$/.test(idOrPrefix)) return undefined;
  const rows = s.db.prepare('SELECT id FROM episodes WHERE id >= ? AND id < ? LIMIT 3').all(idOrPrefix, `${idOrPrefix}~`) as { id: string }[];
  if (rows.length > 1) throw new CtxError('USAGE', `episode id prefix ${idOrPrefix} is ambiguous (${rows.map((r) => r.id).join(', ')}…)`);
  return rows[0]?.id;
}

/** One episode with its evidence and feedback. */
export function getEpisode(db: StoreDb, idOrPrefix: string): EpisodeDetail | undefined {
  const id = resolveEpisodeId(db, idOrPrefix);
  if (!id) return undefined;
  const row = db.db.prepare('SELECT * FROM episodes WHERE id = ?').get(id) as EpisodeRow | undefined;
  if (!row) return undefined;
  const evidence = (db.db.prepare('SELECT rank, kind, value, grounding, slot FROM evidence WHERE episode = ? ORDER BY rank').all(id) as Record<string, unknown>[]).map(
    (r): EvidenceRef => ({ rank: Number(r.rank), kind: r.kind as EvidenceRef['kind'], value: String(r.value), grounding: r.grounding as EvidenceRef['grounding'], ...(r.slot == null ? {} : { slot: String(r.slot) }) }),
  );
  const s = summaryOf(row);
  const stale = staleWhenShown(db, evidence.filter((e) => e.kind === 'artifact' || e.kind === 'task').map((e) => e.value), s.at, s.commit);
  const refs = (db.db.prepare('SELECT role, kind, value, grounding, rank, of FROM refs WHERE episode = ? ORDER BY n').all(id) as Record<string, unknown>[]).map(
    (r): SupportRef => ({ role: r.role as SupportRef['role'], kind: r.kind as SupportRef['kind'], value: String(r.value), grounding: r.grounding as SupportRef['grounding'], rank: Number(r.rank), ...(r.of == null ? {} : { of: String(r.of) }) }),
  );
  // commit and session are the episode's own columns: resolved by git, given by the caller
  if (s.commit) refs.push({ role: 'context', kind: 'commit', value: s.commit, grounding: 'validated', rank: 0 });
  if (s.caller.session) refs.push({ role: 'context', kind: 'session', value: s.caller.session, grounding: 'loaded', rank: 0 });
  return { ...s, lanes: decodeLanes(row.lanes), refs, evidence: evidence.map((e) => (stale.has(e.value) && (e.kind === 'artifact' || e.kind === 'task') ? { ...e, stale: stale.get(e.value)! } : e)), feedback: feedbackFor(db, [id]) };
}

function summaryOf(r: EpisodeRow): Omit<EpisodeSummary, 'evidence_count' | 'feedback_count'> & { lanes?: never } {
  return {
    id: String(r.id),
    at: Number(r.at),
    caller: { kind: r.caller as Episode['caller']['kind'], ...(r.session == null ? {} : { session: String(r.session) }), ...(r.command == null ? {} : { command: String(r.command) }) },
    ...(r.commit_id == null ? {} : { commit: String(r.commit_id) }),
    ...(r.dirty == null ? {} : { dirty: Number(r.dirty) === 1 }),
    query: { kind: r.query_kind as Episode['query']['kind'], ...(r.query_text == null ? {} : { text: String(r.query_text) }), ...(r.place == null ? {} : { place: String(r.place) }) },
    ...(r.ms == null ? {} : { ms: Number(r.ms) }),
  };
}

/** Lanes as compact rows ([name, status, count, ms, message?]): they are most of an episode's bytes. */
export function encodeLanes(lanes: LaneRecord[]): string {
  return JSON.stringify(lanes.map((l) => (l.message ? [l.name, l.status, l.count, l.ms, l.message] : [l.name, l.status, l.count, l.ms])));
}

export function decodeLanes(text: string): LaneRecord[] {
  try {
    const rows = JSON.parse(text) as unknown[];
    return rows.map((r) => {
      if (!Array.isArray(r)) return r as LaneRecord;
      const [name, status, count, ms, message] = r as [string, string, number, number, string | undefined];
      return { name, status, count, ms, ...(message ? { message } : {}) };
    });
  } catch {
    return [];
  }
}

/** A journal line as an episode, or undefined when it is not one. */
export function parseEpisodeLine(line: string): Episode | undefined {
  try {
    const o = JSON.parse(line) as Partial<Episode> & { v?: number };
    if (typeof o.id !== 'string' || typeof o.at !== 'number' || !o.caller || !o.query || typeof o.query.kind !== 'string') return undefined;
    return { id: o.id, at: o.at, caller: o.caller, commit: o.commit, dirty: o.dirty, query: o.query, lanes: Array.isArray(o.lanes) ? o.lanes : [], evidence: Array.isArray(o.evidence) ? o.evidence : [], ...(Array.isArray(o.refs) && o.refs.length ? { refs: o.refs.filter(isSupportRef) } : {}), ms: o.ms };
  } catch {
    return undefined;
  }
}

function isSupportRef(r: unknown): r is SupportRef {
  const o = r as Partial<SupportRef> | null;
  return !!o && typeof o.role === 'string' && typeof o.kind === 'string' && typeof o.value === 'string' && typeof o.grounding === 'string' && typeof o.rank === 'number';
}

function journalFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => JOURNAL_NAME.test(n));
  } catch {
    return [];
  }
  // rotated (oldest first), then the active journal
  const num = (n: string) => Number(JOURNAL_NAME.exec(n)![1] ?? Number.MAX_SAFE_INTEGER);
  return names.sort((a, b) => num(a) - num(b));
}

/** The complete lines of `file` from `offset` (a line still being written is left for next time). */
function readFrom(file: string, offset: number): { text: string; consumed: number } {
  if (!existsSync(file)) return { text: '', consumed: 0 };
  const fd = openSync(file, 'r');
  try {
    const chunks: Buffer[] = [];
    let pos = offset;
    const buf = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n <= 0) break;
      chunks.push(Buffer.from(buf.subarray(0, n)));
      pos += n;
    }
    const all = Buffer.concat(chunks);
    const end = all.lastIndexOf(0x0a);
    if (end < 0) return { text: '', consumed: 0 };
    return { text: all.subarray(0, end + 1).toString('utf8'), consumed: end + 1 };
  } finally {
    closeSync(fd);
  }
}
