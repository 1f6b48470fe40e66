// @spec SPEC-STORE-001

import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readSync, renameSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { CtxError } from '../errors.js';
import { loadDriver, type SqlDatabase } from './driver.js';
import { feedbackProfileFile, profileOf, writeFeedbackProfile } from './feedback-profile.js';
import { ingestMarkerJournal, markerProjectionFile, NOT_FRESH, writeMarkerProjection } from './marker-journal.js';
import { EVIDENCE_DIR, JOURNAL_FILE, evidenceDir } from './journal.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from './schema.js';
import type { Edge, Episode, EvidenceRef, FeedbackEntry, LaneRecord, Marker, StoredEdge, SupportRef, Verdict } from './types.js';

export const DB_FILE = 'evidence.db';

/** How long to keep episodes; episodes that received feedback are kept regardless (eval replays them). */
export interface Retention {
  max_episodes: number;
  max_age_days: number;
}
export const DEFAULT_RETENTION: Retention = { max_episodes: 100_000, max_age_days: 180 };

export interface StoreOptions {
  /** ms since the epoch; Date.now by default (tests inject one) */
  clock?: () => number;
  env?: NodeJS.ProcessEnv;
  retention?: Retention;
  /** ms to wait for another writer before giving up (default 15 s) */
  busyTimeoutMs?: number;
  /** rotate the journal past this many bytes (default 4 MiB) */
  rotateBytes?: number;
}

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

/** A staleness verdict in force when an episode showed a record: the latest marker at or before it, at its commit. */
export interface StaleWhenShown {
  verdict: string;
  /** ms since the epoch: when the staleness run judged it */
  at: number;
  commit?: string;
  /** what judged it: stale, check, pr, mcp */
  run: string;
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

const SQLITE_DAMAGED = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT']);
const JOURNAL_NAME = /^journal(?:-(\d+))?\.jsonl$/;
/** a rotated journal is deleted once ingested and untouched this long (no writer can still hold it) */
const ROTATED_GRACE_MS = 60_000;

/**
 * The evidence store: one SQLite file under `<git-dir>/ctx/evidence/` (DEC-005), WAL mode,
 * one writer at a time (write transactions are IMMEDIATE behind a busy timeout), versioned
 * migrations, and the append-only journal of episodes ingested on open. A damaged or
 * foreign file is moved aside (`evidence.db.corrupt-<time>`) and rebuilt, with a warning.
 */
export class Store {
  /** what happened on open that a front end should tell the user (a file moved aside) */
  readonly warnings: string[] = [];
  readonly file: string;
  readonly dir: string;
  private db!: SqlDatabase;
  private readonly clock: () => number;
  private readonly retention: Retention;
  private readonly rotateBytes: number;
  private depth = 0;

  private constructor(dir: string, opts: StoreOptions) {
    this.dir = dir;
    this.file = path.join(dir, DB_FILE);
    this.clock = opts.clock ?? Date.now;
    this.retention = opts.retention ?? DEFAULT_RETENTION;
    this.rotateBytes = opts.rotateBytes ?? 4 * 1024 * 1024;
  }

  /** Open (creating or migrating) the store of the repository at `root`. Throws CtxError STORE when SQLite cannot load. */
  static open(root: string, opts: StoreOptions = {}): Store {
    const dir = evidenceDir(root);
    if (!dir) throw new CtxError('NOT_A_REPO', 'the evidence store lives in the git directory, and none was found', { file: root });
    mkdirSync(dir, { recursive: true });
    const store = new Store(dir, opts);
    const Driver = loadDriver(opts.env);
    const timeout = opts.busyTimeoutMs ?? 15_000;
    const connect = () => {
      const db = new Driver(store.file, { timeout });
      try {
        db.exec(`PRAGMA busy_timeout = ${timeout}`);
        store.db = db;
        store.prepareSchema();
      } catch (e) {
        try {
          db.close();
        } catch {
          /* already unusable */
        }
        throw e;
      }
    };
    let rebuilt = false;
    try {
      connect();
    } catch (e) {
      const reason = damageOf(e);
      if (!reason) throw e;
      store.moveAside(reason);
      connect();
      rebuilt = true;
    }
    // the feedback ranking's projection: written with every feedback; made here when missing (a store from before it) or the store was rebuilt
    if (rebuilt || !existsSync(feedbackProfileFile(dir))) store.refreshFeedbackProfile();
    // impact's projection of the markers, likewise
    if (rebuilt || !existsSync(markerProjectionFile(dir))) store.refreshMarkerProjection();
    return store;
  }

