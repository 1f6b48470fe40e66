// @spec SPEC-CODEGRAPH-001

import { createHash } from 'node:crypto';
import { cacheFile } from '../../git/git-dir.js';
import type { Snapshot } from '../../snapshot/types.js';
import { readCacheJson, readKeyedCache, writeCacheFile, writeKeyedCache } from '../../util/cache-file.js';
import type { CallSite, CodeNeighbours } from '../neighbours.js';
import { loadTypeScript } from '../ts-extract.js';
import { extractTreeSitterFacts } from './extract-tree-sitter.js';
import { extractTsFacts } from './extract-ts.js';
import { Linker } from './link.js';
import { isPackageJsonPath, isTsConfigPath, TsResolver } from './resolve-ts.js';
import type { FileFacts, GraphLanguage } from './types.js';

export type { FileFacts, GraphLanguage, GraphDecl, GraphImport, GraphCall } from './types.js';
export { extractTsFacts } from './extract-ts.js';
export { extractTreeSitterFacts } from './extract-tree-sitter.js';

/** Bump when extraction or linking changes what they produce: old caches are then ignored. */
export const CODE_GRAPH_VERSION = 1;

const FACTS_CACHE = 'code-graph-files.json';
const INDEX_CACHE = 'code-graph-index.json';
const DEFAULT_MAX_BYTES = 1_000_000;
const READ_BATCH = 512;

const EXT_LANG = new Map<string, GraphLanguage>([
  ['ts', 'typescript'], ['tsx', 'typescript'], ['mts', 'typescript'], ['cts', 'typescript'],
  ['js', 'typescript'], ['jsx', 'typescript'], ['mjs', 'typescript'], ['cjs', 'typescript'],
  ['py', 'python'], ['pyi', 'python'],
  ['go', 'go'],
  ['java', 'java'],
]);

/** The graph language of a repository path, from its extension. */
export function graphLanguageOf(path: string): GraphLanguage | undefined {
  const dot = path.lastIndexOf('.');
  return dot > path.lastIndexOf('/') ? EXT_LANG.get(path.slice(dot + 1).toLowerCase()) : undefined;
}

export interface CodeGraphOptions {
  /** files larger than this are skipped (reported, not read); default 1 MB */
  maxFileBytes?: number;
  /** read and write the caches under `.git/ctx/cache` (default true; `GIT_CTX_NO_CACHE=1` also turns them off) */
  cache?: boolean;
}

/** A file the graph could not read fully: skipped (too large, binary) or parsed with errors. */
export interface CodeGraphProblem {
  path: string;
  reason: string;
}

export interface CodeGraphStats {
  /** code files in the snapshot the graph reads */
  files: number;
  /** files parsed by this run */
  parsed: number;
  /** files whose facts came from the blob-keyed cache */
  cached: number;
  /** the whole linked index came from the cache (nothing changed since it was built) */
  indexCached: boolean;
}

/** A CodeNeighbours over a whole snapshot, with what it could not read and what it cost. */
export interface CodeGraphIndex extends CodeNeighbours {
  readonly problems: readonly CodeGraphProblem[];
  readonly stats: CodeGraphStats;
  /** the code files indexed, sorted */
  files(): string[];
  /** declarations of a file: `[name, line, endLine]` */
  declarations(path: string): Promise<[string, number, number][]>;
}

/** A call site as stored: `[path, symbol, line]`. */
type Site = [string, string, number];

/** Everything the graph knows about one file: imports, importers, declarations, callers and callees by symbol. */
interface FileEntry {
  i: string[];
  r: string[];
  d: [string, number, number][];
  c: Record<string, Site[]>;
  e: Record<string, Site[]>;
}

/** The linked index: an entry per code file, and the files the graph could not read fully. */
interface LinkedIndex {
  files: Map<string, FileEntry>;
  problems: [string, string][];
}

