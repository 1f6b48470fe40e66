// @spec SPEC-IMPACT-001

import { createHash } from 'node:crypto';
import { memo, type Memo } from '../cache/memo.js';
import type { CodeIndex } from '../code/code-index.js';
import type { CodeGraphIndex } from '../code/graph/index.js';
import { CODE_GRAPH_VERSION } from '../code/graph/version.js';
import type { CallSite, CodeNeighbours } from '../code/neighbours.js';
import type { Snapshot } from '../snapshot/types.js';
import { mark } from '../util/timing.js';
import { listingDigest } from './code-origins.js';

/** Bump when what the projection holds changes. */
const PROJECTION_VERSION = 1;

/**
 * On disk: flat tables of numbers, which JSON parses without an object or array per entry.
 * `files` are the graph's code files, sorted (found by binary search); `syms` the symbol
 * names. The importers of `files[i]` are `imp[io[i]]..imp[io[i+1]-1]` (indexes into
 * `files`). The callers of the symbols of `files[i]` are the rows `cal[co[i]]..cal[co[i+1]-1]`,
 * each row `sym, n` then `n` call sites `file, sym, line`, in the order the graph answers.
 */
interface ProjectionFile {
  files: string[];
  syms: string[];
  io: number[];
  imp: number[];
  co: number[];
  cal: number[];
}

/** Paths as the graph looks them up (src/code/graph: `norm`). */
const norm = (p: string) => p.replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');

/**
 * The code graph as impact walks it (DEC-032, DEC-036): importers of files and callers of
 * symbols from one small projection file, the rest from the graph. A walk asks for the
 * importers or callers of hundreds of files spread over every shard of the graph's index
 * (~3.6 MB of JSON on 10,000 files, with imports, callees and declarations a walk that
 * follows change does not read); the projection holds only what the walk follows.
 *
 * It is keyed by every (path, mode, blob) of the snapshot and the graph's version — a
 * superset of what the graph is built from (its code and configuration files), so any
 * change that can change an importer or a caller makes it miss — and built on a miss from
 * the graph itself, every code file the graph indexed asked in turn, so it never answers
 * otherwise than the graph (the graph holds entries for its code files only: import and
 * call targets are resolved among them).
 */
export function projectedNeighbours(snapshot: Snapshot, index: () => Promise<CodeIndex>, opts: { graph?: () => Promise<CodeGraphIndex> } = {}): CodeNeighbours {
  let graph: Promise<CodeGraphIndex> | undefined;
  const open = () => (graph ??= opts.graph ? opts.graph() : import('../code/graph/index.js').then((m) => m.openCodeNeighbours(snapshot)));
  const file = memo<unknown>(snapshot.root, 'impact-graph');
  let loaded: Promise<Projection | undefined> | undefined;
  const load = () => (loaded ??= file.on ? projection(snapshot, file, open).catch(() => undefined) : Promise.resolve(undefined));
  return {
    languages: ['typescript', 'javascript', 'python', 'go', 'java', 'ruby', 'rust'],
    imports: async (p) => (await open()).imports(p),
    importers: async (p) => {
      const m = await load();
      return m ? m.importers(norm(p)) : (await open()).importers(p);
    },
    callers: async (p, s) => {
      const m = await load();
      return m ? m.callers(norm(p), s) : (await open()).callers(p, s);
    },
    callees: async (p, s) => (await open()).callees(p, s),
    declarations: async (p) => (await open()).declarations(p),
    symbolAt: async (p, line) => (await (await open()).symbolAt(p, line)) ?? (await (await index()).symbolAt(p, line))?.name,
  };
}

/** Lookups into the flat tables, decoding only what is asked (a walk asks for a few hundred of 10,000 files). */
class Projection {
  constructor(private readonly t: ProjectionFile) {}

  private at(p: string): number {
    const f = this.t.files;
    let lo = 0;
    let hi = f.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (f[mid]! < p) lo = mid + 1;
      else hi = mid;
    }
    return lo < f.length && f[lo] === p ? lo : -1;
  }

  importers(p: string): string[] {
    const { files, io, imp } = this.t;
    const i = this.at(p);
    const out: string[] = [];
    if (i >= 0) for (let k = io[i]!; k < io[i + 1]!; k++) out.push(files[imp[k]!]!);
    return out;
  }

  callers(p: string, symbol: string): CallSite[] {
    const { files, syms, co, cal } = this.t;
    const i = this.at(p);
    if (i < 0) return [];
    for (let k = co[i]!; k < co[i + 1]!; ) {
      const n = cal[k + 1]!;
      if (syms[cal[k]!] === symbol) {
        const out: CallSite[] = [];
        for (let j = k + 2; j < k + 2 + 3 * n; j += 3) out.push({ path: files[cal[j]!]!, symbol: syms[cal[j + 1]!]!, line: cal[j + 2]! });
        return out;
      }
      k += 2 + 3 * n;
    }
    return [];
  }
}

/** Whether a parsed file has the shape written (its tables' lengths agree). */
function valid(v: unknown): v is ProjectionFile {
  const t = v as ProjectionFile | undefined;
  return !!t && typeof t === 'object' && [t.files, t.syms, t.io, t.imp, t.co, t.cal].every(Array.isArray) && t.io.length === t.files.length + 1 && t.co.length === t.files.length + 1 && t.io[t.files.length] === t.imp.length && t.co[t.files.length] === t.cal.length;
}

async function projection(snapshot: Snapshot, file: Memo<unknown>, open: () => Promise<CodeGraphIndex>): Promise<Projection> {
  const key = createHash('sha1').update(`git-ctx/impact-graph ${PROJECTION_VERSION} ${CODE_GRAPH_VERSION}\n${await listingDigest(snapshot)}`).digest('hex');
  const hit = file.get(key);
  if (valid(hit)) {
    mark('impact: importers and callers from the projection');
    return new Projection(hit);
  }
  const t = await build(await open());
  file.set(key, t);
  mark('impact: importers and callers projection written');
  return new Projection(t);
}

/** The tables from the graph: every code file's importers and called symbols (its whole index, once). */
async function build(g: CodeGraphIndex): Promise<ProjectionFile> {
  const code = [...(await g.files())].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const [importers, callers] = await Promise.all([Promise.all(code.map((p) => g.importers(p))), Promise.all(code.map((p) => g.callersIn(p)))]);
  const fileAt = new Map(code.map((p, i) => [p, i]));
  const fileId = (p: string) => {
    const i = fileAt.get(p);
    // every importer and caller is a code file of the graph; kept exact all the same
    if (i === undefined) throw new Error(`code graph: ${p} is not one of its files`);
    return i;
  };
  const symAt = new Map<string, number>();
  const syms: string[] = [];
  const symId = (s: string) => {
    let i = symAt.get(s);
    if (i === undefined) {
      symAt.set(s, (i = syms.length));
      syms.push(s);
    }
    return i;
  };
  const io: number[] = [0];
  const imp: number[] = [];
  const co: number[] = [0];
  const cal: number[] = [];
  code.forEach((_, i) => {
    for (const q of importers[i]!) imp.push(fileId(q));
    io.push(imp.length);
    for (const [sym, sites] of callers[i]!) {
      if (!sites.length) continue;
      cal.push(symId(sym), sites.length);
      for (const s of sites) cal.push(fileId(s.path), symId(s.symbol), s.line);
    }
    co.push(cal.length);
  });
  return { files: code, syms, io, imp, co, cal };
}