  /** Rewrite the feedback profile (src/store/feedback-profile.ts) from the feedback table. */
  refreshFeedbackProfile(): void {
    writeFeedbackProfile(this.dir, profileOf(this.feedbackWithQueries()));
  }

  private prepareSchema(): void {
    const version = this.pragma('user_version');
    const appId = this.pragma('application_id');
    const tables = Number(this.scalar("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'"));
    if (appId !== APPLICATION_ID && (tables > 0 || version !== 0)) throw new ForeignFile(`not a git-ctx evidence store (application_id ${appId}, ${tables} tables)`);
    if (version > SCHEMA_VERSION) {
      throw new CtxError('STORE', `the evidence store has schema version ${version}, newer than this git-ctx knows (${SCHEMA_VERSION})`, {
        file: this.file,
        hint: 'upgrade git-ctx, or delete the file to start a new store (episodes and feedback in it are lost)',
      });
    }
    if (version === 0) {
      // set before any table exists: lets retention give pages back with incremental_vacuum
      this.db.exec('PRAGMA auto_vacuum = INCREMENTAL');
    }
    this.db.exec('PRAGMA journal_mode = WAL');
    this.db.exec('PRAGMA synchronous = NORMAL');
    this.db.exec('PRAGMA foreign_keys = ON');
    if (version < SCHEMA_VERSION) this.migrate();
  }

  /** Apply the missing migrations, each in one write transaction; a concurrent opener waits and then finds them applied. */
  private migrate(): void {
    this.write(() => {
      const from = this.pragma('user_version');
      for (let v = from; v < SCHEMA_VERSION; v++) this.db.exec(MIGRATIONS[v]!);
      if (from < SCHEMA_VERSION) {
        this.db.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
        this.db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
      }
    });
  }

  private moveAside(reason: string): void {
    const aside = `${this.file}.corrupt-${new Date(this.clock()).toISOString().replace(/[:.]/g, '-')}`;
    renameSync(this.file, aside);
    for (const ext of ['-wal', '-shm']) {
      try {
        unlinkSync(this.file + ext);
      } catch {
        /* absent */
      }
    }
    this.warnings.push(`${this.file}: ${reason}; moved aside to ${path.basename(aside)} and started a new store (the journal's episodes are ingested again)`);
  }

  get schemaVersion(): number {
    return this.pragma('user_version');
  }

  private pragma(name: string): number {
    return Number(this.scalar(`PRAGMA ${name}`, name));
  }

  private scalar(sql: string, column = 'n', ...params: unknown[]): unknown {
    const row = this.db.prepare(sql).get(...params) as Record<string, unknown> | undefined;
    return row?.[column];
  }

