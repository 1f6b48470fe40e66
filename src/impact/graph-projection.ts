// @spec SPEC-IMPACT-001

import { createHash } from 'node:crypto';
import { readKeyedCache, writeKeyedCache } from '../cache/file.js';
import type { CodeIndex } from '../code/code-index.js';
import type { CodeGraphIndex } from '../code/graph/index.js';
import type { CallSite, CodeNeighbours } from '../code/neighbours.js';
import { cacheFile } from '../git/git-dir.js';
import type { Snapshot } from '../snapshot/types.js';
import { mark } from '../util/timing.js';

/** Bump when what the projections hold changes. */
const PROJECTION_VERSION = 2;
const IMPORTERS_CACHE = 'impact-importers.json';
const CALLERS_CACHE = 'impact-callers.json';

/** On disk: the code files, and per file the indexes of the files importing it. */
interface ImportersFile {
  files: string[];
  r: number[][];
}

/** On disk: the files named, and per called symbol `[file, symbol, sites]`, a site being `[file, symbol, line]` (file as an index). */
interface CallersFile {
  files: string[];
  c: [number, string, [number, string, number][]][];
}

type Part<T> = Promise<T | undefined> | undefined;
/** Answers decoded on demand from the file's rows (a walk asks for a few hundred of 10,000); each answer is a fresh array. */
interface Lookup<T> {
  get(k: string): T | undefined;
}

/**
 * The code graph as impact walks it (DEC-032, DEC-036): importers of files and callers of
 * symbols from two small projection files, the rest from the graph. A walk asks for the
 * importers or callers of hundreds of files spread over every shard of the graph's index
 * (~3.6 MB of JSON on 10,000 files, with imports, callees and declarations a forward walk
 * does not read); the projections hold only what the walk follows.
 *
 * Both are keyed by every (path, mode, blob) of the snapshot and the graph's version — a
 * superset of what the graph is built from (its code and configuration files), so any
 * change that can change an importer or a caller makes them miss — and built on a miss from
 * the graph itself, every code file the graph indexed asked in turn, so they never answer
 * otherwise than the graph (the graph holds entries for its code files only: import and call
 * targets are resolved among them).
 */
export function projectedNeighbours(snapshot: Snapshot, index: CodeIndex, opts: { graph?: () => Promise<CodeGraphIndex> } = {}): CodeNeighbours {
  let graph: Promise<CodeGraphIndex> | undefined;
  const open = () => (graph ??= opts.graph ? opts.graph() : import('../code/graph/index.js').then((m) => m.openCodeNeighbours(snapshot)));
  const importersFile = cacheFile(snapshot.root, IMPORTERS_CACHE);
  const callersFile = cacheFile(snapshot.root, CALLERS_CACHE);
  let key: Promise<string> | undefined;
  const keyOf = () => (key ??= projectionKey(snapshot));
  let importers: Part<Lookup<string[]>>;
  let callers: Part<Lookup<CallSite[]>>;
  const loadImporters = () => (importers ??= importersFile ? importerProjection(importersFile, keyOf, open).catch(() => undefined) : Promise.resolve(undefined));
  const loadCallers = () => (callers ??= callersFile ? callerProjection(callersFile, keyOf, open).catch(() => undefined) : Promise.resolve(undefined));
  return {
    languages: ['typescript', 'javascript', 'python', 'go', 'java'],
    imports: async (p) => (await open()).imports(p),
    importers: async (p) => {
      const m = await loadImporters();
      return m ? (m.get(p) ?? []) : (await open()).importers(p);
    },
    callers: async (p, s) => {
      const m = await loadCallers();
      return m ? (m.get(`${p}\0${s}`) ?? []) : (await open()).callers(p, s);
    },
    callees: async (p, s) => (await open()).callees(p, s),
    declarations: async (p) => (await open()).declarations(p),
    symbolAt: async (p, line) => (await (await open()).symbolAt(p, line)) ?? (await index.symbolAt(p, line))?.name,
  };
}

