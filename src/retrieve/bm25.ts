// @spec SPEC-RETRIEVE-001

import { closeSync, fstatSync, openSync, readSync, rmSync } from 'node:fs';
import type { Artifact } from '../artifacts/types.js';
import { cacheFile } from '../git/git-dir.js';
import { MAX_CACHE_READ_BYTES, writeCacheFile } from '../cache/file.js';
import { mark, now } from '../util/timing.js';
import { sha256 } from '../util/hash.js';
import { terms } from './text.js';
import { scoringKernels, type ScoringKernels } from './kernels.js';

/**
 * BM25 over records, fields weighted (title and keywords count thrice, summary twice, body
 * once: a simplified BM25F). Built as plain data, and cached under `.git/ctx` keyed by the
 * records' content (ids + blob ids) in a compact binary form (see encodeKeywordIndex): a
 * warm search maps the file, finds the query's terms by binary search in the term
 * dictionary and decodes only their postings; it never decodes a record's body.
 */
export interface KeywordIndex {
  /** record ids, by document number */
  ids: string[];
  /** weighted length of each document */
  lens: number[];
  avgLen: number;
  /** term → flat [doc, weighted tf, doc, weighted tf, …] */
  postings: Record<string, number[]>;
}

/** What searching needs of an index: built in memory (KeywordIndex) or read from the cache. */
export interface KeywordSource {
  ids: readonly string[];
  lens: ArrayLike<number>;
  avgLen: number;
  /** each document's length part of the BM25 denominator, `K1 × (1 − B + B × len / avgLen)` (computed when absent) */
  dens?: ArrayLike<number>;
  /** a term's flat [doc, weighted tf, …] list, docs ascending; undefined when no document has it */
  postingsOf(term: string): ArrayLike<number> | undefined;
}

export interface KeywordHit {
  id: string;
  score: number;
  /** matched query terms, best contribution first */
  matched: string[];
}

const FIELD_WEIGHTS = { title: 3, keywords: 3, summary: 2, body: 1 } as const;
const K1 = 1.2;
const B = 0.75;
const CACHE_VERSION = 'bm25-v1';
/** Bodies past this many characters add little and cost time. */
const MAX_BODY = 20_000;
const CACHE_NAME = 'retrieve-keywords.bin';
/** The JSON cache of earlier versions, removed when the binary one is written. */
const OLD_CACHE_NAME = 'retrieve-keywords.json';

export function buildKeywordIndex(artifacts: readonly Artifact[]): KeywordIndex {
  const ids: string[] = [];
  const lens: number[] = [];
  const postings = new Map<string, number[]>();
  for (const a of artifacts) {
    const doc = ids.length;
    ids.push(a.id);
    const tf = new Map<string, number>();
    let len = 0;
    const add = (text: string | undefined, w: number) => {
      if (!text) return;
      for (const t of terms(text)) {
        tf.set(t, (tf.get(t) ?? 0) + w);
        len += w;
      }
    };
    add(a.title, FIELD_WEIGHTS.title);
    add(a.id, FIELD_WEIGHTS.title);
    add(a.keywords.join(' '), FIELD_WEIGHTS.keywords);
    add(a.summary, FIELD_WEIGHTS.summary);
    add(a.body.length > MAX_BODY ? a.body.slice(0, MAX_BODY) : a.body, FIELD_WEIGHTS.body);
    lens.push(len);
    for (const [t, n] of tf) {
      let p = postings.get(t);
      if (!p) postings.set(t, (p = []));
      p.push(doc, n);
    }
  }
  const avgLen = lens.length ? lens.reduce((x, y) => x + y, 0) / lens.length : 0;
  return { ids, lens, avgLen, postings: Object.fromEntries(postings) };
}

/** An in-memory index as a source for searchKeywords. */
export function sourceOf(index: KeywordIndex): KeywordSource {
  return { ids: index.ids, lens: index.lens, avgLen: index.avgLen, postingsOf: (t) => (Object.hasOwn(index.postings, t) ? index.postings[t] : undefined) };
}

