// @spec SPEC-SEMANTIC-001

import type { ArtifactSet } from '../artifacts/load.js';
import type { Artifact } from '../artifacts/types.js';
import type { Embedder, VectorSpace } from './embedder.js';
import { readVectorFile, removeFile, vectorFile, vectorFiles, writeVectorFile, type VectorFile } from '../cache/vectors.js';
import { now } from '../util/timing.js';
import { sha256 } from '../util/hash.js';

/** What is embedded for a record: title twice (it names the decision), summary, keywords, body. */
export function recordText(a: Artifact): string {
  return [a.title, a.title, a.summary ?? '', a.keywords.join(' '), a.body].join('\n');
}

/** The cache key of a text under an embedder: provider, model and content, hashed. */
export function contentKey(e: Pick<Embedder, 'provider' | 'model'>, text: string): string {
  return sha256(`${e.provider}\0${e.model}\0${text}`).slice(0, 32);
}

/**
 * A record's cache key within its (provider, model) file: its file's blob id, a content hash
 * git already computed (the file holds everything recordText reads), so a warm query builds
 * and hashes no text. When recordText changes, the default embedder's model name changes
 * with it (a new file). Records without a blob id hash their text.
 */
export function recordKey(e: Pick<Embedder, 'provider' | 'model'>, a: Artifact): string {
  return /^[0-9a-f]{40,64}$/.test(a.blob) ? a.blob.slice(0, 32) : contentKey(e, recordText(a));
}

export interface RecordVectors {
  /** record id → vector (raw, as the embedder produced it) */
  byId: Map<string, Float32Array>;
  /** records embedded now (not found in the cache) */
  embedded: number;
  /** the cache file, when there is one */
  file?: string;
  /** the embedder's space over these records (saved with the vectors: a warm query estimates nothing) */
  space: VectorSpace;
}

/** Records per embed call when the embedder does not say (progress is reported per call). */
const BATCH = 64;
/** While embedding, the cache is saved at most this often, so an interrupted run keeps its work. */
const CHECKPOINT_MS = 2_000;

/**
 * Vectors of the set's records under an embedder: from the cache by content key, the rest
 * embedded (in batches, progress reported) and the cache rewritten when anything was added
 * (also every few seconds during a long run, so a search that times out still makes progress).
 * Orphaned entries stay until `git ctx vectors clean`. A model that now answers with another
 * dimension than its cached vectors (same name, other weights; `dims` when the caller knows
 * it) has every record embedded again.
 */
export async function recordVectors(
  root: string,
  set: ArtifactSet,
  embedder: Embedder,
  opts: { onProgress?: (done: number, total: number) => void; write?: boolean; dims?: number } = {},
): Promise<RecordVectors> {
  const file = vectorFile(root, embedder.provider, embedder.model);
  const stored = file ? readVectorFile(file) : undefined;
  const fresh = (): VectorFile => ({ provider: embedder.provider, model: embedder.model, dims: 0, entries: new Map() });
  const cache: VectorFile = stored && stored.provider === embedder.provider && stored.model === embedder.model ? stored : fresh();
  // the model answers with another length than its cached vectors (same name, other weights)
  if (opts.dims && cache.dims && cache.dims !== opts.dims) {
    cache.entries.clear();
    cache.dims = 0;
    delete cache.space;
  }
  const write = file && opts.write !== false;
  const byId = new Map<string, Float32Array>();
  const keyOf = new Map<string, string>();
  const todo: { id: string; key: string; text: string }[] = [];
  const seen = new Set<string>();
  const plan = () => {
    byId.clear();
    keyOf.clear();
    todo.length = 0;
    seen.clear();
    for (const a of set.artifacts) {
      if (byId.has(a.id)) continue;
      const key = recordKey(embedder, a);
      const v = cache.entries.get(key);
      keyOf.set(a.id, key);
      if (v) byId.set(a.id, v);
      else if (!seen.has(a.id)) {
        seen.add(a.id);
        todo.push({ id: a.id, key, text: recordText(a) });
      }
    }
  };
  plan();
  const step = Math.max(1, embedder.batchSize ?? BATCH);
  let saved = now();
  for (let i = 0; i < todo.length; i += step) {
    const batch = todo.slice(i, i + step);
    const vecs = await embedder.embed(batch.map((t) => t.text));
    if (cache.entries.size && cache.dims && vecs[0] && vecs[0].length !== cache.dims) {
      // the cached vectors are another model's under the same name: start over
      cache.entries.clear();
      cache.dims = 0;
      delete cache.space;
      plan();
      i = -step;
      continue;
    }
    batch.forEach((t, j) => {
      const v = vecs[j]!;
      byId.set(t.id, v);
      cache.entries.set(t.key, v);
      cache.dims = v.length;
    });
    opts.onProgress?.(Math.min(i + step, todo.length), todo.length);
    if (write && i + step < todo.length && now() - saved > CHECKPOINT_MS) {
      writeVectorFile(file, cache);
      saved = now();
    }
  }
  // the space (the default embedder's common component) over these records, in this order:
  // estimated once and saved beside the vectors, reused while the records stay the same
  // (the records in the set's order, whether they were cached or embedded now)
  const records: Float32Array[] = [];
  const keys: string[] = [];
  for (const [id, key] of keyOf) {
    const v = byId.get(id);
    if (!v) continue;
    keys.push(key);
    records.push(v);
  }
  // the hash of the keys back to back (one update: thousands of small ones cost more)
  const digest = sha256(keys.join('')).slice(0, 32);
  let space: VectorSpace;
  let dirty = false;
  if (cache.space?.digest === digest) space = embedder.space(records, cache.space.state);
  else {
    space = embedder.space(records);
    if (space.state) {
      cache.space = { digest, state: space.state };
      dirty = true;
    }
  }
  // the set's records as rows of the file, for a warm search (readVectorPlan): kept while
  // the set's key and this space stay; written only when every record has its vector
  const setPlan = set.key && space.norm && keyOf.size === byId.size ? planOf(set, keyOf, byId, space) : undefined;
  const planStale = setPlan !== undefined && stored?.plan !== set.key;
  if ((todo.length || dirty || planStale) && write && cache.entries.size) writeVectorFile(file, cache, setPlan);
  return { byId, embedded: todo.length, space, ...(file ? { file } : {}) };
}

