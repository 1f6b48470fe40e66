// @spec SPEC-AUTHORING-001

import path from 'node:path';
import type { ArtifactSet } from '../artifacts/load.js';
import type { Artifact } from '../artifacts/types.js';
import { isInactive } from '../artifacts/in-force.js';
import { decisionPart } from '../artifacts/depth.js';
import { terms } from '../retrieve/text.js';
import { embedderFor, semanticSettings } from '../semantic/lane.js';
import { dot, type Embedder, type VectorSpace } from '../semantic/embedder.js';
import { recordVectors } from '../semantic/vectors.js';

/** Similarity at or above which two decisions count as near-duplicates (config `semantic.conflict_threshold`). */
export const DEFAULT_CONFLICT_THRESHOLD = 0.75;
/**
 * Weight of the embedding cosine in the combined score; the rest is lexical overlap.
 * Measured (DEC-022): cosine of averaged word vectors alone puts unrelated records of
 * one repository at 0.5–0.8 (they share its vocabulary), so it cannot separate a
 * near-duplicate from a neighbour; the overlap of distinctive terms can, and the cosine
 * carries paraphrases whose words differ.
 */
const COSINE_WEIGHT = 0.5;
/**
 * The raw combined score at which a pair is a near-duplicate, mapped onto the 0.75 of the
 * configured scale (score = raw / RAW_AT_FULL, capped at 1): measured on the fixture and the
 * dotcom-rendering records, restatements sit above 0.45 raw, drafts about something else below.
 */
const RAW_AT_FULL = 0.6;
/**
 * Two records are compared only when each has at least this many distinctive terms: from a
 * three-line record ("API framework: Fastify, in the server") the cosine is mostly the
 * repository's shared words and cannot say that two decisions are the same.
 */
const MIN_PAIR_TERMS = 6;

/** What a candidate decision says: the fields `git ctx add` and MCP `add_decision` take. */
export interface DecisionDraft {
  title?: string;
  decision: string;
  rationale?: string;
  constraints?: string;
  keywords?: string[];
}

export interface SimilarRecord {
  id: string;
  title: string;
  status?: string;
  file: string;
  origin: 'repo' | 'federated' | 'global';
  /** combined score in [0, 1], compared with the threshold */
  similarity: number;
  /** the embedding cosine (common component removed) */
  cosine: number;
  /** lexical overlap of distinctive terms */
  lexical: number;
  /** a draft's check (draft-similar.ts): the share of the draft's words search matched in the record */
  coverage?: number;
  /** a draft's check: the record's place in search's answer for the draft */
  rank?: number;
  /** add's list: more than WEAKER_GAP under the first similar record (markWeaker, DEC-130) */
  weaker?: true;
}

export interface SimilarResult {
  threshold: number;
  /** the embedder that produced the cosines, `provider/model`; undefined when semantic is off */
  embedder?: string;
  /** records at or above the threshold, most similar first */
  similar: SimilarRecord[];
  /** with none at the threshold, the most similar record when it scores CLOSEST_SHOWN or more: said, never blocking */
  closest?: SimilarRecord;
  /** a draft's check: every candidate search gave and how it scored, at any score (the replacement hint reads them, DEC-130) */
  candidates?: SimilarRecord[];
}

/**
 * Similar records well below the first (more than WEAKER_GAP under it) are marked `weaker`:
 * listed after the close ones, said to be weaker, never dropped (each is at the threshold): add's
 * list and the MCP tools' (DEC-130).
 * @decision DEC-130
 */
export const WEAKER_GAP = 0.15;

export function markWeaker(similar: readonly SimilarRecord[]): SimilarRecord[] {
  const top = similar[0]?.similarity ?? 0;
  return similar.map((s) => (s.similarity < top - WEAKER_GAP ? { ...s, weaker: true as const } : s));
}

/** A record under the threshold is named as the closest from this score: a neighbour worth reading, not a duplicate. */
// @decision DEC-112
export const CLOSEST_SHOWN = 0.5;

