// @spec SPEC-RETRIEVE-001

import type { ArtifactSet } from '../artifacts/load.js';
import type { Artifact } from '../artifacts/types.js';
import { isInactive, isRetired } from '../artifacts/in-force.js';
import { isMetaArtifact } from '../artifacts/meta-record.js';
import { CtxError } from '../errors.js';
import { noSuchPath } from '../snapshot/missing-path.js';
import { namesHint } from '../util/close-match.js';
import type { CodeIndex } from '../code/code-index.js';
import type { CodeNeighbours } from '../code/neighbours.js';
import type { TraceTarget } from './trace.js';
import { checkLineInFile } from '../code/place-line.js';
import { normalizeRepoPath } from '../util/paths.js';
import { BUILTIN_LANES } from './lanes.js';
import { feedbackScores, rankWithFeedback } from './feedback-rank.js';
import { followLinks, successorEdges } from './links.js';
import { aboveFloor, calibrate, keywordQuery } from './floor.js';
import { bestEvidence, meaningOnlyEvidence, type Lanes } from './evidence.js';
import {
  DEFAULT_CAPS,
  LANE_NAMES,
  type LaneContext,
  type LaneHit,
  type LaneName,
  type LaneQuery,
  type LaneReport,
  type ReplaceableLane,
  type RetrievalCaps,
  type RetrievalFilters,
  type RetrievalLane,
  type RetrievalResult,
  type RetrievedRecord,
  type RetrieveOptions,
  type Why,
  SEMANTIC_NOT_NEEDED,
} from './types.js';
import { now } from '../util/timing.js';
import { titleTerms } from './signals.js';
import { namedPlaces } from './trace.js';
import { fileNameTerms, filesNamedBy, namedFields, wholeSearchPlace } from './named-file.js';
import { declarationInFile } from './qualified-declaration.js';
import { ungovernableFile } from './ungovernable-place.js';

export { namedPlaces };

export { mentionSignals, nearnessSignals, type Signal } from './signals.js';
export { BUILTIN_LANES } from './lanes.js';
export { RELEVANCE_FLOOR, aboveFloor } from './floor.js';

/** Weights of the fused band's signals (keywords normalised to the best hit's score). */
const WEIGHTS = { keywords: 1, mentions: 0.6, nearness: 0.1, semantic: 0.8 } as const;
/**
 * For a place (code as the query) the semantic signal is a fallback only, used when the
 * keywords found nothing: word vectors of identifiers are noisy. Measured on the
 * dotcom-rendering dev set with the default embedder (bench/retrieval.mjs), fusing it at the
 * question weight cost file queries 6 points of recall@5 and symbol queries 10; at 0.3, 4 and 0.
 */
const placeSemanticWeight = (lanes: Lanes): number => (lanes.keywords?.length ? 0 : WEIGHTS.semantic);
/**
 * A rejected record's share of its fused score for a place when a record in force asks its
 * question again (DEC-095): half, so the record that replaced it comes first where the code
 * meets both about as well; the rejected one is still shown, marked. On the Sylius dev set the
 * rejected "data provider for locales" record stood first on two query-extension files, above
 * the accepted record that replaced it and the one placing the code.
 */
const REJECTED_AT_PLACE = 0.5;
/**
 * Whether a record in force among `ids` asks the rejected record's question again: its title
 * writes at least REASKED of the rejected title's words ("Using Doctrine Collection extension
 * for getting available locales in active channel" after "Using data provider for getting
 * available locales in active channel").
 */
function answeredAgain(rejected: Artifact, ids: readonly string[], set: ArtifactSet): boolean {
  const words = new Set(titleTerms(set, rejected.id));
  if (words.size < 2) return false;
  return ids.some((id) => {
    const b = set.byId.get(id);
    if (!b || b.id === rejected.id || isInactive(b, set.config)) return false;
    const shared = new Set(titleTerms(set, id).filter((w) => words.has(w))).size;
    return shared >= REASKED * words.size;
  });
}
/** The share of a rejected record's title words a record in force writes to ask its question again. */
const REASKED = 0.5;
/** What never answers for a place: the record about how decisions are recorded governs the records folder (DEC-084); the identity record describes the project (DEC-086). */
const neverAtPlace = (a: Artifact): boolean => isMetaArtifact(a) || a.type === 'identity';
/** Bytes of code read at a place for passive extraction. */
const MAX_PLACE_BYTES = 200_000;
/**
 * Run one lane with a time budget; a throw or a timeout becomes its report, never the
 * caller's, and a lane that answered without part of its evidence is reported `partial`.
 */
