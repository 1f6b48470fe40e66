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
 *   header JSON {provider, model, space?} | pad to 4 | 16-byte key × count | f32 vector × count × dims
 */
export interface VectorFile {
  provider: string;
  model: string;
  dims: number;
  /** content key (32 hex) → vector */
  entries: Map<string, Float32Array>;
  /** the embedder's space state over a set of records (digest of their keys, in order), so a query need not estimate it */
  space?: { digest: string; state: number[] };
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
    const header = JSON.parse(buf.toString('utf8', 20, 20 + headerBytes)) as { provider?: unknown; model?: unknown; space?: { digest?: unknown; state?: unknown } };
    const at = 20 + headerBytes + ((4 - ((20 + headerBytes) % 4)) % 4);
    if (typeof header.provider !== 'string' || typeof header.model !== 'string' || buf.length !== at + count * KEY_BYTES + count * dims * 4) return undefined;
    const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length);
    const all = new Float32Array(ab, at + count * KEY_BYTES, count * dims);
    const entries = new Map<string, Float32Array>();
    // one hex conversion of every key at once: a call per key costs more than the rest of the read
    const hex = buf.toString('hex', at, at + count * KEY_BYTES);
    const w = KEY_BYTES * 2;
    for (let i = 0; i < count; i++) entries.set(hex.slice(i * w, (i + 1) * w), all.subarray(i * dims, (i + 1) * dims));
    const sp = header.space;
    const space = sp && typeof sp.digest === 'string' && Array.isArray(sp.state) && sp.state.every((x) => typeof x === 'number') ? { digest: sp.digest, state: sp.state as number[] } : undefined;
    return { provider: header.provider, model: header.model, dims, entries, ...(space ? { space } : {}) };
  } catch {
    return undefined;
  }
}

/** Write a vector file atomically (temporary file renamed over it); false when it could not be. */
export function writeVectorFile(file: string, v: VectorFile): boolean {
  const header = Buffer.from(JSON.stringify({ provider: v.provider, model: v.model, ...(v.space ? { space: v.space } : {}) }), 'utf8');
  const at = 20 + header.length + ((4 - ((20 + header.length) % 4)) % 4);
  const keys = [...v.entries.keys()].sort();
  const buf = Buffer.alloc(at + keys.length * KEY_BYTES + keys.length * v.dims * 4);
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