/**
 * How the linked index is cached: `code-graph-index.json` holds the shard count and the
 * problems; `code-graph-index-<n>.json` the entries of the files whose path hashes to n,
 * each keyed like the index, so that a question reads one shard (a few hundred files).
 */
interface IndexMeta {
  shards: number;
  problems: [string, string][];
}
const SHARD_FILES = 400;

function shardOf(path: string, shards: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193);
  return (h >>> 0) % shards;
}

const shardName = (n: number) => INDEX_CACHE.replace(/\.json$/, `-${n}.json`);

interface FactsCacheFile {
  tool: 'git-ctx/code-graph-files';
  version: number;
  entries: Record<string, FileFacts>;
}

const norm = (p: string) => p.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');

/**
 * The code graph of a snapshot: imports and importers of files, callers and callees of
 * symbols, for TypeScript/JavaScript (compiler module resolution), Python, Go and Java
 * (tree-sitter). Per-file facts are cached by blob id; the linked index is cached by the
 * set of (path, blob) of the code and config files, so a question on an unchanged tree
 * reads one cache file and parses nothing, and after an edit only changed files are parsed.
 */
export async function openCodeNeighbours(snapshot: Snapshot, opts: CodeGraphOptions = {}): Promise<CodeGraphIndex> {
  const maxBytes = opts.maxFileBytes ?? DEFAULT_MAX_BYTES;
  const useCache = opts.cache !== false;
  const entries = await snapshot.list();
  const code: { path: string; lang: GraphLanguage; blob: string }[] = [];
  const configs: string[] = [];
  const hash = createHash('sha1').update(`git-ctx/code-graph ${CODE_GRAPH_VERSION} ${maxBytes}\n`);
  for (const e of entries) {
    if (e.mode === '120000' || e.mode === '160000') continue;
    const lang = graphLanguageOf(e.path);
    const isConfig = !lang && (isTsConfigPath(e.path) || isPackageJsonPath(e.path) || e.path === 'go.mod' || e.path.endsWith('/go.mod'));
    if (!lang && !isConfig) continue;
    const blob = e.blob ?? (await snapshot.blobOf(e.path));
    if (!blob) continue;
    hash.update(`${e.path}\0${blob}\n`);
    if (lang) code.push({ path: e.path, lang, blob });
    else configs.push(e.path);
  }
  const key = hash.digest('hex');
  const stats: CodeGraphStats = { files: code.length, parsed: 0, cached: 0, indexCached: false };
  const paths = code.map((c) => c.path);
  const meta = useCache ? (readKeyedCache(cacheFile(snapshot.root, INDEX_CACHE), key) as IndexMeta | undefined) : undefined;
  const fresh = async () => {
    const linked = await build(snapshot, code, configs, maxBytes, useCache, stats);
    if (useCache) saveIndex(snapshot.root, key, linked);
    return linked;
  };
  if (meta && typeof meta === 'object' && Number.isInteger(meta.shards) && meta.shards > 0 && Array.isArray(meta.problems)) {
    stats.indexCached = true;
    stats.cached = code.length;
    return new Neighbours(paths, meta.problems, stats, { root: snapshot.root, key, shards: meta.shards, rebuild: fresh });
  }
  const linked = await fresh();
  return new Neighbours(paths, linked.problems, stats, linked.files);
}

function saveIndex(root: string, key: string, linked: LinkedIndex): void {
  const shards = Math.max(1, Math.ceil(linked.files.size / SHARD_FILES));
  const parts: Record<string, FileEntry>[] = Array.from({ length: shards }, () => ({}));
  for (const [p, e] of linked.files) parts[shardOf(p, shards)]![p] = e;
  for (const [n, part] of parts.entries()) if (!writeKeyedCache(cacheFile(root, shardName(n)), key, part)) return;
  // the meta file last: a reader that finds it finds its shards (or, racing a newer run, shards of another key, which it rejects)
  writeKeyedCache(cacheFile(root, INDEX_CACHE), key, { shards, problems: linked.problems } satisfies IndexMeta);
}

