// @spec SPEC-CODEGRAPH-001

/*
 * The linked code graph as it is kept in the cache: shards of file entries keyed by the
 * build that wrote them, the blobs an update starts from, and the answers read from them.
 */

import { memo as cacheMemo } from '../../cache/memo.js';
import type { CallSite } from '../neighbours.js';
import type { CodeGraphIndex, CodeGraphProblem, CodeGraphStats } from './index.js';

/** A call site as stored: `[path, symbol, line]`. */
export type Site = [string, string, number];

/** Everything the graph knows about one file: imports, importers, declarations, callers and callees by symbol. */
export interface FileEntry {
  i: string[];
  r: string[];
  d: [string, number, number][];
  c: Record<string, Site[]>;
  e: Record<string, Site[]>;
}

/** The linked index: an entry per code file, and the files the graph could not read fully. */
export interface LinkedIndex {
  files: Map<string, FileEntry> | ShardedEntries;
  problems: [string, string][];
}

/**
 * How the linked index is cached: the `code-graph-index` kind holds the shard count and the
 * problems; the `code-graph-shard` kind (variant n) the entries of the files whose path hashes to n,
 * each keyed like the index, so that a question reads one shard (a few hundred files).
 */
export interface IndexMeta {
  shards: number;
  problems: [string, string][];
  /** per shard, the key of the build that wrote it (an update rewrites only the shards it changed) */
  gens: string[];
}

/**
 * the `code-graph-blobs` kind, keyed like the index: the blob of every code file and the
 * environment (path set and config files) it was linked in. After an edit in the same
 * environment, only the changed files and the files that can see them are linked again.
 */
interface IndexBlobs {
  env: string;
  blobs: Record<string, string>;
}

/** A previous index that an update can start from; its shards are read as the update needs them. */
export interface Previous {
  files: ShardedEntries;
  blobs: Record<string, string>;
  meta: IndexMeta;
}

/** Thrown when a shard of the previous index is gone or rewritten by another run: the update starts over from scratch. */
export class StaleShard extends Error {}

/** The entries of a cached index, read one shard at a time; changes are kept in memory. */
export class ShardedEntries {
  private readonly parts = new Map<number, Map<string, FileEntry>>();

  constructor(
    private readonly root: string,
    private readonly meta: IndexMeta,
  ) {}

  shard(n: number): Map<string, FileEntry> {
    let part = this.parts.get(n);
    if (!part) {
      const v = cacheMemo<Record<string, FileEntry>>(this.root, 'code-graph-shard', String(n)).get(this.meta.gens[n]!);
      if (!v || typeof v !== 'object') throw new StaleShard(`code graph shard ${n} changed`);
      part = new Map(Object.entries(v));
      this.parts.set(n, part);
    }
    return part;
  }

  get(p: string): FileEntry | undefined {
    return this.shard(shardOf(p, this.meta.shards)).get(p);
  }

  set(p: string, e: FileEntry): void {
    this.shard(shardOf(p, this.meta.shards)).set(p, e);
  }
}

/** What answering needs of a set of entries. */
interface Entries {
  get(p: string): FileEntry | undefined;
}
const SHARD_FILES = 400;

export function shardOf(path: string, shards: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193);
  return (h >>> 0) % shards;
}

export const norm = (p: string) => p.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');

export function validMeta(v: unknown): IndexMeta | undefined {
  const m = v as IndexMeta | undefined;
  return m && typeof m === 'object' && Number.isInteger(m.shards) && m.shards > 0 && Array.isArray(m.problems) && Array.isArray(m.gens) && m.gens.length === m.shards ? m : undefined;
}

/** The last index written, when it was linked in the same environment (same paths, same configs). */
export function previous(root: string, env: string): Previous | undefined {
  const raw = cacheMemo<Partial<IndexBlobs> | undefined>(root, 'code-graph-blobs').latest();
  if (!raw || raw.value?.env !== env || !raw.value.blobs || typeof raw.value.blobs !== 'object') return undefined;
  const meta = validMeta(cacheMemo(root, 'code-graph-index').get(raw.key));
  if (!meta) return undefined;
  return { files: new ShardedEntries(root, meta), blobs: raw.value.blobs, meta };
}

