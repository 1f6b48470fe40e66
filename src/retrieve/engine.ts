// @spec SPEC-RETRIEVE-001

import type { ArtifactSet } from '../artifacts/load.js';
import type { Artifact } from '../artifacts/types.js';
import { findSymbol, isGlob } from '../code/anchors.js';
import { CtxError } from '../errors.js';
import { buildCodeIndex, type CodeIndex } from '../code/code-index.js';
import type { CodeNeighbours } from '../code/neighbours.js';
import type { TraceTarget } from '../code/trace.js';
import { staleMarks } from '../staleness/marks.js';
import { compilePaths, entryCovers } from '../util/path-set.js';
import { normalizeRepoPath } from '../util/paths.js';
import { queryOf, searchKeywords, keywordIndexFor, type KeywordHit } from './bm25.js';
import { declaredFor, declaredRank, type DeclaredHit } from './declared.js';
import { defaultNeighbours } from './default-neighbours.js';
import { extractPlaceTerms, placeQuery } from './extract.js';
import { followLinks, successorsOf } from './links.js';
import {
  DEFAULT_CAPS,
  LANE_NAMES,
  type LaneName,
  type LaneReport,
  type RetrievalCaps,
  type RetrievalFilters,
  type RetrievalResult,
  type RetrievedRecord,
  type RetrieveOptions,
  type Why,
} from './types.js';

/** Weights of the fused band's signals (keywords normalised to the best hit's score). */
const WEIGHTS = { keywords: 1, mentions: 0.6, nearness: 0.25, semantic: 0.8 } as const;
/**
 * For a place (code as the query) the semantic signal is a fallback only, used when the
 * keywords found nothing: word vectors of identifiers are noisy. Measured on the
 * dotcom-rendering dev set with the default embedder (bench/retrieval.mjs), fusing it at the
 * question weight cost file queries 6 points of recall@5 and symbol queries 10; at 0.3, 4 and 0.
 */
const placeSemanticWeight = (lanes: Lanes): number => (lanes.keywords?.length ? 0 : WEIGHTS.semantic);
/** Bytes of code read at a place for passive extraction. */
const MAX_PLACE_BYTES = 200_000;
/** Score given to declared hits: always above the fused band (whose scores stay below 3). */
const DECLARED_BASE = 1000;

type Signal = { score: number; why: Why };

/** Run one lane with a time budget; a throw or a timeout becomes its report, never the caller's. */
async function runLane<T>(reports: Record<LaneName, LaneReport>, name: LaneName, timeoutMs: number, fn: () => Promise<T>): Promise<T | undefined> {
  const t0 = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
      timer.unref?.();
    });
    const r = await Promise.race([fn(), timeout]);
    if (r === 'timeout') {
      reports[name] = { ...reports[name], status: 'timeout', message: `no answer within ${timeoutMs} ms` };
      return undefined;
    }
    reports[name] = { ...reports[name], status: 'ok' };
    return r;
  } catch (e) {
    reports[name] = { ...reports[name], status: 'failed', message: e instanceof Error ? e.message : String(e) };
    return undefined;
  } finally {
    if (timer) clearTimeout(timer);
    reports[name].ms = Math.round((performance.now() - t0) * 10) / 10;
  }
}

function initialReports(caps: RetrievalCaps): Record<LaneName, LaneReport> {
  const r = {} as Record<LaneName, LaneReport>;
  for (const n of LANE_NAMES) r[n] = { status: 'skipped', count: 0, ms: 0 };
  r.declared.cap = caps.declared;
  r.keywords.cap = r.mentions.cap = r.nearness.cap = r.semantic.cap = caps.fused;
  r.links.cap = caps.links;
  return r;
}

/** Is a record no longer in force (superseded, deprecated, rejected, done…)? */
export function isInactive(a: Artifact, set: ArtifactSet): boolean {
  return !!a.status && (set.config.types[a.type]?.inactive ?? []).includes(a.status);
}

