// @spec SPEC-RETRIEVE-001

/*
 * Trace: what governs a place. One module for the three ways it is asked: `traceLocation`
 * (annotations, anchors and `paths` globs around a file, line or symbol, nearest first),
 * `traceByPaths` (the records whose `paths` globs cover a path, for the library), and
 * `traceWithFallback` (the `trace` command: declared hits, else retrieval's weaker ones).
 */

import { compilePaths, entryBase, entryCovers, relateEntry, type EntryHow } from '../util/path-set.js';
import type { ArtifactSet } from '../artifacts/load.js';
import { annotationId } from '../artifacts/lookup.js';
import type { Artifact } from '../artifacts/types.js';
import { checkLineInFile } from '../code/place-line.js';
import { CtxError } from '../errors.js';
import { noSuchPath } from '../snapshot/missing-path.js';
import { namesHint } from '../util/close-match.js';
import type { Snapshot } from '../snapshot/types.js';
import { normalizeRepoPath } from '../util/paths.js';
import { findSymbol, parseAnchor } from '../code/anchors.js';
import { findDeclaration } from '../code/graph/symbols.js';
import type { CodeIndex } from '../code/code-index.js';
import type { CodeSymbol, RouteRegistration } from '../code/types.js';
import { unansweredLanes, type RetrievalResult, type Why } from './types.js';
import type { TraceTarget } from './trace-target.js';
import { declarationInFile } from './qualified-declaration.js';

export { parseTraceTarget, type TraceTarget } from './trace-target.js';

/** How near a match is, nearest first. */
export type TraceLevel = 'symbol' | 'file' | 'directory' | 'package';
const LEVEL_RANK: Record<TraceLevel, number> = { symbol: 0, file: 1, directory: 2, package: 3 };

/** One way an artifact was found to govern the target. */
export interface TraceMatch {
  level: TraceLevel;
  /** annotation | anchor | paths */
  via: 'annotation' | 'anchor' | 'paths';
  /** human-readable: `@spec on InvoiceGenerator.generate (src/x.ts:12)`, `paths: src/billing/**` */
  how: string;
  /** the symbol matched, for symbol-level matches */
  symbol?: string;
  /** the line of the annotation, for annotations */
  line?: number;
  /** 0 for the innermost symbol / the file's own directory; grows outwards */
  distance: number;
}

/** An artifact (or an unknown id named by an annotation) governing the target. */
export interface TraceEntry {
  id: string;
  /** false when an annotation names an id no artifact declares */
  known: boolean;
  type?: string;
  title?: string;
  /** null: a known record without a status (the key is always there for a known one) */
  status?: string | null;
  file?: string;
  /** the nearest match, which decides the order */
  match: TraceMatch;
  /** every other way it matched */
  also: TraceMatch[];
}

export interface TraceResult {
  target: TraceTarget & { kind: 'file' | 'directory'; symbolRange?: { start: number; end: number } };
  entries: TraceEntry[];
  /** the nearest directory holding a package.json or a Cargo.toml, if any ('' = the root) */
  package?: string;
  /** why the traced file's content was not parsed (its own annotations and symbols are unknown) */
  skipped?: string;
}

/** Does a `paths:` entry cover a file? Same semantics as the check rules: exact, directory prefix, or glob. */
export function pathsEntryCovers(entry: string, file: string): boolean {
  // a `!` entry is an exclusion (see compilePaths): on its own it covers nothing
  return !entry.trim().startsWith('!') && entryCovers(entry, file);
}

const depthOf = (dir: string) => (dir ? dir.split('/').length : 0);
const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
/** What makes a directory a package: an npm package, or a Cargo crate (a workspace's members are folders with their own). */
const MANIFESTS = ['package.json', 'Cargo.toml'];
const isManifest = (p: string) => MANIFESTS.some((m) => p === m || p.endsWith(`/${m}`));
/** The manifests that could make a directory or one above it a package, nearest first. */
const packageCandidates = (dir: string): string[] => {
  const out: string[] = [];
  for (let d: string | undefined = dir; d !== undefined; d = d === '' ? undefined : dirOf(d)) for (const m of MANIFESTS) out.push(d ? `${d}/${m}` : m);
  return out;
};

export interface TraceOptions {
  snapshot: Snapshot;
  set: ArtifactSet;
  index: CodeIndex;
  target: TraceTarget;
  /**
   * Say why the file's content was not parsed (`skipped`; default true). Asking parses the
   * file; a caller that reads only which records govern it (retrieval's declared slot, the
   * pre-commit hook's one line) passes false and the trace reads no parse it does not need.
   */
  reportSkipped?: boolean;
}

