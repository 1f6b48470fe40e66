// @spec SPEC-CACHE-001

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { MAX_CACHE_READ_BYTES, readCacheBytes, writeCacheFile } from './file.js';
import { cacheKind, type CacheKind, type CacheKindName } from './kinds.js';
import { kindFile, type Memo } from './memo.js';
import { mark, now } from '../util/timing.js';

/**
 * The one binary format of the caches: a header naming the kind, its version and the key
 * the content answers, then sections of bytes, each starting 8-byte aligned so that a
 * reader can view numbers in place (typed arrays over the file's bytes). A kind's codec
 * decides what its sections hold; this module only frames them.
 *
 * Layout, little-endian:
 *   "GCTX" | u32 format (1) | u32 header bytes | u32 total bytes
 *   header JSON {kind, version, key, sections: [byte length...], meta?}
 *   zero padding to 8, then each section, each padded to 8
 * A file of another format, kind or version, or whose length is not the one written, is a
 * miss: a cut-off or foreign file never reaches a codec.
 */
const MAGIC = 'GCTX';
const FORMAT = 1;
const LEAD = 16;
const align8 = (n: number) => (n + 7) & ~7;

export interface ContainerHead {
  kind: string;
  version: number;
  key: string;
  /** byte length of each section */
  sections: number[];
  /** what the codec keeps beside its sections (counts, names) */
  meta?: unknown;
  /** how many entries the sections hold (records, vectors, blob ids), for `cache status` */
  entries?: number;
}

/** Where each section starts in the file, from a header. */
function offsetsOf(headerBytes: number, sections: number[]): { at: number[]; end: number } {
  let o = align8(LEAD + headerBytes);
  const at: number[] = [];
  for (const n of sections) {
    at.push(o);
    o = align8(o + n);
  }
  return { at, end: o };
}

/** The bytes of a container of `kind` holding `sections` under `key`. */
export function encodeContainer(kind: CacheKind, key: string, sections: readonly Uint8Array[], meta?: unknown, entries?: number): Buffer {
  const head: ContainerHead = { kind: kind.name, version: kind.version, key, sections: sections.map((s) => s.byteLength), ...(meta === undefined ? {} : { meta }), ...(entries === undefined ? {} : { entries }) };
  const header = Buffer.from(JSON.stringify(head), 'utf8');
  const { at, end } = offsetsOf(header.length, head.sections);
  const buf = Buffer.alloc(end);
  buf.write(MAGIC, 0, 'latin1');
  buf.writeUInt32LE(FORMAT, 4);
  buf.writeUInt32LE(header.length, 8);
  buf.writeUInt32LE(end, 12);
  header.copy(buf, LEAD);
  sections.forEach((s, i) => buf.set(s, at[i]!));
  return buf;
}

/** Write a container atomically (temporary file renamed over the target); false when it could not be. */
export function writeContainer(file: string | undefined, kind: CacheKind, key: string, sections: readonly Uint8Array[], meta?: unknown, entries?: number): boolean {
  return writeCacheFile(file, encodeContainer(kind, key, sections, meta, entries));
}

/** A header that parses and belongs to `kind` at its version; undefined otherwise. */
function headOf(lead: Buffer, headerText: string, kind: CacheKind, size: number): { head: ContainerHead; at: number[] } | undefined {
  if (lead.toString('latin1', 0, 4) !== MAGIC || lead.readUInt32LE(4) !== FORMAT || lead.readUInt32LE(12) !== size) return undefined;
  const h = JSON.parse(headerText) as Partial<ContainerHead>;
  if (h.kind !== kind.name || h.version !== kind.version || typeof h.key !== 'string' || !Array.isArray(h.sections) || !h.sections.every((n) => Number.isInteger(n) && n >= 0)) return undefined;
  const { at, end } = offsetsOf(lead.readUInt32LE(8), h.sections);
  return end === size ? { head: h as ContainerHead, at } : undefined;
}

/** A container read whole: its header and its sections as aligned views of one buffer. */
export interface Container {
  head: ContainerHead;
  sections: Buffer[];
}

/** A container's content from its bytes; undefined for another format, kind or version, or a damaged file. */
export function decodeContainer(bytes: Buffer, kind: CacheKind): Container | undefined {
  try {
    if (bytes.length < LEAD) return undefined;
    const headerBytes = bytes.readUInt32LE(8);
    if (LEAD + headerBytes > bytes.length) return undefined;
    const h = headOf(bytes, bytes.toString('utf8', LEAD, LEAD + headerBytes), kind, bytes.length);
    if (!h) return undefined;
    // typed views need aligned offsets: a small read may come from a shared pool
    let buf = bytes;
    if (bytes.byteOffset % 8 !== 0) {
      buf = Buffer.alloc(bytes.length);
      bytes.copy(buf);
    }
    return { head: h.head, sections: h.head.sections.map((n, i) => buf.subarray(h.at[i]!, h.at[i]! + n)) };
  } catch {
    return undefined;
  }
}

