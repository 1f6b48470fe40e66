// @spec SPEC-CACHE-001

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { CtxError } from '../errors.js';
import { cacheFile } from '../git/git-dir.js';
import { MAX_CACHE_READ_BYTES, writeCacheFile } from './file.js';
import { mark, now } from '../util/timing.js';
import { extraOf, setExtra, type SourceExtra } from '../sources/extra.js';
import type { Artifact, LoadProblem } from '../artifacts/types.js';

/** Bump when parseArtifact's output changes shape or meaning. */
export const PARSE_CACHE_VERSION = 11;
const TOOL = 'git-ctx/artifacts';

/**
 * What traversal, lookup and the link graph read of every artifact, as an array (arrays parse
 * faster than objects): id, type, status, scope, domain, links, relations, requires (the
 * blob id is the entry's key). `null` stands for undefined.
 */
type Light = [
  id: string,
  type: string,
  status: string | null,
  scope: Artifact['scope'],
  domain: string | null,
  links: Artifact['links'],
  relations: Artifact['relations'],
  requires: string[],
  /** what the reader found for the set to finish (format, mention candidates, relations in the text) */
  extra: SourceExtra | null,
];
/** Everything else, decoded from its own byte range on first access. */
type Heavy = [
  title: string,
  summary: string | null,
  keywords: string[],
  paths: string[],
  anchors: string[],
  owner: string | null,
  created: string | null,
  source: string | null,
  stamp: Artifact['stamp'] | null,
  keyLines: Artifact['keyLines'],
  bodyLine: number,
  data: Record<string, unknown>,
  body: string,
];
type Problem = Omit<LoadProblem, 'file'>;
/** `a` = the light fields; `h` = [offset, length] of the heavy fields as JSON in the heavy section */
type Stored = { a?: Light; p: Problem[]; h?: [number, number] };
type Entry = { s: Stored; heavy?: Heavy };
/**
 * The finished set as stored (DEC-040): a small JSON head, then binary columns and text, so a
 * warm load parses no JSON of 5,000 records and leaves little garbage. Per record its light
 * fields as loading left them (ids told apart, relations written in the text resolved,
 * statuses mapped), its file and blob id, the status as written, the key lines finishing
 * added, and its heavy fields' range (those of its parse entry: finishing never changes them).
 *
 * Section layout: u32 LE head length · head (JSON, `SetHead`) · zero padding to a multiple of
 * 4 · `n × COLS` i32 LE (per record: type, status, scope, domain as indexes into `s` or -1,
 * folder index into `d`, heavy offset, heavy length) · the ids joined by NUL (UTF-8) · the
 * file names joined by NUL (UTF-8) · the blob ids as bytes (`bw` hex digits each).
 */
type SetHead = {
  /** records */
  n: number;
  /** strings the type, status, scope and domain columns point into */
  s: string[];
  /** folders, each with its trailing slash: file = d[folder] + name */
  d: string[];
  /** hex digits per blob id */
  bw: number;
  /** bytes of the joined ids, of the joined file names */
  ib: number;
  fb: number;
  /** the records with links, relations, requires, reader extras, a status as written or key lines: [record, links, relations, requires, extra, statusText, keyLines] */
  x: [number, Artifact['links'], Artifact['relations'], string[], SourceExtra | null, string | null, Record<string, number> | null][];
  p: StoredProblem[];
};
/** i32 columns per record: type, status, scope, domain, folder, heavy offset, heavy length */
const COLS = 7;
/** The decoded set section, ready to become artifacts once its key is known to hold. */
type StoredSet = { head: SetHead; cols: Int32Array; ids: string[]; names: string[]; blobs: string };
/** What a record without links, relations or requires holds when served from the set (frozen: shared by every such record). */
const NO_LINKS = Object.freeze([]) as unknown as Artifact['links'];
const NO_RELATIONS = Object.freeze({}) as Artifact['relations'];
const NO_REQUIRES = Object.freeze([]) as unknown as string[];
/** Typed-array columns are read in this machine's byte order: only a little-endian one writes or reads them. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
type StoredProblem = [problem: LoadProblem, undefinedKeys?: string[]];

/** What the set stored for a record, as loadArtifactSet gives it to be kept. */
export interface FinishedRecord {
  artifact: Artifact;
  /** its parse entry's key (blob id, reader settings) */
  key: string;
  /** key lines finishing set where absent (see defaultKeyLine) */
  keyLines?: Record<string, number>;
}