export interface SimilarOptions {
  /** default: config `semantic.conflict_threshold`, else 0.75 */
  threshold?: number;
  /** default: the configured embedder (`semantic.provider`); null: lexical overlap only */
  embedder?: Embedder | null;
  /** ids never reported (the record being compared with itself) */
  exclude?: readonly string[];
  /** write newly embedded record vectors to the cache (default true) */
  writeCache?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** The text a draft is compared by: what its record would hold, weighted like recordText. */
export function draftText(d: DecisionDraft): string {
  const title = d.title?.trim() || deriveTitle(d.decision);
  return [title, title, d.decision, d.rationale ?? '', d.constraints ?? '', (d.keywords ?? []).join(' ')].join('\n');
}

/** Longest title deriveTitle writes. */
const TITLE_MAX = 72;
/** A cut is not made so early that the title says nothing. */
const TITLE_MIN_CUT = 30;
/** Words that open a clause of their own (a purpose, a reason, a condition, a contrast): the best place for a title to end. */
const CLAUSE_OPENERS = new Set(['so', 'because', 'since', 'which', 'that', 'when', 'where', 'while', 'unless', 'until', 'if', 'before', 'after', 'but', 'instead', 'rather', 'without', 'except']);
/** Words that open a phrase inside the clause (a preposition, a second item): the next best. */
const PHRASE_OPENERS = new Set(['and', 'or', 'to', 'for', 'with', 'in', 'on', 'at', 'by', 'from', 'via', 'as', 'into', 'through', 'per']);
/** Words a title should not end on: they promise something the cut left out. */
const DANGLING = new Set([...CLAUSE_OPENERS, ...PHRASE_OPENERS, 'a', 'an', 'the', 'of', 'onto', 'than', 'its', 'their', 'our', 'every', 'each', 'any', 'no', 'not', 'is', 'are', 'be']);

/**
 * A title from a decision's text: its first clause (up to the first sentence end, colon,
 * semicolon or dash), whitespace collapsed, trailing punctuation dropped. A clause longer than
 * 72 characters is cut where a clause ends (at a comma, or before "so that", "because",
 * "which" …), else where a phrase ends (before "and", a preposition …), else at a word boundary, never after
 * a word that leaves the phrase hanging. It ends there, with no ellipsis: a title is a heading
 * and a file name, and the decision text below it holds the rest. The same text always gives
 * the same title.
 */
export function deriveTitle(decision: string): string {
  const flat = decision.replace(/\s+/g, ' ').trim();
  const clause = (/^(.+?)(?:[.!?](?:\s|$)|[:;]\s|\s[\u2014\u2013-]\s)/.exec(flat)?.[1] ?? flat).trim().replace(/[\s.,;:!?]+$/, '');
  const upper = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);
  if (clause.length <= TITLE_MAX) return upper(clause);
  const words = clause.split(' ');
  const text = (n: number) => words.slice(0, n).join(' ');
  const bare = (w: string | undefined) => (w ?? '').toLowerCase().replace(/[^\p{L}\p{N}]+$/u, '');
  // the most whole words that fit
  let fit = 1;
  while (fit < words.length && text(fit + 1).length <= TITLE_MAX) fit++;
  // the last boundary within them: where a clause ends (at a comma, or before a clause
  // opener), else where a phrase ends, else after the last word that fits
  const boundary = (opens: ReadonlySet<string>, atComma: boolean): number => {
    for (let n = fit; n > 0 && text(n).length >= TITLE_MIN_CUT; n--) if (opens.has(bare(words[n])) || (atComma && /[,)]$/.test(words[n - 1]!))) return n;
    return 0;
  };
  let cut = boundary(CLAUSE_OPENERS, true) || boundary(PHRASE_OPENERS, false) || fit;
  while (cut > 1 && DANGLING.has(bare(words[cut - 1]!)) && text(cut - 1).length >= TITLE_MIN_CUT) cut--;
  const t = text(cut).replace(/[\s.,;:!?]+$/, '');
  // one word longer than a title: its first characters, the only cut there is
  return upper(t.length > TITLE_MAX ? t.slice(0, TITLE_MAX) : t);
}

/** The conflict threshold configured under `semantic.conflict_threshold`, else the default. */
export function conflictThreshold(set: Pick<ArtifactSet, 'config'>): number {
  const t = (set.config as { semantic?: { conflict_threshold?: number } }).semantic?.conflict_threshold;
  return typeof t === 'number' && Number.isFinite(t) ? t : DEFAULT_CONFLICT_THRESHOLD;
}

/** Is a record in force (not superseded, deprecated, rejected…)? */
export function isActive(a: Artifact, set: Pick<ArtifactSet, 'config'>): boolean {
  return !isInactive(a, set.config);
}

/** Active decisions of the set (repository and, when enabled, the global store), one per id. */
export function activeDecisions(set: ArtifactSet): Artifact[] {
  const seen = new Set<string>();
  const out: Artifact[] = [];
  for (const a of set.artifacts) {
    if (a.type !== 'decision' || seen.has(a.id) || !isActive(a, set)) continue;
    seen.add(a.id);
    out.push(a);
  }
  return out;
}

