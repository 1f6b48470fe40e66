// @spec SPEC-STORE-001

/**
 * Schema migrations, in order; `PRAGMA user_version` is the number applied. Never edit a
 * released step: add one. Each runs in its own transaction with the version bump.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: episodes, their evidence, feedback
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE episodes (
     id TEXT PRIMARY KEY,
     at INTEGER NOT NULL,
     caller TEXT NOT NULL,
     session TEXT,
     command TEXT,
     commit_id TEXT,
     dirty INTEGER,
     query_kind TEXT NOT NULL,
     query_text TEXT,
     place TEXT,
     ms REAL,
     lanes TEXT NOT NULL DEFAULT '[]'
   ) WITHOUT ROWID;
   CREATE INDEX episodes_at ON episodes(at);
   CREATE INDEX episodes_place ON episodes(place, at);
   CREATE INDEX episodes_session ON episodes(session, at);
   CREATE TABLE evidence (
     episode TEXT NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
     rank INTEGER NOT NULL,
     kind TEXT NOT NULL,
     value TEXT NOT NULL,
     grounding TEXT NOT NULL,
     slot TEXT,
     PRIMARY KEY (episode, rank)
   ) WITHOUT ROWID;
   CREATE INDEX evidence_path ON evidence(value) WHERE kind = 'path';
   CREATE TABLE feedback (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     episode TEXT NOT NULL,
     at INTEGER NOT NULL,
     verdict TEXT NOT NULL CHECK (verdict IN ('useful', 'not-useful', 'missing')),
     ref TEXT NOT NULL,
     note TEXT,
     source TEXT NOT NULL
   );
   CREATE INDEX feedback_episode ON feedback(episode);
   CREATE TRIGGER feedback_append_only_u BEFORE UPDATE ON feedback BEGIN SELECT RAISE(ABORT, 'feedback is append-only'); END;
   CREATE TRIGGER feedback_append_only_d BEFORE DELETE ON feedback BEGIN SELECT RAISE(ABORT, 'feedback is append-only'); END;
   CREATE TRIGGER episodes_append_only BEFORE UPDATE ON episodes BEGIN SELECT RAISE(ABORT, 'episodes are append-only'); END;`,
  // 2: the journal's ingested offsets, impact edges (refreshed per origin by content hash), staleness markers
  `CREATE TABLE journal (file TEXT PRIMARY KEY, offset INTEGER NOT NULL);
   CREATE TABLE edges (
     src_kind TEXT NOT NULL, src TEXT NOT NULL,
     dst_kind TEXT NOT NULL, dst TEXT NOT NULL,
     kind TEXT NOT NULL,
     origin TEXT NOT NULL,
     PRIMARY KEY (src_kind, src, dst_kind, dst, kind)
   ) WITHOUT ROWID;
   CREATE INDEX edges_dst ON edges(dst_kind, dst);
   CREATE INDEX edges_origin ON edges(origin);
   CREATE TABLE edge_sources (origin TEXT PRIMARY KEY, hash TEXT NOT NULL);
   CREATE TABLE markers (
     artifact TEXT NOT NULL,
     anchor TEXT NOT NULL,
     verdict TEXT NOT NULL,
     commit_id TEXT,
     dirty INTEGER NOT NULL DEFAULT 0,
     at INTEGER NOT NULL,
     run TEXT NOT NULL
   );
   CREATE INDEX markers_artifact ON markers(artifact, anchor, at);`,
  // 3: references that frame or support an answer (the place asked, code a result was found through, run, tool_call)
  `CREATE TABLE refs (
     episode TEXT NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
     n INTEGER NOT NULL,
     role TEXT NOT NULL,
     kind TEXT NOT NULL,
     value TEXT NOT NULL,
     grounding TEXT NOT NULL,
     rank INTEGER NOT NULL,
     of TEXT,
     PRIMARY KEY (episode, n)
   ) WITHOUT ROWID;`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** `PRAGMA application_id` of a git-ctx evidence store ("gctx"): anything else is a foreign file. */
export const APPLICATION_ID = 0x67637478;