/** Per record of the set, in its order: its content key and its divisor under `space`. */
function planOf(set: ArtifactSet, keyOf: Map<string, string>, byId: Map<string, Float32Array>, space: VectorSpace): { key: string; keys: string[]; norms: number[] } {
  const keys: string[] = [];
  const norms: number[] = [];
  for (const a of set.artifacts) {
    keys.push(keyOf.get(a.id)!);
    norms.push(space.norm!(byId.get(a.id)!));
  }
  return { key: set.key!, keys, norms };
}

export interface ProviderStatus {
  provider: string;
  model: string;
  /** the embedder in use (config / environment) */
  current: boolean;
  embedded: number;
  missing: number;
  orphaned: number;
  file?: string;
  bytes?: number;
}

export interface VectorStatus {
  provider: string;
  model: string;
  embedded: number;
  missing: number;
  orphaned: number;
  records: number;
  file?: string;
  /** every provider with vectors in the cache, the current one first */
  providers: ProviderStatus[];
}

/** Embedded vs missing vs orphaned records, for the current embedder and every cached one. */
export function vectorStatus(root: string, set: ArtifactSet, embedder: Embedder): VectorStatus {
  const files = vectorFiles(root);
  const records = [...new Map(set.artifacts.map((a) => [a.id, a])).values()];
  const statusOf = (provider: string, model: string, content: VectorFile | undefined, file?: string): ProviderStatus => {
    const wanted = new Set(records.map((a) => recordKey({ provider, model }, a)));
    const have = content?.entries ?? new Map<string, Float32Array>();
    let embedded = 0;
    for (const k of wanted) if (have.has(k)) embedded++;
    let orphaned = 0;
    for (const k of have.keys()) if (!wanted.has(k)) orphaned++;
    return { provider, model, current: provider === embedder.provider && model === embedder.model, embedded, missing: wanted.size - embedded, orphaned, ...(file ? { file } : {}) };
  };
  const currentFile = vectorFile(root, embedder.provider, embedder.model);
  const current = files.find((f) => f.file === currentFile);
  const mine = statusOf(embedder.provider, embedder.model, current?.content, current?.file);
  const others = files.filter((f) => f !== current && f.content).map((f) => statusOf(f.content!.provider, f.content!.model, f.content, f.file));
  return { provider: mine.provider, model: mine.model, embedded: mine.embedded, missing: mine.missing, orphaned: mine.orphaned, records: records.length, ...(mine.file ? { file: mine.file } : {}), providers: [mine, ...others] };
}

export interface CleanResult {
  /** orphaned entries dropped from the files kept */
  removedEntries: number;
  /** files deleted (other providers with --all, damaged files) */
  removedFiles: string[];
}

/**
 * Drop orphaned vectors (records changed or gone) from every provider's file; with `all`,
 * delete every vector file. Damaged files are deleted either way.
 */
export function cleanVectors(root: string, set: ArtifactSet, opts: { all?: boolean } = {}): CleanResult {
  const result: CleanResult = { removedEntries: 0, removedFiles: [] };
  for (const f of vectorFiles(root)) {
    if (opts.all || !f.content) {
      if (removeFile(f.file)) result.removedFiles.push(f.file);
      continue;
    }
    const c = f.content;
    const wanted = new Set(set.artifacts.map((a) => recordKey(c, a)));
    const kept = new Map([...c.entries].filter(([k]) => wanted.has(k)));
    if (kept.size === c.entries.size) continue;
    result.removedEntries += c.entries.size - kept.size;
    if (kept.size === 0) {
      if (removeFile(f.file)) result.removedFiles.push(f.file);
    } else writeVectorFile(f.file, { ...c, entries: kept });
  }
  return result;
}