  /** Run `fn` as one write transaction; BEGIN IMMEDIATE takes the single writer lock up front, waiting behind busy_timeout. */
  write<T>(fn: () => T): T {
    if (this.db.inTransaction) {
      // nested: a savepoint inside the transaction that already holds the lock
      const name = `w${++this.depth}`;
      this.db.exec(`SAVEPOINT ${name}`);
      try {
        const out = fn();
        this.db.exec(`RELEASE ${name}`);
        return out;
      } catch (e) {
        this.db.exec(`ROLLBACK TO ${name}`);
        this.db.exec(`RELEASE ${name}`);
        throw e;
      } finally {
        this.depth--;
      }
    }
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const out = fn();
      this.db.exec('COMMIT');
      return out;
    } catch (e) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw e;
    }
  }

  close(): void {
    try {
      // leave the main file self-contained: a copy of it, or a check of it, needs no -wal beside it
      this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } catch {
      /* another connection is busy; its close checkpoints */
    }
    try {
      this.db.close();
    } catch {
      /* closed */
    }
  }

  // ── episodes ────────────────────────────────────────────────────────────────

  /** Insert one episode (ignored when its id is already stored). Returns whether it was new. */
  insertEpisode(ep: Episode): boolean {
    return this.write(() => this.insertEpisodeRow(ep));
  }

  private insertEpisodeRow(ep: Episode): boolean {
    const r = this.db
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
    const ins = this.db.prepare('INSERT OR IGNORE INTO evidence (episode, rank, kind, value, grounding, slot) VALUES (?, ?, ?, ?, ?, ?)');
    for (const ev of ep.evidence ?? []) ins.run(ep.id, ev.rank, ev.kind, ev.value, ev.grounding, ev.slot ?? null);
    if (ep.refs?.length) {
      const ref = this.db.prepare('INSERT OR IGNORE INTO refs (episode, n, role, kind, value, grounding, rank, of) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
      ep.refs.forEach((r, n) => ref.run(ep.id, n, r.role, r.kind, r.value, r.grounding, r.rank, r.of ?? null));
    }
    return true;
  }

  /**
   * Move the journal's new lines into the database, in one write transaction that also
   * advances the ingested offsets: two processes ingesting at once serialize on the write
   * lock, so nothing is lost and nothing is inserted twice. Then apply retention.
   */
  ingest(): IngestReport {
    const report: IngestReport = { ingested: 0, skipped: 0, pruned: 0 };
    this.write(() => {
      const names = journalFiles(this.dir);
      for (const name of names) {
        const file = path.join(this.dir, name);
        const offset = Number(this.scalar('SELECT offset AS n FROM journal WHERE file = ?', 'n', name) ?? 0);
        const { text, consumed } = readFrom(file, offset);
        if (consumed === 0) continue;
        for (const line of text.split('\n')) {
          if (!line) continue;
          const ep = parseEpisodeLine(line);
          if (!ep) report.skipped++;
          else if (this.insertEpisodeRow(ep)) report.ingested++;
        }
        this.db.prepare('INSERT INTO journal (file, offset) VALUES (?, ?) ON CONFLICT(file) DO UPDATE SET offset = excluded.offset').run(name, offset + consumed);
      }
      this.rotateJournal();
      if (report.ingested > 0) report.pruned = this.pruneRows();
    });
    if (report.pruned > 0) this.db.exec('PRAGMA incremental_vacuum');
    return report;
  }

  /** Under the write lock: rename a large, fully ingested active journal; delete old rotated ones. */
  private rotateJournal(): void {
    const active = path.join(this.dir, JOURNAL_FILE);
    const offsetOf = (name: string) => Number(this.scalar('SELECT offset AS n FROM journal WHERE file = ?', 'n', name) ?? 0);
    for (const name of journalFiles(this.dir)) {
      if (name === JOURNAL_FILE) continue;
      const st = statOrUndefined(path.join(this.dir, name));
      if (!st) continue;
      if (offsetOf(name) >= st.size && this.clock() - st.mtimeMs > ROTATED_GRACE_MS) {
        unlinkSync(path.join(this.dir, name));
        this.db.prepare('DELETE FROM journal WHERE file = ?').run(name);
      }
    }
    const st = statOrUndefined(active);
    const off = offsetOf(JOURNAL_FILE);
    if (st && st.size >= this.rotateBytes && off >= st.size) {
      // a writer that opened the file before the rename appends to the rotated file, which is read again until it goes quiet
      const rotated = `journal-${this.clock()}.jsonl`;
      renameSync(active, path.join(this.dir, rotated));
      this.db.prepare('INSERT OR REPLACE INTO journal (file, offset) VALUES (?, ?)').run(rotated, off);
      this.db.prepare('DELETE FROM journal WHERE file = ?').run(JOURNAL_FILE);
    }
  }

  /** Delete episodes past the retention (by age, then by count), keeping those with feedback. Returns how many went. */
  prune(): number {
    const n = this.write(() => this.pruneRows());
    if (n > 0) this.db.exec('PRAGMA incremental_vacuum');
    return n;
  }

  private pruneRows(): number {
    const cutoff = this.clock() - this.retention.max_age_days * 86_400_000;
    let n = this.db.prepare('DELETE FROM episodes WHERE at < ? AND id NOT IN (SELECT episode FROM feedback)').run(cutoff).changes;
    const total = Number(this.scalar('SELECT count(*) AS n FROM episodes'));
    if (total > this.retention.max_episodes) {
      n += this.db
        .prepare('DELETE FROM episodes WHERE id IN (SELECT id FROM episodes WHERE id NOT IN (SELECT episode FROM feedback) ORDER BY at ASC, id ASC LIMIT ?)')
        .run(total - this.retention.max_episodes).changes;
    }
    return n;
  }

  /** Episodes, newest first. */
  listEpisodes(f: EpisodeFilter = {}): EpisodeSummary[] {
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
    return (this.db.prepare(sql).all(...params) as (EpisodeRow & { evidence_count: number; feedback_count: number })[]).map((r) => ({
      ...summaryOf(r),
      evidence_count: Number(r.evidence_count),
      feedback_count: Number(r.feedback_count),
    }));
  }

  /** The episode with this id or unique id prefix (at least 4 characters); undefined when none. Throws USAGE when the prefix is ambiguous. */
  resolveEpisodeId(idOrPrefix: string): string | undefined {
    const exact = this.scalar('SELECT id AS n FROM episodes WHERE id = ?', 'n', idOrPrefix);
    if (exact !== undefined) return String(exact);
    if (idOrPrefix.length < 4 || !/^[0-9a-z]+$/.test(idOrPrefix)) return undefined;
    const rows = this.db.prepare('SELECT id FROM episodes WHERE id >= ? AND id < ? LIMIT 3').all(idOrPrefix, `${idOrPrefix}~`) as { id: string }[];
    if (rows.length > 1) throw new CtxError('USAGE', `episode id prefix ${idOrPrefix} is ambiguous (${rows.map((r) => r.id).join(', ')}…)`);
    return rows[0]?.id;
  }

  /** One episode with its evidence and feedback. */
  getEpisode(idOrPrefix: string): EpisodeDetail | undefined {
    const id = this.resolveEpisodeId(idOrPrefix);
    if (!id) return undefined;
    const row = this.db.prepare('SELECT * FROM episodes WHERE id = ?').get(id) as EpisodeRow | undefined;
    if (!row) return undefined;
    const evidence = (this.db.prepare('SELECT rank, kind, value, grounding, slot FROM evidence WHERE episode = ? ORDER BY rank').all(id) as Record<string, unknown>[]).map(
      (r): EvidenceRef => ({ rank: Number(r.rank), kind: r.kind as EvidenceRef['kind'], value: String(r.value), grounding: r.grounding as EvidenceRef['grounding'], ...(r.slot == null ? {} : { slot: String(r.slot) }) }),
    );
    const s = summaryOf(row);
    const stale = this.staleWhenShown(evidence.filter((e) => e.kind === 'artifact' || e.kind === 'task').map((e) => e.value), s.at, s.commit);
    const refs = (this.db.prepare('SELECT role, kind, value, grounding, rank, of FROM refs WHERE episode = ? ORDER BY n').all(id) as Record<string, unknown>[]).map(
      (r): SupportRef => ({ role: r.role as SupportRef['role'], kind: r.kind as SupportRef['kind'], value: String(r.value), grounding: r.grounding as SupportRef['grounding'], rank: Number(r.rank), ...(r.of == null ? {} : { of: String(r.of) }) }),
    );
    // commit and session are the episode's own columns: resolved by git, given by the caller
    if (s.commit) refs.push({ role: 'context', kind: 'commit', value: s.commit, grounding: 'validated', rank: 0 });
    if (s.caller.session) refs.push({ role: 'context', kind: 'session', value: s.caller.session, grounding: 'loaded', rank: 0 });
    return { ...s, lanes: decodeLanes(row.lanes), refs, evidence: evidence.map((e) => (stale.has(e.value) && (e.kind === 'artifact' || e.kind === 'task') ? { ...e, stale: stale.get(e.value)! } : e)), feedback: this.feedbackFor([id]) };
  }

  /**
   * Of these artifacts, those whose latest artifact-level marker at or before `at` (and at
   * `commit`, when known) says not fresh: what an episode showed that was stale when shown.
   */
  staleWhenShown(artifacts: string[], at: number, commit: string | undefined): Map<string, StaleWhenShown> {
    const out = new Map<string, StaleWhenShown>();
    if (!artifacts.length) return out;
    const stmt = this.db.prepare(
      `SELECT verdict, commit_id, at, run FROM markers WHERE artifact = ? AND anchor = '' AND at <= ?${commit ? ' AND commit_id = ?' : ''} ORDER BY at DESC, rowid DESC LIMIT 1`,
    );
    for (const a of new Set(artifacts)) {
      const r = (commit ? stmt.get(a, Math.floor(at), commit) : stmt.get(a, Math.floor(at))) as Record<string, unknown> | undefined;
      if (!r || !NOT_FRESH.has(String(r.verdict))) continue;
      out.set(a, { verdict: String(r.verdict), at: Number(r.at), ...(r.commit_id == null ? {} : { commit: String(r.commit_id) }), run: String(r.run) });
    }
    return out;
  }

  // ── feedback ────────────────────────────────────────────────────────────────

  /**
   * Append feedback to an episode. Throws UNKNOWN_ID naming the episode when it is not
   * stored (after ingesting the journal). Returns the stored entries.
   */
  addFeedback(episode: string, items: { verdict: Verdict; ref: string }[], opts: { note?: string; source?: string } = {}): FeedbackEntry[] {
    const id = this.resolveEpisodeId(episode);
    if (!id) throw new CtxError('UNKNOWN_ID', `no episode ${episode} in the evidence store`, { hint: 'list episodes with `git ctx episodes`' });
    const at = this.clock();
    const source = opts.source ?? 'cli';
    const list = items;
    if (!list.length) throw new CtxError('USAGE', 'feedback needs at least one judged reference (useful, not-useful or missing)');
    return this.write(() => {
      const ins = this.db.prepare('INSERT INTO feedback (episode, at, verdict, ref, note, source) VALUES (?, ?, ?, ?, ?, ?)');
      const out: FeedbackEntry[] = [];
      for (const it of list) {
        const r = ins.run(id, at, it.verdict, it.ref, opts.note ?? null, source);
        out.push({ id: Number(r.lastInsertRowid), episode: id, at, verdict: it.verdict, ref: it.ref, ...(opts.note ? { note: opts.note } : {}), source });
      }
      // under the write lock: the last profile written by concurrent writers holds every vote
      this.refreshFeedbackProfile();
      return out;
    });
  }

  /** Feedback, oldest first; for the given episodes, or all. */
  feedbackFor(episodes?: string[]): FeedbackEntry[] {
    const rows = (
      episodes
        ? episodes.flatMap((e) => this.db.prepare('SELECT * FROM feedback WHERE episode = ? ORDER BY id').all(e))
        : this.db.prepare('SELECT * FROM feedback ORDER BY id').all()
    ) as Record<string, unknown>[];
    return rows.map(feedbackOf);
  }

  /**
   * Every feedback entry with the query of its episode, oldest first, in one statement: what
   * feedback ranking learns from (src/store/feedback-profile.ts).
   */
  feedbackWithQueries(): (FeedbackEntry & { query: Episode['query'] })[] {
    const rows = this.db
      .prepare('SELECT f.*, e.query_kind, e.query_text, e.place FROM feedback f JOIN episodes e ON e.id = f.episode ORDER BY f.id')
      .all() as Record<string, unknown>[];
    return rows.map((r) => ({
      ...feedbackOf(r),
      query: { kind: r.query_kind as Episode['query']['kind'], ...(r.query_text == null ? {} : { text: String(r.query_text) }), ...(r.place == null ? {} : { place: String(r.place) }) },
    }));
  }

  // ── impact edges (computed by src/impact; stored here) ──────────────────────

  /** The content hash the edges of `origin` were computed from, or undefined when never stored. */
  edgeSourceHash(origin: string): string | undefined {
    const h = this.scalar('SELECT hash AS n FROM edge_sources WHERE origin = ?', 'n', origin);
    return h === undefined ? undefined : String(h);
  }

  /** Replace every edge of `origin` with `edges`, remembering `hash`, in one transaction. */
  replaceEdges(origin: string, hash: string, edges: Edge[]): void {
    this.write(() => {
      this.db.prepare('DELETE FROM edges WHERE origin = ?').run(origin);
      const ins = this.db.prepare('INSERT OR REPLACE INTO edges (src_kind, src, dst_kind, dst, kind, origin) VALUES (?, ?, ?, ?, ?, ?)');
      for (const e of edges) ins.run(e.src_kind, e.src, e.dst_kind, e.dst, e.kind, origin);
      this.db.prepare('INSERT INTO edge_sources (origin, hash) VALUES (?, ?) ON CONFLICT(origin) DO UPDATE SET hash = excluded.hash').run(origin, hash);
    });
  }

  /** Forget origins no longer present (a deleted record or file), with their edges. */
  removeEdgeSources(origins: string[]): void {
    this.write(() => {
      for (const o of origins) {
        this.db.prepare('DELETE FROM edges WHERE origin = ?').run(o);
        this.db.prepare('DELETE FROM edge_sources WHERE origin = ?').run(o);
      }
    });
  }

  /** How many edges are stored (one count, not stats(): the evidence table of a large store is slow to count). */
  edgeCount(): number {
    return Number(this.scalar('SELECT count(*) AS n FROM edges'));
  }

  /** Every origin with stored edges. */
  edgeOrigins(): string[] {
    return (this.db.prepare('SELECT origin FROM edge_sources ORDER BY origin').all() as { origin: string }[]).map((r) => String(r.origin));
  }

  /** Edges leaving (kind, id): forward impact. */
  edgesFrom(kind: string, id: string): StoredEdge[] {
    return (this.db.prepare('SELECT src_kind, src, dst_kind, dst, kind, origin FROM edges WHERE src_kind = ? AND src = ? ORDER BY dst_kind, dst, kind').all(kind, id) as Record<string, unknown>[]).map(edgeOf);
  }

  /** Edges arriving at (kind, id): reverse impact. */
  edgesTo(kind: string, id: string): StoredEdge[] {
    return (this.db.prepare('SELECT src_kind, src, dst_kind, dst, kind, origin FROM edges WHERE dst_kind = ? AND dst = ? ORDER BY src_kind, src, kind').all(kind, id) as Record<string, unknown>[]).map(edgeOf);
  }

  // ── staleness markers (recorded by staleness runs) ──────────────────────────

  /** Append markers (one staleness run's verdicts), in one transaction. */
  recordMarkers(list: Marker[]): void {
    const at = this.clock();
    this.write(() => {
      const ins = this.db.prepare('INSERT INTO markers (artifact, anchor, verdict, commit_id, dirty, at, run) VALUES (?, ?, ?, ?, ?, ?, ?)');
      for (const m of list) ins.run(m.artifact, m.anchor, m.verdict, m.commit ?? null, m.dirty ? 1 : 0, Math.floor(m.at ?? at), m.run);
      // under the write lock, as the feedback profile: the last projection written holds every marker
      this.refreshMarkerProjection();
    });
  }

  /** Rewrite the projection of the latest record-level markers (src/store/marker-journal.ts) from the markers table. */
  refreshMarkerProjection(): void {
    const rows = this.db
      .prepare(`SELECT artifact, verdict, commit_id, at FROM (SELECT artifact, verdict, commit_id, at, row_number() OVER (PARTITION BY artifact ORDER BY at DESC, rowid DESC) AS n FROM markers WHERE anchor = '') WHERE n = 1 ORDER BY artifact`)
      .all() as Record<string, unknown>[];
    writeMarkerProjection(this.dir, rows.map((r) => ({ artifact: String(r.artifact), anchor: '', verdict: String(r.verdict), ...(r.commit_id == null ? {} : { commit: String(r.commit_id) }), at: Number(r.at), run: '' })));
  }

  /** The latest marker of each (artifact, anchor) for these artifacts (all artifacts when omitted). */
  latestMarkers(artifactIds?: string[]): Marker[] {
    const sql = `SELECT artifact, anchor, verdict, commit_id, dirty, at, run FROM markers m
      WHERE rowid = (SELECT rowid FROM markers x WHERE x.artifact = m.artifact AND x.anchor = m.anchor ORDER BY at DESC, rowid DESC LIMIT 1)`;
    const rows = (
      artifactIds
        ? ((stmt) => artifactIds.flatMap((a) => stmt.all(a)))(this.db.prepare(`${sql} AND artifact = ? ORDER BY anchor`))
        : this.db.prepare(`${sql} ORDER BY artifact, anchor`).all()
    ) as Record<string, unknown>[];
    return rows.map((r) => ({
      artifact: String(r.artifact),
      anchor: String(r.anchor),
      verdict: String(r.verdict),
      ...(r.commit_id == null ? {} : { commit: String(r.commit_id) }),
      dirty: Number(r.dirty) === 1,
      at: Number(r.at),
      run: String(r.run),
    }));
  }

  /** Row counts and file size, for `episodes --stats` and the benchmarks. */
  stats(): { episodes: number; evidence: number; feedback: number; edges: number; markers: number; bytes: number } {
    const c = (t: string) => Number(this.scalar(`SELECT count(*) AS n FROM ${t}`));
    let bytes = 0;
    for (const ext of ['', '-wal']) bytes += statOrUndefined(this.file + ext)?.size ?? 0;
    return { episodes: c('episodes'), evidence: c('evidence'), feedback: c('feedback'), edges: c('edges'), markers: c('markers'), bytes };
  }
}