/**
 * Distinctive terms of a text for the overlap score: retrieval's terms (stemmed, stop words
 * dropped) without the words most of the repository's decisions use (they say nothing about
 * which decision this is).
 */
function termSet(text: string, common: ReadonlySet<string>): Set<string> {
  return filterTerms(terms(text), common);
}

function filterTerms(words: readonly string[], common: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const t of words) if (t.length > 2 && !common.has(t)) out.add(t);
  return out;
}

/** Terms found in more than a third of the records (at 6 records or more). */
function commonTerms(termLists: readonly (readonly string[])[]): Set<string> {
  const out = new Set<string>();
  if (termLists.length < 6) return out;
  const df = new Map<string, number>();
  for (const t of termLists) for (const w of new Set(t)) df.set(w, (df.get(w) ?? 0) + 1);
  for (const [w, n] of df) if (n > termLists.length / 3) out.add(w);
  return out;
}

/**
 * Overlap of two term sets: the shared terms over the smaller set (a short draft that
 * restates a long record scores high), damped when the smaller set is tiny so that two
 * one-word titles do not count as duplicates.
 */
export function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>, over: 'smaller' | 'larger' = 'smaller'): number {
  const [small, big] = a.size <= b.size ? [a, b] : [b, a];
  if (!small.size) return 0;
  let shared = 0;
  for (const t of small) if (big.has(t)) shared++;
  return (shared / (over === 'smaller' ? small.size : big.size)) * Math.min(1, small.size / 4);
}

/** overlap(…, 'larger') of two sorted term-id arrays. */
function overlapSorted(a: Uint32Array, b: Uint32Array): number {
  const small = Math.min(a.length, b.length);
  if (!small) return 0;
  let shared = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) {
      shared++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return (shared / Math.max(a.length, b.length)) * Math.min(1, small / 4);
}

/** The part of a record compared lexically: what names the decision, not the whole discussion. */
function headText(a: Artifact): string {
  return [a.title, a.summary ?? '', a.keywords.join(' '), decisionSection(a.body)].join('\n');
}

/**
 * Does a record's Decision part still hold its folder template's guidance (written by `new`,
 * or by `add` into a template with no Decision section)? Such a record decides nothing yet:
 * two of them share the template's words, not a decision.
 * @decision DEC-096
 */
export function decisionFromTemplate(body: string, template: string): boolean {
  const norm = (t: string) => t.replace(/<!--[\s\S]*?-->/g, ' ').replace(/\s+/g, ' ').trim();
  const fm = /^---[ \t]*\n[\s\S]*?\n---[ \t]*(?:\n|$)/.exec(template);
  const theirs = norm(decisionSection(fm ? template.slice(fm[0].length) : template));
  return !!theirs && decisionPart(template) !== undefined && norm(decisionSection(body)) === theirs;
}

/** Active decisions whose Decision part is still their folder template's guidance (decisionFromTemplate), by id. */
export function templateDecisions(set: ArtifactSet, templates: ReadonlyMap<string, string | undefined>): Set<string> {
  const out = new Set<string>();
  for (const a of activeDecisions(set)) {
    const t = a.format === 'adr' && a.origin === 'repo' ? templates.get(path.posix.dirname(a.file)) : undefined;
    if (t && decisionFromTemplate(a.body, t)) out.add(a.id);
  }
  return out;
}

/**
 * The Decision (or Decision Outcome) section of a body, bounded; the first 1,500 characters
 * otherwise. Setext and reStructuredText headings count (`Decision` over `--------`): read as
 * ATX only, an .rst record's title, status and context stood for its decision, and two records
 * of one domain (openedx/edx-proctoring's email templates and exam service) read as one.
 */
export function decisionSection(body: string): string {
  const part = decisionPart(body);
  return part ? part.text.slice(0, 1500) : body.slice(0, 1500);
}

/**
 * Compare texts with a repository's records: one combined score per pair, a weighted mean of
 * the embedding cosine (in the embedder's space over the records, so the repository's common
 * component is removed) and the lexical overlap of distinctive terms. Without an embedder
 * the score is the overlap alone.
 */
export class DecisionSimilarity {
  private constructor(
    private readonly records: Artifact[],
    private readonly vectors: Map<string, Float32Array> | undefined,
    private readonly embedder: Embedder | undefined,
    private readonly space: VectorSpace | undefined,
    private readonly common: Set<string>,
    private readonly heads: Map<string, Set<string>>,
    private readonly df: Map<string, number>,
  ) {}

