// @spec SPEC-CACHE-001

import { extraOf, setExtra, type SourceExtra } from '../sources/extra.js';
import type { Artifact, LoadProblem } from '../types.js';
import { CachedArtifact, n, type HeavySource, type Stored } from './cached-artifact.js';

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
export type SetHead = {
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
export type StoredSet = { head: SetHead; cols: Int32Array; ids: string[]; names: string[]; blobs: string };
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

/**
 * The set section for a finished set (layout at SetHead); undefined when it cannot be stored
 * exactly: an id or file name holding a NUL (the separator), a blob id that is not lowercase
 * hex of one even width, a range out of the i32 columns, or a big-endian machine.
 */
export function encodeSet(f: { records: FinishedRecord[]; problems: LoadProblem[] }, index: Record<string, Stored>): Buffer | undefined {
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
export function decodeSet(sec: Buffer): StoredSet | undefined {
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

/**
 * The artifacts of a decoded set section, in order, their heavy fields at their ranges of
 * `src` (at most `room` bytes), with the set's problems; undefined when a column points
 * outside what was stored (a damaged set: a miss).
 */
export function setArtifacts(data: StoredSet, room: number, src: HeavySource): { artifacts: Artifact[]; problems: LoadProblem[] } | undefined {
  const { head, cols, ids, names, blobs } = data;
  const { n, s, d, bw, x } = head;
  const ns = s.length;
  const str = (k: number): string | null => (k < 0 ? null : s[k]!);
  const extra = x.length ? new Map(x.map((e) => [e[0], e])) : undefined;
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
    const a = new CachedArtifact([ids[i]!, s[ti]!, str(si), str(ci) as Artifact['scope'], str(di), e ? e[1] : NO_LINKS, e ? e[2] : NO_RELATIONS, e ? e[3] : NO_REQUIRES, x8], blobs.slice(i * bw, (i + 1) * bw), d[fi]! + names[i]!, d[fi]!.charCodeAt(0) === 0x7e /* ~: a pinned source's folder */ ? 'federated' : 'repo', src, o, len);
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
  return { artifacts, problems };
}
