import { createRequire } from 'node:module';
import { appendFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo } from '../helpers/git-repo.js';
import { Store, openStore } from '../../src/store/store.js';
import { appendEpisode, evidenceDir } from '../../src/store/journal.js';
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from '../../src/store/schema.js';
import type { Episode } from '../../src/store/types.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 1, 12, 0, 0);

function clockAt(start = T0) {
  let now = start;
  const clock = () => now;
  return Object.assign(clock, { advance: (ms: number) => (now += ms) });
}

function episode(id: string, at: number, extra: Partial<Episode> = {}): Episode {
  return {
    id,
    at,
    caller: { kind: 'cli', command: 'for' },
    commit: 'a'.repeat(40),
    dirty: false,
    query: { kind: 'place', text: 'src/a.ts', place: 'src/a.ts' },
    lanes: [{ name: 'declared', status: 'ok', count: 1, ms: 1.5 }],
    evidence: [
      { kind: 'artifact', value: 'DEC-001', grounding: 'indexed', rank: 1, slot: 'declared' },
      { kind: 'path', value: 'src/a.ts', grounding: 'loaded', rank: 2 },
    ],
    ms: 12,
    ...extra,
  };
}

describe('evidence store', () => {
  it('creates the schema at the current version with WAL and its application id', () => {
    const repo = makeRepo();
    const s = Store.open(repo.dir, { clock: clockAt() });
    expect(s.schemaVersion).toBe(SCHEMA_VERSION);
    expect(s.file).toBe(path.join(repo.dir, '.git/ctx/evidence/evidence.db'));
    s.close();
    const Db = createRequire(import.meta.url)('libsql');
    const db = new Db(path.join(repo.dir, '.git/ctx/evidence/evidence.db'));
    expect(db.prepare('PRAGMA journal_mode').get().journal_mode).toBe('wal');
    expect(db.prepare('PRAGMA application_id').get().application_id).toBe(APPLICATION_ID);
    db.close();
  });

  it('stores episodes with evidence, lists them by time, place and session, and shows one', () => {
    const repo = makeRepo();
    const s = Store.open(repo.dir, { clock: clockAt() });
    expect(s.insertEpisode(episode('e1', T0 - 3 * DAY))).toBe(true);
    expect(s.insertEpisode(episode('e1', T0 - 3 * DAY))).toBe(false);
    s.insertEpisode(episode('e2', T0 - 1000, { caller: { kind: 'mcp', session: 'S1' }, query: { kind: 'search', text: 'why invoices' }, dirty: true }));
    s.insertEpisode(episode('e3', T0 - 500, { query: { kind: 'place', text: 'src/billing/x.ts', place: 'src/billing/x.ts' }, evidence: [] }));
    expect(s.listEpisodes().map((e) => e.id)).toEqual(['e3', 'e2', 'e1']);
    expect(s.listEpisodes({ since: T0 - DAY }).map((e) => e.id)).toEqual(['e3', 'e2']);
    expect(s.listEpisodes({ session: 'S1' }).map((e) => e.id)).toEqual(['e2']);
    expect(s.listEpisodes({ place: 'src/billing' }).map((e) => e.id)).toEqual(['e3']);
    // an episode that returned the path as evidence matches the place too
    expect(s.listEpisodes({ place: 'src/a.ts' }).map((e) => e.id)).toEqual(['e2', 'e1']);
    expect(s.listEpisodes({ limit: 1 }).map((e) => e.id)).toEqual(['e3']);
    const one = s.getEpisode('e2')!;
    expect(one.caller).toEqual({ kind: 'mcp', session: 'S1' });
    expect(one.dirty).toBe(true);
    expect(one.query).toEqual({ kind: 'search', text: 'why invoices' });
    expect(one.lanes).toEqual([{ name: 'declared', status: 'ok', count: 1, ms: 1.5 }]);
    expect(one.evidence).toEqual([
      { kind: 'artifact', value: 'DEC-001', grounding: 'indexed', rank: 1, slot: 'declared' },
      { kind: 'path', value: 'src/a.ts', grounding: 'loaded', rank: 2 },
    ]);
    expect(s.getEpisode('nope')).toBeUndefined();
    s.close();
  });

  it('keeps feedback append-only, stamped by the clock, and refuses an unknown episode by name', () => {
    const repo = makeRepo();
    const clock = clockAt();
    const s = Store.open(repo.dir, { clock });
    s.insertEpisode(episode('0000000001abcdef', T0));
    clock.advance(5000);
    const added = s.addFeedback('0000000001ab', [
      { verdict: 'useful', ref: 'DEC-001' },
      { verdict: 'missing', ref: 'DEC-009' },
    ], { note: 'needed the retry rule', source: 'mcp:S1' });
    expect(added.map((f) => [f.episode, f.verdict, f.ref, f.at, f.source])).toEqual([
      ['0000000001abcdef', 'useful', 'DEC-001', T0 + 5000, 'mcp:S1'],
      ['0000000001abcdef', 'missing', 'DEC-009', T0 + 5000, 'mcp:S1'],
    ]);
    expect(() => s.addFeedback('zzzzzzzz', [{ verdict: 'useful', ref: 'X' }])).toThrow(/no episode zzzzzzzz/);
    expect(() => s.addFeedback('0000000001abcdef', [])).toThrow(/at least one/);
    expect(s.getEpisode('0000000001abcdef')!.feedback).toHaveLength(2);
    // the database itself refuses to rewrite history
    const Db = createRequire(import.meta.url)('libsql');
    s.close();
    const db = new Db(path.join(repo.dir, '.git/ctx/evidence/evidence.db'));
    expect(() => db.prepare("UPDATE feedback SET verdict = 'not-useful'").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM feedback').run()).toThrow(/append-only/);
    db.close();
  });

  it('stores impact edges per origin by content hash and queries them forward and reverse', () => {
    const repo = makeRepo();
    const s = Store.open(repo.dir, { clock: clockAt() });
    expect(s.edgeSourceHash('.contextia/DEC-001.md')).toBeUndefined();
    s.replaceEdges('.contextia/DEC-001.md', 'h1', [
      { src_kind: 'artifact', src: 'DEC-001', dst_kind: 'path', dst: 'src/a.ts', kind: 'anchors' },
      { src_kind: 'artifact', src: 'DEC-001', dst_kind: 'artifact', dst: 'DEC-002', kind: 'requires' },
    ]);
    s.replaceEdges('src/b.ts', 'h2', [{ src_kind: 'artifact', src: 'DEC-003', dst_kind: 'path', dst: 'src/a.ts', kind: 'annotation' }]);
    expect(s.edgeSourceHash('.contextia/DEC-001.md')).toBe('h1');
    expect(s.edgesFrom('artifact', 'DEC-001').map((e) => `${e.dst}:${e.kind}`)).toEqual(['DEC-002:requires', 'src/a.ts:anchors']);
    expect(s.edgesTo('path', 'src/a.ts').map((e) => `${e.src}<-${e.origin}`)).toEqual(['DEC-001<-.contextia/DEC-001.md', 'DEC-003<-src/b.ts']);
    // refreshing an origin replaces all of its edges and nothing else
    s.replaceEdges('.contextia/DEC-001.md', 'h1b', [{ src_kind: 'artifact', src: 'DEC-001', dst_kind: 'path', dst: 'src/c.ts', kind: 'anchors' }]);
    expect(s.edgeSourceHash('.contextia/DEC-001.md')).toBe('h1b');
    expect(s.edgesTo('path', 'src/a.ts').map((e) => e.src)).toEqual(['DEC-003']);
    expect(s.edgeOrigins()).toEqual(['.contextia/DEC-001.md', 'src/b.ts']);
    s.removeEdgeSources(['src/b.ts']);
    expect(s.edgesTo('path', 'src/a.ts')).toEqual([]);
    expect(s.edgeSourceHash('src/b.ts')).toBeUndefined();
    s.close();
  });

  it('records staleness markers and returns the latest per anchor', () => {
    const repo = makeRepo();
    const clock = clockAt();
    const s = Store.open(repo.dir, { clock });
    s.recordMarkers([
      { artifact: 'DEC-001', anchor: 'src/a.ts', verdict: 'fresh', commit: 'c1', run: 'r1' },
      { artifact: 'DEC-001', anchor: 'src/b.ts', verdict: 'fresh', commit: 'c1', run: 'r1' },
      { artifact: 'DEC-002', anchor: 'src/a.ts', verdict: 'stale', commit: 'c1', run: 'r1' },
    ]);
    clock.advance(60_000);
    s.recordMarkers([{ artifact: 'DEC-001', anchor: 'src/a.ts', verdict: 'stale', commit: 'c2', dirty: true, run: 'r2' }]);
    expect(s.latestMarkers(['DEC-001'])).toEqual([
      { artifact: 'DEC-001', anchor: 'src/a.ts', verdict: 'stale', commit: 'c2', dirty: true, at: T0 + 60_000, run: 'r2' },
      { artifact: 'DEC-001', anchor: 'src/b.ts', verdict: 'fresh', commit: 'c1', dirty: false, at: T0, run: 'r1' },
    ]);
    expect(s.latestMarkers().map((m) => `${m.artifact} ${m.anchor} ${m.verdict}`)).toEqual(['DEC-001 src/a.ts stale', 'DEC-001 src/b.ts fresh', 'DEC-002 src/a.ts stale']);
    s.close();
  });

  it('ingests the journal once, tolerates a bad line and a line still being written', () => {
    const repo = makeRepo();
    const clock = clockAt();
    const base = { caller: { kind: 'cli' as const }, query: { kind: 'search' as const, text: 'q' }, lanes: [], evidence: [] };
    const a = appendEpisode(repo.dir, { ...base, at: T0 }, { env: {} })!;
    const b = appendEpisode(repo.dir, { ...base, at: T0 + 1 }, { env: {} })!;
    const journal = path.join(evidenceDir(repo.dir)!, 'journal.jsonl');
    appendFileSync(journal, 'not json\n{"id":"partial');
    let s = openStore(repo.dir, { clock });
    expect(s.lastIngest).toEqual({ ingested: 2, skipped: 1, pruned: 0 });
    expect(s.listEpisodes().map((e) => e.id)).toEqual([b, a]);
    s.close();
    appendFileSync(journal, `","at":${T0 + 2},"caller":{"kind":"hook"},"query":{"kind":"place","place":"x"}}\n`);
    s = openStore(repo.dir, { clock });
    expect(s.lastIngest.ingested).toBe(1);
    expect(s.listEpisodes()[0]!.id).toBe('partial');
    s.close();
    s = openStore(repo.dir, { clock });
    expect(s.lastIngest.ingested).toBe(0);
    s.close();
  });

  it('does not record with GIT_CTX_NO_RECORD=1 or record: false', () => {
    const repo = makeRepo();
    const d = { caller: { kind: 'cli' as const }, query: { kind: 'search' as const, text: 'q' }, lanes: [], evidence: [] };
    expect(appendEpisode(repo.dir, d, { env: { GIT_CTX_NO_RECORD: '1' } })).toBeUndefined();
    expect(appendEpisode(repo.dir, d, { env: {}, record: false })).toBeUndefined();
    expect(existsSync(path.join(repo.dir, '.git/ctx/evidence/journal.jsonl'))).toBe(false);
  });

  it('rotates a large ingested journal and deletes rotated files once quiet', () => {
    const repo = makeRepo();
    const clock = clockAt(Date.now());
    const d = { caller: { kind: 'cli' as const }, query: { kind: 'search' as const, text: 'q'.repeat(200) }, lanes: [], evidence: [] };
    for (let i = 0; i < 20; i++) appendEpisode(repo.dir, { ...d, at: T0 + i }, { env: {} });
    let s = openStore(repo.dir, { clock, rotateBytes: 1000 });
    const dir = evidenceDir(repo.dir)!;
    expect(readdirSync(dir).filter((n) => n.startsWith('journal')).length).toBe(1);
    expect(readdirSync(dir).some((n) => /^journal-\d+\.jsonl$/.test(n))).toBe(true);
    s.close();
    appendEpisode(repo.dir, { ...d, at: T0 + 100 }, { env: {} });
    clock.advance(120_000);
    s = openStore(repo.dir, { clock, rotateBytes: 1000 });
    expect(s.lastIngest.ingested).toBe(1);
    expect(readdirSync(dir).filter((n) => n.startsWith('journal'))).toEqual(['journal.jsonl']);
    expect(s.stats().episodes).toBe(21);
    s.close();
  });

  it('applies retention by age and count on ingest, keeping episodes with feedback', () => {
    const repo = makeRepo();
    const clock = clockAt();
    const s0 = Store.open(repo.dir, { clock });
    s0.insertEpisode(episode('old-kept', T0 - 400 * DAY));
    s0.addFeedback('old-kept', [{ verdict: 'useful', ref: 'DEC-001' }]);
    s0.insertEpisode(episode('old-gone', T0 - 400 * DAY));
    s0.close();
    const d = { caller: { kind: 'cli' as const }, query: { kind: 'search' as const, text: 'q' }, lanes: [], evidence: [] };
    for (let i = 0; i < 5; i++) appendEpisode(repo.dir, { ...d, id: `new${i}`, at: T0 - i * 1000 }, { env: {} });
    const s = openStore(repo.dir, { clock, retention: { max_episodes: 4, max_age_days: 30 } });
    expect(s.lastIngest.ingested).toBe(5);
    expect(s.listEpisodes({ limit: 100 }).map((e) => e.id).sort()).toEqual(['new0', 'new1', 'new2', 'old-kept']);
    s.close();
  });

  it('migrates a store written at schema version 1, keeping its rows', () => {
    const repo = makeRepo();
    const dir = evidenceDir(repo.dir)!;
    mkdirSync(dir, { recursive: true });
    const Db = createRequire(import.meta.url)('libsql');
    const db = new Db(path.join(dir, 'evidence.db'));
    db.exec(MIGRATIONS[0]!);
    db.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
    db.exec('PRAGMA user_version = 1');
    db.prepare("INSERT INTO episodes (id, at, caller, query_kind, query_text) VALUES ('v1ep', ?, 'cli', 'search', 'old question')").run(T0);
    db.close();
    const s = openStore(repo.dir, { clock: clockAt() });
    expect(s.schemaVersion).toBe(SCHEMA_VERSION);
    expect(s.getEpisode('v1ep')!.query).toEqual({ kind: 'search', text: 'old question' });
    s.replaceEdges('o', 'h', [{ src_kind: 'artifact', src: 'A', dst_kind: 'path', dst: 'p', kind: 'anchors' }]);
    expect(s.edgesTo('path', 'p')).toHaveLength(1);
    s.close();
  });

  it('moves a corrupt file aside with a warning, rebuilds, and ingests the journal again', () => {
    const repo = makeRepo();
    const d = { caller: { kind: 'cli' as const }, query: { kind: 'search' as const, text: 'q' }, lanes: [], evidence: [] };
    const id = appendEpisode(repo.dir, { ...d, at: T0 }, { env: {} })!;
    openStore(repo.dir, { clock: clockAt() }).close();
    const dir = evidenceDir(repo.dir)!;
    writeFileSync(path.join(dir, 'evidence.db'), Buffer.alloc(8192, 0x5a));
    const s = openStore(repo.dir, { clock: clockAt() });
    expect(s.warnings.join('\n')).toMatch(/damaged .*moved aside to evidence\.db\.corrupt-2026-11-01T12-00-00-000Z/);
    expect(existsSync(path.join(dir, 'evidence.db.corrupt-2026-11-01T12-00-00-000Z'))).toBe(true);
    expect(s.listEpisodes().map((e) => e.id)).toEqual([id]);
    s.close();
  });

  it('moves a foreign SQLite file aside instead of writing into it', () => {
    const repo = makeRepo();
    const dir = evidenceDir(repo.dir)!;
    mkdirSync(dir, { recursive: true });
    const Db = createRequire(import.meta.url)('libsql');
    const db = new Db(path.join(dir, 'evidence.db'));
    db.exec('CREATE TABLE someone_elses (x)');
    db.close();
    const s = Store.open(repo.dir, { clock: clockAt() });
    expect(s.warnings.join('\n')).toMatch(/not a git-ctx evidence store/);
    expect(s.schemaVersion).toBe(SCHEMA_VERSION);
    s.close();
    expect(readdirSync(dir).some((n) => n.startsWith('evidence.db.corrupt-'))).toBe(true);
  });

  it('says clearly when the SQLite module cannot be loaded', () => {
    const repo = makeRepo();
    expect(() => Store.open(repo.dir, { env: { GIT_CTX_SQLITE_MODULE: 'no-such-sqlite-module' } })).toThrow(/needs the SQLite module "no-such-sqlite-module"/);
  });
});
