// @spec SPEC-CODEGRAPH-001

import { createHash } from 'node:crypto';
import { cacheFile } from '../../git/git-dir.js';
import type { Snapshot } from '../../snapshot/types.js';
import { readCacheJson, readKeyedCache, writeCacheFile, writeKeyedCache } from '../../util/cache-file.js';
import type { CallSite, CodeNeighbours } from '../neighbours.js';
import { loadTypeScript } from '../ts-extract.js';
import { extractTreeSitterFacts } from './extract-tree-sitter.js';
import { extractTsFacts } from './extract-ts.js';
import { Linker, type CallEdge } from './link.js';
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
  declarations(path: string): [string, number, number][];
}

/** The linked index as cached: per file its resolved imports and declarations, and every call edge. */
interface LinkedIndex {
  files: Record<string, { imports: string[]; decls: [string, number, number][]; lang: GraphLanguage }>;
  calls: CallEdge[];
  problems: [string, string][];
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
  const indexFile = useCache ? cacheFile(snapshot.root, INDEX_CACHE) : undefined;
  const stats: CodeGraphStats = { files: code.length, parsed: 0, cached: 0, indexCached: false };
  let linked = readKeyedCache(indexFile, key) as LinkedIndex | undefined;
  if (linked && typeof linked === 'object' && linked.files && Array.isArray(linked.calls) && Array.isArray(linked.problems)) {
    stats.indexCached = true;
    stats.cached = code.length;
  } else {
    linked = await build(snapshot, code, configs, maxBytes, useCache, stats);
    writeKeyedCache(indexFile, key, linked);
  }
  return new Neighbours(linked, stats);
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

  const out: LinkedIndex = { files: {}, calls: [], problems };
  for (const c of code) {
    const f = facts.get(c.path);
    if (!f) continue;
    if (f.skipped) problems.push([c.path, `skipped: ${f.skipped}`]);
    else if (f.error) problems.push([c.path, `parse error at ${f.error} (partial results)`]);
    const { imports, calls } = linker.link(c.path);
    out.files[c.path] = { imports, decls: f.decls.map((d) => [d.name, d.line, d.end]), lang: f.lang };
    for (const e of calls) out.calls.push(e);
  }
  return out;
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

class Neighbours implements CodeGraphIndex {
  readonly languages: readonly string[] = ['typescript', 'javascript', 'python', 'go', 'java'];
  readonly problems: CodeGraphProblem[];
  private readonly importersOf = new Map<string, string[]>();
  private readonly callersOf = new Map<string, CallSite[]>();
  private readonly calleesOf = new Map<string, CallSite[]>();

  constructor(
    private readonly index: LinkedIndex,
    readonly stats: CodeGraphStats,
  ) {
    this.problems = index.problems.map(([path, reason]) => ({ path, reason }));
    for (const [p, f] of Object.entries(index.files)) {
      for (const to of f.imports) {
        const list = this.importersOf.get(to);
        if (list) list.push(p);
        else this.importersOf.set(to, [p]);
      }
    }
    for (const list of this.importersOf.values()) list.sort();
    for (const [fromPath, fromSym, line, toPath, toSym] of index.calls) {
      push(this.callersOf, `${toPath}#${toSym}`, { path: fromPath, symbol: fromSym, line });
      push(this.calleesOf, `${fromPath}#${fromSym}`, { path: toPath, symbol: toSym, line });
    }
  }

  files(): string[] {
    return Object.keys(this.index.files).sort();
  }

  declarations(path: string): [string, number, number][] {
    return this.index.files[norm(path)]?.decls ?? [];
  }

  async imports(path: string): Promise<string[]> {
    return [...(this.index.files[norm(path)]?.imports ?? [])];
  }

  async importers(path: string): Promise<string[]> {
    return [...(this.importersOf.get(norm(path)) ?? [])];
  }

  async callers(path: string, symbol: string): Promise<CallSite[]> {
    return sortSites(this.callersOf.get(`${norm(path)}#${symbol}`) ?? []);
  }

  async callees(path: string, symbol: string): Promise<CallSite[]> {
    return sortSites(this.calleesOf.get(`${norm(path)}#${symbol}`) ?? []);
  }

  async symbolAt(path: string, line: number): Promise<string | undefined> {
    let best: [string, number, number] | undefined;
    for (const d of this.declarations(path)) {
      if (d[1] <= line && line <= d[2] && (!best || d[2] - d[1] < best[2] - best[1] || (d[2] - d[1] === best[2] - best[1] && d[1] > best[1]))) best = d;
    }
    return best?.[0];
  }
}

function push(m: Map<string, CallSite[]>, k: string, v: CallSite): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

function sortSites(list: CallSite[]): CallSite[] {
  return [...list].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0)));
}