  /**
   * How much a term says about which decision a text is: its inverse document frequency over
   * the records' decision parts (a term in none weighs most, one in every record least).
   */
  termWeight(term: string): number {
    return Math.log(1 + this.records.length / (1 + (this.df.get(term) ?? 0)));
  }

  /** `provider/model` of the embedder, when there is one. */
  get embedderName(): string | undefined {
    return this.embedder ? `${this.embedder.provider}/${this.embedder.model}` : undefined;
  }

  static async open(root: string, set: ArtifactSet, records: Artifact[], embedder: Embedder | undefined, writeCache = true): Promise<DecisionSimilarity> {
    let vectors: Map<string, Float32Array> | undefined;
    if (embedder) {
      // vectors of the whole set: the cache holds them already when retrieval ran
      const rv = await recordVectors(root, set, embedder, { write: writeCache });
      vectors = rv.byId;
    }
    // each record's terms once: they give both the common ones and the record's own set
    const lists = records.map((a) => terms(headText(a)));
    const common = commonTerms(lists);
    const heads = new Map(records.map((a, i) => [a.id, filterTerms(lists[i]!, common)]));
    const df = new Map<string, number>();
    for (const t of lists) for (const w of new Set(t)) df.set(w, (df.get(w) ?? 0) + 1);
    // the space (common component) over every record of the set, as retrieval's lane uses it
    const space = embedder && vectors ? embedder.space([...vectors.values()]) : undefined;
    // the default embedder's average of word vectors before its common component is removed
    // (too few records to estimate it) says only "same language, same domain": any two records
    // of one folder meet at a cosine of 0.95 or more (guardian/cdk's seven records: 0.96 to 0.98
    // for every pair), which alone passes the threshold. The overlap decides then @decision DEC-134
    const informative = !(embedder?.provider === 'default' && space && !space.state?.length);
    return new DecisionSimilarity(records, informative ? vectors : undefined, embedder, informative ? space : undefined, common, heads, df);
  }

  /** Every record's score against a text (its own id excluded), most similar first. */
  async score(text: string, lexicalText: string, exclude: ReadonlySet<string> = new Set()): Promise<SimilarRecord[]> {
    let q: Float32Array | undefined;
    if (this.embedder && this.space) {
      const [qv] = await this.embedder.embed([text]);
      q = this.space.project(qv!);
    }
    return this.scoreAgainst(q, termSet(lexicalText, this.common), exclude, 'smaller');
  }

  private scoreAgainst(q: Float32Array | undefined, mine: ReadonlySet<string>, exclude: ReadonlySet<string>, over: 'smaller' | 'larger'): SimilarRecord[] {
    const space = this.space;
    const vs = this.vectors;
    const cos = q && space && vs ? (id: string) => {
      const v = vs.get(id);
      return v ? Math.max(0, space.cosine(q, v)) : 0;
    } : undefined;
    const out: SimilarRecord[] = [];
    for (const a of this.records) {
      if (exclude.has(a.id)) continue;
      const lexical = overlap(mine, this.heads.get(a.id)!, over);
      const cosine = cos ? cos(a.id) : 0;
      const raw = cos ? COSINE_WEIGHT * cosine + (1 - COSINE_WEIGHT) * lexical : lexical;
      const similarity = Math.min(1, raw / RAW_AT_FULL);
      out.push({ id: a.id, title: a.title, ...(a.status !== undefined ? { status: a.status } : {}), file: a.file, origin: a.origin, similarity: round(similarity), cosine: round(cosine), lexical: round(lexical) });
    }
    out.sort((x, y) => y.similarity - x.similarity || (x.id < y.id ? -1 : 1));
    return out;
  }

  /** Records similar to one of the records at or above a threshold (as `pairs` scores them), most similar first. */
  similarTo(id: string, threshold: number): SimilarRecord[] {
    return this.similarToEach([id], threshold).get(id) ?? [];
  }

  /**
   * `similarTo` for several records in one pass over the pairs: a pull request adding a
   * thousand records must not walk every pair once per record it adds.
   */
  similarToEach(ids: readonly string[], threshold: number): Map<string, SimilarRecord[]> {
    const wanted = new Set(ids);
    const out = new Map<string, SimilarRecord[]>(ids.map((id) => [id, []]));
    const other = (a: Artifact, score: SimilarRecord): SimilarRecord => ({ ...score, id: a.id, title: a.title, file: a.file, origin: a.origin, ...(a.status !== undefined ? { status: a.status } : {}) });
    for (const p of this.pairs(threshold, { only: wanted })) {
      if (wanted.has(p.a.id)) out.get(p.a.id)!.push(p.score);
      if (wanted.has(p.b.id)) out.get(p.b.id)!.push(other(p.a, p.score));
    }
    for (const list of out.values()) list.sort((x, y) => y.similarity - x.similarity || (x.id < y.id ? -1 : 1));
    return out;
  }

