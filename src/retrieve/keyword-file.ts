// @spec SPEC-RETRIEVE-001

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { MAX_CACHE_READ_BYTES } from '../cache/file.js';
import { mark, now } from '../util/timing.js';
import { KeywordCacheDamaged, lengthParts, type KeywordIndex, type KeywordSource } from './bm25.js';

/** The keyword index's cache file (under `.git/ctx`). */
export const KEYWORD_CACHE_NAME = 'retrieve-keywords.bin';

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
    mark(`cache read ${KEYWORD_CACHE_NAME}: ${((16 + headerBytes + 16 * L.docs + 8 * (L.terms + 1) + tail.length) / 1024).toFixed(0)} KB of ${(size / 1024).toFixed(0)} KB in ${(now() - t0).toFixed(1)} ms`);
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