/** The container in a cache file, read whole; undefined when absent or not one of `kind`. */
export function readContainer(file: string | undefined, kind: CacheKind): Container | undefined {
  const bytes = readCacheBytes(file);
  return bytes ? decodeContainer(bytes, kind) : undefined;
}

/** Read `into` from `at` of an open file, all of it or throw. */
function readInto(fd: number, into: ArrayBufferView, at: number): void {
  const bytes = new Uint8Array(into.buffer, into.byteOffset, into.byteLength);
  let got = 0;
  while (got < bytes.length) {
    const k = readSync(fd, bytes, got, bytes.length - got, at + got);
    if (k <= 0) throw new Error('short read');
    got += k;
  }
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
 * A container kept open, its sections read when asked for: a kind whose reader needs a
 * small part of a large file (the finished set of 5,000 records and the 20 it shows, a
 * query's few postings among thousands) reads only those bytes. Closed by `close`, or when
 * collected.
 */
export class OpenContainer {
  private readonly h: { fd?: number };
  private constructor(
    readonly head: ContainerHead,
    private readonly at: number[],
    readonly size: number,
    fd: number,
  ) {
    this.h = { fd };
    closer.register(this, this.h, this.h);
  }

  /** The container of `kind` in `file`, its header read; undefined when absent, foreign, damaged or over the read bound. */
  static open(file: string | undefined, kind: CacheKind): OpenContainer | undefined {
    if (!file) return undefined;
    const t0 = now();
    let fd: number | undefined;
    try {
      fd = openSync(file, 'r');
      const size = fstatSync(fd).size;
      if (size < LEAD || size > MAX_CACHE_READ_BYTES) return undefined;
      const lead = Buffer.alloc(LEAD);
      readInto(fd, lead, 0);
      const headerBytes = lead.readUInt32LE(8);
      if (LEAD + headerBytes > size) return undefined;
      const hb = Buffer.alloc(headerBytes);
      readInto(fd, hb, LEAD);
      const h = headOf(lead, hb.toString('utf8'), kind, size);
      if (!h) return undefined;
      const c = new OpenContainer(h.head, h.at, size, fd);
      fd = undefined;
      mark(`cache open ${path.basename(file)}: ${(size / 1024).toFixed(0)} KB in ${(now() - t0).toFixed(1)} ms`);
      return c;
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  get open(): boolean {
    return this.h.fd !== undefined;
  }

  /** Bytes `[from, from + n)` of section `i` (the whole section by default), in a buffer of their own (8-byte aligned). */
  read(i: number, from = 0, n = this.head.sections[i]! - from): Buffer {
    const len = this.head.sections[i]!;
    if (this.h.fd === undefined || !(from >= 0 && n >= 0 && from + n <= len)) throw new Error('out of range');
    const buf = Buffer.alloc(n);
    readInto(this.h.fd, buf, this.at[i]! + from);
    return buf;
  }

  /** Fill a typed array from section `i` at byte `from`. */
  readInto(i: number, into: ArrayBufferView, from = 0): void {
    if (this.h.fd === undefined || from + into.byteLength > this.head.sections[i]!) throw new Error('out of range');
    readInto(this.h.fd, into, this.at[i]! + from);
  }

  close(): void {
    const fd = this.h.fd;
    if (fd === undefined) return;
    this.h.fd = undefined;
    closer.unregister(this.h);
    try {
      closeSync(fd);
    } catch {
      /* already closed */
    }
  }
}

/**
 * The memo of a `container` kind holding one text under one key (a listing): the same
 * contract as a JSON memo, without quoting every line of a large text.
 */
export function textMemo(root: string | undefined, name: CacheKindName, variant = ''): Memo<string> {
  const kind = cacheKind(name);
  const file = root ? kindFile(root, name, variant) : undefined;
  const read = () => readContainer(file, kind);
  return {
    on: file !== undefined,
    get(key) {
      const c = read();
      return c && c.head.key === key ? c.sections[0]!.toString('utf8') : undefined;
    },
    set: (key, value) => writeContainer(file, kind, key, [Buffer.from(value, 'utf8')], undefined, value ? value.split('\n').length : 0),
    latest() {
      const c = read();
      return c ? { key: c.head.key, value: c.sections[0]!.toString('utf8') } : undefined;
    },
  };
}
