// @spec SPEC-CACHE-001

import { renameSync, rmSync } from 'node:fs';
import { decodeContainer, encodeContainer, OpenContainer } from './container.js';
import { writeCacheFile } from './file.js';
import { cacheKind } from './kinds.js';
import { formerFiles, kindFile } from './memo.js';

/** The index as searching reads it (the retrieval engine's KeywordSource). */
export interface StoredKeywords {
  ids: readonly string[];
  lens: ArrayLike<number>;
  avgLen: number;
  dens?: ArrayLike<number>;
  postingsOf(term: string): ArrayLike<number> | undefined;
}

/** What is stored of a built index: its documents, their lengths and length parts, and each term's postings. */
export interface KeywordsToStore {
  ids: string[];
  lens: number[];
  avgLen: number;
  postings: Record<string, number[]>;
  /** each document's length part of the BM25 denominator */
  dens: ArrayLike<number>;
}

/** A cached index whose numbers do not hold together: searched again from a fresh build. */
export class KeywordCacheDamaged extends Error {}

const KIND = cacheKind('retrieve-keywords');

/**
 * The keyword index in a container of the `retrieve-keywords` kind, keyed by the records'
 * content; meta {docs, terms, pairs, avgLen}; sections:
 *   0 lens     f64 × docs
 *   1 dens     f64 × docs          each document's length part of the BM25 denominator
 *   2 termAt   u32 × (terms + 1)   byte offsets into the term bytes (terms sorted by their UTF-8 bytes)
 *   3 postAt   u32 × (terms + 1)   pair offsets into the postings
 *   4 postings u32 × 2 × pairs     doc, weighted tf (both whole numbers)
 *   5 ids      JSON array of the record ids (UTF-8)
 *   6 terms    the terms' UTF-8 bytes, back to back
 * A container whose numbers do not hold together (a posting naming no document) is a miss,
 * or, found while searching, KeywordCacheDamaged: the index is then built again.
 */
type Meta = { docs: number; terms: number; pairs: number; avgLen: number };

export function encodeKeywords(index: KeywordsToStore, key: string): Buffer {
  const entries = Object.keys(index.postings).map((t) => [t, Buffer.from(t, 'utf8')] as const);
  entries.sort((a, b) => Buffer.compare(a[1], b[1]));
  const termAt = new Uint32Array(entries.length + 1);
  const postAt = new Uint32Array(entries.length + 1);
  let pairs = 0;
  let tAt = 0;
  entries.forEach(([t, bytes], i) => {
    termAt[i] = tAt;
    postAt[i] = pairs;
    tAt += bytes.length;
    pairs += index.postings[t]!.length / 2;
  });
  termAt[entries.length] = tAt;
  postAt[entries.length] = pairs;
  const postings = new Uint32Array(pairs * 2);
  entries.forEach(([t], i) => postings.set(index.postings[t]!, postAt[i]! * 2));
  const bytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const meta: Meta = { docs: index.ids.length, terms: entries.length, pairs, avgLen: index.avgLen };
  return encodeContainer(KIND, key, [bytes(new Float64Array(index.lens)), bytes(new Float64Array(index.dens)), bytes(termAt), bytes(postAt), bytes(postings), Buffer.from(JSON.stringify(index.ids), 'utf8'), Buffer.concat(entries.map((e) => e[1]))], meta, index.ids.length);
}

/** The meta when it holds whole counts and the sections have the sizes they imply. */
function metaOf(meta: unknown, sections: number[]): Meta | undefined {
  const h = meta as Partial<Meta> | undefined;
  const whole = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  if (!h || !whole(h.docs) || !whole(h.terms) || !whole(h.pairs) || typeof h.avgLen !== 'number' || sections.length !== 7) return undefined;
  const want = [h.docs * 8, h.docs * 8, (h.terms + 1) * 4, (h.terms + 1) * 4, h.pairs * 8];
  return want.every((n, i) => sections[i] === n) ? (h as Meta) : undefined;
}

/** The ids section as a list of as many strings as documents, else undefined. */
function idsOf(text: string, docs: number): string[] | undefined {
  const ids = JSON.parse(text) as unknown;
  return Array.isArray(ids) && ids.length === docs && ids.every((x) => typeof x === 'string') ? (ids as string[]) : undefined;
}