/** Slot 4: does a record pass the filters (inactive ones only with `all`)? */
export function passesFilters(a: Artifact, set: ArtifactSet, f: RetrievalFilters): boolean {
  if (!f.all && isInactive(a, set)) return false;
  const inList = (list: string[] | undefined, v: string | undefined) => !list?.length || (v !== undefined && list.some((x) => x.toLowerCase() === v.toLowerCase()));
  if (!inList(f.status, a.status) || !inList(f.type, a.type) || !inList(f.owner, a.owner) || !inList(f.domain, a.domain) || !inList(f.scope, a.scope)) return false;
  if (f.source?.length && !f.source.includes(a.format ?? 'contextia')) return false;
  if (f.since && !(a.created && a.created.slice(0, 10) >= f.since)) return false;
  return true;
}

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
const segs = (p: string) => (p ? p.split('/') : []);
const round = (n: number) => Math.round(n * 1000) / 1000;

/** Mentions signal: records whose text names the file (strong), or a directory or glob holding it (weaker). */
export function mentionSignals(set: ArtifactSet, path: string, symbol?: string): Map<string, Signal> {
  const out = new Map<string, Signal>();
  const depth = segs(dirOf(path)).length || 1;
  for (const a of set.artifacts) {
    if (!a.mentions?.length) continue;
    let best: Signal | undefined;
    for (const m of a.mentions) {
      const hash = m.target.indexOf('#');
      const file = normalizeRepoPath(hash >= 0 ? m.target.slice(0, hash) : m.target);
      const sym = hash >= 0 ? m.target.slice(hash + 1) : undefined;
      let s = 0;
      if (file === path) s = sym && symbol && (sym === symbol || symbol.startsWith(sym + '.')) ? 1 : sym ? 0.7 : 0.9;
      else if (isGlob(file) ? entryCovers(file, path) : path.startsWith(file + '/')) s = 0.5 * Math.min(1, segs(file.replace(/\/?\*.*$/, '')).length / depth);
      if (s > (best?.score ?? 0)) best = { score: s, why: { kind: 'mention', text: `mentions ${m.target} (${a.file}:${m.line})` } };
    }
    if (best) out.set(a.id, best);
  }
  return out;
}

