// @spec SPEC-CACHE-001

import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ctxDir } from '../git/git-dir.js';
import { readCacheBytes, writeCacheFile } from './file.js';

/**
 * Record vectors under `<git-dir>/ctx/cache/vectors/`, one flat binary file per (provider,
 * model): switching embedder never mixes vectors. Entries are keyed by a content hash of
 * what was embedded, so an edited record is embedded again and an unchanged one never is.
 *
 * Format (little-endian): "GCVC" | u32 version | u32 dims | u32 count | u32 headerBytes |
 *   header JSON {provider, model, space?, plan?} | pad to 4 | 16-byte key × count | f32 vector × count × dims
 *   [plan: u32 row × plan.records | pad to 8 | f64 norm × plan.records]
 * The optional plan (DEC-037) is a set of records' view of the file: for each record of one
 * artifact set (`plan.key`, the set's key), in the set's order, the row of its vector and
 * its divisor under the saved space (VectorSpace.norm), so a warm search scores the set
 * from this one file without a map of keys. It is written only with the space of those
 * same records, and dropped by every write that does not give it again.
 */
export interface VectorFile {
  provider: string;
  model: string;
  dims: number;
  /** content key (32 hex) → vector */
  entries: Map<string, Float32Array>;
  /** the embedder's space state over a set of records (digest of their keys, in order), so a query need not estimate it */
  space?: { digest: string; state: number[] };
  /** the key of the set whose plan the file holds (as read; writeVectorFile takes a plan explicitly) */
  plan?: string;
}

/** A set's records as rows of a vector file (see the format above). */
export interface VectorPlan {
  /** the artifact set's key (ArtifactSet.key) */
  key: string;
  /** per record of the set, in its order: the row of its vector */
  rows: Uint32Array;
  /** per record: its divisor under the file's space (0: no direction, cosine 0) */
  norms: Float64Array;
}

/** A vector file read for one set: its rows, viewed in place, and the set's plan. */
export interface PlannedVectors {
  provider: string;
  model: string;
  dims: number;
  /** every row's vector, back to back */
  vectors: Float32Array;
  state: number[];
  plan: VectorPlan;
}

const MAGIC = 'GCVC';
const VERSION = 1;
const KEY_BYTES = 16;

/** The directory of vector files; undefined outside a repository or when caches are off. */
export function vectorDir(root: string): string | undefined {
  return process.env.GIT_CTX_NO_CACHE === '1' ? undefined : ctxDir(root, 'cache', 'vectors');
}

/** `default--glove-6b-100d-sif-1.bin`: provider and model, made safe as a file name. */
export function vectorFileName(provider: string, model: string): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
  return `${safe(provider)}--${safe(model)}.bin`;
}

/** A vector file's content; undefined when absent, damaged or of another version (a miss). */
export function readVectorFile(file: string): VectorFile | undefined {
  const buf = readCacheBytes(file);
  if (!buf) return undefined;
  try {
    if (buf.length < 20 || buf.toString('latin1', 0, 4) !== MAGIC || buf.readUInt32LE(4) !== VERSION) return undefined;
    const dims = buf.readUInt32LE(8);
    const count = buf.readUInt32LE(12);
    const headerBytes = buf.readUInt32LE(16);
    const header = JSON.parse(buf.toString('utf8', 20, 20 + headerBytes)) as { provider?: unknown; model?: unknown; space?: { digest?: unknown; state?: unknown }; plan?: { records?: unknown } };
    const at = 20 + headerBytes + ((4 - ((20 + headerBytes) % 4)) % 4);
    const end = at + count * KEY_BYTES + count * dims * 4;
    if (typeof header.provider !== 'string' || typeof header.model !== 'string' || buf.length !== end + planBytes(end, header.plan)) return undefined;
    const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length);
    const all = new Float32Array(ab, at + count * KEY_BYTES, count * dims);
    const entries = new Map<string, Float32Array>();
    // one hex conversion of every key at once: a call per key costs more than the rest of the read
    const hex = buf.toString('hex', at, at + count * KEY_BYTES);
    const w = KEY_BYTES * 2;
    for (let i = 0; i < count; i++) entries.set(hex.slice(i * w, (i + 1) * w), all.subarray(i * dims, (i + 1) * dims));
    const sp = header.space;
    const space = sp && typeof sp.digest === 'string' && Array.isArray(sp.state) && sp.state.every((x) => typeof x === 'number') ? { digest: sp.digest, state: sp.state as number[] } : undefined;
    const plan = (header.plan as { key?: unknown } | undefined)?.key;
    return { provider: header.provider, model: header.model, dims, entries, ...(space ? { space } : {}), ...(typeof plan === 'string' ? { plan } : {}) };
  } catch {
    return undefined;
  }
}

/** Bytes of the plan section after the vectors ending at `end`: 0 without a plan, -1 (never a length) when malformed. */
function planBytes(end: number, plan: { records?: unknown } | undefined): number {
  if (plan === undefined) return 0;
  const n = plan.records;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) return -1;
  return planLayout(end, n).end - end;
}