/**
 * What governs a place in the code, nearest first: the innermost annotated symbol and the
 * symbols enclosing it, then the file (file-level annotations, file anchors), then its
 * directory and the parents (paths globs, directory anchors), then the package (the nearest
 * directory with a package.json or a Cargo.toml). Each entry says how it matched.
 */
export async function traceLocation(opts: TraceOptions): Promise<TraceResult> {
  const { snapshot, set, index } = opts;
  const target = { ...opts.target, path: normalizeRepoPath(opts.target.path) };
  const isFile = (await snapshot.blobOf(target.path)) !== undefined;
  const isDir = !isFile && (target.path === '' || (await snapshot.listUnder(target.path)).length > 0);
  if (!isFile && !isDir) throw await noSuchPath(snapshot, target.path);
  if (isDir && (target.line !== undefined || target.symbol !== undefined)) throw new CtxError('USAGE', `${target.path} is a directory; a line or symbol needs a file`);
  if (isFile) await checkLineInFile(snapshot, target.path, target.line);

  // the file's parse (its symbols and routes) is read only when the question needs it: a line
  // or symbol to focus on, an anchor naming a symbol or an endpoint of the file. A whole-file
  // trace is otherwise answered from file-level facts the index keeps without parsing (the
  // annotations it found when it classified the file, DEC-071): for a TypeScript file nobody
  // annotated, parsing would load the compiler for nothing
  let parsed: CodeSymbol[] | undefined;
  const symbolsOfFile = async (): Promise<CodeSymbol[]> => (parsed ??= isFile ? await index.symbolsOf(target.path) : []);
  const symbols: CodeSymbol[] = target.symbol !== undefined || target.line !== undefined ? await symbolsOfFile() : [];
  let focus: { start: number; end: number } | undefined;
  if (target.symbol !== undefined) {
    let s: { line: number; endLine: number } | undefined = findSymbol(symbols, target.symbol) ?? findDeclaration(symbols, target.symbol);
    if (!s && (await index.skippedReason(target.path))) throw new CtxError('USAGE', `${target.path} was not parsed (${await index.skippedReason(target.path)}), so its symbols are unknown`, { file: target.path });
    // a language the code index does not parse (Kotlin, PHP, C#, …): the line that declares it,
    // as `for` finds it, so that trace and for agree on what `path#Symbol` is
    if (!s) s = await declarationInFile(snapshot, target.path, target.symbol);
    // trace and anchors parse TS/JS, Python, Go, Java and Ruby files and find other languages'
    // declarations by their line; a line of any file can be traced: say so rather than a bare "no symbol"
    if (!s) throw new CtxError('USAGE', `no symbol ${target.symbol} in ${target.path}`, { hint: symbols.length ? namesHint(target.symbol, symbols.map((x) => x.name)) : `no line of the file declares it (class, fun, def, function, …): ask for a line (${target.path}:LINE)` });
    focus = { start: s.line, end: s.endLine };
  } else if (target.line !== undefined) focus = { start: target.line, end: target.line };

  const found = new Map<string, TraceMatch[]>();
  const add = (written: string, m: TraceMatch) => {
    // `@adr 5` names ADR-0005 (DEC-093)
    const id = annotationId(set, written);
    const l = found.get(id);
    if (l) l.push(m);
    else found.set(id, [m]);
  };

  // symbols enclosing the focus, innermost first (distance 0, 1, …)
  const enclosing = focus
    ? symbols
        .filter((s) => s.docLine <= focus.start && s.endLine >= focus.end)
        .sort((a, b) => a.endLine - a.docLine - (b.endLine - b.docLine) || b.line - a.line)
    : [];
  const symDistance = new Map(enclosing.map((s, i) => [s.name, i]));

  if (isFile) {
    for (const a of index.annotationsIn(target.path)) {
      const where = `${target.path}:${a.line}`;
      if (a.symbol === undefined) {
        for (const id of a.ids) add(id, { level: 'file', via: 'annotation', how: `@${a.tag} file annotation (${where})`, line: a.line, distance: 0 });
      } else if (!focus) {
        // a whole-file trace: symbols inside the file also govern part of it
        for (const id of a.ids) add(id, { level: 'symbol', via: 'annotation', how: `@${a.tag} on ${a.symbol} (${where})`, symbol: a.symbol, line: a.line, distance: 0 });
      } else if (symDistance.has(a.symbol)) {
        for (const id of a.ids) add(id, { level: 'symbol', via: 'annotation', how: `@${a.tag} on ${a.symbol} (${where})`, symbol: a.symbol, line: a.line, distance: symDistance.get(a.symbol)! });
      }
    }
  }

  // package: the nearest directory (of the target) holding a package.json or a Cargo.toml
  const targetDir = isFile ? dirOf(target.path) : target.path;
  // a file asked about through the place index: its package.json candidates were looked up
  // with it, so the package is found without the tree's listing (a directory needs it anyway)
  const byLookup = isFile && (snapshot.listPaths !== undefined || snapshot.prefetch !== undefined);
  // a git snapshot (the staged tree, a commit) looks the candidates up at once: a file's
  // package is a file-level fact, not worth listing 100,000 files for (DEC-071)
  if (byLookup && snapshot.listPaths === undefined) snapshot.prefetch!(packageCandidates(targetDir));
  const all = byLookup ? [] : await snapshot.list();
  const pkgDirs = new Set(all.filter((e) => isManifest(e.path)).map((e) => dirOf(e.path)));
  const hasManifest = async (d: string) => {
    for (const m of MANIFESTS) if ((await snapshot.blobOf(d ? `${d}/${m}` : m)) !== undefined) return true;
    return false;
  };
  const hasPackage = async (d: string) => (byLookup ? hasManifest(d) : pkgDirs.has(d));
  let pkg: string | undefined;
  for (let d: string | undefined = targetDir; d !== undefined; d = d === '' ? undefined : dirOf(d)) {
    if (await hasPackage(d)) {
      pkg = d;
      break;
    }
  }

  const pathLevel = (entry: string, via: 'paths' | 'anchor', a: Artifact): TraceMatch | undefined => {
    // one matcher for every `paths:` question (src/util/path-set.ts)
    const base = entryBase(entry);
    if (isFile) {
      const rel = relateEntry(entry, target.path);
      if (!rel || rel.how === 'contains') return undefined;
    } else {
      // a directory is governed by entries rooted at it or above that reach into it
      if (!(target.path === '' ? true : base === '' || target.path === base || target.path.startsWith(base + '/'))) return undefined;
      const under = all.filter((e) => target.path === '' || e.path.startsWith(target.path + '/'));
      if (!under.some((e) => pathsEntryCovers(entry, e.path))) return undefined;
    }
    const label = via === 'paths' ? `paths: ${entry} (${a.file})` : `anchor ${entry} (${a.file})`;
    if (isFile && normalizeRepoPath(entry) === target.path) return { level: 'file', via, how: label, distance: 0 };
    // an entry naming the package root as a whole (`pkg`, `pkg/**`, `pkg/package.json`, `pkg/Cargo.toml`) is package level
    const n = normalizeRepoPath(entry);
    const wholePackage = pkg !== undefined && [pkg, pkg ? `${pkg}/**` : '**', ...MANIFESTS.map((m) => (pkg ? `${pkg}/${m}` : m))].includes(n);
    if (wholePackage) return { level: 'package', via, how: label, distance: depthOf(targetDir) - depthOf(pkg!) };
    return { level: 'directory', via, how: label, distance: Math.max(0, depthOf(targetDir) - depthOf(base)) };
  };

  let routes: RouteRegistration[] | undefined;
  const routesOfFile = async () => (routes ??= isFile ? ((await index.recordOf(target.path))?.routes ?? []) : []);
  const route = (p: string) => '/' + p.split('/').filter(Boolean).join('/');
  for (const a of set.artifacts) {
    const pathSet = compilePaths(a.paths);
    for (const p of isFile && !pathSet.covers(target.path) ? [] : pathSet.includes) {
      const m = pathLevel(p, 'paths', a);
      if (m) add(a.id, m);
    }
    for (const raw of a.anchors) {
      const spec = parseAnchor(raw);
      if (spec.kind === 'symbol' && isFile && spec.path === target.path) {
        const s = findSymbol(await symbolsOfFile(), spec.symbol);
        if (!s) continue;
        if (!focus) add(a.id, { level: 'symbol', via: 'anchor', how: `anchor ${raw} (${a.file})`, symbol: s.name, distance: 0 });
        else if (symDistance.has(s.name)) add(a.id, { level: 'symbol', via: 'anchor', how: `anchor ${raw} (${a.file})`, symbol: s.name, distance: symDistance.get(s.name)! });
      } else if (spec.kind === 'lines' && isFile && spec.path === target.path) {
        if (!focus || (spec.start <= focus.end && spec.end >= focus.start)) {
          add(a.id, { level: focus ? 'symbol' : 'file', via: 'anchor', how: `anchor ${raw} (${a.file})`, distance: 0 });
        }
      } else if (spec.kind === 'endpoint') {
        // the place registers the endpoint an anchor names
        for (const r of await routesOfFile()) {
          if ((r.method !== spec.method && r.method !== 'ALL') || route(r.path) !== route(spec.path)) continue;
          if (focus && (r.line < focus.start || r.line > focus.end)) continue;
          add(a.id, { level: focus ? 'symbol' : 'file', via: 'anchor', how: `anchor ${raw} (${target.path}:${r.line})`, line: r.line, distance: 0 });
          break;
        }
      } else if (spec.kind === 'file' || spec.kind === 'glob') {
        const m = pathLevel(spec.kind === 'file' ? spec.path : spec.pattern, 'anchor', a);
        if (m) add(a.id, m);
      }
    }
  }

  const entries: TraceEntry[] = [];
  for (const [id, matches] of found) {
    matches.sort((x, y) => LEVEL_RANK[x.level] - LEVEL_RANK[y.level] || x.distance - y.distance);
    const art = set.byId.get(id);
    const e: TraceEntry = { id, known: !!art, match: matches[0]!, also: matches.slice(1) };
    if (art) {
      e.type = art.type;
      e.title = art.title;
      e.status = art.status ?? null;
      e.file = art.file;
    }
    entries.push(e);
  }
  entries.sort((x, y) => LEVEL_RANK[x.match.level] - LEVEL_RANK[y.match.level] || x.match.distance - y.match.distance || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  const result: TraceResult = { target: { ...target, kind: isFile ? 'file' : 'directory' }, entries };
  if (focus) result.target.symbolRange = focus;
  if (pkg !== undefined) result.package = pkg;
  const skipped = isFile && opts.reportSkipped !== false ? await index.skippedReason(target.path) : undefined;
  if (skipped) result.skipped = skipped;
  return result;
}

/** How a `paths` entry reached the traced path, most specific first. */
export type TraceHow = EntryHow;

/** One artifact governing a path, with the pattern that matched best and how. */
export interface PathsTraceMatch {
  id: string;
  type: string;
  title: string;
  /** null when the record has none */
  status: string | null;
  file: string;
  /** the `paths` entry that matched best */
  pattern: string;
  how: TraceHow;
  /** literal directory part of the pattern (what "nearest" is measured by) */
  base: string;
  /** every pattern of this artifact that matched, best first */
  patterns: { pattern: string; how: TraceHow }[];
  /** one line for people: "glob src/billing/invoice/** (under src/billing/invoice)" */
  explanation: string;
}

export interface PathsTraceOptions {
  /** artifact types considered (default: every type but task and identity) */
  types?: string[];
}

const HOW_RANK: Record<TraceHow, number> = { exact: 0, directory: 1, glob: 1, contains: 2 };
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const segments = (p: string) => (p ? p.split('/').length : 0);

interface Scored {
  pattern: string;
  how: TraceHow;
  base: string;
  /** literal characters after the base (5 for "src/api/**" + "/*.ts"): more = narrower among equal bases */
  literal: number;
}

/** How one pattern relates to a path (the shared matcher), or undefined when it does not. */
function matchPattern(raw: string, p: string): Scored | undefined {
  const r = relateEntry(raw, p);
  return r && { pattern: raw, ...r };
}

function better(a: Scored, b: Scored): number {
  return HOW_RANK[a.how] - HOW_RANK[b.how] || segments(b.base) - segments(a.base) || b.literal - a.literal || cmp(a.pattern, b.pattern);
}

function explain(s: Scored): string {
  switch (s.how) {
    case 'exact':
      return `exact path ${s.pattern}`;
    case 'directory':
      return `directory ${s.pattern} contains it`;
    case 'glob':
      return `glob ${s.pattern}${s.base ? ` (under ${s.base})` : ''}`;
    case 'contains':
      return `governs ${s.pattern}, inside it`;
  }
}

/**
 * The artifacts whose `paths` govern a repository path, nearest and most specific first:
 * exact file, then directory or glob by the depth of their literal base (deeper = nearer) and
 * literal length, then patterns that name something inside the path (when it is a directory).
 * Negated patterns (`!src/gen/**`) exclude. Ties: kind order from config, then id.
 */
export function traceByPaths(set: ArtifactSet, repoPath: string, opts: PathsTraceOptions = {}): PathsTraceMatch[] {
  const p = normalizeRepoPath(repoPath);
  const keep = (a: Artifact) => (opts.types ? opts.types.includes(a.type) : a.type !== 'task' && a.type !== 'identity');
  const order = new Map(set.config.order.map((t, i) => [t, i] as const));
  const found: { a: Artifact; best: Scored; all: Scored[] }[] = [];
  for (const a of set.byId.values()) {
    if (!keep(a) || !a.paths.length) continue;
    const pathSet = compilePaths(a.paths);
    if (pathSet.excludes.some((x) => entryCovers(x, p))) continue;
    const all = pathSet.includes
      .map((x) => matchPattern(x, p))
      .filter((x): x is Scored => x !== undefined)
      .sort(better);
    if (all.length) found.push({ a, best: all[0]!, all });
  }
  const kind = (t: string) => order.get(t) ?? order.size;
  found.sort(
    (x, y) =>
      HOW_RANK[x.best.how] - HOW_RANK[y.best.how] ||
      segments(y.best.base) - segments(x.best.base) ||
      y.best.literal - x.best.literal ||
      kind(x.a.type) - kind(y.a.type) ||
      cmp(x.a.id, y.a.id),
  );
  return found.map(({ a, best, all }) => ({
    id: a.id,
    type: a.type,
    title: a.title,
    status: a.status ?? null,
    file: a.file,
    pattern: best.pattern,
    how: best.how,
    base: best.base,
    patterns: all.map((s) => ({ pattern: s.pattern, how: s.how })),
    explanation: explain(best),
  }));
}

/** A record found by weaker evidence when nothing is declared at a place. */
export interface TraceFallback {
  id: string;
  type: string;
  title: string;
  /** null when the record has none */
  status: string | null;
  file: string;
  /** "mentioned in" when a record's text names the place, else "nearest by keywords" */
  evidence: 'mentioned in' | 'nearest by keywords';
  why: Why[];
}

/** A fallback match under the relevance floor, with its relevance (floor.ts). */
export type TraceWeak = TraceFallback & { relevance: number };

/**
 * `trace` as a view of retrieval: the declared hits as they are (slot 1 at the place), and
 * only when none is known, the fused band as a clearly weaker fallback. `slots`: the reports
 * of the fallback's lanes that failed or timed out, only when one did (the answer is partial).
 */
export async function traceWithFallback(opts: { snapshot: Snapshot; set: ArtifactSet; index: CodeIndex; target: TraceTarget; fallback?: number }): Promise<TraceResult & { fallback?: TraceFallback[]; weak?: TraceWeak[]; slots?: Partial<RetrievalResult['slots']> }> {
  const trace = await traceLocation(opts);
  if (trace.entries.some((e) => e.known) || opts.fallback === 0) return trace;
  // retrieval is loaded only when nothing is declared here (the engine itself imports this module's types)
  const { retrieveForPlace } = await import('./engine.js');
  const r = await retrieveForPlace({ snapshot: opts.snapshot, set: opts.set, index: opts.index, target: opts.target, neighbours: false, caps: { declared: 0, fused: opts.fallback ?? 5, links: 0 } });
  const entry = (x: (typeof r.results)[number]): TraceFallback => ({
    id: x.id,
    type: x.type,
    title: x.title,
    status: x.status ?? null,
    file: x.file,
    evidence: x.why.some((w) => w.kind === 'mention') ? 'mentioned in' : 'nearest by keywords',
    why: x.why,
  });
  const fallback = r.results.filter((x) => x.slot === 'fused').map(entry);
  // matches under the relevance floor: not answers ("nothing governs this place"), listed apart for debugging as `for`'s JSON lists them
  const weak = (r.weak ?? []).map((x) => ({ ...entry(x), relevance: x.relevance ?? 0 }));
  const unanswered = unansweredLanes(r.slots);
  return { ...trace, fallback, weak, ...(Object.keys(unanswered).length ? { slots: unanswered } : {}) };
}

/**
 * The files (optionally `#Symbol`) that words of a search may name, relative to the
 * repository root, in order; whether each exists is for the snapshot to say.
 */
export function namedPlaces(text: string): TraceTarget[] {
  const out: TraceTarget[] = [];
  for (const w of text.split(/\s+/)) {
    const m = /^([\w@./-]+\.[A-Za-z0-9]+|[\w@.-]+\/[\w@./-]+)(?:#([\w$.]+)|:([1-9]\d{0,6}))?$/.exec(w.replace(/^[`'"(]+|[`'",.;:)?]+$/g, ''));
    if (m) out.push({ path: normalizeRepoPath(m[1]!), ...(m[2] ? { symbol: m[2] } : {}), ...(m[3] ? { line: Number(m[3]) } : {}) });
  }
  return out;
}
