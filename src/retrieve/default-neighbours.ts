// @spec SPEC-RETRIEVE-001

import { createRequire } from 'node:module';
import type * as TsMorph from 'ts-morph';
import { codeGraph } from '../code/graph.js';
import type { CodeIndex } from '../code/code-index.js';
import type { CallSite, CodeNeighbours } from '../code/neighbours.js';
import { cacheFile } from '../git/git-dir.js';
import { readKeyedCache, writeKeyedCache } from '../util/cache-file.js';
import { sha256 } from '../util/hash.js';

/**
 * Stand-in code graph until the tree-sitter/TypeScript provider lands: TypeScript and
 * JavaScript only. Imports come from the compiler's pre-processor and module resolution
 * (tsconfig `paths`/`baseUrl` of the root tsconfig.json); the whole import graph is cached
 * under `.git/ctx` keyed by the (path, blob) list, so a warm question loads no compiler.
 * Callers and callees come from src/code/graph.ts (ts-morph), only when a symbol is asked.
 */
const TS_FILE = /\.(?:[cm]?[jt]sx?)$/;
const CACHE_VERSION = 'imports-v1';

type Graph = { imports: Record<string, string[]>; importers: Record<string, string[]> };

export function defaultNeighbours(index: CodeIndex): CodeNeighbours {
  let graph: Promise<Graph> | undefined;
  const load = () => (graph ??= importGraph(index));
  const sites = (g: Awaited<ReturnType<typeof codeGraph>>, dir: 'callers' | 'callees'): CallSite[] => {
    const out: CallSite[] = [];
    for (const e of g.edges) {
      const other = dir === 'callers' ? e.from : e.to;
      if (other === g.root || (dir === 'callers' ? e.to : e.from) !== g.root) continue;
      const [path, symbol] = [other.slice(0, other.indexOf('#')), other.slice(other.indexOf('#') + 1)];
      out.push({ path, symbol, line: e.line });
    }
    return out;
  };
  const isTs = (p: string) => index.file(p)?.language === 'ts';
  return {
    languages: ['typescript', 'javascript'],
    imports: async (p) => (isTs(p) ? ((await load()).imports[p] ?? []) : []),
    importers: async (p) => (isTs(p) ? ((await load()).importers[p] ?? []) : []),
    callers: async (p, s) => (isTs(p) ? sites(await codeGraph({ index, path: p, symbol: s, callers: true, callees: false }), 'callers') : []),
    callees: async (p, s) => (isTs(p) ? sites(await codeGraph({ index, path: p, symbol: s, callers: false, callees: true }), 'callees') : []),
    symbolAt: async (p, line) => (await index.symbolAt(p, line))?.name,
  };
}

async function importGraph(index: CodeIndex): Promise<Graph> {
  const snapshot = index.snapshot;
  const files = index.files.filter((f) => f.language === 'ts' && TS_FILE.test(f.path));
  const blobs = await Promise.all(files.map(async (f) => f.blob ?? (await snapshot.blobOf(f.path)) ?? ''));
  const tsconfig = await snapshot.read('tsconfig.json');
  const key = sha256(`${CACHE_VERSION}\0${tsconfig ? sha256(tsconfig) : ''}\0${files.map((f, i) => `${f.path}\0${blobs[i]}`).join('\n')}`);
  const file = cacheFile(snapshot.root, 'retrieve-imports.json');
  const hit = readKeyedCache(file, key) as Graph | undefined;
  if (hit && typeof hit.imports === 'object') return hit;

  const tm = createRequire(import.meta.url)('ts-morph') as typeof TsMorph;
  const ts = tm.ts;
  const root = snapshot.root;
  let options: TsMorph.ts.CompilerOptions = { allowJs: true, moduleResolution: ts.ModuleResolutionKind.Bundler, module: ts.ModuleKind.ESNext };
  if (tsconfig) {
    const parsed = ts.parseConfigFileTextToJson('tsconfig.json', tsconfig.toString('utf8'));
    const co = (parsed.config as { compilerOptions?: unknown } | undefined)?.compilerOptions;
    if (co) options = { ...options, ...ts.convertCompilerOptionsFromJson(co, root).options, allowJs: true };
  }
  const known = new Set(files.map((f) => f.path));
  const rel = (abs: string) => (abs.startsWith(root + '/') ? abs.slice(root.length + 1) : undefined);
  const pkgJson = new Map<string, string>();
  for (const e of await snapshot.list()) if (e.path.endsWith('package.json') && !e.path.includes('node_modules/')) pkgJson.set(e.path, '');
  const pkgPaths = [...pkgJson.keys()];
  const pkgBufs = await snapshot.readMany(pkgPaths);
  pkgPaths.forEach((p, i) => pkgJson.set(p, pkgBufs[i]?.toString('utf8') ?? ''));
  const host: TsMorph.ts.ModuleResolutionHost = {
    fileExists: (abs) => {
      const r = rel(abs);
      return r !== undefined && (known.has(r) || (pkgJson.get(r) ?? '') !== '');
    },
    readFile: (abs) => {
      const r = rel(abs);
      return r === undefined ? undefined : pkgJson.get(r);
    },
    directoryExists: () => true,
  };
  const cache = ts.createModuleResolutionCache(root, (s) => s, options);
  const imports: Record<string, string[]> = {};
  const importers: Record<string, string[]> = {};
  const CHUNK = 256;
  for (let i = 0; i < files.length; i += CHUNK) {
    const chunk = files.slice(i, i + CHUNK);
    const bufs = await snapshot.readMany(chunk.map((f) => f.path));
    for (const [j, f] of chunk.entries()) {
      const text = bufs[j]?.toString('utf8');
      if (!text) continue;
      const info = ts.preProcessFile(text, true, true);
      const out = new Set<string>();
      for (const ref of info.importedFiles) {
        const r = ts.resolveModuleName(ref.fileName, `${root}/${f.path}`, options, host, cache).resolvedModule;
        const target = r && rel(r.resolvedFileName);
        if (target && known.has(target) && target !== f.path) out.add(target);
      }
      if (out.size) imports[f.path] = [...out].sort();
      for (const t of out) (importers[t] ??= []).push(f.path);
    }
  }
  const g = { imports, importers };
  writeKeyedCache(file, key, g);
  return g;
}