class ForeignFile extends Error {}

function damageOf(e: unknown): string | undefined {
  if (e instanceof ForeignFile) return e.message;
  const code = (e as { code?: string }).code;
  if (code && SQLITE_DAMAGED.has(code)) return `damaged (${(e as Error).message})`;
  return undefined;
}

function edgeOf(r: Record<string, unknown>): StoredEdge {
  return { src_kind: String(r.src_kind), src: String(r.src), dst_kind: String(r.dst_kind), dst: String(r.dst), kind: String(r.kind), origin: String(r.origin) };
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

function statOrUndefined(file: string): { size: number; mtimeMs: number } | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/** Open the store and ingest the journal: what every store command starts with. */
export function openStore(root: string, opts: StoreOptions = {}): Store & { lastIngest: IngestReport } {
  const store = Store.open(root, opts) as Store & { lastIngest: IngestReport };
  store.lastIngest = store.ingest();
  try {
    // staleness verdicts too: episodes says what was stale when shown, impact what is stale now
    ingestMarkerJournal(store, root);
  } catch {
    // the markers stay in their journal for the next run
  }
  return store;
}

export { EVIDENCE_DIR };

/** A feedback row as the API returns it. */
function feedbackOf(r: Record<string, unknown>): FeedbackEntry {
  return {
    id: Number(r.id),
    episode: String(r.episode),
    at: Number(r.at),
    verdict: r.verdict as Verdict,
    ref: String(r.ref),
    ...(r.note == null ? {} : { note: String(r.note) }),
    source: String(r.source),
  };
}
