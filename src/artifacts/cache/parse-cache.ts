// @spec SPEC-CACHE-001

import { rm } from 'node:fs/promises';
import { CtxError } from '../../errors.js';
import { setExtra } from '../sources/extra.js';
import type { Artifact, LoadProblem } from '../types.js';
import { mark, now } from '../../util/timing.js';
import { decodeSet, encodeSet, setArtifacts, type FinishedRecord, type StoredSet } from './artifact-set.js';
import { CachedArtifact, lightOf, n, type Entry, type Heavy, type Light, type Stored } from './cached-artifact.js';
import { OpenContainer, writeContainer } from '../../cache/container.js';
import { cacheKind } from '../../cache/kinds.js';
import { formerFiles, kindFile } from '../../cache/memo.js';

export type { FinishedRecord } from './artifact-set.js';

const KIND = cacheKind('artifacts');
/** The kind's version: bumped when parseArtifact's output changes shape or meaning (or the file's layout). */
export const PARSE_CACHE_VERSION = KIND.version;
const TOOL = 'git-ctx/artifacts';

/**
 * Parsed artifacts keyed by git blob id, in the `artifacts` cache, and the finished set of
 * the last load keyed by everything it depends on.
 * A warm run reads one file instead of reading and parsing every artifact; the blob id of an
 * unchanged file is known from the index, so nothing is hashed either.
 *
 * Layout: a container (container.ts) keyed by the finished set's key, with three sections:
 * the finished set (binary columns: SetHead in artifact-set.ts), the index of parse entries
 * as JSON (every field but the heavy ones), then the heavy fields of each entry as JSON at a
 * recorded byte range.
 *
 * - **Set hit** (the records' listing, blob ids and config are those of the stored set, see
 *   loadArtifactSet): only the header and the set section are read; each record's heavy
 *   fields are read from the file (kept open) when first asked for. A search of 5,000
 *   records reads the set and the 20 records it shows.
 * - **Otherwise** the whole file is read and the parse entries serve as before: a bundle of
 *   40 artifacts out of 2,000 decodes 40 bodies.
 *
 * Corrupt, old-version or unwritable caches are ignored: the cache only ever saves time.
 */
let preloaded: { root: string; cache: ParseCache } | undefined;

export class ParseCache {
  private entries = new Map<string, Entry>();
  private used = new Set<string>();
  private dirty = false;
  /** the heavy section, read whole once the parse entries are needed */
  private heavy: Buffer | undefined;
  /** the file, open while only the header and set have been read */
  private c: OpenContainer | undefined;
  /** bytes of the heavy section */
  private room = 0;
  private setKey = '';
  private setData: StoredSet | undefined;
  private indexLoaded = true;
  private setServed = false;
  private finished: { key: string; records: FinishedRecord[]; problems: LoadProblem[] } | undefined;
  private constructor(private readonly file: string | undefined) {}

  /**
   * Read the cache now, before it is needed: a caller that has just started a git process
   * reads the cache while git works, instead of after. `open` then returns this instance.
   */
  static preload(root: string): void {
    if (preloaded?.root !== root) preloaded = { root, cache: ParseCache.read(root) };
  }

  static async open(root: string): Promise<ParseCache> {
    if (preloaded?.root === root) {
      const c = preloaded.cache;
      preloaded = undefined; // one run, one instance: a later open reads the file afresh
      return c;
    }
    return ParseCache.read(root);
  }

  /** The header and the set section only: the rest is read when a parse entry is asked for. */
  private static read(root: string): ParseCache {
    const file = kindFile(root, 'artifacts');
    const cache = new ParseCache(file);
    const t0 = now();
    // another format, another parser's output, or a cut-off file (disk full, killed writer
    // on a filesystem without atomic rename): the whole file is a miss
    const c = OpenContainer.open(file, KIND);
    if (!c) return cache;
    try {
      const [setLen, , heavyLen] = c.head.sections;
      if (c.head.sections.length !== 3) throw new Error('layout');
      cache.room = heavyLen!;
      cache.setKey = c.head.key;
      // parsed now, while git lists the records (preload): whether its key holds is known after
      if (cache.setKey && setLen) cache.setData = decodeSet(c.read(0));
      cache.c = c;
      cache.indexLoaded = false;
      // the same step as readCacheBytes reports, for the bytes read so far (header and finished set)
      mark(`cache read artifacts.bin: ${((cache.setKey ? setLen! : 0) / 1024).toFixed(0)} KB in ${(now() - t0).toFixed(1)} ms`);
    } catch {
      c.close(); // unreadable: start empty
    }
    return cache;
  }

  /** Read the whole file and its parse entries (once). */
  private loadIndex(): void {
    if (this.indexLoaded) return;
    this.indexLoaded = true;
    const c = this.c!;
    this.c = undefined;
    const t0 = now();
    try {
      const data = JSON.parse(c.read(1).toString('utf8')) as { tool?: string; entries?: Record<string, Stored> };
      if (data.tool === TOOL && data.entries) {
        const room = this.room;
        const entries = new Map<string, Entry>();
        for (const k in data.entries) {
          const s = data.entries[k]!;
          if (s.a && !(s.h && s.h[0] >= 0 && s.h[0] + s.h[1] <= room)) throw new Error('truncated');
          entries.set(k, { s });
        }
        this.heavy = c.read(2);
        this.entries = entries;
      }
      mark(`cache read artifacts.bin: ${(c.size / 1024).toFixed(0)} KB in ${(now() - t0).toFixed(1)} ms`);
    } catch {
      /* unreadable or damaged: start empty */
    } finally {
      c.close();
    }
  }