/*
 * The cache file, little-endian, every section 8-byte aligned:
 *   "GCKI" | u32 format | u32 header bytes | u32 reserved | header JSON {key, docs, terms, avgLen, idBytes, termBytes, pairs}
 *   lens    f64 × docs
 *   dens    f64 × docs          each document's length part of the BM25 denominator (lengthPart)
 *   termAt  u32 × (terms + 1)   byte offsets into the term bytes (terms sorted by their UTF-8 bytes)
 *   postAt  u32 × (terms + 1)   pair offsets into the postings
 *   postings u32 × 2 × pairs    doc, weighted tf (both whole numbers)
 *   ids     JSON array of the record ids (UTF-8)
 *   terms   the terms' UTF-8 bytes, back to back
 * A file of another format, length or key is a miss; so is one whose numbers do not hold
 * together (a posting naming no document): the index is then built again.
 */
const MAGIC = 'GCKI';
const FORMAT = 1;
const align8 = (n: number) => (n + 7) & ~7;

interface Layout {
  docs: number;
  terms: number;
  pairs: number;
  idBytes: number;
  termBytes: number;
  lens: number;
  dens: number;
  termAt: number;
  postAt: number;
  postings: number;
  ids: number;
  termBytesAt: number;
  end: number;
}

/** The header's layout and average length, when it parses, is for `key` and holds whole counts. */
function headerOf(text: string, headerBytes: number, key: string): { layout: Layout; avgLen: number } | undefined {
  const h = JSON.parse(text) as { key?: unknown; docs?: unknown; terms?: unknown; pairs?: unknown; idBytes?: unknown; termBytes?: unknown; avgLen?: unknown };
  if (h.key !== key) return undefined;
  const whole = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
  if (!whole(h.docs) || !whole(h.terms) || !whole(h.pairs) || !whole(h.idBytes) || !whole(h.termBytes) || typeof h.avgLen !== 'number') return undefined;
  return { layout: layoutOf(headerBytes, { docs: h.docs, terms: h.terms, pairs: h.pairs, idBytes: h.idBytes, termBytes: h.termBytes }), avgLen: h.avgLen };
}

function layoutOf(headerBytes: number, h: { docs: number; terms: number; pairs: number; idBytes: number; termBytes: number }): Layout {
  const lens = align8(16 + headerBytes);
  const dens = lens + h.docs * 8;
  const termAt = align8(dens + h.docs * 8);
  const postAt = align8(termAt + (h.terms + 1) * 4);
  const postings = align8(postAt + (h.terms + 1) * 4);
  const ids = align8(postings + h.pairs * 8);
  const termBytesAt = align8(ids + h.idBytes);
  return { ...h, lens, dens, termAt, postAt, postings, ids, termBytesAt, end: termBytesAt + h.termBytes };
}

/** The index as the bytes of the cache file, under `key`. */
export function encodeKeywordIndex(index: KeywordIndex, key: string): Buffer {
  const entries = Object.keys(index.postings).map((t) => [t, Buffer.from(t, 'utf8')] as const);
  entries.sort((a, b) => Buffer.compare(a[1], b[1]));
  const idBuf = Buffer.from(JSON.stringify(index.ids), 'utf8');
  const termBuf = Buffer.concat(entries.map((e) => e[1]));
  let pairs = 0;
  for (const [t] of entries) pairs += index.postings[t]!.length / 2;
  const h = { key, docs: index.ids.length, terms: entries.length, pairs, idBytes: idBuf.length, termBytes: termBuf.length, avgLen: index.avgLen };
  const header = Buffer.from(JSON.stringify(h), 'utf8');
  const L = layoutOf(header.length, h);
  const buf = Buffer.alloc(L.end);
  buf.write(MAGIC, 0, 'latin1');
  buf.writeUInt32LE(FORMAT, 4);
  buf.writeUInt32LE(header.length, 8);
  header.copy(buf, 16);
  const dens = lengthParts(index.lens, index.avgLen);
  for (let i = 0; i < h.docs; i++) {
    buf.writeDoubleLE(index.lens[i]!, L.lens + i * 8);
    buf.writeDoubleLE(dens[i]!, L.dens + i * 8);
  }
  let tAt = 0;
  let pAt = 0;
  entries.forEach(([t, bytes], i) => {
    buf.writeUInt32LE(tAt, L.termAt + i * 4);
    buf.writeUInt32LE(pAt, L.postAt + i * 4);
    const p = index.postings[t]!;
    for (let j = 0; j < p.length; j++) buf.writeUInt32LE(p[j]!, L.postings + (pAt * 2 + j) * 4);
    tAt += bytes.length;
    pAt += p.length / 2;
  });
  buf.writeUInt32LE(tAt, L.termAt + h.terms * 4);
  buf.writeUInt32LE(pAt, L.postAt + h.terms * 4);
  idBuf.copy(buf, L.ids);
  termBuf.copy(buf, L.termBytesAt);
  return buf;
}