async function build(
  snapshot: Snapshot,
  code: { path: string; lang: GraphLanguage; blob: string }[],
  configs: string[],
  maxBytes: number,
  useCache: boolean,
  stats: CodeGraphStats,
): Promise<LinkedIndex> {
  const factsFile = useCache ? cacheFile(snapshot.root, FACTS_CACHE) : undefined;
  const old = readCacheJson(factsFile) as Partial<FactsCacheFile> | undefined;
  const cached = new Map<string, FileFacts>(old?.tool === 'git-ctx/code-graph-files' && old.version === CODE_GRAPH_VERSION && old.entries && typeof old.entries === 'object' ? Object.entries(old.entries) : []);
  const facts = new Map<string, FileFacts>();
  const used = new Map<string, FileFacts>();
  const problems: [string, string][] = [];
  const todo: { path: string; lang: GraphLanguage; key: string }[] = [];
  for (const c of code) {
    const k = `${c.blob}:${c.path.slice(c.path.lastIndexOf('.') + 1)}`;
    const f = cached.get(k);
    if (f && f.lang === c.lang && Array.isArray(f.decls) && Array.isArray(f.imports) && Array.isArray(f.calls)) {
      facts.set(c.path, f);
      used.set(k, f);
      stats.cached++;
    } else todo.push({ path: c.path, lang: c.lang, key: k });
  }

  for (let i = 0; i < todo.length; i += READ_BATCH) {
    const batch = todo.slice(i, i + READ_BATCH);
    const bufs = await snapshot.readMany(batch.map((t) => t.path));
    for (const [j, t] of batch.entries()) {
      const buf = bufs[j];
      if (!buf) continue;
      const f = await extract(t.path, t.lang, buf, maxBytes);
      stats.parsed++;
      facts.set(t.path, f);
      used.set(t.key, f);
    }
  }

  if (todo.length && factsFile) {
    // entries used by this run, plus older ones (other branches) up to a bound
    const limit = Math.max(20_000, used.size * 2);
    const out: Record<string, FileFacts> = Object.fromEntries(used);
    let n = used.size;
    for (const [k, v] of cached) {
      if (n >= limit) break;
      if (!(k in out)) {
        out[k] = v;
        n++;
      }
    }
    writeCacheFile(factsFile, JSON.stringify({ tool: 'git-ctx/code-graph-files', version: CODE_GRAPH_VERSION, entries: out } satisfies FactsCacheFile));
  }

  const texts = new Map<string, string>();
  const bufs = await snapshot.readMany(configs);
  configs.forEach((p, i) => {
    const b = bufs[i];
    if (b && b.length <= maxBytes) texts.set(p, b.toString('utf8'));
  });
  const goMods = new Map([...texts].filter(([p]) => p === 'go.mod' || p.endsWith('/go.mod')));
  const hasTs = code.some((c) => c.lang === 'typescript');
  let tsResolver: TsResolver | undefined;
  if (hasTs) {
    const ts = await loadTypeScript();
    tsResolver = new TsResolver(ts, snapshot.root, new Set(code.map((c) => c.path)), texts);
  }
  const memo = new Map<string, string | undefined>();
  const linker = new Linker(
    facts,
    {
      ts: (spec, from) => {
        if (!tsResolver) return undefined;
        const k = `${from}\0${spec}`;
        if (memo.has(k)) return memo.get(k);
        const r = tsResolver.resolve(spec, from);
        memo.set(k, r);
        return r;
      },
    },
    goMods,
  );

  const files = new Map<string, FileEntry>();
  const entry = (p: string) => {
    let e = files.get(p);
    if (!e) {
      e = { i: [], r: [], d: [], c: {}, e: {} };
      files.set(p, e);
    }
    return e;
  };
  const addSite = (m: Record<string, Site[]>, sym: string, site: Site) => {
    const list = Object.hasOwn(m, sym) ? m[sym]! : (m[sym] = []);
    list.push(site);
  };
  for (const c of code) {
    const f = facts.get(c.path);
    if (!f) continue;
    if (f.skipped) problems.push([c.path, `skipped: ${f.skipped}`]);
    else if (f.error) problems.push([c.path, `parse error at ${f.error} (partial results)`]);
    const { imports, calls } = linker.link(c.path);
    const e = entry(c.path);
    e.i = imports;
    e.d = f.decls.map((d) => [d.name, d.line, d.end]);
    for (const to of imports) entry(to).r.push(c.path);
    for (const [fromPath, fromSym, line, toPath, toSym] of calls) {
      addSite(e.e, fromSym, [toPath, toSym, line]);
      addSite(entry(toPath).c, toSym, [fromPath, fromSym, line]);
    }
  }
  for (const e of files.values()) e.r.sort();
  return { files, problems };
}