export function saveIndex(root: string, key: string, env: string, code: { path: string; blob: string }[], linked: LinkedIndex, update?: { meta: IndexMeta; touched: Set<string> }): void {
  const parts = new Map<number, Record<string, FileEntry>>();
  let shards: number;
  let gens: string[];
  if (update && linked.files instanceof ShardedEntries) {
    shards = update.meta.shards;
    gens = [...update.meta.gens];
    for (const n of new Set([...update.touched].map((p) => shardOf(p, shards)))) parts.set(n, Object.fromEntries(linked.files.shard(n)));
  } else {
    const all = linked.files as Map<string, FileEntry>;
    shards = Math.max(1, Math.ceil(all.size / SHARD_FILES));
    gens = Array.from({ length: shards }, () => key);
    for (let n = 0; n < shards; n++) parts.set(n, {});
    for (const [p, e] of all) parts.get(shardOf(p, shards))![p] = e;
  }
  for (const [n, part] of parts) {
    if (!cacheMemo(root, 'code-graph-shard', String(n)).set(key, part)) return;
    gens[n] = key;
  }
  const blobs: Record<string, string> = {};
  for (const c of code) blobs[c.path] = c.blob;
  cacheMemo<IndexBlobs>(root, 'code-graph-blobs').set(key, { env, blobs });
  // the meta file last: a reader that finds it finds its shards (or, racing another run, shards of another generation, which it rejects)
  cacheMemo<IndexMeta>(root, 'code-graph-index').set(key, { shards, problems: linked.problems, gens });
}

interface ShardSource {
  root: string;
  meta: IndexMeta;
  /** build the index afresh (a shard missing or from another key: a concurrent run rewrote the cache) */
  rebuild(update: false): Promise<LinkedIndex>;
}

export class Neighbours implements CodeGraphIndex {
  readonly languages: readonly string[] = ['typescript', 'javascript', 'python', 'go', 'java', 'ruby', 'rust'];
  readonly problems: CodeGraphProblem[];
  private readonly loaded = new Map<number, Record<string, FileEntry>>();
  private full: Entries | undefined;
  private source: ShardSource | undefined;

  constructor(
    private readonly paths: () => Promise<string[]>,
    problems: [string, string][],
    readonly stats: CodeGraphStats,
    source: Entries | ShardSource,
  ) {
    this.problems = problems.map(([path, reason]) => ({ path, reason }));
    if ('rebuild' in source) this.source = source;
    else this.full = source;
  }

  private async entry(path: string): Promise<FileEntry | undefined> {
    const p = norm(path);
    if (this.full) return this.full.get(p);
    const src = this.source!;
    const n = shardOf(p, src.meta.shards);
    let part = this.loaded.get(n);
    if (!part) {
      const v = cacheMemo(src.root, 'code-graph-shard', String(n)).get(src.meta.gens[n]!);
      if (!v || typeof v !== 'object') {
        this.full = (await src.rebuild(false)).files;
        return this.full.get(p);
      }
      part = v as Record<string, FileEntry>;
      this.loaded.set(n, part);
    }
    return Object.hasOwn(part, p) ? part[p] : undefined;
  }

  async files(): Promise<string[]> {
    return [...(await this.paths())].sort();
  }

  async declarations(path: string): Promise<[string, number, number][]> {
    return [...((await this.entry(path))?.d ?? [])];
  }

  async imports(path: string): Promise<string[]> {
    return [...((await this.entry(path))?.i ?? [])];
  }

  async importers(path: string): Promise<string[]> {
    return [...((await this.entry(path))?.r ?? [])];
  }

  async callers(path: string, symbol: string): Promise<CallSite[]> {
    const e = await this.entry(path);
    return sortSites(e && Object.hasOwn(e.c, symbol) ? e.c[symbol]! : []);
  }

  async callersIn(path: string): Promise<[string, CallSite[]][]> {
    const e = await this.entry(path);
    return e ? Object.keys(e.c).map((s) => [s, sortSites(e.c[s]!)]) : [];
  }

  async callees(path: string, symbol: string): Promise<CallSite[]> {
    const e = await this.entry(path);
    return sortSites(e && Object.hasOwn(e.e, symbol) ? e.e[symbol]! : []);
  }

  async symbolAt(path: string, line: number): Promise<string | undefined> {
    return innermostAt((await this.entry(path))?.d ?? [], line);
  }
}

/** The innermost declaration enclosing a line: the shortest, the later of two as long. */
export function innermostAt(decls: readonly [string, number, number][], line: number): string | undefined {
  let best: [string, number, number] | undefined;
  for (const d of decls) {
    if (d[1] <= line && line <= d[2] && (!best || d[2] - d[1] < best[2] - best[1] || (d[2] - d[1] === best[2] - best[1] && d[1] > best[1]))) best = d;
  }
  return best?.[0];
}

function sortSites(list: Site[]): CallSite[] {
  return list
    .map(([path, symbol, line]) => ({ path, symbol, line }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0)));
}

