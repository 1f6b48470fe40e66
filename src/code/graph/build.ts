// @spec SPEC-CODEGRAPH-001

/*
 * Building the code graph: the code and config files collected and keyed, each file's facts
 * extracted (or taken from the blob-keyed cache), and imports and calls linked across files.
 */

import { createHash } from 'node:crypto';
import type { Snapshot } from '../../snapshot/types.js';
import { cacheStore, type CacheStore } from '../../cache/memo.js';
import { othersCodeOf } from '../others-code.js';
import { loadTypeScript } from '../ts-extract.js';
import { extractTreeSitterFacts } from './extract-tree-sitter.js';
import { extractTsFacts } from './extract-ts.js';
import { Linker, type SpecResolver } from './link.js';
import { isPackageJsonPath, isTsConfigPath, TsResolver } from './resolve-ts.js';
import type { FileFacts, GraphLanguage } from './types.js';
import { CODE_GRAPH_VERSION } from './version.js';
import type { CodeGraphStats } from './index.js';
import { previous, saveIndex, ShardedEntries, StaleShard, type FileEntry, type LinkedIndex, type Previous, type Site } from './index-store.js';

const READ_BATCH = 512;

const EXT_LANG = new Map<string, GraphLanguage>([
  ['ts', 'typescript'], ['tsx', 'typescript'], ['mts', 'typescript'], ['cts', 'typescript'],
  ['js', 'typescript'], ['jsx', 'typescript'], ['mjs', 'typescript'], ['cjs', 'typescript'],
  ['py', 'python'], ['pyi', 'python'],
  ['go', 'go'],
  ['java', 'java'],
  ['rb', 'ruby'], ['rake', 'ruby'],
  ['rs', 'rust'],
]);

/** go.mod (Go module paths) and Cargo.toml (a Cargo workspace's crate names): what imports resolve through. */
export const isManifestPath = (p: string) => p === 'go.mod' || p.endsWith('/go.mod') || p === 'Cargo.toml' || p.endsWith('/Cargo.toml');

/** The graph language of a repository path, from its extension. */
export function graphLanguageOf(path: string): GraphLanguage | undefined {
  const dot = path.lastIndexOf('.');
  return dot > path.lastIndexOf('/') ? EXT_LANG.get(path.slice(dot + 1).toLowerCase()) : undefined;
}

interface FactsCacheFile {
  tool: 'git-ctx/code-graph-files';
  version: number;
  entries: Record<string, FileFacts>;
}

export interface Collected {
  code: { path: string; lang: GraphLanguage; blob: string }[];
  configs: string[];
  /** the linked index's key: every (path, blob) of code and config files */
  key: string;
  /** what linking depends on beyond the files' own facts: the paths, and the configs' blobs */
  env: string;
}