/** Nearness signal: records declared or mentioned for code in directories near the place (not covering it). */
export function nearnessSignals(set: ArtifactSet, path: string): Map<string, Signal> {
  const out = new Map<string, Signal>();
  const here = segs(dirOf(path));
  if (!here.length) return out;
  for (const a of set.artifacts) {
    const places = [...compilePaths(a.paths).includes, ...a.anchors.map((x) => x.replace(/#.*$/, '').replace(/:\d+(-\d+)?$/, '')), ...(a.mentions ?? []).map((m) => m.target.replace(/#.*$/, ''))];
    let best = 0;
    let where = '';
    for (const p of places) {
      const d = segs(dirOf(normalizeRepoPath(p).replace(/\/?\*.*$/, '/x')));
      let shared = 0;
      while (shared < d.length && shared < here.length && d[shared] === here[shared]) shared++;
      if (!shared) continue;
      const c = shared / Math.max(here.length, d.length);
      if (c > best) {
        best = c;
        where = p;
      }
    }
    if (best > 0) out.set(a.id, { score: best, why: { kind: 'nearness', text: `about ${where}, near ${dirOf(path)}/` } });
  }
  return out;
}

interface Lanes {
  declared?: DeclaredHit[];
  keywords?: KeywordHit[];
  mentions?: Map<string, Signal>;
  nearness?: Map<string, Signal>;
  semantic?: { id: string; score: number }[];
}

/** Rank and cap the lanes' answers into results (slots 1 → fused → 3, slot 4 throughout). */
async function assemble(opts: RetrieveOptions, lanes: Lanes, reports: Record<LaneName, LaneReport>, caps: RetrievalCaps, index: CodeIndex | undefined, semanticWeight: number): Promise<RetrievedRecord[]> {
  const { set } = opts;
  const filters = opts.filters ?? {};
  const t0 = performance.now();
  let hidden = 0;
  const ok = (id: string) => {
    const a = set.byId.get(id);
    if (!a) return false;
    if (passesFilters(a, set, filters)) return true;
    hidden++;
    return false;
  };
  const record = (a: Artifact, slot: RetrievedRecord['slot'], score: number, why: Why[]): RetrievedRecord => {
    const r: RetrievedRecord = { id: a.id, type: a.type, title: a.title, ...(a.status !== undefined ? { status: a.status } : {}), file: a.file, slot, score: round(score), why };
    if (a.summary) r.summary = a.summary;
    if (isInactive(a, set)) r.inactive = true;
    if (opts.depth === 'full') r.body = a.body;
    return r;
  };
  const results: RetrievedRecord[] = [];
  const taken = new Set<string>();
  // ids that were found but are out of force: their successors are worth showing
  const superseded: string[] = [];

  for (const h of lanes.declared ?? []) {
    if (!ok(h.id)) {
      superseded.push(h.id);
      continue;
    }
    if (results.length >= caps.declared) break;
    results.push(record(set.byId.get(h.id)!, 'declared', DECLARED_BASE - declaredRank(h), h.why));
    taken.add(h.id);
  }
  reports.declared.count = results.length;

  // the fused band: keywords, mentions, nearness, semantic, each contribution shown
  const fused = new Map<string, { score: number; why: Why[]; from: Set<LaneName> }>();
  const put = (id: string, lane: LaneName, contribution: number, why: Why) => {
    if (contribution <= 0) return;
    let f = fused.get(id);
    if (!f) fused.set(id, (f = { score: 0, why: [], from: new Set() }));
    f.score += contribution;
    f.why.push({ ...why, contribution: round(contribution) });
    f.from.add(lane);
  };
  const kw = lanes.keywords ?? [];
  const top = kw[0]?.score ?? 0;
  for (const h of kw) put(h.id, 'keywords', (WEIGHTS.keywords * h.score) / top, { kind: 'keywords', text: `matches ${h.matched.slice(0, 6).join(', ')}`, terms: h.matched.slice(0, 12) });
  for (const [id, s] of lanes.mentions ?? []) put(id, 'mentions', WEIGHTS.mentions * s.score, s.why);
  const embedder = opts.semantic?.embedder;
  if (embedder) reports.semantic.embedder = embedder;
  for (const s of lanes.semantic ?? []) put(s.id, 'semantic', semanticWeight * s.score, { kind: 'semantic', text: `similar in meaning (${round(s.score)}, ${embedder ?? opts.semantic?.name})`, ...(embedder ? { embedder } : {}) });
  // nearness alone is no evidence: it only adds to records another signal found
  for (const [id, s] of lanes.nearness ?? []) if (fused.has(id)) put(id, 'nearness', WEIGHTS.nearness * s.score, s.why);
  const band = [...fused].filter(([id]) => !taken.has(id)).sort((a, b) => b[1].score - a[1].score || (a[0] < b[0] ? -1 : 1));
  let fusedCount = 0;
  for (const [id, f] of band) {
    if (!ok(id)) {
      superseded.push(id);
      continue;
    }
    if (fusedCount >= caps.fused) break;
    results.push(record(set.byId.get(id)!, 'fused', f.score, f.why));
    taken.add(id);
    fusedCount++;
    for (const l of f.from) reports[l].count++;
  }

  // slot 3: successors of what was found but is out of force, then relations of the hits
  const t1 = performance.now();
  let links = 0;
  for (const old of superseded) {
    for (const id of successorsOf(set, old)) {
      if (links >= caps.links || taken.has(id) || !ok(id)) continue;
      results.push(record(set.byId.get(id)!, 'links', 1 / (2 + links), [{ kind: 'successor', text: `supersedes ${old}, which was found but is no longer in force`, path: [id, 'supersedes', old] }]));
      taken.add(id);
      links++;
    }
  }
  for (const h of followLinks(set, [...taken], linkDepthOf(opts))) {
    if (links >= caps.links) break;
    if (taken.has(h.id) || !ok(h.id)) continue;
    results.push(record(set.byId.get(h.id)!, 'links', 1 / (2 + links + h.hops), [h.why]));
    taken.add(h.id);
    links++;
  }
  reports.links = { ...reports.links, status: 'ok', count: links, ms: round(performance.now() - t1) };

  // slot 4: stale marks on what is shown
  if (results.length && opts.staleness !== false) {
    const marks = await staleMarks(results.map((r) => set.byId.get(r.id)!), set, index ? { index } : {});
    for (const r of results) {
      const m = marks.get(r.id);
      if (m) r.stale = `${m.state}${m.summary ? `: ${m.summary}` : ''}`;
    }
  }
  reports.metadata = { status: 'ok', count: hidden, ms: round(performance.now() - t0), ...(hidden ? { message: `${hidden} hidden by filters${filters.all ? '' : ' (inactive records need --all)'}` } : {}) };
  return results;
}

function capsOf(opts: RetrieveOptions): RetrievalCaps {
  const c = opts.set.config.retrieval as Partial<RetrievalCaps> | undefined;
  const merged = { ...DEFAULT_CAPS, ...c, ...opts.caps };
  return { declared: Math.max(0, merged.declared), fused: Math.max(0, merged.fused), links: Math.max(0, merged.links) };
}

const linkDepthOf = (opts: RetrieveOptions) => opts.linkDepth ?? opts.set.config.retrieval?.link_depth ?? 1;

/** Candidates for the fused band, before caps and filters. */
const FUSED_POOL = 50;

/**
 * What governs or concerns a place in the code (`path`, `path:line`, `path#Symbol`): slot 1
 * declared hits nearest first, then the fused band (keywords from the code at the place,
 * mentions, directory nearness, semantic), then decision links; filters always applied.
 */
export async function retrieveForPlace(opts: RetrieveOptions & { target: TraceTarget; place?: string }): Promise<RetrievalResult> {
  const caps = capsOf(opts);
  const reports = initialReports(caps);
  const timeout = opts.laneTimeoutMs ?? 5000;
  const { snapshot, set } = opts;
  const path = normalizeRepoPath(opts.target.path);
  // a place that does not exist is the caller's error, not a failed lane
  const isFile = (await snapshot.blobOf(path)) !== undefined;
  if (!isFile && !(path === '' || (await snapshot.listUnder(path)).length)) throw new CtxError('USAGE', `no such file or directory in the snapshot: ${path || '.'}`);
  if (!isFile && (opts.target.line !== undefined || opts.target.symbol !== undefined)) throw new CtxError('USAGE', `${path} is a directory; a line or symbol needs a file`);
  const index = opts.index ?? (await buildCodeIndex(snapshot, set.config));
  const neighbours: CodeNeighbours | undefined = opts.neighbours === false ? undefined : (opts.neighbours ?? defaultNeighbours(index));
  // the code index knows TypeScript symbols; the code graph knows Python, Go, Java and the rest
  const graphSymbols = async () => ((await neighbours?.declarations?.(path)) ?? []).map(([name, line, endLine]) => ({ name, line, endLine, docLine: line }));
  let symbolRange: { name: string; line: number; endLine: number; docLine: number } | undefined;
  if (opts.target.symbol !== undefined) {
    symbolRange = findSymbol(await index.symbolsOf(path), opts.target.symbol) ?? (await graphSymbols()).find((s) => s.name === opts.target.symbol || s.name.endsWith('.' + opts.target.symbol));
    if (!symbolRange) {
      const names = (await index.symbolsOf(path)).slice(0, 8).map((x) => x.name);
      throw new CtxError('USAGE', `no symbol ${opts.target.symbol} in ${path}`, names.length ? { hint: `symbols: ${names.join(', ')}` } : {});
    }
  }
  const symbol = symbolRange?.name ?? (opts.target.line !== undefined ? ((await index.symbolAt(path, opts.target.line))?.name ?? (await neighbours?.symbolAt(path, opts.target.line))) : undefined);

  // the code at the place: the symbol's lines (with the file's imports), or the whole file
  const codeText = async (): Promise<string> => {
    const buf = await snapshot.read(path);
    if (!buf || buf.subarray(0, 8000).includes(0)) return '';
    const text = buf.subarray(0, MAX_PLACE_BYTES).toString('utf8');
    if (!symbol) return text;
    const s = (await index.symbolsOf(path)).find((x) => x.name === symbol) ?? symbolRange;
    if (!s) return text;
    const lines = text.split('\n');
    const importLines = lines.filter((l) => /^\s*(import|from|require|using|#include|package)\b/.test(l));
    return [...importLines, ...lines.slice(s.docLine - 1, s.endLine)].join('\n');
  };
  const code = codeText();

  const lanes: Lanes = {};
  const declaredP = runLane(reports, 'declared', timeout, async () => (await declaredFor({ snapshot, set, index, target: opts.target, neighbours, symbol })).hits);
  const keywordsP = runLane(reports, 'keywords', timeout, async () => {
    const q = placeQuery(extractPlaceTerms(await code, path));
    return searchKeywords(keywordIndexFor(snapshot.root, set.artifacts).index, q, FUSED_POOL);
  });
  const mentionsP = runLane(reports, 'mentions', timeout, async () => mentionSignals(set, path, symbol));
  const nearnessP = runLane(reports, 'nearness', timeout, async () => nearnessSignals(set, path));
  const semanticP = opts.semantic
    ? runLane(reports, 'semantic', timeout, async () => {
        const t = extractPlaceTerms(await code, path);
        return opts.semantic!.similar([...t.path, ...t.comments, ...t.identifiers].join(' '), set.artifacts.map((a) => a.id), FUSED_POOL);
      })
    : undefined;
  if (!opts.semantic) reports.semantic.status = 'not-configured';
  [lanes.declared, lanes.keywords, lanes.mentions, lanes.nearness, lanes.semantic] = await Promise.all([declaredP, keywordsP, mentionsP, nearnessP, semanticP]);
  const results = await assemble(opts, lanes, reports, caps, index, placeSemanticWeight(lanes));
  // symbols extracted on demand are remembered by blob: the next question about this file reads no parser
  if (!opts.index) await index.flush();
  const q: RetrievalResult['query'] = { kind: 'place', place: opts.place ?? `${path}${opts.target.symbol ? `#${opts.target.symbol}` : opts.target.line !== undefined ? `:${opts.target.line}` : ''}`, path };
  if (opts.target.line !== undefined) q.line = opts.target.line;
  if (symbol) q.symbol = symbol;
  return { query: q, results, slots: reports };
}

/**
 * Records for a question or keywords: the fused band (keywords, semantic) and links, slot 1
 * and mentions when a word names a file or `file#Symbol` that exists; filters always applied.
 */
export async function retrieveForText(opts: RetrieveOptions & { text: string }): Promise<RetrievalResult> {
  const caps = capsOf(opts);
  const reports = initialReports(caps);
  const timeout = opts.laneTimeoutMs ?? 5000;
  const { snapshot, set } = opts;
  const lanes: Lanes = {};
  // a word naming an existing file (optionally #Symbol) makes slot 1 and mentions answer too
  let place: TraceTarget | undefined;
  for (const w of opts.text.split(/\s+/)) {
    const m = /^([\w@./-]+\.[A-Za-z0-9]+|[\w@.-]+\/[\w@./-]+)(?:#([\w$.]+))?$/.exec(w.replace(/^[`'"(]+|[`'",.;:)?]+$/g, ''));
    if (!m) continue;
    const p = normalizeRepoPath(m[1]!);
    if ((await snapshot.blobOf(p)) !== undefined) {
      place = { path: p, ...(m[2] ? { symbol: m[2] } : {}) };
      break;
    }
  }
  let index: CodeIndex | undefined = opts.index;
  const declaredP = place
    ? runLane(reports, 'declared', timeout, async () => {
        index ??= await buildCodeIndex(snapshot, set.config);
        const neighbours = opts.neighbours === false ? undefined : (opts.neighbours ?? defaultNeighbours(index));
        return (await declaredFor({ snapshot, set, index, target: place, neighbours, symbol: place.symbol })).hits;
      })
    : undefined;
  const keywordsP = runLane(reports, 'keywords', timeout, async () => searchKeywords(keywordIndexFor(snapshot.root, set.artifacts).index, queryOf(opts.text), FUSED_POOL));
  const mentionsP = place ? runLane(reports, 'mentions', timeout, async () => mentionSignals(set, place.path, place.symbol)) : undefined;
  const semanticP = opts.semantic ? runLane(reports, 'semantic', timeout, () => opts.semantic!.similar(opts.text, set.artifacts.map((a) => a.id), FUSED_POOL)) : undefined;
  if (!opts.semantic) reports.semantic.status = 'not-configured';
  [lanes.declared, lanes.keywords, lanes.mentions, lanes.semantic] = await Promise.all([declaredP, keywordsP, mentionsP, semanticP]);
  const results = await assemble(opts, lanes, reports, caps, index, WEIGHTS.semantic);
  return { query: { kind: 'search', text: opts.text }, results, slots: reports };
}