function planLayout(end: number, records: number): { rows: number; norms: number; end: number } {
  const norms = (end + records * 4 + 7) & ~7;
  return { rows: end, norms, end: norms + records * 8 };
}

/**
 * The vector file's rows and the plan of the set keyed `key`, viewed in place (no map of
 * entries); undefined when the file is absent, damaged, or holds no plan for that key.
 */
export function readVectorPlan(file: string, key: string): PlannedVectors | undefined {
  const bytes = readCacheBytes(file);
  if (!bytes) return undefined;
  try {
    if (bytes.length < 20 || bytes.toString('latin1', 0, 4) !== MAGIC || bytes.readUInt32LE(4) !== VERSION) return undefined;
    const dims = bytes.readUInt32LE(8);
    const count = bytes.readUInt32LE(12);
    const headerBytes = bytes.readUInt32LE(16);
    const header = JSON.parse(bytes.toString('utf8', 20, 20 + headerBytes)) as { provider?: unknown; model?: unknown; space?: { state?: unknown }; plan?: { key?: unknown; records?: unknown } };
    const plan = header.plan;
    if (!plan || plan.key !== key || typeof header.provider !== 'string' || typeof header.model !== 'string') return undefined;
    const state = header.space?.state;
    if (!Array.isArray(state) || !state.every((x) => typeof x === 'number')) return undefined;
    const at = 20 + headerBytes + ((4 - ((20 + headerBytes) % 4)) % 4);
    const end = at + count * KEY_BYTES + count * dims * 4;
    if (bytes.length !== end + planBytes(end, plan)) return undefined;
    const L = planLayout(end, plan.records as number);
    // typed views need aligned offsets: a large read owns its memory from offset 0
    const buf = bytes.byteOffset % 8 === 0 ? bytes : Buffer.from(bytes);
    const ab = buf.buffer;
    const o = buf.byteOffset;
    const rows = new Uint32Array(ab, o + L.rows, plan.records as number);
    // a row past the vectors is a damaged file, never an index out of range
    for (let i = 0; i < rows.length; i++) if (!(rows[i]! < count)) return undefined;
    return {
      provider: header.provider,
      model: header.model,
      dims,
      vectors: new Float32Array(ab, o + at + count * KEY_BYTES, count * dims),
      state: state as number[],
      plan: { key, rows, norms: new Float64Array(ab, o + L.norms, plan.records as number) },
    };
  } catch {
    return undefined;
  }
}

/**
 * Write a vector file atomically (temporary file renamed over it); false when it could not be.
 * `plan`: a set's records (their content keys and divisors, in the set's order) to store as
 * rows, only with `v.space` estimated over those very records.
 */
export function writeVectorFile(file: string, v: VectorFile, plan?: { key: string; keys: readonly string[]; norms: readonly number[] }): boolean {
  const keys = [...v.entries.keys()].sort();
  const rowOf = new Map(keys.map((k, i) => [k, i]));
  // a plan naming a vector the file lacks is not written (never a wrong row)
  const usable = plan && plan.keys.length === plan.norms.length && v.space && plan.keys.every((k) => rowOf.has(k)) ? plan : undefined;
  const header = Buffer.from(JSON.stringify({ provider: v.provider, model: v.model, ...(v.space ? { space: v.space } : {}), ...(usable ? { plan: { key: usable.key, records: usable.keys.length } } : {}) }), 'utf8');
  const at = 20 + header.length + ((4 - ((20 + header.length) % 4)) % 4);
  const end = at + keys.length * KEY_BYTES + keys.length * v.dims * 4;
  const L = planLayout(end, usable ? usable.keys.length : 0);
  const buf = Buffer.alloc(usable ? L.end : end);
  buf.write(MAGIC, 0, 'latin1');
  buf.writeUInt32LE(VERSION, 4);
  buf.writeUInt32LE(v.dims, 8);
  buf.writeUInt32LE(keys.length, 12);
  buf.writeUInt32LE(header.length, 16);
  header.copy(buf, 20);
  const vecAt = at + keys.length * KEY_BYTES;
  keys.forEach((k, i) => {
    buf.write(k, at + i * KEY_BYTES, 'hex');
    const vec = v.entries.get(k)!;
    Buffer.from(vec.buffer, vec.byteOffset, vec.byteLength).copy(buf, vecAt + i * v.dims * 4);
  });
  if (usable) {
    usable.keys.forEach((k, i) => {
      buf.writeUInt32LE(rowOf.get(k)!, L.rows + i * 4);
      buf.writeDoubleLE(usable.norms[i]!, L.norms + i * 8);
    });
  }
  return writeCacheFile(file, buf);
}

/** Every vector file in the directory (any provider), by file name. */
export function listVectorFiles(dir: string | undefined): { file: string; content?: VectorFile }[] {
  if (!dir) return [];
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.bin')).sort();
  } catch {
    return [];
  }
  return names.map((n) => {
    const file = path.join(dir, n);
    const content = readVectorFile(file);
    return content ? { file, content } : { file };
  });
}

export function removeFile(file: string): boolean {
  try {
    rmSync(file, { force: true });
    return true;
  } catch {
    return false;
  }
}