async function runLane(reports: Record<LaneName, LaneReport>, lane: RetrievalLane, query: LaneQuery, ctx: LaneContext, timeoutMs: number): Promise<LaneHit[] | undefined> {
  const name = lane.name;
  const t0 = now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
      timer.unref?.();
    });
    const r = await Promise.race([lane.run(query, ctx), timeout]);
    if (r === 'timeout') {
      reports[name] = { ...reports[name], status: 'timeout', message: `no answer within ${timeoutMs} ms` };
      return undefined;
    }
    if (Array.isArray(r)) {
      reports[name] = { ...reports[name], status: 'ok' };
      return r;
    }
    reports[name] = { ...reports[name], status: r.partial ? 'partial' : 'ok', ...(r.partial ? { message: r.partial } : {}) };
    return r.hits;
  } catch (e) {
    reports[name] = { ...reports[name], status: 'failed', message: e instanceof Error ? e.message : String(e) };
    return undefined;
  } finally {
    if (timer) clearTimeout(timer);
    reports[name].ms = Math.round((now() - t0) * 10) / 10;
  }
}

/** The lanes a query runs: the built-in ones, or those the caller put in their place. */
const laneOf = (opts: RetrieveOptions, name: ReplaceableLane): RetrievalLane => opts.lanes?.[name] ?? BUILTIN_LANES[name];

/**
 * The time budget of a built-in lane that computes in this process (keywords, mentions, the
 * code graph): its work goes on after a timeout all the same (the process ends when it does),
 * so a short budget only throws its answer away. A cold first question on an 11,000-file
 * repository, its caches being built on a busy machine, took 13 s and answered "nothing
 * governs this" with its keyword lane timed out. The budget is for what waits on the outside:
 * the semantic lane (an embedding provider) and any lane a caller puts in place.
 */
const IN_PROCESS_LANE_MS = 120_000;

/** A lane's time budget, ms: `laneTimeoutMs` (default 5000) for the semantic lane and a caller's lane, IN_PROCESS_LANE_MS or more for a built-in one. */
export function laneBudgetMs(opts: Pick<RetrieveOptions, 'laneTimeoutMs' | 'lanes'>, lane: ReplaceableLane): number {
  const timeout = opts.laneTimeoutMs ?? 5000;
  return opts.lanes?.[lane] || lane === 'semantic' ? timeout : Math.max(timeout, IN_PROCESS_LANE_MS);
}

/** Run some lanes at once; each answers or is reported, none stops the others. */
async function runLanes(opts: RetrieveOptions, names: ReplaceableLane[], reports: Record<LaneName, LaneReport>, query: LaneQuery, ctx: LaneContext): Promise<Lanes> {
  const answers = await Promise.all(names.map((n) => runLane(reports, laneOf(opts, n), query, ctx, laneBudgetMs(opts, n))));
  const lanes: Lanes = {};
  names.forEach((n, i) => (lanes[n] = answers[i]));
  return lanes;
}

function initialReports(caps: RetrievalCaps): Record<LaneName, LaneReport> {
  const r = {} as Record<LaneName, LaneReport>;
  for (const n of LANE_NAMES) r[n] = { status: 'skipped', count: 0, ms: 0 };
  r.declared.cap = caps.declared;
  r.keywords.cap = r.mentions.cap = r.nearness.cap = r.semantic.cap = caps.fused;
  r.links.cap = caps.links;
  return r;
}