async function extract(path: string, lang: GraphLanguage, buf: Buffer, maxBytes: number): Promise<FileFacts> {
  const empty = (why: string): FileFacts => ({ lang, decls: [], imports: [], calls: [], skipped: why });
  if (buf.length > maxBytes) return empty(`${buf.length} bytes, over the ${maxBytes}-byte limit`);
  if (buf.subarray(0, 8000).includes(0)) return empty('binary content');
  const text = buf.toString('utf8');
  try {
    if (lang === 'typescript') return extractTsFacts(await loadTypeScript(), path, text);
    return await extractTreeSitterFacts(lang, text);
  } catch (e) {
    return { lang, decls: [], imports: [], calls: [], error: `line 1: the ${lang} reader failed: ${e instanceof Error ? e.message : String(e)}` };
  }
}

interface ShardSource {
  root: string;
  key: string;
  shards: number;
  /** build the index afresh (a shard missing or from another key: a concurrent run rewrote the cache) */
  rebuild(): Promise<LinkedIndex>;
}

class Neighbours implements CodeGraphIndex {
  readonly languages: readonly string[] = ['typescript', 'javascript', 'python', 'go', 'java'];
  readonly problems: CodeGraphProblem[];
  private readonly loaded = new Map<number, Record<string, FileEntry>>();
  private full: Map<string, FileEntry> | undefined;
  private source: ShardSource | undefined;

  constructor(
    private readonly paths: string[],
    problems: [string, string][],
    readonly stats: CodeGraphStats,
    source: Map<string, FileEntry> | ShardSource,
  ) {
    this.problems = problems.map(([path, reason]) => ({ path, reason }));
    if (source instanceof Map) this.full = source;
    else this.source = source;
  }

  private async entry(path: string): Promise<FileEntry | undefined> {
    const p = norm(path);
    if (this.full) return this.full.get(p);
    const src = this.source!;
    const n = shardOf(p, src.shards);
    let part = this.loaded.get(n);
    if (!part) {
      const v = readKeyedCache(cacheFile(src.root, shardName(n)), src.key);
      if (!v || typeof v !== 'object') {
        this.full = (await src.rebuild()).files;
        return this.full.get(p);
      }
      part = v as Record<string, FileEntry>;
      this.loaded.set(n, part);
    }
    return Object.hasOwn(part, p) ? part[p] : undefined;
  }

  files(): string[] {
    return [...this.paths].sort();
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

  async callees(path: string, symbol: string): Promise<CallSite[]> {
    const e = await this.entry(path);
    return sortSites(e && Object.hasOwn(e.e, symbol) ? e.e[symbol]! : []);
  }

  async symbolAt(path: string, line: number): Promise<string | undefined> {
    let best: [string, number, number] | undefined;
    for (const d of (await this.entry(path))?.d ?? []) {
      if (d[1] <= line && line <= d[2] && (!best || d[2] - d[1] < best[2] - best[1] || (d[2] - d[1] === best[2] - best[1] && d[1] > best[1]))) best = d;
    }
    return best?.[0];
  }
}

function sortSites(list: Site[]): CallSite[] {
  return list
    .map(([path, symbol, line]) => ({ path, symbol, line }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0)));
}