  /**
   * Pairs of records at or above a threshold (each pair once, in record order), at most
   * PAIRS_PER_RECORD per record: a pair is kept when it is among the nearest of either of its
   * records. The records' own cached vectors are the queries (no embedding, no call out),
   * projected once; between two records the term overlap is taken over the larger set, so a
   * shared template or topic word between two long records does not read as a restatement.
   * `only` keeps the pairs touching those ids; `skip` drops pairs before they are ranked
   * (pairs the authors linked, so they do not crowd out the ones they did not).
   */
  pairs(threshold: number, opts: { only?: ReadonlySet<string>; skip?: (a: Artifact, b: Artifact) => boolean } = {}): { a: Artifact; b: Artifact; score: SimilarRecord }[] {
    const { only, skip } = opts;
    const recs = this.records;
    const proj = recs.map((a) => {
      const v = this.vectors?.get(a.id);
      return v && this.space ? this.space.project(v) : undefined;
    });
    // term sets as sorted ids: n² intersections by merging, no hashing
    const ids = new Map<string, number>();
    const sets = recs.map((a) => Uint32Array.from([...this.heads.get(a.id)!].map((t) => ids.get(t) ?? (ids.set(t, ids.size), ids.size - 1))).sort());
    // each record's nearest few, best first (ties: record order, so every run keeps the same)
    const best: Near[][] = recs.map(() => []);
    for (let i = 0; i < recs.length; i++) {
      const qi = proj[i];
      for (let j = i + 1; j < recs.length; j++) {
        if (only !== undefined && !only.has(recs[i]!.id) && !only.has(recs[j]!.id)) continue;
        if (sets[i]!.length < MIN_PAIR_TERMS || sets[j]!.length < MIN_PAIR_TERMS) continue;
        const qj = proj[j];
        const cosine = qi && qj ? Math.max(0, dot(qi, qj)) : 0;
        const lexical = overlapSorted(sets[i]!, sets[j]!);
        const raw = this.space ? COSINE_WEIGHT * cosine + (1 - COSINE_WEIGHT) * lexical : lexical;
        const similarity = Math.min(1, raw / RAW_AT_FULL);
        if (similarity < threshold) continue;
        if (skip?.(recs[i]!, recs[j]!)) continue;
        const near: Near = { i, j, similarity, cosine, lexical };
        keepNearest(best[i]!, near, i);
        keepNearest(best[j]!, near, j);
      }
    }
    const kept = new Set<Near>();
    for (const list of best) for (const n of list) kept.add(n);
    return [...kept]
      .sort((x, y) => x.i - y.i || x.j - y.j)
      .map(({ i, j, similarity, cosine, lexical }) => {
        const b = recs[j]!;
        return { a: recs[i]!, b, score: { id: b.id, title: b.title, ...(b.status !== undefined ? { status: b.status } : {}), file: b.file, origin: b.origin, similarity: round(similarity), cosine: round(cosine), lexical: round(lexical) } };
      });
  }
}

/**
 * Pairs kept per record. A record that resembles dozens of others is a template or a
 * vocabulary the embedder does not know, not dozens of decisions to reconcile: its nearest
 * few say so, and a thousand such records stay a thousand lines rather than half a million.
 */
export const PAIRS_PER_RECORD = 5;

interface Near {
  i: number;
  j: number;
  similarity: number;
  cosine: number;
  lexical: number;
}

/** Insert into record `owner`'s nearest list (best first, at most PAIRS_PER_RECORD). */
function keepNearest(list: Near[], n: Near, owner: number): void {
  const partner = (x: Near) => (x.i === owner ? x.j : x.i);
  const better = (x: Near) => n.similarity > x.similarity || (n.similarity === x.similarity && partner(n) < partner(x));
  if (list.length >= PAIRS_PER_RECORD && !better(list[list.length - 1]!)) return;
  let at = list.length;
  while (at > 0 && better(list[at - 1]!)) at--;
  list.splice(at, 0, n);
  if (list.length > PAIRS_PER_RECORD) list.pop();
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** The embedder the configuration asks for, or undefined when semantic is off. */
export function configuredEmbedder(set: ArtifactSet, env: NodeJS.ProcessEnv = process.env): Embedder | undefined {
  const s = semanticSettings(set, env);
  return embedderFor(s.provider, s.from, `${set.config.dir}/config.yaml`);
}