/** The index of `term` among the index's sorted terms (byte order), or -1. */
function termIndex(termOf: (i: number) => Buffer, terms: number, term: string): number {
  const want = Buffer.from(term, 'utf8');
  let lo = 0;
  let hi = terms;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = Buffer.compare(termOf(mid), want);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/**
 * The index stored in `bytes` under `key`, as a search source; undefined when the bytes are
 * of another format or key, or do not hold together (truncated, overwritten).
 */
export function decodeKeywords(bytes: Buffer, key: string): StoredKeywords | undefined {
  try {
    const c = decodeContainer(bytes, KIND);
    if (!c || c.head.key !== key) return undefined;
    const m = metaOf(c.head.meta, c.head.sections);
    if (!m) return undefined;
    const s = c.sections;
    const view = <T>(Ctor: new (b: ArrayBufferLike, o: number, n: number) => T, b: Buffer, size: number) => new Ctor(b.buffer, b.byteOffset, b.length / size);
    const ids = idsOf(s[5]!.toString('utf8'), m.docs);
    if (!ids) return undefined;
    const termAt = view(Uint32Array, s[2]!, 4);
    const postAt = view(Uint32Array, s[3]!, 4);
    const postings = view(Uint32Array, s[4]!, 4);
    const termBytes = s[6]!;
    if (termAt[m.terms] !== termBytes.length || postAt[m.terms] !== m.pairs) return undefined;
    const termOf = (i: number) => termBytes.subarray(termAt[i]!, termAt[i + 1]!);
    return {
      ids,
      lens: view(Float64Array, s[0]!, 8),
      dens: view(Float64Array, s[1]!, 8),
      avgLen: m.avgLen,
      postingsOf(term) {
        const at = termIndex(termOf, m.terms, term);
        if (at < 0) return undefined;
        const from = postAt[at]!;
        const to = postAt[at + 1]!;
        // a posting naming no document is caught where it is read (searchKeywords)
        if (!(from <= to && to <= m.pairs)) throw new KeywordCacheDamaged();
        return postings.subarray(from * 2, to * 2);
      },
    };
  } catch (e) {
    if (e instanceof KeywordCacheDamaged) throw e;
    return undefined;
  }
}

/** An index read from its file section by section, postings when a term is looked up; `close` ends the reading. */
export interface OpenKeywords {
  source: StoredKeywords;
  close(): void;
}

/**
 * The index in a file under `key`, as decodeKeywords gives it from the whole file, but
 * reading only the header, the per-document lengths, the term dictionary and the ids, and a
 * term's postings when it is looked up (a question names a few terms of thousands: most of
 * the file is postings). Undefined when the file is absent, of another kind, version, key or
 * length, or does not hold together; a posting out of range is caught while scoring
 * (KeywordCacheDamaged), as from a whole read.
 */
export function openKeywords(file: string | undefined, key: string): OpenKeywords | undefined {
  const c = OpenContainer.open(file, KIND);
  if (!c) return undefined;
  try {
    if (c.head.key !== key) throw new Error('key');
    const m = metaOf(c.head.meta, c.head.sections);
    if (!m) throw new Error('meta');
    const lens = new Float64Array(m.docs);
    const dens = new Float64Array(m.docs);
    const termAt = new Uint32Array(m.terms + 1);
    const postAt = new Uint32Array(m.terms + 1);
    c.readInto(0, lens);
    c.readInto(1, dens);
    c.readInto(2, termAt);
    c.readInto(3, postAt);
    const ids = idsOf(c.read(5).toString('utf8'), m.docs);
    const termBytes = c.read(6);
    if (!ids || termAt[m.terms] !== termBytes.length || postAt[m.terms] !== m.pairs) throw new Error('offsets');
    const termOf = (i: number) => termBytes.subarray(termAt[i]!, termAt[i + 1]!);
    const source: StoredKeywords = {
      ids,
      lens,
      dens,
      avgLen: m.avgLen,
      postingsOf(term) {
        const at = termIndex(termOf, m.terms, term);
        if (at < 0) return undefined;
        const from = postAt[at]!;
        const to = postAt[at + 1]!;
        if (!(from <= to && to <= m.pairs) || !c.open) throw new KeywordCacheDamaged();
        const p = new Uint32Array((to - from) * 2);
        try {
          c.readInto(4, p, from * 8);
        } catch {
          throw new KeywordCacheDamaged();
        }
        return p;
      },
    };
    return { source, close: () => c.close() };
  } catch {
    c.close();
    return undefined;
  }
}

// @decision DEC-141
/**
 * The keyword index files of a repository, the latest written first; none outside one or with
 * caches off. Two indexes are kept: a pull request's run searches the records at its base and
 * at its head, and `for` in the working tree beside `pr` or `--at` asks of two sets in turn; with
 * one file each rebuilt the other's index every run (JabRef: 0.5 s of a warm 2.2 s `pr`).
 */
export function keywordFiles(root: string | undefined): string[] {
  if (!root) return [];
  const latest = kindFile(root, 'retrieve-keywords', 'latest');
  const previous = kindFile(root, 'retrieve-keywords', 'previous');
  return latest && previous ? [latest, previous] : [];
}

/**
 * Keep an index's bytes as the latest keyword index, the one written before it as the
 * previous (the one before that is dropped), and remove the files of earlier versions.
 */
export function writeKeywords(files: readonly string[], bytes: Buffer): boolean {
  const [latest, previous] = files;
  if (!latest) return false;
  try {
    if (previous) renameSync(latest, previous);
  } catch {
    // no latest yet (or it cannot be moved aside): it is overwritten
  }
  if (!writeCacheFile(latest, bytes)) return false;
  // the files an earlier version kept the index in (the kind's `formerly`)
  for (const old of formerFiles('retrieve-keywords', latest)) {
    try {
      rmSync(old, { force: true });
    } catch {
      /* best effort */
    }
  }
  return true;
}
