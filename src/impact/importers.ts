// @spec SPEC-IMPACT-001

import { createHash } from 'node:crypto';
import { readKeyedCache, writeKeyedCache } from '../cache/file.js';
import type { CodeNeighbours } from '../code/neighbours.js';
import { cacheFile } from '../git/git-dir.js';
import type { Snapshot } from '../snapshot/types.js';
import { mark } from '../util/timing.js';

/** Bump when what the projection holds changes. */
const IMPORTERS_VERSION = 1;
const IMPORTERS_CACHE = 'impact-importers.json';

/** On disk: the code files, and per file the indexes of the files importing it. */
interface Projection {
  files: string[];
  r: number[][];
}

/**
 * The code graph's file → importers edges as one small file, for impact's walks (DEC-032):
 * a reverse walk asks for the importers of hundreds of files spread over every shard of the
 * graph's index (~3.6 MB of JSON on 10,000 files, with callers and declarations impact does
 * not read), where this file holds only what the walk follows. It is keyed by every (path,
 * mode, blob) of the snapshot and the graph's version — a superset of what the graph is
 * built from, so any change that can change an importer makes it miss — and built on a miss
 * from the graph itself, so it never answers differently from the graph.
 */
export function withImporterProjection(snapshot: Snapshot, nb: CodeNeighbours): CodeNeighbours {
  const file = cacheFile(snapshot.root, IMPORTERS_CACHE);
  if (!file) return nb;
  let loaded: Promise<Map<string, string[]> | undefined> | undefined;
  const load = () => (loaded ??= projection(snapshot, nb, file).catch(() => undefined));
  return {
    ...nb,
    importers: async (p) => {
      const m = await load();
      return m ? (m.get(p) ?? []) : nb.importers(p);
    },
  };
}

async function projection(snapshot: Snapshot, nb: CodeNeighbours, file: string): Promise<Map<string, string[]> | undefined> {
  const { CODE_GRAPH_VERSION, graphLanguageOf } = await import('../code/graph/index.js');
  const entries = await snapshot.list();
  const hash = createHash('sha1').update(`git-ctx/impact-importers ${IMPORTERS_VERSION} ${CODE_GRAPH_VERSION}\n`);
  const code: string[] = [];
  for (const e of entries) {
    const blob = e.blob ?? (await snapshot.blobOf(e.path)) ?? '-';
    hash.update(`${e.path}\0${e.mode}\0${blob}\n`);
    if (graphLanguageOf(e.path) && e.mode !== '120000' && e.mode !== '160000') code.push(e.path);
  }
  const key = hash.digest('hex');
  const hit = readKeyedCache(file, key) as Projection | undefined;
  if (hit && Array.isArray(hit.files) && Array.isArray(hit.r) && hit.r.length === hit.files.length) {
    const out = new Map<string, string[]>();
    hit.files.forEach((f, i) => {
      const r = hit.r[i]!;
      if (r.length) out.set(f, r.map((j) => hit.files[j]!));
    });
    mark('impact: importers from the projection');
    return out;
  }
  // a miss: every code file's importers from the graph (its whole index, once), then kept
  const out = new Map<string, string[]>();
  const lists = await Promise.all(code.map((p) => nb.importers(p)));
  const index = new Map<string, number>();
  const files: string[] = [];
  const id = (p: string) => {
    let i = index.get(p);
    if (i === undefined) {
      index.set(p, (i = files.length));
      files.push(p);
    }
    return i;
  };
  const rows: [number, string[]][] = [];
  code.forEach((p, i) => {
    const l = lists[i]!;
    if (l.length) out.set(p, l);
    rows.push([id(p), l]);
  });
  const r: number[][] = [];
  for (const [i, l] of rows) r[i] = l.map(id);
  for (let i = 0; i < files.length; i++) r[i] ??= [];
  writeKeyedCache(file, key, { files, r } satisfies Projection);
  mark('impact: importers projection written');
  return out;
}