/** Slot 4: does a record pass the filters (retired ones only with `all`; a rejected one answers, marked)? */
export function passesFilters(a: Artifact, set: ArtifactSet, f: RetrievalFilters): boolean {
  if (!f.all && isRetired(a, set.config)) return false;
  const inList = (list: string[] | undefined, v: string | undefined) => !list?.length || (v !== undefined && list.some((x) => x.toLowerCase() === v.toLowerCase()));
  if (!inList(f.status, a.status) || !inList(f.type, a.type) || !inList(f.owner, a.owner) || !inList(f.domain, a.domain) || !inList(f.scope, a.scope)) return false;
  // a source is the file format (contextia, adr) or how the record was captured (ai_chat, meeting, manual)
  if (f.source?.length && !f.source.includes(a.format ?? 'contextia') && !(a.source !== undefined && f.source.includes(a.source))) return false;
  if (f.since && !(a.created && a.created.slice(0, 10) >= f.since)) return false;
  return true;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Rank and cap the lanes' answers into results (slots 1 → fused → 3, slot 4 throughout). */
async function assemble(opts: RetrieveOptions, lanes: Lanes, reports: Record<LaneName, LaneReport>, caps: RetrievalCaps, index: CodeIndex | undefined, semanticWeight: number, question: boolean, lookup = false, ungovernable = false): Promise<{ results: RetrievedRecord[]; weak: RetrievedRecord[] }> {
  const { set } = opts;
  const filters = opts.filters ?? {};
  const t0 = now();
  // each record counts once, however many slots (the band, a successor, a link) meet it
  const hidden = new Set<string>();
  const ok = (id: string) => {
    const a = set.byId.get(id);
    if (!a) return false;
    if (passesFilters(a, set, filters)) return true;
    hidden.add(id);
    return false;
  };
  const record = (a: Artifact, slot: RetrievedRecord['slot'], score: number, why: Why[]): RetrievedRecord => {
    const r: RetrievedRecord = { id: a.id, type: a.type, title: a.title, status: a.status ?? null, file: a.file, slot, score: round(score), why };
    if (a.summary) r.summary = a.summary;
    if (isInactive(a, set.config)) r.inactive = true;
    if (opts.depth === 'full') r.body = a.body;
    return r;
  };
  const results: RetrievedRecord[] = [];
  const weak: RetrievedRecord[] = [];
  const taken = new Set<string>();
  // ids that were found but are out of force: their successors are worth showing
  const superseded: string[] = [];

  for (const h of lanes.declared ?? []) {
    const id = h.ref.id;
    if (!ok(id)) {
      superseded.push(id);
      continue;
    }
    if (results.length >= caps.declared) break;
    results.push(record(set.byId.get(id)!, 'declared', h.score, h.why));
    taken.add(id);
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
  // fused by typed reference: one entry per record, each lane's contribution shown
  const kw = lanes.keywords ?? [];
  const top = kw[0]?.score ?? 0;
  const embedder = opts.semantic?.embedder;
  if (embedder) reports.semantic.embedder = embedder;
  for (const h of kw) put(h.ref.id, 'keywords', (WEIGHTS.keywords * h.score) / top, h.why[0]!);
  for (const h of lanes.mentions ?? []) put(h.ref.id, 'mentions', WEIGHTS.mentions * h.score, h.why[0]!);
  for (const h of lanes.semantic ?? []) put(h.ref.id, 'semantic', semanticWeight * h.score, h.why[0]!);
  // nearness alone is no evidence: it only adds to records another signal found
  for (const h of lanes.nearness ?? []) if (fused.has(h.ref.id)) put(h.ref.id, 'nearness', WEIGHTS.nearness * h.score, h.why[0]!);
  // a rejected record is the team's standing "no" (DEC-076), and a "no" can govern code (why
  // this controller does not stream); but one whose question a record in force answers again
  // (the same title words, another option chosen) is replaced there: for a place it gives way
  // to that record
  // @decision DEC-095
  if (!question) {
    const ids = [...fused.keys()];
    for (const [id, f] of fused) {
      const a = set.byId.get(id);
      if (a?.status === 'rejected' && isInactive(a, set.config) && answeredAgain(a, ids, set)) f.score *= REJECTED_AT_PLACE;
    }
  }
  const band = [...fused].filter(([id]) => !taken.has(id)).sort((a, b) => b[1].score - a[1].score || (a[0] < b[0] ? -1 : 1));
  // the calibrated scale (floor.ts): the best evidence of the band, times each result's
  // standing beside the best shown; under the floor a match is weak, not an answer. A record
  // filtered out is judged beside the whole band: a superseded one leads to its successor
  // only when it was an answer itself
  const evidence = bestEvidence(lanes, new Set(band.map(([id]) => id)), question, lookup);
  const shown = band.filter(([id]) => set.byId.has(id) && passesFilters(set.byId.get(id)!, set, filters));
  const relevance = calibrate(band.map(([id, f]) => ({ id, score: f.score })), evidence);
  // for a place, what can answer is judged beside itself: the record about how decisions are
  // recorded and the identity record are never its answers, and their match no measure of the
  // others' (a meta record met in two distinctive words had lent its evidence to a record met
  // only in the project's name and its folder words, trials28) @decision DEC-127
  const answers = question ? shown : shown.filter(([id]) => !neverAtPlace(set.byId.get(id)!));
  const answersEvidence = answers.length === shown.length ? evidence : bestEvidence(lanes, new Set(answers.map(([id]) => id)), question, lookup);
  for (const [id, r] of calibrate(answers.map(([id, f]) => ({ id, score: f.score })), answersEvidence)) relevance.set(id, r);
  const meaningAlone = meaningOnlyEvidence(lanes, new Set(band.map(([id]) => id)), question, lookup);
  let fusedCount = 0;
  for (const [id, f] of band) {
    // a record no word of the query (or mention of the place) found is an answer only as the
    // one record clearly closest in meaning (DEC-069): nearness in meaning to a question
    // another record answers is not evidence of its own
    const wordless = !f.from.has('keywords') && !f.from.has('mentions');
    const rel = wordless ? round(Math.min(relevance.get(id) ?? 0, meaningAlone.get(id) ?? 0)) : (relevance.get(id) ?? 0);
    // a file no record can govern (a lockfile, generated or vendored code, a binary, a test
    // snapshot: DEC-060's classes, written by a tool or by others) is answered only by what
    // names it; its words meet records by chance, and no share of them is evidence (DEC-101)
    // @decision DEC-101
    const byChance = ungovernable && !f.from.has('mentions');
    if (!ok(id)) {
      // nor does a superseded record it met by chance lead to its successor
      if (aboveFloor(rel) && !byChance) superseded.push(id);
      continue;
    }
    if (fusedCount >= caps.fused) break;
    // the record about how decisions are recorded governs the records folder, not this code
    // (DEC-084); the identity record describes the project, and every bundle carries it (DEC-086)
    // the identity record describes the whole project, near in meaning to any question about
    // it: it answers a question only by its words (trials32: "how do we send push notifications"
    // met a generated identity at 0.65 and nothing else) @decision DEC-140
    if (!question ? neverAtPlace(set.byId.get(id)!) : wordless && set.byId.get(id)!.type === 'identity') {
      if (weak.length < caps.fused) weak.push({ ...record(set.byId.get(id)!, 'fused', f.score, f.why), relevance: rel });
      continue;
    }
    if (byChance) {
      if (weak.length < caps.fused) weak.push({ ...record(set.byId.get(id)!, 'fused', f.score, f.why), relevance: rel });
      continue;
    }
    if (!aboveFloor(rel)) {
      // the band is best first: every later match is weaker still
      if (weak.length >= caps.fused) break;
      weak.push({ ...record(set.byId.get(id)!, 'fused', f.score, f.why), relevance: rel });
      continue;
    }
    results.push({ ...record(set.byId.get(id)!, 'fused', f.score, f.why), relevance: rel });
    taken.add(id);
    fusedCount++;
    for (const l of f.from) reports[l].count++;
  }

  // slot 3: successors of what was found but is out of force, then relations of the hits
  const t1 = now();
  let links = 0;
  for (const old of superseded) {
    for (const { id, kind } of successorEdges(set, old)) {
      if (links >= caps.links || taken.has(id) || !ok(id)) continue;
      results.push(record(set.byId.get(id)!, 'links', 1 / (2 + links), [{ kind: 'successor', text: `${kind} ${old}, which was found but is no longer in force`, path: [id, kind, old] }]));
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
  reports.links = { ...reports.links, status: 'ok', count: links, ms: round(now() - t1) };

  // slot 4: stale marks on what is shown (only stamped records can be judged: the judge
  // and its git history load only when one is shown)
  const stamped = results.map((r) => set.byId.get(r.id)!).filter((a) => a.origin === 'repo' && a.stamp?.commit);
  if (stamped.length && opts.staleness !== false) {
    const { staleMarks } = await import('../staleness/marks.js');
    const marks = await staleMarks(stamped, set, index ? { index } : {});
    for (const r of results) {
      const m = marks.get(r.id);
      if (m) r.stale = `${m.state}${m.summary ? `: ${m.summary}` : ''}`;
    }
  }
  reports.metadata = { status: 'ok', count: hidden.size, ms: round(now() - t0), ...(hidden.size ? { message: `${hidden.size} hidden by filters${filters.all ? '' : ': inactive records need --all'}` } : {}) };
  return { results, weak };
}

/**
 * Feedback ranking, when asked for (`opts.feedback`) or configured (`retrieval.feedback_ranking`):
 * records move within their slot only. The store's profile module is loaded only then.
 */
async function withFeedback(opts: RetrieveOptions, query: { kind: 'place'; path: string } | { kind: 'search'; text: string }, results: RetrievedRecord[]): Promise<RetrievedRecord[]> {
  let profile = opts.feedback;
  if (profile === undefined) {
    if (!opts.set.config.retrieval?.feedback_ranking || !results.length) return results;
    // the store's projection of its feedback: a small JSON file, never SQLite (the hook and the Action rank too)
    const { readFeedbackProfile } = await import('../store/feedback-profile.js');
    profile = readFeedbackProfile(opts.snapshot.root);
  }
  if (!profile || !profile.votes.length || !results.length) return results;
  return rankWithFeedback(results, feedbackScores(profile, query, { exclude: opts.feedbackExclude }), query.kind === 'place' ? 'place' : 'question').results;
}

/**
 * Can slot 1's hits show? In slot 1 under its cap, or, out of force, through their successors
 * in slot 3 (assemble). With both caps 0 the declared lane's answer is unused.
 */
export const slotOneShows = (caps: RetrievalCaps): boolean => caps.declared > 0 || caps.links > 0;

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
 * `place` (as the caller wrote it) is accepted for compatibility: the answer names the place
 * by its repository-relative path.
 */
export async function retrieveForPlace(opts: RetrieveOptions & { target: TraceTarget; place?: string }): Promise<RetrievalResult> {
  const caps = capsOf(opts);
  const reports = initialReports(caps);
  const { snapshot, set } = opts;
  const path = normalizeRepoPath(opts.target.path);
  // a place that does not exist is the caller's error, not a failed lane
  const isFile = (await snapshot.blobOf(path)) !== undefined;
  if (!isFile && !(path === '' || (await snapshot.listUnder(path)).length)) throw await noSuchPath(snapshot, path);
  if (!isFile && (opts.target.line !== undefined || opts.target.symbol !== undefined)) throw new CtxError('USAGE', `${path} is a directory; a line or symbol needs a file`);
  if (isFile) await checkLineInFile(snapshot, path, opts.target.line);
  // read beside the lanes: only the fused band's standing depends on it
  const ungovernableKind = isFile ? ungovernableFile(snapshot, set.config, path) : Promise.resolve(undefined);
  // over a place snapshot, a code index of the place and what anchors name (see src/place)
  const [{ placeCodeIndex }, { defaultNeighbours }, { findSymbol }, { findDeclaration }] = await Promise.all([import('../place/index.js'), import('./default-neighbours.js'), import('../code/anchors.js'), import('../code/graph/symbols.js')]);
  const index = opts.index ?? (await placeCodeIndex(snapshot, set));
  const neighbours: CodeNeighbours | undefined = opts.neighbours === false ? undefined : (opts.neighbours ?? defaultNeighbours(index, snapshot, isFile ? path : undefined));
  // the code index knows TypeScript symbols; the code graph knows Python, Go, Java, Ruby and the rest
  let declared: Promise<{ name: string; line: number; endLine: number; docLine: number }[]> | undefined;
  const graphSymbols = () => (declared ??= (async () => ((await neighbours?.declarations?.(path)?.catch(() => undefined)) ?? []).map(([name, line, endLine]) => ({ name, line, endLine, docLine: line })))());
  let symbolRange: { name: string; line: number; endLine: number; docLine: number } | undefined;
  if (opts.target.symbol !== undefined) {
    const own = await index.symbolsOf(path);
    // as written (`Cache.read`), or as a person shortens it (`read`, `Cache#read`)
    symbolRange = findSymbol(own, opts.target.symbol) ?? findDeclaration(own, opts.target.symbol) ?? findDeclaration(await graphSymbols(), opts.target.symbol);
    // a constant, a variable or a field neither lists: found by the line that declares it
    symbolRange ??= await declarationInFile(snapshot, path, opts.target.symbol);
    if (!symbolRange) {
      const names = [...(await index.symbolsOf(path)).map((x) => x.name), ...(await graphSymbols()).map((x) => x.name)];
      throw new CtxError('USAGE', `no symbol ${opts.target.symbol} in ${path}`, names.length ? { hint: namesHint(opts.target.symbol, names) } : {});
    }
  }
  const symbol = symbolRange?.name ?? (opts.target.line !== undefined ? ((await index.symbolAt(path, opts.target.line))?.name ?? (await neighbours?.symbolAt(path, opts.target.line).catch(() => undefined))) : undefined);
  // a line inside a symbol only the code graph knows focuses on that symbol's lines too
  if (!symbolRange && symbol) symbolRange = (await graphSymbols()).find((s) => s.name === symbol && s.line <= opts.target.line! && opts.target.line! <= s.endLine);

  // the code at the place: the symbol's lines (with the file's imports), or the whole file
  const codeText = async (): Promise<string> => {
    const buf = await snapshot.read(path);
    if (!buf || buf.subarray(0, 8000).includes(0)) return '';
    const text = buf.subarray(0, MAX_PLACE_BYTES).toString('utf8');
    if (!symbol) return text;
    const s = (await index.symbolsOf(path)).find((x) => x.name === symbol) ?? symbolRange;
    if (!s) return text;
    const lines = text.split('\n');
    // a symbol only the code graph knows starts at its declaration: its doc comment is the lines of comments just above
    if (s === symbolRange) s.docLine = commentStart(lines, s.line);
    // imports and the package or namespace line, in each language's word (PHP's and Rust's `use`)
    const importLines = lines.filter((l) => /^\s*(import|from|require|using|#include|package|use|namespace)\b/.test(l));
    return [...importLines, ...lines.slice(s.docLine - 1, s.endLine)].join('\n');
  };
  const code = codeText();

  const ctx: LaneContext = { snapshot, set, index: async () => index, neighbours: async () => neighbours, semantic: opts.semantic, pool: FUSED_POOL };
  const query: LaneQuery = { kind: 'place', target: opts.target, path, ...(symbol ? { symbol } : {}), code: () => code };
  const names: ReplaceableLane[] = [...(slotOneShows(caps) ? (['declared'] as const) : []), 'keywords', 'mentions', 'nearness'];
  const lanes = await runLanes(opts, names, reports, query, ctx);
  // for a place, semantic similarity only counts when the keywords found nothing
  // (placeSemanticWeight): otherwise embedding the place's terms is work whose answer is unused
  if (!(opts.semantic || opts.lanes?.semantic)) reports.semantic.status = 'not-configured';
  else if (placeSemanticWeight(lanes) === 0) reports.semantic = { ...reports.semantic, status: 'ok', message: SEMANTIC_NOT_NEEDED };
  else Object.assign(lanes, await runLanes(opts, ['semantic'], reports, query, ctx));
  const outOfReach = await ungovernableKind;
  const { results: found, weak } = await assemble(opts, lanes, reports, caps, index, placeSemanticWeight(lanes), false, false, !!outOfReach);
  const results = await withFeedback(opts, { kind: 'place', path }, found);
  // symbols extracted on demand are remembered by blob: the next question about this file reads no parser
  if (!opts.index) await index.flush();
  // the place as the repository names it, however it was written (./x, x/../x, an absolute path)
  const q: RetrievalResult['query'] = { kind: 'place', place: `${path}${opts.target.symbol ? `#${opts.target.symbol}` : opts.target.line !== undefined ? `:${opts.target.line}` : ''}`, path };
  if (opts.target.line !== undefined) q.line = opts.target.line;
  if (symbol) q.symbol = symbol;
  return { query: q, results, weak, slots: reports, ...(outOfReach ? { ungovernable: { reason: outOfReach.reason, detail: outOfReach.detail } } : {}) };
}

/** The first line (1-based) of the comment lines and annotations right above `line`, or `line`. */
function commentStart(lines: string[], line: number): number {
  let at = line;
  while (at > 1 && /^\s*(?:#(?!!)|\/\/|\/\*|\*|@\w)/.test(lines[at - 2] ?? '')) at--;
  return at;
}

/**
 * Records for a question or keywords: the fused band (keywords, semantic) and links, slot 1
 * and mentions when a word names one file (its path or a name only it has, or `file#Symbol`);
 * filters always applied. A search that is one word naming one file (or a symbol or line in it) is
 * answered as `for` that place (retrieveForPlace), with `named` saying which file a bare name was taken as.
 */
export async function retrieveForText(opts: RetrieveOptions & { text: string }): Promise<RetrievalResult> {
  const caps = capsOf(opts);
  const reports = initialReports(caps);
  const { snapshot, set } = opts;
  // a word naming one file (its path, or a name one file has; optionally #Symbol) makes slot 1
  // and mentions answer too; a search that is that word alone is a question about the place
  const named = await filesNamedBy(snapshot, opts.text);
  const note = namedFields(named);
  const whole = wholeSearchPlace(opts.text, named);
  if (whole !== undefined) return { ...(await retrieveForPlace({ ...opts, target: whole })), ...note };
  const one = named.find((n) => n.files.length === 1);
  const place: TraceTarget | undefined = one && { ...one.target, path: one.files[0]! };
  let index: CodeIndex | undefined = opts.index;
  const ctx: LaneContext = {
    snapshot,
    set,
    // the code index and graph load only when a word names a file (slot 1); over a place
    // snapshot (src/place), an index of the files the words name and anchors name
    index: async () => (index ??= await (await import('../place/index.js')).placeCodeIndex(snapshot, set)),
    neighbours: async () => (opts.neighbours === false ? undefined : (opts.neighbours ?? (await import('./default-neighbours.js')).defaultNeighbours(await ctx.index()))),
    semantic: opts.semantic,
    pool: FUSED_POOL,
  };
  const fileTerms = fileNameTerms(opts.text, named);
  const query: LaneQuery = { kind: 'text', text: opts.text, ...(place ? { place } : {}), ...(fileTerms.length ? { fileTerms } : {}) };
  // slot 1 and mentions answer only when a word names a file; slot 1 only when it can show
  // (slotOneShows): a draft judged against the records (check's near-duplicate rule) asks the
  // fused band alone, and walking the code graph for it built the whole graph on a cold cache
  const names: ReplaceableLane[] = place ? [...(slotOneShows(caps) ? (['declared'] as const) : []), 'keywords', 'mentions'] : ['keywords'];
  if (opts.semantic || opts.lanes?.semantic) names.push('semantic');
  else reports.semantic.status = 'not-configured';
  const lanes = await runLanes(opts, names, reports, query, ctx);
  const { results: found, weak } = await assemble(opts, lanes, reports, caps, index, WEIGHTS.semantic, true, keywordQuery(opts.text));
  const results = await withFeedback(opts, { kind: 'search', text: opts.text }, found);
  return { query: { kind: 'search', text: opts.text }, results, weak, slots: reports, ...note };
}