  /** The heavy fields at a range of the heavy section. */
  private heavyAt(o: number, n: number): Heavy {
    try {
      if (this.heavy) return JSON.parse(this.heavy.toString('utf8', o, o + n)) as Heavy;
      return JSON.parse(this.c!.read(2, o, n).toString('utf8')) as Heavy;
    } catch (err) {
      // ranges were checked at open; bytes that changed under us are beyond repair here
      throw new CtxError('IO', `the artifact cache is damaged: ${this.file}`, { cause: err, hint: 'delete it (rm -r .git/ctx/cache) and run again' });
    }
  }

  private heavyOf(e: Entry): Heavy {
    if (!e.heavy) {
      const [o, n] = e.s.h ?? [0, 0];
      e.heavy = this.heavyAt(o, n);
    }
    return e.heavy;
  }

  /**
   * The finished set stored under `key` (see loadArtifactSet for what it holds): its
   * artifacts in order and its problems; undefined for another key or a damaged set.
   */
  finishedSet(key: string): { artifacts: Artifact[]; problems: LoadProblem[] } | undefined {
    const data = this.setData;
    if (!data || this.setKey !== key || this.c === undefined) return undefined;
    try {
      const set = setArtifacts(data, this.room, { heavyAt: (o, len) => this.heavyAt(o, len) });
      if (set) this.setServed = true;
      return set;
    } catch {
      return undefined;
    }
  }

  /** Keep this finished set (written by save) under `key`: everything it was computed from. */
  setFinished(key: string, records: FinishedRecord[], problems: LoadProblem[]): void {
    this.finished = { key, records, problems };
    if (key !== this.setKey || !this.setServed) this.dirty = true;
  }

  /** `key` is the blob id, followed by `:`-separated reader settings for formats whose parse depends on them. */
  get(key: string, file: string, origin: Artifact['origin']): { artifact?: Artifact; problems: LoadProblem[] } | undefined {
    this.loadIndex();
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.used.add(key);
    let artifact: Artifact | undefined;
    if (e.s.a) {
      const colon = key.indexOf(':');
      artifact = new CachedArtifact(e.s.a, colon < 0 ? key : key.slice(0, colon), file, origin, { heavyAt: () => this.heavyOf(e) }) as Artifact;
      setExtra(artifact, e.s.a[8] ?? undefined);
    }
    return { artifact, problems: e.s.p.length ? e.s.p.map((p) => ({ ...p, file })) : [] };
  }

  set(key: string, artifact: Artifact | undefined, problems: LoadProblem[]): void {
    this.loadIndex();
    let a: Light | undefined;
    let heavy: Heavy | undefined;
    if (artifact) {
      a = lightOf(artifact);
      const x = artifact;
      heavy = [x.title, n(x.summary), x.keywords, x.paths, x.anchors, n(x.owner), n(x.created), n(x.source), n(x.stamp), x.keyLines, x.bodyLine, x.data, x.body];
    }
    this.entries.set(key, { s: { a, p: problems.map(({ file: _f, ...rest }) => rest) }, heavy });
    this.used.add(key);
    this.dirty = true;
  }

  /** Write when something changed; keeps this run's entries plus a bounded number of others. */
  async save(): Promise<void> {
    if (!this.file || !this.dirty) return;
    this.loadIndex();
    const keep: string[] = [...this.used];
    let extra = Math.max(5000, this.used.size);
    for (const k of this.entries.keys()) {
      if (extra <= 0) break;
      if (!this.used.has(k)) {
        keep.push(k);
        extra--;
      }
    }
    const index: Record<string, Stored> = {};
    const parts: Buffer[] = [];
    let offset = 0;
    for (const k of keep) {
      const e = this.entries.get(k)!;
      let bytes: Buffer | undefined;
      if (e.heavy) bytes = Buffer.from(JSON.stringify(e.heavy));
      else if (e.s.h && this.heavy) bytes = this.heavy.subarray(e.s.h[0], e.s.h[0] + e.s.h[1]);
      const s: Stored = { p: e.s.p };
      if (e.s.a) {
        if (!bytes) continue; // an old entry whose bytes are gone: parse again next time
        s.a = e.s.a;
        s.h = [offset, bytes.length];
        parts.push(bytes);
        offset += bytes.length;
      }
      index[k] = s;
    }
    // the finished set, when every record's heavy fields are kept
    let setKey = '';
    let setBytes: Buffer = Buffer.alloc(0);
    const f = this.finished;
    // (blob ids of one width: a repository hashes with one algorithm)
    if (f && f.records.every((r) => index[r.key]?.h && r.artifact.blob.length === f.records[0]!.artifact.blob.length)) {
      const set = encodeSet(f, index);
      if (set) {
        setKey = f.key;
        setBytes = set;
      }
    }
    const indexJson = Buffer.from(JSON.stringify({ tool: TOOL, version: PARSE_CACHE_VERSION, entries: index }));
    // a read-only checkout (CI, Action) skips the write: the cache is an optimisation only
    if (writeContainer(this.file, KIND, setKey, [setBytes, indexJson, Buffer.concat(parts)], undefined, Object.keys(index).length)) {
      // the JSON cache of earlier versions
      for (const old of formerFiles('artifacts', this.file)) await rm(old, { force: true }).catch(() => undefined);
    }
  }
}