const MAGIC = 'GCA3';
/** Bump when the file's layout changes (PARSE_CACHE_VERSION is for the parser's output). */
const FORMAT = 3;
const KEY_BYTES = 64;
/** magic, format, parse version, set bytes, index bytes, total bytes (u32 LE each), then the set key (ASCII, space-padded) */
const HEADER = 24 + KEY_BYTES;

const closer = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    /* already closed */
  }
});

/** Read `n` bytes at `at`, all of them or throw. */
function readAt(fd: number, at: number, n: number): Buffer {
  const buf = Buffer.allocUnsafe(n);
  let done = 0;
  while (done < n) {
    const k = readSync(fd, buf, done, n - done, at + done);
    if (k <= 0) throw new Error('short read');
    done += k;
  }
  return buf;
}

/**
 * Parsed artifacts keyed by git blob id, under `<git-dir>/ctx/cache/artifacts.bin`, and the
 * finished set of the last load keyed by everything it depends on.
 * A warm run reads one file instead of reading and parsing every artifact; the blob id of an
 * unchanged file is known from the index, so nothing is hashed either.
 *
 * Layout: a fixed header (magic, format, parse version, section sizes, total size, the set's
 * key), the finished set (binary columns: SetHead), the index of parse entries as JSON (every field but the
 * heavy ones), then the heavy fields of each entry as JSON at a recorded byte range.
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
  /** the whole file, once the parse entries are needed */
  private buf: Buffer | undefined;
  /** the file, open while only the header and set have been read */
  private fd: number | undefined;
  private setLen = 0;
  private indexLen = 0;
  private size = 0;
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
    const file = cacheFile(root, 'artifacts.bin');
    const c = new ParseCache(file);
    if (!file) return c;
    const t0 = now();
    let fd: number | undefined;
    try {
      fd = openSync(file, 'r');
      const size = fstatSync(fd).size;
      if (size < HEADER || size > MAX_CACHE_READ_BYTES) return c;
      const h = readAt(fd, 0, HEADER);
      const setLen = h.readUInt32LE(12);
      const indexLen = h.readUInt32LE(16);
      // another format, another parser's output, or a cut-off file (disk full, killed writer
      // on a filesystem without atomic rename): the whole file is a miss
      if (h.toString('latin1', 0, 4) !== MAGIC || h.readUInt32LE(4) !== FORMAT || h.readUInt32LE(8) !== PARSE_CACHE_VERSION || h.readUInt32LE(20) !== size || HEADER + setLen + indexLen > size) return c;
      c.size = size;
      c.setLen = setLen;
      c.indexLen = indexLen;
      c.setKey = h.toString('latin1', 24, HEADER).trimEnd();
      if (c.setKey && setLen) {
        // parsed now, while git lists the records (preload): whether its key holds is known after
        c.setData = decodeSet(readAt(fd, HEADER, setLen));
      }
      c.fd = fd;
      c.indexLoaded = false;
      fd = undefined; // kept open: closed when the entries are read, or with the instance
      closer.register(c, c.fd, c);
      // the same step as readCacheBytes reports, for the bytes read so far (header and finished set)
      mark(`cache read artifacts.bin: ${((HEADER + (c.setKey ? setLen : 0)) / 1024).toFixed(0)} KB in ${(now() - t0).toFixed(1)} ms`);
    } catch {
      /* absent or unreadable: start empty */
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    return c;
  }

  /** Where the heavy section starts. */
  private get heavyBase(): number {
    return HEADER + this.setLen + this.indexLen;
  }

  /** Read the whole file and its parse entries (once). */
  private loadIndex(): void {
    if (this.indexLoaded) return;
    this.indexLoaded = true;
    const fd = this.fd!;
    this.fd = undefined;
    closer.unregister(this);
    const t0 = now();
    try {
      const buf = readAt(fd, 0, this.size);
      const data = JSON.parse(buf.toString('utf8', HEADER + this.setLen, HEADER + this.setLen + this.indexLen)) as { tool?: string; entries?: Record<string, Stored> };
      if (data.tool === TOOL && data.entries) {
        const room = this.size - this.heavyBase;
        const entries = new Map<string, Entry>();
        for (const k in data.entries) {
          const s = data.entries[k]!;
          if (s.a && !(s.h && s.h[0] >= 0 && s.h[0] + s.h[1] <= room)) throw new Error('truncated');
          entries.set(k, { s });
        }
        this.buf = buf;
        this.entries = entries;
      }
      mark(`cache read artifacts.bin: ${(this.size / 1024).toFixed(0)} KB in ${(now() - t0).toFixed(1)} ms`);
    } catch {
      /* unreadable or damaged: start empty */
    } finally {
      try {
        closeSync(fd);
      } catch {
        /* already closed */
      }
    }
  }

  /** The heavy fields at a range of the heavy section. */
  private heavyAt(o: number, n: number): Heavy {
    try {
      const start = this.heavyBase + o;
      if (this.buf) return JSON.parse(this.buf.toString('utf8', start, start + n)) as Heavy;
      return JSON.parse(readAt(this.fd!, start, n).toString('utf8')) as Heavy;
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
    if (!data || this.setKey !== key || this.fd === undefined) return undefined;
    try {
      const { head, cols, ids, names, blobs } = data;
      const { n, s, d, bw, x } = head;
      const room = this.size - this.heavyBase;
      const ns = s.length;
      const str = (k: number): string | null => (k < 0 ? null : s[k]!);
      const extra = x.length ? new Map(x.map((e) => [e[0], e])) : undefined;
      const src: HeavySource = { heavyAt: (o, len) => this.heavyAt(o, len) };
      const artifacts: Artifact[] = new Array<Artifact>(n);
      for (let i = 0, c = 0; i < n; i++, c += COLS) {
        const o = cols[c + 5]!;
        const len = cols[c + 6]!;
        const ti = cols[c]!;
        const si = cols[c + 1]!;
        const ci = cols[c + 2]!;
        const di = cols[c + 3]!;
        const fi = cols[c + 4]!;
        if (!(o >= 0 && len >= 0 && o + len <= room && ti >= 0 && ti < ns && si >= -1 && si < ns && ci >= -1 && ci < ns && di >= -1 && di < ns && fi >= 0 && fi < d.length)) return undefined;
        const e = extra?.get(i);
        // a record without links, relations or requires shares one frozen empty list and
        // mapping (nothing changes them in place: finishing copies; a write would throw):
        // 15,000 fewer objects for the collector on 5,000 records. The heavy fields at their
        // range of this file, read when first asked for
        const x8 = e ? e[4] : null;
        const a = new CachedArtifact(ids[i]!, s[ti]!, str(si), str(ci) as Artifact['scope'], str(di), e ? e[1] : NO_LINKS, e ? e[2] : NO_RELATIONS, e ? e[3] : NO_REQUIRES, x8, blobs.slice(i * bw, (i + 1) * bw), d[fi]! + names[i]!, 'repo', src, o, len);
        if (e) {
          setExtra(a as Artifact, x8 ?? undefined);
          if (e[5] != null) a.statusText = e[5];
          const kl = e[6];
          if (kl) for (const k in kl) a.defaultKeyLine(k, kl[k]!);
        }
        artifacts[i] = a as Artifact;
      }
      const problems = head.p.map(([p, u]) => {
        if (u) for (const k of u) (p as unknown as Record<string, unknown>)[k] = undefined;
        return p;
      });
      this.setServed = true;
      return { artifacts, problems };
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
  get(key: string, file: string, origin: 'repo' | 'global'): { artifact?: Artifact; problems: LoadProblem[] } | undefined {
    this.loadIndex();
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.used.add(key);
    let artifact: Artifact | undefined;
    if (e.s.a) {
      const colon = key.indexOf(':');
      artifact = CachedArtifact.of(e.s.a, colon < 0 ? key : key.slice(0, colon), file, origin, { heavyAt: () => this.heavyOf(e) }) as Artifact;
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
      else if (e.s.h && this.buf) bytes = this.buf.subarray(this.heavyBase + e.s.h[0], this.heavyBase + e.s.h[0] + e.s.h[1]);
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
    let setJson: Buffer = Buffer.alloc(0);
    const f = this.finished;
    // (blob ids of one width: a repository hashes with one algorithm)
    if (f && f.key.length <= KEY_BYTES && f.records.every((r) => index[r.key]?.h && r.artifact.blob.length === f.records[0]!.artifact.blob.length)) {
      const set = encodeSet(f, index);
      if (set) {
        setKey = f.key;
        setJson = set;
      }
    }
    const indexJson = Buffer.from(JSON.stringify({ tool: TOOL, version: PARSE_CACHE_VERSION, entries: index }));
    const header = Buffer.alloc(HEADER, 0x20);
    header.write(MAGIC, 0, 'latin1');
    header.writeUInt32LE(FORMAT, 4);
    header.writeUInt32LE(PARSE_CACHE_VERSION, 8);
    header.writeUInt32LE(setJson.length, 12);
    header.writeUInt32LE(indexJson.length, 16);
    header.writeUInt32LE(HEADER + setJson.length + indexJson.length + offset, 20);
    header.write(setKey, 24, 'latin1');
    // a read-only checkout (CI, Action) skips the write: the cache is an optimisation only
    if (writeCacheFile(this.file, Buffer.concat([header, setJson, indexJson, ...parts]))) {
      // the JSON cache of earlier versions
      await rm(path.join(path.dirname(this.file), 'artifacts.json'), { force: true }).catch(() => undefined);
    }
  }
}

const n = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

/**
 * The set section for a finished set (layout at SetHead); undefined when it cannot be stored
 * exactly: an id or file name holding a NUL (the separator), a blob id that is not lowercase
 * hex of one even width, a range out of the i32 columns, or a big-endian machine.
 */
function encodeSet(f: { records: FinishedRecord[]; problems: LoadProblem[] }, index: Record<string, Stored>): Buffer | undefined {
  if (!LITTLE_ENDIAN) return undefined;
  const count = f.records.length;
  const bw = f.records[0]?.artifact.blob.length ?? 40;
  if (bw % 2) return undefined;
  const strings = new Map<string, number>();
  const strIndex = (v: string | undefined): number => {
    if (v === undefined) return -1;
    let k = strings.get(v);
    if (k === undefined) strings.set(v, (k = strings.size));
    return k;
  };
  const dirs = new Map<string, number>();
  const cols = new Int32Array(count * COLS);
  const ids: string[] = [];
  const names: string[] = [];
  const blobs: string[] = [];
  const x: SetHead['x'] = [];
  for (let i = 0; i < count; i++) {
    const { artifact: a, key, keyLines } = f.records[i]!;
    if (a.id.includes('\0') || a.file.includes('\0') || a.blob.length !== bw || !/^[0-9a-f]*$/.test(a.blob)) return undefined;
    const slash = a.file.lastIndexOf('/') + 1;
    const dir = a.file.slice(0, slash);
    let di = dirs.get(dir);
    if (di === undefined) dirs.set(dir, (di = dirs.size));
    const [ho, hl] = index[key]!.h!;
    if (!(ho >= 0 && hl >= 0 && ho + hl <= 0x7fffffff)) return undefined;
    const c = i * COLS;
    cols[c] = strIndex(a.type);
    cols[c + 1] = strIndex(a.status);
    cols[c + 2] = strIndex(a.scope);
    cols[c + 3] = strIndex(a.domain);
    cols[c + 4] = di;
    cols[c + 5] = ho;
    cols[c + 6] = hl;
    ids.push(a.id);
    names.push(a.file.slice(slash));
    blobs.push(a.blob);
    const ex = extraOf(a) ?? null;
    const kl = keyLines && Object.keys(keyLines).length ? keyLines : null;
    if (a.links.length || Object.keys(a.relations).length || a.requires.length || ex || a.statusText !== undefined || kl) x.push([i, a.links, a.relations, a.requires, ex, n(a.statusText), kl]);
  }
  const idBytes = Buffer.from(ids.join('\0'));
  const nameBytes = Buffer.from(names.join('\0'));
  const blobBytes = Buffer.from(blobs.join(''), 'hex');
  if (blobBytes.length !== (count * bw) / 2) return undefined;
  // keys in one order, so that the same set is written as the same bytes (a problem from
  // the parse entries has its file last, a parsed one first)
  const p: StoredProblem[] = f.problems.map((q) => {
    const r = q as unknown as Record<string, unknown>;
    const keys = Object.keys(r).sort();
    const u = keys.filter((k) => r[k] === undefined);
    const o = Object.fromEntries(keys.filter((k) => r[k] !== undefined).map((k) => [k, r[k]])) as unknown as LoadProblem;
    return u.length ? [o, u] : [o];
  });
  const head: SetHead = { n: count, s: [...strings.keys()], d: [...dirs.keys()], bw, ib: idBytes.length, fb: nameBytes.length, x, p };
  const headBytes = Buffer.from(JSON.stringify(head));
  const lead = Buffer.alloc(4 + headBytes.length + ((4 - ((4 + headBytes.length) % 4)) % 4));
  lead.writeUInt32LE(headBytes.length, 0);
  headBytes.copy(lead, 4);
  return Buffer.concat([lead, Buffer.from(cols.buffer, cols.byteOffset, cols.byteLength), idBytes, nameBytes, blobBytes]);
}

/** The set section decoded (see encodeSet); undefined when it is not one, so the set is a miss. */
function decodeSet(sec: Buffer): StoredSet | undefined {
  try {
    if (!LITTLE_ENDIAN || sec.length < 4) return undefined;
    const headLen = sec.readUInt32LE(0);
    if (4 + headLen > sec.length) return undefined;
    const head = JSON.parse(sec.toString('utf8', 4, 4 + headLen)) as SetHead;
    const { n: count, bw, ib, fb } = head;
    if (!(Number.isInteger(count) && count >= 0 && Number.isInteger(bw) && bw >= 0 && bw % 2 === 0 && Number.isInteger(ib) && ib >= 0 && Number.isInteger(fb) && fb >= 0)) return undefined;
    if (!(Array.isArray(head.s) && Array.isArray(head.d) && Array.isArray(head.x) && Array.isArray(head.p))) return undefined;
    const colsAt = 4 + headLen + ((4 - ((4 + headLen) % 4)) % 4);
    const idsAt = colsAt + count * COLS * 4;
    const namesAt = idsAt + ib;
    const blobsAt = namesAt + fb;
    if (blobsAt + (count * bw) / 2 !== sec.length) return undefined;
    // a view when the bytes are aligned (a read buffer of this size is its own allocation), else a copy
    const cols = (sec.byteOffset + colsAt) % 4 === 0 ? new Int32Array(sec.buffer, sec.byteOffset + colsAt, count * COLS) : new Int32Array(new Uint8Array(sec.subarray(colsAt, idsAt)).buffer);
    const ids = count ? sec.toString('utf8', idsAt, namesAt).split('\0') : [];
    const names = count ? sec.toString('utf8', namesAt, blobsAt).split('\0') : [];
    if (ids.length !== count || names.length !== count) return undefined;
    return { head, cols, ids, names, blobs: sec.toString('hex', blobsAt, sec.length) };
  } catch {
    return undefined;
  }
}
const lightOf = (x: Artifact): Light => [x.id, x.type, n(x.status), x.scope, n(x.domain), x.links, x.relations, x.requires, n(extraOf(x))];

/**
 * An artifact read from the cache. The fields traversal and lookup read of every artifact
 * are own properties; the rest (title, summary, keywords, paths, anchors, owner, created,
 * source, stamp, keyLines, bodyLine, data, body) are accessors on the prototype that decode
 * this artifact's part of the cache on first read, and take assignments like fields. A bundle
 * of 40 artifacts out of 2,000 decodes 40. Consequence: `{ ...artifact }` copies only the
 * own fields; `toJSON` (and so JSON.stringify) includes everything.
 */
/** What holds a cached artifact's heavy fields: a byte range of the file, or its parse entry (range unused). */
interface HeavySource {
  heavyAt(at: number, len: number): Heavy;
}

class CachedArtifact {
  // declared only (no field initialisers): the constructor sets every one, in this order, so
  // each record gets one store per field instead of a definition and then a store (DEC-040)
  declare id: string;
  declare type: string;
  declare status: string | undefined;
  declare scope: Artifact['scope'];
  declare domain: string | undefined;
  declare links: Artifact['links'];
  declare relations: Artifact['relations'];
  declare requires: string[];
  declare file: string;
  declare origin: Artifact['origin'];
  declare blob: string;
  declare format: Artifact['format'];
  declare mentions: Artifact['mentions'];
  declare statusText: Artifact['statusText'];
  /** where the heavy fields are: a loader and a byte range (no closure per record: a set has thousands) */
  #src: HeavySource;
  #at: number;
  #len: number;
  #heavy: Heavy | undefined;
  /** keyLines entries to add where absent, applied on first read (see defaultKeyLine) */
  #keyLineDefaults: Record<string, number> | undefined;
  constructor(
    id: string,
    type: string,
    status: string | null,
    scope: Artifact['scope'],
    domain: string | null,
    links: Artifact['links'],
    relations: Artifact['relations'],
    requires: string[],
    extra: SourceExtra | null,
    blob: string,
    file: string,
    origin: Artifact['origin'],
    src: HeavySource,
    at: number,
    len: number,
  ) {
    this.id = id;
    this.type = type;
    this.status = status ?? undefined;
    this.scope = scope;
    this.domain = domain ?? undefined;
    this.links = links;
    this.relations = relations;
    this.requires = requires;
    this.file = file;
    this.origin = origin;
    this.blob = blob;
    this.format = extra?.f ? extra.f : undefined;
    this.mentions = undefined;
    this.statusText = undefined;
    this.#src = src;
    this.#at = at;
    this.#len = len;
  }
  /** From a parse entry's light fields. */
  static of(l: Light, blob: string, file: string, origin: Artifact['origin'], src: HeavySource): CachedArtifact {
    return new CachedArtifact(l[0], l[1], l[2], l[3], l[4], l[5], l[6], l[7], l[8], blob, file, origin, src, 0, 0);
  }
  get #h(): Heavy {
    return (this.#heavy ??= [...this.#src.heavyAt(this.#at, this.#len)] as Heavy);
  }
  get title(): string { return this.#h[0]; }
  set title(v: string) { this.#h[0] = v; }
  get summary(): string | undefined { return this.#h[1] ?? undefined; }
  set summary(v: string | undefined) { this.#h[1] = v ?? null; }
  get keywords(): string[] { return this.#h[2]; }
  set keywords(v: string[]) { this.#h[2] = v; }
  get paths(): string[] { return this.#h[3]; }
  set paths(v: string[]) { this.#h[3] = v; }
  get anchors(): string[] { return this.#h[4]; }
  set anchors(v: string[]) { this.#h[4] = v; }
  get owner(): string | undefined { return this.#h[5] ?? undefined; }
  set owner(v: string | undefined) { this.#h[5] = v ?? null; }
  get created(): string | undefined { return this.#h[6] ?? undefined; }
  set created(v: string | undefined) { this.#h[6] = v ?? null; }
  get source(): string | undefined { return this.#h[7] ?? undefined; }
  set source(v: string | undefined) { this.#h[7] = v ?? null; }
  get stamp(): Artifact['stamp'] { return this.#h[8] ?? undefined; }
  set stamp(v: Artifact['stamp']) { this.#h[8] = v ?? null; }
  get keyLines(): Artifact['keyLines'] {
    const d = this.#keyLineDefaults;
    if (d) {
      this.#keyLineDefaults = undefined;
      const kl = { ...this.#h[9] };
      for (const [k, v] of Object.entries(d)) if (kl[k] === undefined) kl[k] = v;
      this.#h[9] = kl;
    }
    return this.#h[9];
  }
  set keyLines(v: Artifact['keyLines']) { this.#keyLineDefaults = undefined; this.#h[9] = v; }
  /**
   * `keyLines[key] ??= line` without decoding this artifact's part of the cache now: finishing
   * ADR sources gives every record with a broken reference a `links` line, and decoding
   * hundreds of record bodies for that would cost more than the rest of a warm load.
   */
  defaultKeyLine(key: string, line: number): void {
    if (this.#heavy) {
      if (this.#heavy[9][key] === undefined) this.#heavy[9] = { ...this.#heavy[9], [key]: line };
      return;
    }
    (this.#keyLineDefaults ??= {})[key] ??= line;
  }
  get bodyLine(): number { return this.#h[10]; }
  set bodyLine(v: number) { this.#h[10] = v; }
  get data(): Record<string, unknown> { return this.#h[11]; }
  set data(v: Record<string, unknown>) { this.#h[11] = v; }
  get body(): string { return this.#h[12]; }
  set body(v: string) { this.#h[12] = v; }
  /** The same shape and key order as a freshly parsed artifact. */
  toJSON(): Artifact {
    return {
      id: this.id, type: this.type, title: this.title, status: this.status, scope: this.scope, domain: this.domain, summary: this.summary,
      keywords: this.keywords, links: this.links, relations: this.relations, requires: this.requires, paths: this.paths, anchors: this.anchors,
      owner: this.owner, created: this.created, source: this.source, stamp: this.stamp, ...(this.format ? { format: this.format } : {}),
      file: this.file, origin: this.origin, blob: this.blob, data: this.data, body: this.body, keyLines: this.keyLines, bodyLine: this.bodyLine,
      ...(this.mentions ? { mentions: this.mentions } : {}), ...(this.statusText !== undefined ? { statusText: this.statusText } : {}),
    };
  }
}