/** The projections' key: every (path, mode, blob) of the snapshot and the graph's version. */
async function projectionKey(snapshot: Snapshot): Promise<string> {
  const { CODE_GRAPH_VERSION } = await import('../code/graph/index.js');
  const entries = await snapshot.list();
  const hash = createHash('sha1').update(`git-ctx/impact-graph ${PROJECTION_VERSION} ${CODE_GRAPH_VERSION}\n`);
  for (const e of entries) {
    const blob = e.blob ?? (await snapshot.blobOf(e.path)) ?? '-';
    hash.update(`${e.path}\0${e.mode}\0${blob}\n`);
  }
  return hash.digest('hex');
}

/** Interns paths as indexes into one table. */
function pathTable() {
  const index = new Map<string, number>();
  const files: string[] = [];
  return {
    files,
    id: (p: string) => {
      let i = index.get(p);
      if (i === undefined) {
        index.set(p, (i = files.length));
        files.push(p);
      }
      return i;
    },
  };
}

async function importerProjection(file: string, keyOf: () => Promise<string>, open: () => Promise<CodeGraphIndex>): Promise<Lookup<string[]>> {
  const key = await keyOf();
  const hit = readKeyedCache(file, key) as ImportersFile | undefined;
  if (hit && Array.isArray(hit.files) && Array.isArray(hit.r) && hit.r.length === hit.files.length) {
    const { files, r } = hit;
    const at = new Map<string, number>();
    for (let i = 0; i < files.length; i++) if (r[i]!.length) at.set(files[i]!, i);
    mark('impact: importers from the projection');
    return {
      get: (p) => {
        const i = at.get(p);
        return i === undefined ? undefined : r[i]!.map((j) => files[j]!);
      },
    };
  }
  // a miss: every code file's importers from the graph (its whole index, once), then kept
  const g = await open();
  const code = await g.files();
  const lists = await Promise.all(code.map((p) => g.importers(p)));
  const t = pathTable();
  const out = new Map<string, string[]>();
  const rows: [number, string[]][] = code.map((p, i) => {
    const l = lists[i]!;
    if (l.length) out.set(p, l);
    return [t.id(p), l];
  });
  const r: number[][] = [];
  for (const [i, l] of rows) r[i] = l.map(t.id);
  for (let i = 0; i < t.files.length; i++) r[i] ??= [];
  writeKeyedCache(file, key, { files: t.files, r } satisfies ImportersFile);
  mark('impact: importers projection written');
  return { get: (p) => (out.has(p) ? [...out.get(p)!] : undefined) };
}

async function callerProjection(file: string, keyOf: () => Promise<string>, open: () => Promise<CodeGraphIndex>): Promise<Lookup<CallSite[]>> {
  const key = await keyOf();
  const hit = readKeyedCache(file, key) as CallersFile | undefined;
  if (hit && Array.isArray(hit.files) && Array.isArray(hit.c)) {
    const { files, c } = hit;
    const at = new Map<string, number>();
    for (let i = 0; i < c.length; i++) at.set(`${files[c[i]![0]]}\0${c[i]![1]}`, i);
    mark('impact: callers from the projection');
    return {
      get: (k) => {
        const i = at.get(k);
        return i === undefined ? undefined : c[i]![2].map(([p, s, line]) => ({ path: files[p]!, symbol: s, line }));
      },
    };
  }
  // a miss: every called symbol of every code file, in the order the graph answers `callers`
  const g = await open();
  const code = await g.files();
  const lists = await Promise.all(code.map((p) => g.callersIn(p)));
  const t = pathTable();
  const out = new Map<string, CallSite[]>();
  const c: CallersFile['c'] = [];
  code.forEach((p, i) => {
    for (const [sym, sites] of lists[i]!) {
      if (!sites.length) continue;
      out.set(`${p}\0${sym}`, sites);
      c.push([t.id(p), sym, sites.map((s) => [t.id(s.path), s.symbol, s.line])]);
    }
  });
  writeKeyedCache(file, key, { files: t.files, c } satisfies CallersFile);
  mark('impact: callers projection written');
  return { get: (k) => out.get(k)?.map((x) => ({ ...x })) };
}
