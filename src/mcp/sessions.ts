import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../util/atomic.js';
import { sha256 } from '../util/hash.js';

/** What one agent session has already received: artifact id → blob id of the content sent. */
export interface SessionRecord {
  version: 1;
  /** artifact id → git blob id of the file as it was sent */
  sent: Record<string, string>;
  /** ISO time of the last change */
  updated: string;
}

/**
 * Per-session memory under `<git-dir>/ctx/sessions/`, one JSON file per session named by
 * the sha256 of the session id (ids are client-chosen strings: hashing keeps them out of
 * file names). Writes go through writeFileAtomic (temp file, fsync, rename), so a crash
 * never leaves half a record, and a restarted server picks up where it left off.
 */
export class SessionStore {
  /** serialises read-modify-write per session inside this process */
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(readonly dir: string) {}

  /** The file that holds a session. */
  fileOf(sessionId: string): string {
    return path.join(this.dir, `${sha256(sessionId)}.json`);
  }

  /** The record of a session; empty when new, unreadable or of an unknown version. */
  async read(sessionId: string): Promise<SessionRecord> {
    const text = await readFile(this.fileOf(sessionId), 'utf8').catch(() => undefined);
    if (text !== undefined) {
      try {
        const data = JSON.parse(text) as Partial<SessionRecord>;
        if (data.version === 1 && data.sent && typeof data.sent === 'object') {
          const sent: Record<string, string> = {};
          for (const [k, v] of Object.entries(data.sent)) if (typeof v === 'string') sent[k] = v;
          return { version: 1, sent, updated: String(data.updated ?? '') };
        }
      } catch {
        // a corrupt record is treated as a fresh session: resending is safe, refusing is not
      }
    }
    return { version: 1, sent: {}, updated: '' };
  }

  /** Replace a session's record atomically. */
  async write(sessionId: string, record: SessionRecord): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const sorted = Object.fromEntries(Object.entries(record.sent).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    await writeFileAtomic(this.fileOf(sessionId), JSON.stringify({ version: 1, sent: sorted, updated: record.updated }, null, 2) + '\n');
  }

  /** Run a read-modify-write on one session with no other in between (in this process). */
  async update<T>(sessionId: string, fn: (record: SessionRecord) => Promise<{ record?: SessionRecord; result: T }>): Promise<T> {
    const prev = this.locks.get(sessionId) ?? Promise.resolve();
    const run = prev.catch(() => undefined).then(async () => {
      const out = await fn(await this.read(sessionId));
      if (out.record) await this.write(sessionId, { ...out.record, updated: new Date().toISOString() });
      return out.result;
    });
    this.locks.set(sessionId, run);
    try {
      return await run;
    } finally {
      if (this.locks.get(sessionId) === run) this.locks.delete(sessionId);
    }
  }
}
