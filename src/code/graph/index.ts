// @spec SPEC-CODEGRAPH-001

import { createHash } from 'node:crypto';
import { sha1 } from '../../util/hash.js';
import type { Snapshot } from '../../snapshot/types.js';
import { cacheStore, memo as cacheMemo } from '../../cache/memo.js';
import type { CallSite, CodeNeighbours } from '../neighbours.js';
import { loadTypeScript } from '../ts-extract.js';
import { extractTreeSitterFacts } from './extract-tree-sitter.js';
import { extractTsFacts } from './extract-ts.js';
import { Linker } from './link.js';
import { isPackageJsonPath, isTsConfigPath, TsResolver } from './resolve-ts.js';
import type { FileFacts, GraphLanguage } from './types.js';
import { CODE_GRAPH_VERSION } from './version.js';

export type { FileFacts, GraphLanguage, GraphDecl, GraphImport, GraphCall } from './types.js';
export { extractTsFacts } from './extract-ts.js';
export { extractTreeSitterFacts } from './extract-tree-sitter.js';

export { CODE_GRAPH_VERSION };

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
  /** read and write the code-graph caches (default true; `GIT_CTX_NO_CACHE=1` also turns them off) */
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
  /** files whose imports and calls this run resolved (an update after an edit links only what the edit can change) */
  linked: number;
  /** the whole linked index came from the cache (nothing changed since it was built) */
  indexCached: boolean;
}

/** A CodeNeighbours over a whole snapshot, with what it could not read and what it cost. */
export interface CodeGraphIndex extends CodeNeighbours {
  readonly problems: readonly CodeGraphProblem[];
  readonly stats: CodeGraphStats;
  /** the code files indexed, sorted */
  files(): Promise<string[]>;
  /** declarations of a file: `[name, line, endLine]` */
  declarations(path: string): Promise<[string, number, number][]>;
  /** every symbol of a file that something calls, with its call sites as `callers` gives them (projections enumerate the graph with it) */
  callersIn(path: string): Promise<[string, CallSite[]][]>;
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
  files: Map<string, FileEntry> | ShardedEntries;
  problems: [string, string][];
}

/**
 * How the linked index is cached: the `code-graph-index` kind holds the shard count and the
 * problems; the `code-graph-shard` kind (variant n) the entries of the files whose path hashes to n,
 * each keyed like the index, so that a question reads one shard (a few hundred files).
 */
