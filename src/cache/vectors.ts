// @spec SPEC-CACHE-001

import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { decodeContainer, encodeContainer } from './container.js';
import { readCacheBytes, writeCacheFile } from './file.js';
import { cacheKind } from './kinds.js';
import { cacheDir, cachesOff, kindFile } from './memo.js';

/**
 * Record vectors under `<git-dir>/ctx/cache/vectors/`, one flat binary file per (provider,
 * model): switching embedder never mixes vectors. Entries are keyed by a content hash of
 * what was embedded, so an edited record is embedded again and an unchanged one never is.
 *
 * Format: a container of the `vectors` kind (container.ts), keyed by the plan's set key (or
 * ''), its meta {provider, model, dims, count, space?, plan?} and its sections
 *   16-byte key × count | f32 vector × count × dims [| u32 row × plan.records | f64 norm × plan.records]
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

const KIND = cacheKind('vectors');
const KEY_BYTES = 16;

/** The vector file of an embedder (`default--glove-6b-100d-sif-1.bin`); undefined outside a repository or when caches are off. */
export function vectorFile(root: string, provider: string, model: string): string | undefined {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
  return kindFile(root, 'vectors', `${safe(provider)}--${safe(model)}`);
}

/** Every vector file of a repository (any provider), by file name; none when caches are off. */
export function vectorFiles(root: string): { file: string; content?: VectorFile }[] {
  const dir = cacheDir(root);
  return cachesOff() || !dir ? [] : listVectorFiles(path.join(dir, path.dirname(KIND.file)));
}

type Meta = { provider?: unknown; model?: unknown; dims?: unknown; count?: unknown; space?: { digest?: unknown; state?: unknown }; plan?: { key?: unknown; records?: unknown } };

/** The container's parts when they hold together: `count` keys, `count × dims` floats, and a plan's rows and norms. */
function partsOf(buf: Buffer): { meta: Meta; key: string; dims: number; count: number; keys: Buffer; vectors: Buffer; rows?: Buffer; norms?: Buffer } | undefined {
  const c = decodeContainer(buf, KIND);
  if (!c) return undefined;
  const meta = (c.head.meta ?? {}) as Meta;
  const { dims, count } = meta;
  if (typeof dims !== 'number' || typeof count !== 'number' || !Number.isInteger(dims) || !Number.isInteger(count) || dims < 0 || count < 0) return undefined;
  const [keys, vectors, rows, norms] = c.sections;
  if (!keys || !vectors || keys.length !== count * KEY_BYTES || vectors.length !== count * dims * 4) return undefined;
  const records = meta.plan?.records;
  if (meta.plan !== undefined && !(typeof records === 'number' && Number.isInteger(records) && rows?.length === records * 4 && norms?.length === records * 8)) return undefined;
  return { meta, key: c.head.key, dims, count, keys, vectors, rows, norms };
}

/** A vector file's content; undefined when absent, damaged or of another version (a miss). */
export function readVectorFile(file: string): VectorFile | undefined {
  const buf = readCacheBytes(file);
  if (!buf) return undefined;
  try {
    const p = partsOf(buf);
    if (!p) return undefined;
    const { meta: header, dims, count } = p;
    if (typeof header.provider !== 'string' || typeof header.model !== 'string') return undefined;
    const all = new Float32Array(p.vectors.buffer, p.vectors.byteOffset, count * dims);
    const entries = new Map<string, Float32Array>();
    // one hex conversion of every key at once: a call per key costs more than the rest of the read
    const hex = p.keys.toString('hex');
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

/**
 * The vector file's rows and the plan of the set keyed `key`, viewed in place (no map of
 * entries); undefined when the file is absent, damaged, or holds no plan for that key.
 */
export function readVectorPlan(file: string | undefined, key: string): PlannedVectors | undefined {
  const bytes = readCacheBytes(file);
  if (!bytes) return undefined;
  try {
    const p = partsOf(bytes);
    if (!p || !p.rows || !p.norms || p.key !== key) return undefined;
    const { meta: header, dims, count } = p;
    if (header.plan?.key !== key || typeof header.provider !== 'string' || typeof header.model !== 'string') return undefined;
    const state = header.space?.state;
    if (!Array.isArray(state) || !state.every((x) => typeof x === 'number')) return undefined;
    const records = header.plan.records as number;
    const rows = new Uint32Array(p.rows.buffer, p.rows.byteOffset, records);
    // a row past the vectors is a damaged file, never an index out of range
    for (let i = 0; i < rows.length; i++) if (!(rows[i]! < count)) return undefined;
    return {
      provider: header.provider,
      model: header.model,
      dims,
      vectors: new Float32Array(p.vectors.buffer, p.vectors.byteOffset, count * dims),
      state: state as number[],
      plan: { key, rows, norms: new Float64Array(p.norms.buffer, p.norms.byteOffset, records) },
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
export function writeVectorFile(file: string | undefined, v: VectorFile, plan?: { key: string; keys: readonly string[]; norms: readonly number[] }): boolean {
  const keys = [...v.entries.keys()].sort();
  const rowOf = new Map(keys.map((k, i) => [k, i]));
  // a plan naming a vector the file lacks is not written (never a wrong row)
  const usable = plan && plan.keys.length === plan.norms.length && v.space && plan.keys.every((k) => rowOf.has(k)) ? plan : undefined;
  const meta = { provider: v.provider, model: v.model, dims: v.dims, count: keys.length, ...(v.space ? { space: v.space } : {}), ...(usable ? { plan: { key: usable.key, records: usable.keys.length } } : {}) };
  const keyBytes = Buffer.alloc(keys.length * KEY_BYTES);
  const vectors = new Float32Array(keys.length * v.dims);
  keys.forEach((k, i) => {
    keyBytes.write(k, i * KEY_BYTES, 'hex');
    vectors.set(v.entries.get(k)!, i * v.dims);
  });
  const sections: Uint8Array[] = [keyBytes, new Uint8Array(vectors.buffer)];
  if (usable) {
    const rows = new Uint32Array(usable.keys.map((k) => rowOf.get(k)!));
    const norms = new Float64Array(usable.norms);
    sections.push(new Uint8Array(rows.buffer), new Uint8Array(norms.buffer));
  }
  return writeCacheFile(file, encodeContainer(KIND, usable?.key ?? '', sections, meta, keys.length));
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