/** The code and config files of the snapshot, and the keys they give. */
export async function collectCode(snapshot: Snapshot, maxBytes: number): Promise<Collected> {
  const entries = await snapshot.list();
  // vendored and generated code is not the team's: left out of the graph (others-code.ts)
  const othersCode = await othersCodeOf(snapshot);
  const code: Collected['code'] = [];
  const configs: string[] = [];
  const hash = createHash('sha1').update(`git-ctx/code-graph ${CODE_GRAPH_VERSION} ${maxBytes}\n`);
  const envHash = createHash('sha1').update(`git-ctx/code-graph-env ${CODE_GRAPH_VERSION} ${maxBytes}\n`);
  for (const e of entries) {
    if (e.mode === '120000' || e.mode === '160000') continue;
    const lang = graphLanguageOf(e.path);
    const isConfig = !lang && (isTsConfigPath(e.path) || isPackageJsonPath(e.path) || isManifestPath(e.path));
    if (!lang && !isConfig) continue;
    if (lang && othersCode(e.path)) continue;
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
export async function fresh(snapshot: Snapshot, c: Collected, maxBytes: number, useCache: boolean, stats: CodeGraphStats, update: boolean, given?: Previous | null): Promise<LinkedIndex> {
  const root = snapshot.root;
  // the previous index to update: as the caller found it (null: none), else looked for here
  const prev = useCache && update ? (given === undefined ? previous(root, c.env) : (given ?? undefined)) : undefined;
  const { linked, touched } = await build(snapshot, c.code, c.configs, maxBytes, useCache, stats, prev);
  if (useCache) saveIndex(root, c.key, c.env, c.code, linked, prev && touched ? { meta: prev.meta, touched } : undefined);
  return linked;
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
  const reader = new FactsReader(snapshot, maxBytes, useCache, stats);
  const facts = await reader.facts(code);
  reader.save();

  const texts = await readConfigs(snapshot, configs, maxBytes);
  const manifests = new Map([...texts].filter(([p]) => isManifestPath(p)));
  const linker = new Linker(facts, await specResolver(snapshot, code, texts), manifests);

  try {
    return linkAll(code, facts, linker, stats, prev);
  } catch (e) {
    if (!(e instanceof StaleShard)) throw e;
    stats.linked = 0;
    return linkAll(code, facts, linker, stats, undefined);
  }
}

/** The text of config files (tsconfig/jsconfig, package.json, go.mod, Cargo.toml) within the size bound. */
export async function readConfigs(snapshot: Snapshot, configs: readonly string[], maxBytes: number): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  const bufs = await snapshot.readMany([...configs]);
  configs.forEach((p, i) => {
    const b = bufs[i];
    if (b && b.length <= maxBytes) texts.set(p, b.toString('utf8'));
  });
  return texts;
}

/** Import specifiers resolved as the TypeScript compiler would over the snapshot's files (each asked once); none without TS code. */
export async function specResolver(snapshot: Snapshot, code: readonly { path: string; lang: GraphLanguage }[], texts: Map<string, string>): Promise<SpecResolver> {
  if (!code.some((c) => c.lang === 'typescript')) return { ts: () => undefined };
  const resolver = new TsResolver(await loadTypeScript(), snapshot.root, new Set(code.map((c) => c.path)), texts);
  const memo = new Map<string, string | undefined>();
  return {
    ts: (spec, from) => {
      const k = `${from}\0${spec}`;
      if (memo.has(k)) return memo.get(k);
      const r = resolver.resolve(spec, from);
      memo.set(k, r);
      return r;
    },
  };
}

/** A file to read facts of: its path, language and blob (the facts cache's key). */
export type CodeFile = { path: string; lang: GraphLanguage; blob: string };

/**
 * The facts of code files: from the blob-keyed cache, else parsed (buffers a caller already
 * read can be handed in), and the cache written once with what was parsed. Facts come in the
 * order of the files asked, not the cache's, so that a class two files declare resolves to the
 * same one whichever of them the cache held.
 */
export class FactsReader {
  private readonly file: CacheStore<Partial<FactsCacheFile>>;
  private cached: Map<string, FileFacts> | undefined;
  private readonly used = new Map<string, FileFacts>();
  private parsed = 0;
  /** paths already asked (a later ask of the same file is no new cache hit) */
  private readonly seen = new Set<string>();

  constructor(
    private readonly snapshot: Snapshot,
    private readonly maxBytes: number,
    useCache: boolean,
    private readonly stats: CodeGraphStats,
  ) {
    this.file = cacheStore<Partial<FactsCacheFile>>(useCache ? snapshot.root : undefined, 'code-graph-files');
  }

  async facts(code: readonly CodeFile[], read?: ReadonlyMap<string, Buffer>): Promise<Map<string, FileFacts>> {
    if (!this.cached) {
      const old = this.file.read();
      this.cached = new Map(old?.tool === 'git-ctx/code-graph-files' && old.version === CODE_GRAPH_VERSION && old.entries && typeof old.entries === 'object' ? Object.entries(old.entries) : []);
    }
    const got = new Map<string, FileFacts>();
    const todo: { path: string; lang: GraphLanguage; key: string }[] = [];
    for (const c of code) {
      const k = `${c.blob}:${c.path.slice(c.path.lastIndexOf('.') + 1)}`;
      const f = this.used.get(k) ?? this.cached.get(k);
      if (f && f.lang === c.lang && Array.isArray(f.decls) && Array.isArray(f.imports) && Array.isArray(f.calls)) {
        got.set(c.path, f);
        this.used.set(k, f);
        if (!this.seen.has(c.path)) this.stats.cached++;
      } else todo.push({ path: c.path, lang: c.lang, key: k });
    }
    for (let i = 0; i < todo.length; i += READ_BATCH) {
      const batch = todo.slice(i, i + READ_BATCH);
      const unread = batch.filter((t) => !read?.has(t.path)).map((t) => t.path);
      const bufs = unread.length ? await this.snapshot.readMany(unread) : [];
      const fromDisk = new Map(unread.map((p, j) => [p, bufs[j]] as const));
      for (const t of batch) {
        const buf = read?.get(t.path) ?? fromDisk.get(t.path);
        if (!buf) continue;
        const f = await extract(t.path, t.lang, buf, this.maxBytes);
        this.stats.parsed++;
        this.parsed++;
        got.set(t.path, f);
        this.used.set(t.key, f);
      }
    }
    const facts = new Map<string, FileFacts>();
    for (const c of code) {
      this.seen.add(c.path);
      const f = got.get(c.path);
      if (f) facts.set(c.path, f);
    }
    return facts;
  }

  /** Write the cache when something was parsed: the entries used, plus older ones (other branches) up to a bound. */
  save(): void {
    if (!this.parsed || !this.file.on) return;
    const limit = Math.max(20_000, this.used.size * 2);
    const out: Record<string, FileFacts> = Object.fromEntries(this.used);
    let n = this.used.size;
    for (const [k, v] of this.cached ?? []) {
      if (n >= limit) break;
      if (!(k in out)) {
        out[k] = v;
        n++;
      }
    }
    this.file.write({ tool: 'git-ctx/code-graph-files', version: CODE_GRAPH_VERSION, entries: out } satisfies FactsCacheFile);
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
  // a Java or Ruby file whose classes changed changes what other files' imports and
  // constants resolve to: relink all
  const classesMoved = (p: Previous) =>
    code.some((c) => (c.lang === 'java' || c.lang === 'ruby') && p.blobs[c.path] !== c.blob && classNames(c.lang, p.files.get(c.path)?.d.map((d) => d[0])) !== classNames(c.lang, facts.get(c.path)?.decls.filter((d) => d.kind === 'class').map((d) => d.name)));
  if (prev && classesMoved(prev)) prev = undefined;
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

/**
 * Class names, comparable (stored declarations carry no kind): a Java file's top-level names
 * are its classes; a Ruby file's modules and classes are the names whose last part is a constant.
 */
function classNames(lang: GraphLanguage, names: string[] | undefined): string {
  const isClass = lang === 'ruby' ? (n: string) => /^[A-Z]/.test(n.slice(n.lastIndexOf('.') + 1)) : (n: string) => !n.includes('.');
  return [...new Set((names ?? []).filter(isClass))].sort().join(',');
}

/** A file through which an importer sees the names of the files it imports (TS re-exports, Python `__init__`). */
function isReexporting(path: string, f: FileFacts | undefined): boolean {
  if (!f) return false;
  if (f.lang === 'python') return /(?:^|\/)__init__\.pyi?$/.test(path);
  return f.lang === 'typescript' && f.imports.some((i) => i.reexports);
}

export async function extract(path: string, lang: GraphLanguage, buf: Buffer, maxBytes: number): Promise<FileFacts> {
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