interface IndexMeta {
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
interface Previous {
  files: ShardedEntries;
  blobs: Record<string, string>;
  meta: IndexMeta;
}

/** Thrown when a shard of the previous index is gone or rewritten by another run: the update starts over from scratch. */
class StaleShard extends Error {}

/** The entries of a cached index, read one shard at a time; changes are kept in memory. */
class ShardedEntries {
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

function shardOf(path: string, shards: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193);
  return (h >>> 0) % shards;
}

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
  const root = snapshot.root;
  // a snapshot whose listing is a function of a cheap identity (the git index's stamp and the
  // focus files' blobs: PlaceSnapshot) finds its index key in a memo, without listing the tree
  // and hashing every (path, blob) of it; anything else computes the key from the listing
  const identityOf = (snapshot as { listIdentity?: (listed?: boolean) => Promise<string | undefined> }).listIdentity?.bind(snapshot);
  const identity = useCache && identityOf ? await identityOf() : undefined;
  const memoKey = identity ? sha1(`git-ctx/code-graph-memo ${CODE_GRAPH_VERSION} ${maxBytes}\n${identity}`) : undefined;
  if (memoKey) {
    const memo = cacheMemo<Partial<KeyMemo>>(root, 'code-graph-memo').get(memoKey);
    const meta = memo && typeof memo.key === 'string' && Number.isInteger(memo.files) ? validMeta(cacheMemo(root, 'code-graph-index').get(memo.key)) : undefined;
    if (memo && meta) {
      const n = memo.files!;
      const stats: CodeGraphStats = { files: n, parsed: 0, cached: n, linked: 0, indexCached: true };
      let collected: Promise<Collected> | undefined;
      const collect = () => (collected ??= collectCode(snapshot, maxBytes));
      const rebuild = async (update = true) => fresh(snapshot, await collect(), maxBytes, useCache, stats, update);
      return new Neighbours(async () => (await collect()).code.map((c) => c.path), meta.problems, stats, { root, meta, rebuild });
    }
  }
  const c = await collectCode(snapshot, maxBytes);
  const stats: CodeGraphStats = { files: c.code.length, parsed: 0, cached: 0, linked: 0, indexCached: false };
  const paths = c.code.map((x) => x.path);
  const meta = useCache ? validMeta(cacheMemo(root, 'code-graph-index').get(c.key)) : undefined;
  // remembered only when the identity held while the tree was listed
  const remember = () => {
    if (memoKey && identityOf) void identityOf(true).then((listed) => listed === identity && cacheMemo<KeyMemo>(root, 'code-graph-memo').set(memoKey, { key: c.key, files: c.code.length }), () => undefined);
  };
  if (meta) {
    stats.indexCached = true;
    stats.cached = c.code.length;
    remember();
    return new Neighbours(async () => paths, meta.problems, stats, { root, meta, rebuild: (update = true) => fresh(snapshot, c, maxBytes, useCache, stats, update) });
  }
  const linked = await fresh(snapshot, c, maxBytes, useCache, stats, true);
  remember();
  return new Neighbours(async () => paths, linked.problems, stats, linked.files);
}

/** Where the index key of a listing identity was found last (code-graph-memo.json). */
interface KeyMemo {
  key: string;
  files: number;
}

interface Collected {
  code: { path: string; lang: GraphLanguage; blob: string }[];
  configs: string[];
  /** the linked index's key: every (path, blob) of code and config files */
  key: string;
  /** what linking depends on beyond the files' own facts: the paths, and the configs' blobs */
  env: string;
}

/** The code and config files of the snapshot, and the keys they give. */
async function collectCode(snapshot: Snapshot, maxBytes: number): Promise<Collected> {
  const entries = await snapshot.list();
  const code: Collected['code'] = [];
  const configs: string[] = [];
  const hash = createHash('sha1').update(`git-ctx/code-graph ${CODE_GRAPH_VERSION} ${maxBytes}\n`);
  const envHash = createHash('sha1').update(`git-ctx/code-graph-env ${CODE_GRAPH_VERSION} ${maxBytes}\n`);
  for (const e of entries) {
    if (e.mode === '120000' || e.mode === '160000') continue;
    const lang = graphLanguageOf(e.path);
    const isConfig = !lang && (isTsConfigPath(e.path) || isPackageJsonPath(e.path) || e.path === 'go.mod' || e.path.endsWith('/go.mod'));
    if (!lang && !isConfig) continue;
    const blob = e.blob ?? (await snapshot.blobOf(e.path));
    if (!blob) continue;
    hash.update(`${e.path}\0${blob}\n`);
    envHash.update(lang ? `${e.path}\n` : `${e.path}\0${blob}\n`);
    if (lang) code.push({ path: e.path, lang, blob });
    else configs.push(e.path);
  }
  return { code, configs, key: hash.digest('hex'), env: envHash.digest('hex') };
}

/** Build (or update from the last index) and save the linked index. */
async function fresh(snapshot: Snapshot, c: Collected, maxBytes: number, useCache: boolean, stats: CodeGraphStats, update: boolean): Promise<LinkedIndex> {
  const root = snapshot.root;
  const prev = useCache && update ? previous(root, c.env) : undefined;
  const { linked, touched } = await build(snapshot, c.code, c.configs, maxBytes, useCache, stats, prev);
  if (useCache) saveIndex(root, c.key, c.env, c.code, linked, prev && touched ? { meta: prev.meta, touched } : undefined);
  return linked;
}

