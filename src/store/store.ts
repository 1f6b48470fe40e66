// @spec SPEC-STORE-001

import { existsSync, mkdirSync, renameSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { CtxError } from '../errors.js';
import { DEFAULT_RETENTION, statOrUndefined, type Retention, type StoreDb } from './db.js';
import { loadDriver, type SqlDatabase } from './driver.js';
import * as edges from './edges-repo.js';
import * as episodes from './episodes-repo.js';
import { cleanPayloads as cleanPayloadFiles } from './payloads.js';
import type { EpisodeDetail, EpisodeFilter, EpisodeSummary, IngestReport } from './episodes-repo.js';
import * as feedback from './feedback-repo.js';
import { feedbackProfileFile } from './feedback-profile.js';
import { ingestMarkerJournal, markerProjectionFile } from './marker-journal.js';
import * as markers from './markers-repo.js';
import type { StaleWhenShown } from './markers-repo.js';
import { EVIDENCE_DIR, evidenceDir } from './journal.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from './schema.js';
import type { Edge, Episode, FeedbackEntry, Marker, StoredEdge, Verdict } from './types.js';

export { DEFAULT_RETENTION, type Retention } from './db.js';
export { decodeLanes, encodeLanes, parseEpisodeLine, type EpisodeDetail, type EpisodeFilter, type EpisodeSummary, type IngestReport } from './episodes-repo.js';
export type { StaleWhenShown } from './markers-repo.js';

export const DB_FILE = 'evidence.db';

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

const SQLITE_DAMAGED = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT']);

/**
 * The evidence store: one SQLite file under `<git-dir>/ctx/evidence/` (DEC-005), WAL mode,
 * one writer at a time (write transactions are IMMEDIATE behind a busy timeout), versioned
 * migrations, and the append-only journal of episodes ingested on open. A damaged or
 * foreign file is moved aside (`evidence.db.corrupt-<time>`) and rebuilt, with a warning.
 * The Store is the database; each table family has its repository (episodes-repo.ts,
 * feedback-repo.ts, edges-repo.ts, markers-repo.ts), which the methods below hand the
 * connection to.
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
  /** what the table families' repositories see of this database */
  private readonly conn: StoreDb;
  private busyTimeoutMs = 15_000;

  private constructor(dir: string, opts: StoreOptions) {
    this.dir = dir;
    this.file = path.join(dir, DB_FILE);
    this.clock = opts.clock ?? Date.now;
    this.retention = opts.retention ?? DEFAULT_RETENTION;
    this.rotateBytes = opts.rotateBytes ?? 4 * 1024 * 1024;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the connection is opened after construction; the view reads it when used
    const store = this;
    this.conn = {
      get db() {
        return store.db;
      },
      dir,
      retention: this.retention,
      rotateBytes: this.rotateBytes,
      clock: this.clock,
      write: (fn) => this.write(fn),
      scalar: (sql, column, ...params) => this.scalar(sql, column, ...params),
    };
  }

  /** Open (creating or migrating) the store of the repository at `root`. Throws CtxError STORE when SQLite cannot load. */
  static open(root: string, opts: StoreOptions = {}): Store {
    const dir = evidenceDir(root);
    if (!dir) throw new CtxError('NOT_A_REPO', 'the evidence store lives in the git directory, and none was found', { file: root });
    mkdirSync(dir, { recursive: true });
    const store = new Store(dir, opts);
    const Driver = loadDriver(opts.env);
    const timeout = opts.busyTimeoutMs ?? 15_000;
    store.busyTimeoutMs = timeout;
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

  private prepareSchema(): void {
    // one read snapshot for the three: read one statement at a time, another process's first
    // migration could commit between them (no application id yet, then its tables), and the
    // store it had just made would be taken for a foreign file and moved aside, with its rows
    this.db.exec('BEGIN');
    let version: number, appId: number, tables: number;
    try {
      version = this.pragma('user_version');
      appId = this.pragma('application_id');
      tables = Number(this.scalar("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'"));
    } finally {
      this.db.exec('COMMIT');
    }
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
    this.switchToWal();
    this.db.exec('PRAGMA synchronous = NORMAL');
    this.db.exec('PRAGMA foreign_keys = ON');
    if (version < SCHEMA_VERSION) this.migrate();
  }

  /**
   * WAL mode, once per database file (it persists). Switching needs every other connection out
   * of the file for a moment, and SQLite answers SQLITE_BUSY at once, without the busy timeout,
   * when a second opener holds it: wait and retry within the same timeout, as a write would.
   */
  private switchToWal(): void {
    const until = Date.now() + this.busyTimeoutMs;
    for (;;) {
      try {
        this.db.exec('PRAGMA journal_mode = WAL');
        return;
      } catch (e) {
        if ((e as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() >= until) throw e;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5 + Math.floor(Math.random() * 20));
      }
    }
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

  // -- the table families: one repository each ---------------------------------

  /** Insert one episode (ignored when its id is already stored). Returns whether it was new. */
  insertEpisode(ep: Episode): boolean {
    return this.write(() => episodes.insertEpisodeRow(this.conn, ep));
  }

  /** Move the journal's new lines into the database, then apply retention (episodes-repo.ts). */
  ingest(): IngestReport {
    return episodes.ingest(this.conn);
  }

  /** Delete episodes past the retention (by age, then by count), keeping those with feedback. Returns how many went. */
  prune(): number {
    const n = this.write(() => episodes.pruneRows(this.conn));
    if (n > 0) this.db.exec('PRAGMA incremental_vacuum');
    this.cleanPayloads();
    return n;
  }

  /** Delete stored payloads (payloads.ts) no episode references, after ingesting the journal so none is missed. */
  cleanPayloads(graceMs?: number): string[] {
    this.ingest();
    return cleanPayloadFiles(this.dir, episodes.payloadRefs(this.conn), graceMs, this.clock());
  }

  listEpisodes(f: EpisodeFilter = {}): EpisodeSummary[] {
    return episodes.listEpisodes(this.conn, f);
  }

  resolveEpisodeId(idOrPrefix: string): string | undefined {
    return episodes.resolveEpisodeId(this.conn, idOrPrefix);
  }

  getEpisode(idOrPrefix: string): EpisodeDetail | undefined {
    return episodes.getEpisode(this.conn, idOrPrefix);
  }

  staleWhenShown(artifacts: string[], at: number, commit: string | undefined): Map<string, StaleWhenShown> {
    return markers.staleWhenShown(this.conn, artifacts, at, commit);
  }

  addFeedback(episode: string, items: { verdict: Verdict; ref: string }[], opts: { note?: string; source?: string } = {}): FeedbackEntry[] {
    return feedback.addFeedback(this.conn, episode, items, opts);
  }

  feedbackFor(episodes?: string[]): FeedbackEntry[] {
    return feedback.feedbackFor(this.conn, episodes);
  }

  feedbackWithQueries(): (FeedbackEntry & { query: Episode['query'] })[] {
    return feedback.feedbackWithQueries(this.conn);
  }

  /** Rewrite the feedback profile (src/store/feedback-profile.ts) from the feedback table. */
  refreshFeedbackProfile(): void {
    feedback.refreshFeedbackProfile(this.conn);
  }

  edgeSourceHash(origin: string): string | undefined {
    return edges.edgeSourceHash(this.conn, origin);
  }

  replaceEdges(origin: string, hash: string, list: Edge[]): void {
    edges.replaceEdges(this.conn, origin, hash, list);
  }

  removeEdgeSources(origins: string[]): void {
    edges.removeEdgeSources(this.conn, origins);
  }

  edgeCount(): number {
    return edges.edgeCount(this.conn);
  }

  edgeOrigins(): string[] {
    return edges.edgeOrigins(this.conn);
  }

  edgesFrom(kind: string, id: string): StoredEdge[] {
    return edges.edgesFrom(this.conn, kind, id);
  }

  edgesTo(kind: string, id: string): StoredEdge[] {
    return edges.edgesTo(this.conn, kind, id);
  }

  recordMarkers(list: Marker[]): void {
    markers.recordMarkers(this.conn, list);
  }

  /** Rewrite the projection of the latest record-level markers (src/store/marker-journal.ts) from the markers table. */
  refreshMarkerProjection(): void {
    markers.refreshMarkerProjection(this.conn);
  }

  latestMarkers(artifactIds?: string[]): Marker[] {
    return markers.latestMarkers(this.conn, artifactIds);
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