/**
 * The index stored in `bytes` under `key`, as a search source; undefined when the bytes are
 * of another format or key, or do not hold together (truncated, overwritten).
 */
export function decodeKeywordIndex(bytes: Buffer, key: string): KeywordSource | undefined {
  try {
    if (bytes.length < 16 || bytes.toString('latin1', 0, 4) !== MAGIC || bytes.readUInt32LE(4) !== FORMAT) return undefined;
    const headerBytes = bytes.readUInt32LE(8);
    const h = headerOf(bytes.toString('utf8', 16, 16 + headerBytes), headerBytes, key);
    if (!h) return undefined;
    const L = h.layout;
    if (bytes.length !== L.end) return undefined;
    // typed views need aligned offsets: a buffer from a shared pool may start anywhere
    const buf = bytes.byteOffset % 8 === 0 ? bytes : Buffer.from(bytes);
    const ab = buf.buffer;
    const o = buf.byteOffset;
    const ids = JSON.parse(buf.toString('utf8', L.ids, L.ids + L.idBytes)) as unknown;
    if (!Array.isArray(ids) || ids.length !== L.docs || !ids.every((x) => typeof x === 'string')) return undefined;
    const lens = new Float64Array(ab, o + L.lens, L.docs);
    const dens = new Float64Array(ab, o + L.dens, L.docs);
    const termAt = new Uint32Array(ab, o + L.termAt, L.terms + 1);
    const postAt = new Uint32Array(ab, o + L.postAt, L.terms + 1);
    const postings = new Uint32Array(ab, o + L.postings, L.pairs * 2);
    if (termAt[L.terms] !== L.termBytes || postAt[L.terms] !== L.pairs) return undefined;
    const termBytes = buf.subarray(L.termBytesAt, L.end);
    const termOf = (i: number) => termBytes.subarray(termAt[i]!, termAt[i + 1]!);
    return {
      ids: ids as string[],
      lens,
      dens,
      avgLen: h.avgLen,
      postingsOf(term) {
        const at = termIndex(termOf, L.terms, term);
        if (at < 0) return undefined;
        const from = postAt[at]!;
        const to = postAt[at + 1]!;
        // a posting naming no document is caught where it is read (searchKeywords)
        if (!(from <= to && to <= L.pairs)) throw new KeywordCacheDamaged();
        return postings.subarray(from * 2, to * 2);
      },
    };
  } catch (e) {
    if (e instanceof KeywordCacheDamaged) throw e;
    return undefined;
  }
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

/** Fill `into` from `at` of an open file, all of it or throw. */
function readInto(fd: number, into: ArrayBufferView, at: number): void {
  const bytes = new Uint8Array(into.buffer, into.byteOffset, into.byteLength);
  let got = 0;
  while (got < bytes.length) {
    const k = readSync(fd, bytes, got, bytes.length - got, at + got);
    if (k <= 0) throw new Error('short read');
    got += k;
  }
}

/** An index read from its file section by section, postings when a term is looked up; `close` ends the reading. */
export interface OpenKeywordIndex {
  source: KeywordSource;
  close(): void;
}

const closer = new FinalizationRegistry<{ fd?: number }>((h) => {
  if (h.fd === undefined) return;
  try {
    closeSync(h.fd);
  } catch {
    /* already closed */
  }
});

/**
 * The index in the cache file under `key`, as decodeKeywordIndex gives it from the whole
 * file, but reading only the header, the per-document lengths, the term dictionary and the
 * ids, and a term's postings when it is looked up (a question names a few terms of
 * thousands: most of the file is postings). Undefined when the file is absent, of another
 * format, key or length, or does not hold together; a posting out of range is caught while
 * scoring (KeywordCacheDamaged), as from a whole read.
 */
export function openKeywordIndex(file: string | undefined, key: string): OpenKeywordIndex | undefined {
  if (!file) return undefined;
  const t0 = now();
  const h0: { fd?: number } = {};
  const close = () => {
    if (h0.fd === undefined) return;
    const fd = h0.fd;
    h0.fd = undefined;
    closer.unregister(h0);
    try {
      closeSync(fd);
    } catch {
      /* already closed */
    }
  };
  try {
    h0.fd = openSync(file, 'r');
    const fd = h0.fd;
    const size = fstatSync(fd).size;
    if (size < 16 || size > MAX_CACHE_READ_BYTES) throw new Error('size');
    const first = Buffer.alloc(16);
    readInto(fd, first, 0);
    if (first.toString('latin1', 0, 4) !== MAGIC || first.readUInt32LE(4) !== FORMAT) throw new Error('format');
    const headerBytes = first.readUInt32LE(8);
    if (16 + headerBytes > size) throw new Error('header');
    const hb = Buffer.alloc(headerBytes);
    readInto(fd, hb, 16);
    const h = headerOf(hb.toString('utf8'), headerBytes, key);
    if (!h) throw new Error('header');
    const L = h.layout;
    if (size !== L.end) throw new Error('length');
    const lens = new Float64Array(L.docs);
    const dens = new Float64Array(L.docs);
    const termAt = new Uint32Array(L.terms + 1);
    const postAt = new Uint32Array(L.terms + 1);
    readInto(fd, lens, L.lens);
    readInto(fd, dens, L.dens);
    readInto(fd, termAt, L.termAt);
    readInto(fd, postAt, L.postAt);
    if (termAt[L.terms] !== L.termBytes || postAt[L.terms] !== L.pairs) throw new Error('offsets');
    // the ids and the term bytes: the file's last two sections, one read
    const tail = Buffer.alloc(L.end - L.ids);
    readInto(fd, tail, L.ids);
    const ids = JSON.parse(tail.toString('utf8', 0, L.idBytes)) as unknown;
    if (!Array.isArray(ids) || ids.length !== L.docs || !ids.every((x) => typeof x === 'string')) throw new Error('ids');
    const termBytes = tail.subarray(L.termBytesAt - L.ids);
    const termOf = (i: number) => termBytes.subarray(termAt[i]!, termAt[i + 1]!);
    mark(`cache read ${CACHE_NAME}: ${((16 + headerBytes + 16 * L.docs + 8 * (L.terms + 1) + tail.length) / 1024).toFixed(0)} KB of ${(size / 1024).toFixed(0)} KB in ${(now() - t0).toFixed(1)} ms`);
    const source: KeywordSource = {
      ids: ids as string[],
      lens,
      dens,
      avgLen: h.avgLen,
      postingsOf(term) {
        const at = termIndex(termOf, L.terms, term);
        if (at < 0) return undefined;
        const from = postAt[at]!;
        const to = postAt[at + 1]!;
        // a posting naming no document is caught where it is read (searchKeywords)
        if (!(from <= to && to <= L.pairs) || h0.fd === undefined) throw new KeywordCacheDamaged();
        const p = new Uint32Array((to - from) * 2);
        try {
          readInto(h0.fd, p, L.postings + from * 8);
        } catch {
          throw new KeywordCacheDamaged();
        }
        return p;
      },
    };
    // the file closes when the source is collected, if no one closed it
    closer.register(source, h0, h0);
    return { source, close };
  } catch {
    close();
    return undefined;
  }
}

/** A cached index whose numbers do not hold together: searched again from a fresh build. */
export class KeywordCacheDamaged extends Error {}

/** The cache key of a set's records: ids, blob ids and origins, in order. */
export function keywordIndexKey(artifacts: readonly Artifact[]): string {
  let s = CACHE_VERSION;
  for (const a of artifacts) s += `\n${a.id}\0${a.blob}\0${a.origin}`;
  return sha256(s);
}

/**
 * The key of a set's keyword index: the finished artifact set's key when it has one (it
 * determines every record's id and text: DEC-037), else the records' ids, blob ids and origins.
 */
export function keywordKeyOf(artifacts: readonly Artifact[], setKey?: string): string {
  return setKey ? sha256(`${CACHE_VERSION}\nset ${setKey}`) : keywordIndexKey(artifacts);
}

/**
 * The index of a set's records, from the cache when their content is unchanged (`setKey`:
 * the set's key, see keywordKeyOf). A cached index reads its postings from the file when
 * searched: `close` when done (also closed when collected).
 */
export function keywordIndexFor(root: string | undefined, artifacts: readonly Artifact[], setKey?: string): { index: KeywordSource; cached: boolean; close(): void } {
  const key = keywordKeyOf(artifacts, setKey);
  const file = root ? cacheFile(root, CACHE_NAME) : undefined;
  const hit = openKeywordIndex(file, key);
  if (hit) return { index: hit.source, cached: true, close: hit.close };
  const index = buildKeywordIndex(artifacts);
  if (file && writeCacheFile(file, encodeKeywordIndex(index, key))) {
    try {
      rmSync(file.slice(0, -CACHE_NAME.length) + OLD_CACHE_NAME, { force: true });
    } catch {
      /* best effort */
    }
  }
  return { index: sourceOf(index), cached: false, close: () => undefined };
}

/**
 * Search a set's records: from the cached index, or (when the cache turns out damaged while
 * searching) from a fresh build, which replaces it.
 */
export function searchRecords(root: string | undefined, artifacts: readonly Artifact[], query: Map<string, number>, limit = 50, setKey?: string): KeywordHit[] {
  const { index, cached, close } = keywordIndexFor(root, artifacts, setKey);
  try {
    return searchKeywords(index, query, limit);
  } catch (e) {
    if (!(cached && e instanceof KeywordCacheDamaged)) throw e;
    const fresh = buildKeywordIndex(artifacts);
    const file = root ? cacheFile(root, CACHE_NAME) : undefined;
    writeCacheFile(file, encodeKeywordIndex(fresh, keywordKeyOf(artifacts, setKey)));
    return searchKeywords(fresh, query, limit);
  } finally {
    close();
  }
}

/**
 * Score documents for weighted query terms (term → weight; a passage of code gives some
 * terms more weight than others). Returns the documents any term reached, best first
 * (ties by id).
 */
export function searchKeywords(index: KeywordIndex | KeywordSource, query: Map<string, number>, limit = 50): KeywordHit[] {
  const src = 'postingsOf' in index ? index : sourceOf(index);
  const n = src.ids.length;
  if (!n) return [];
  // the formula as ever, its per-document and per-term parts computed once (the same
  // numbers, fewer operations in a loop that runs once per process, mostly unoptimised):
  // score += (qw × idf) × (tf × (K1 + 1) / (tf + lengthPart(doc)))
  const dens = src.dens ?? lengthParts(src.lens, src.avgLen);
  const k1 = K1 + 1;
  const lists: { term: string; w: number; p: ArrayLike<number> }[] = [];
  for (const [term, qw] of query) {
    const p = src.postingsOf(term);
    if (!p) continue;
    const df = p.length / 2;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    lists.push({ term, w: qw * idf, p });
  }
  // every document's score, and the documents in the order a term first reached them (the order ties keep)
  const { scores, docs } = scoreLists(lists, dens, n, k1);
  const ids = src.ids;
  // only the best `limit` are ranked: the score of the limit-th best (a native sort of
  // numbers) bounds them, and every document at or above it (ties included) is sorted as
  // before, so the answer is the one a sort of all of them gives
  let pool = docs;
  if (docs.length > limit * 4 && limit > 0) {
    const all = new Float64Array(docs.length);
    for (let i = 0; i < docs.length; i++) all[i] = scores[docs[i]!]!;
    all.sort();
    const bar = all[all.length - limit]!;
    pool = docs.filter((d) => scores[d]! >= bar);
  }
  // the same comparator as ever: equal scores by id (a duplicate id, a broken set, after the other)
  pool.sort((a, b) => scores[b]! - scores[a]! || (ids[a]! < ids[b]! ? -1 : 1));
  const top = pool.slice(0, limit);
  // the matched terms of the documents shown only, each with its contribution
  const rank = new Int32Array(n).fill(-1);
  top.forEach((d, i) => (rank[d] = i));
  const matched: [string, number][][] = top.map(() => []);
  for (const l of lists) {
    for (let i = 0; i < l.p.length; i += 2) {
      const r = rank[l.p[i]!]!;
      if (r < 0) continue;
      const tf = l.p[i + 1]!;
      matched[r]!.push([l.term, l.w * ((tf * k1) / (tf + dens[l.p[i]!]!))]);
    }
  }
  return top.map((doc, i) => ({
    id: ids[doc]!,
    score: scores[doc]!,
    matched: matched[i]!.sort((a, b) => b[1] - a[1]).map(([t]) => t),
  }));
}

/**
 * score[doc] += w × (tf × k1 / (tf + dens[doc])) over every list's postings, in order: in the
 * WebAssembly kernel when it runs here (the same numbers, DEC-042), else in this loop.
 */
export function scoreLists(lists: readonly { w: number; p: ArrayLike<number> }[], dens: ArrayLike<number>, n: number, k1: number, kernels = scoringKernels()): { scores: Float64Array; docs: number[] } {
  const fast = kernels && scoreListsWasm(kernels, lists, dens, n, k1);
  if (fast) return fast;
  const scores = new Float64Array(n);
  const reached = new Uint8Array(n);
  const docs: number[] = [];
  for (const { w, p } of lists) {
    for (let i = 0; i < p.length; i += 2) {
      const doc = p[i]!;
      if (!(doc < n)) throw new KeywordCacheDamaged();
      const tf = p[i + 1]!;
      scores[doc]! += w * ((tf * k1) / (tf + dens[doc]!));
      if (!reached[doc]) {
        reached[doc] = 1;
        docs.push(doc);
      }
    }
  }
  return { scores, docs };
}

/** scoreLists in the kernel; undefined when its memory cannot hold the lists. */
function scoreListsWasm(k: ScoringKernels, lists: readonly { w: number; p: ArrayLike<number> }[], dens: ArrayLike<number>, n: number, k1: number): { scores: Float64Array; docs: number[] } | undefined {
  // layout, 8-byte aligned: dens f64 × n | scores f64 × n | docs u32 × n | reached u8 × n | the longest list's pairs
  let longest = 0;
  for (const l of lists) if (l.p.length > longest) longest = l.p.length;
  const densAt = 0;
  const scoresAt = n * 8;
  const docsAt = scoresAt + n * 8;
  const reachedAt = docsAt + n * 4;
  const postAt = (reachedAt + n + 7) & ~7;
  const buffer = k.reserve(postAt + longest * 4);
  if (!buffer) return undefined;
  new Float64Array(buffer, densAt, n).set(dens);
  new Float64Array(buffer, scoresAt, n).fill(0);
  new Uint8Array(buffer, reachedAt, n).fill(0);
  const post = new Uint32Array(buffer, postAt, longest);
  let count = 0;
  for (const { w, p } of lists) {
    post.set(p);
    count = k.bm25(postAt, p.length / 2, w, k1, densAt, scoresAt, reachedAt, docsAt, count, n);
    if (count < 0) throw new KeywordCacheDamaged();
  }
  // copied out: the next kernel call may reuse the memory
  const reachedDocs = new Uint32Array(buffer, docsAt, count);
  const docs: number[] = [];
  for (let i = 0; i < count; i++) docs.push(reachedDocs[i]!);
  return { scores: new Float64Array(buffer.slice(scoresAt, scoresAt + n * 8)), docs };
}

/** Each document's length part of the BM25 denominator: K1 × (1 − B + B × len / avgLen). */
function lengthParts(lens: ArrayLike<number>, avgLen: number): Float64Array {
  const avg = avgLen || 1;
  const out = new Float64Array(lens.length);
  for (let i = 0; i < lens.length; i++) out[i] = K1 * (1 - B + (B * lens[i]!) / avg);
  return out;
}

/** Query terms of a question: every term once per occurrence (weight = count). */
export function queryOf(text: string): Map<string, number> {
  const q = new Map<string, number>();
  for (const t of terms(text)) q.set(t, (q.get(t) ?? 0) + 1);
  return q;
}