function validMeta(v: unknown): IndexMeta | undefined {
  const m = v as IndexMeta | undefined;
  return m && typeof m === 'object' && Number.isInteger(m.shards) && m.shards > 0 && Array.isArray(m.problems) && Array.isArray(m.gens) && m.gens.length === m.shards ? m : undefined;
}

/** The last index written, when it was linked in the same environment (same paths, same configs). */
function previous(root: string, env: string): Previous | undefined {
  const raw = cacheMemo<Partial<IndexBlobs> | undefined>(root, 'code-graph-blobs').latest();
  if (!raw || raw.value?.env !== env || !raw.value.blobs || typeof raw.value.blobs !== 'object') return undefined;
  const meta = validMeta(cacheMemo(root, 'code-graph-index').get(raw.key));
  if (!meta) return undefined;
  return { files: new ShardedEntries(root, meta), blobs: raw.value.blobs, meta };
}

function saveIndex(root: string, key: string, env: string, code: { path: string; blob: string }[], linked: LinkedIndex, update?: { meta: IndexMeta; touched: Set<string> }): void {
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

async function build(
  snapshot: Snapshot,
  code: { path: string; lang: GraphLanguage; blob: string }[],
  configs: string[],
  maxBytes: number,
  useCache: boolean,
  stats: CodeGraphStats,
  prev?: Previous,
): Promise<{ linked: LinkedIndex; touched?: Set<string> }> {
  const factsFile = cacheStore<Partial<FactsCacheFile>>(useCache ? snapshot.root : undefined, 'code-graph-files');
  const old = factsFile.read();
  const cached = new Map<string, FileFacts>(old?.tool === 'git-ctx/code-graph-files' && old.version === CODE_GRAPH_VERSION && old.entries && typeof old.entries === 'object' ? Object.entries(old.entries) : []);
  const facts = new Map<string, FileFacts>();
  const used = new Map<string, FileFacts>();
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

  if (todo.length && factsFile.on) {
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
    factsFile.write({ tool: 'git-ctx/code-graph-files', version: CODE_GRAPH_VERSION, entries: out } satisfies FactsCacheFile);
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

  try {
    return linkAll(code, facts, linker, stats, prev);
  } catch (e) {
    if (!(e instanceof StaleShard)) throw e;
    stats.linked = 0;
    return linkAll(code, facts, linker, stats, undefined);
  }
}

function linkAll(
  code: { path: string; lang: GraphLanguage; blob: string }[],
  facts: Map<string, FileFacts>,
  linker: Linker,
  stats: CodeGraphStats,
  previousIndex: Previous | undefined,
): { linked: LinkedIndex; touched?: Set<string> } {
  let prev = previousIndex;
  const problems: [string, string][] = [];
  // an update relinks the changed files and every file whose links can see them: their
  // importers (through re-exporting files and packages), and their package siblings (Go, Java)
  let relink: Set<string> | undefined;
  // a Java file whose classes changed changes what other files' imports resolve to: relink all
  const javaMoved = (p: Previous) => code.some((c) => c.lang === 'java' && p.blobs[c.path] !== c.blob && classNames(p.files.get(c.path)?.d.map((d) => d[0])) !== classNames(facts.get(c.path)?.decls.filter((d) => d.kind === 'class').map((d) => d.name)));
  if (prev && javaMoved(prev)) prev = undefined;
  if (prev) {
    relink = new Set(code.filter((c) => prev.blobs[c.path] !== c.blob).map((c) => c.path));
    const pkgOf = (p: string) => {
      const f = facts.get(p);
      return f?.lang === 'go' ? `go:${p.slice(0, p.lastIndexOf('/') + 1)}` : f?.lang === 'java' ? `java:${f.pkg ?? ''}` : undefined;
    };
    const pkgs = new Set([...relink].map(pkgOf).filter((k): k is string => !!k));
    if (pkgs.size) for (const c of code) if (pkgs.has(pkgOf(c.path) ?? '')) relink.add(c.path);
    // the changed files' importers, and theirs again through files that pass names on
    const queue = code.filter((c) => prev.blobs[c.path] !== c.blob).map((c) => c.path);
    while (queue.length) {
      const p = queue.pop()!;
      for (const q of prev.files.get(p)?.r ?? []) {
        if (relink.has(q)) continue;
        relink.add(q);
        if (isReexporting(q, facts.get(q))) queue.push(q);
      }
    }
  }
  const files: Map<string, FileEntry> | ShardedEntries = prev ? prev.files : new Map<string, FileEntry>();
  const touched = new Set<string>();
  const entry = (p: string) => {
    let e = files.get(p);
    if (!e) {
      e = { i: [], r: [], d: [], c: {}, e: {} };
      files.set(p, e);
    }
    touched.add(p);
    return e;
  };
  const addSite = (m: Record<string, Site[]>, sym: string, site: Site) => {
    const list = Object.hasOwn(m, sym) ? m[sym]! : (m[sym] = []);
    list.push(site);
  };
  // forget what the relinked files said (their imports and calls), then link them again
  for (const p of relink ?? []) {
    const old = files.get(p);
    if (!old) continue;
    for (const to of old.i) {
      const t = entry(to);
      t.r = t.r.filter((x) => x !== p);
    }
    for (const sites of Object.values(old.e)) {
      for (const [toPath, toSym] of sites) {
        const t = entry(toPath);
        if (!Object.hasOwn(t.c, toSym)) continue;
        const kept = t.c[toSym]!.filter((s) => s[0] !== p);
        if (kept.length) t.c[toSym] = kept;
        else delete t.c[toSym];
      }
    }
    old.i = [];
    old.e = {};
  }
  for (const c of code) {
    const f = facts.get(c.path);
    if (!f) continue;
    if (f.skipped) problems.push([c.path, `skipped: ${f.skipped}`]);
    else if (f.error) problems.push([c.path, `parse error at ${f.error} (partial results)`]);
    if (relink && !relink.has(c.path)) continue;
    const { imports, calls } = linker.link(c.path);
    stats.linked++;
    const e = entry(c.path);
    e.i = imports;
    e.d = f.decls.map((d) => [d.name, d.line, d.end]);
    for (const to of imports) {
      const t = entry(to);
      t.r.push(c.path);
      if (relink) t.r.sort();
    }
    for (const [fromPath, fromSym, line, toPath, toSym] of calls) {
      addSite(e.e, fromSym, [toPath, toSym, line]);
      addSite(entry(toPath).c, toSym, [fromPath, fromSym, line]);
    }
  }
  if (files instanceof Map) for (const e of files.values()) e.r.sort();
  return { linked: { files, problems }, touched: relink ? touched : undefined };
}

/** Top-level class names, comparable (stored declarations carry no kind: a Java file's top-level names are its classes). */
function classNames(names: string[] | undefined): string {
  return (names ?? []).filter((n) => !n.includes('.')).sort().join(',');
}

/** A file through which an importer sees the names of the files it imports (TS re-exports, Python `__init__`). */
function isReexporting(path: string, f: FileFacts | undefined): boolean {
  if (!f) return false;
  if (f.lang === 'python') return /(?:^|\/)__init__\.pyi?$/.test(path);
  return f.lang === 'typescript' && f.imports.some((i) => i.reexports);
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
  meta: IndexMeta;
  /** build the index afresh (a shard missing or from another key: a concurrent run rewrote the cache) */
  rebuild(update: false): Promise<LinkedIndex>;
}

class Neighbours implements CodeGraphIndex {
  readonly languages: readonly string[] = ['typescript', 'javascript', 'python', 'go', 'java'];
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
