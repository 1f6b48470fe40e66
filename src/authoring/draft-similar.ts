// @spec SPEC-AUTHORING-001

import type { ArtifactSet } from '../artifacts/load.js';
import { setTemplates } from '../artifacts/sources/record-template.js';
import type { Artifact } from '../artifacts/types.js';
import { retrieveForText } from '../retrieve/engine.js';
import { terms } from '../retrieve/text.js';
import type { RetrievedRecord } from '../retrieve/types.js';
import type { Embedder } from '../semantic/embedder.js';
import { EmbeddingLane, semanticSettings } from '../semantic/lane.js';
import { activeDecisions, CLOSEST_SHOWN, conflictThreshold, configuredEmbedder, DEFAULT_CONFLICT_THRESHOLD, decisionSection, DecisionSimilarity, deriveTitle, draftText, templateDecisions, type DecisionDraft, type SimilarOptions, type SimilarRecord, type SimilarResult } from './similar.js';

/**
 * Records search ranks for a draft that may be restated by it. A restatement's record is the
 * one search finds first for it (measured on git-en-boite: 10 of 10 at rank 1); the next two
 * cover a draft that restates two overlapping records (Redis queue, background worker).
 */
const CANDIDATES = 3;
/**
 * The keyword lane shows at most this many matched words per record (src/retrieve/lanes.ts):
 * the share of a long draft's words a record matches is counted up to it.
 */
const MATCHED_SHOWN = 12;
/**
 * The mean of the pair score and the keyword coverage at which a draft restates a record,
 * mapped onto the default threshold 0.75. Measured with
 * bench/authoring-similarity.mjs on git-en-boite's records: restatements written in other
 * words sit at 0.6 and above (but one whose record shares its words with another, 0.41),
 * drafts about something else at 0.38 and below.
 */
const AGREEMENT_AT_THRESHOLD = 0.5;

/**
 * Active decisions (repository and global) a draft restates, most similar first, at or above
 * the threshold.
 *
 * The candidates are what `git ctx search` answers for the draft's title and decision — the
 * same engine, keyword BM25 and semantic lanes fused (src/retrieve) — so a record is never
 * called a duplicate of a draft search would not even show for it. Search's scores are
 * relative to its best hit, so how far a candidate agrees with the draft is judged on an
 * absolute scale: the mean of the share of the draft's words search matched in the record
 * and the pair score of the record's decision part (embedding cosine and overlap of
 * distinctive terms, DecisionSimilarity). The first alone misses restatements in other
 * words; the second alone flags unrelated records of a small repository, whose vocabulary
 * they all share.
 */
export async function findSimilarDecisions(root: string, set: ArtifactSet, draft: DecisionDraft, opts: SimilarOptions = {}): Promise<SimilarResult> {
  return (await DraftJudge.open(root, set, opts)).judge(draft, opts.exclude ?? []);
}

/**
 * findSimilarDecisions' parts that do not depend on the draft (the embedder, its lane, the
 * pair scorer over the active decisions), opened once for judging many drafts.
 */
class DraftJudge {
  private constructor(
    private readonly set: ArtifactSet,
    private readonly threshold: number,
    private readonly embedder: Embedder | undefined,
    private readonly semantic: EmbeddingLane | undefined,
    private readonly sim: DecisionSimilarity,
    /** records whose decision is still their template's guidance: never a draft's restatement */
    private readonly undecided: ReadonlySet<string>,
  ) {}

  static async open(root: string, set: ArtifactSet, opts: SimilarOptions): Promise<DraftJudge> {
    const threshold = opts.threshold ?? conflictThreshold(set);
    const env = opts.env ?? process.env;
    const embedder = opts.embedder === null ? undefined : (opts.embedder ?? configuredEmbedder(set, env));
    const semantic = embedder ? new EmbeddingLane(root, set, embedder, semanticSettings(set, env).threshold) : undefined;
    // the templates of the state the set was read from: the working tree for add, the judged
    // snapshot for the check rule and a pull request's head (DEC-100)
    const undecided = templateDecisions(set, await setTemplates(set));
    const sim = await DecisionSimilarity.open(root, set, activeDecisions(set), embedder, opts.writeCache ?? true);
    return new DraftJudge(set, threshold, embedder, semantic, sim, undecided);
  }

  private words: Set<string> | undefined;

  /** The words of every record of the set, whole text: what the repository's records name. */
  private recordWords(): Set<string> {
    if (!this.words) {
      this.words = new Set<string>();
      for (const a of this.set.artifacts) for (const t of textTerms(a)) this.words.add(t);
    }
    return this.words;
  }

  async judge(draft: DecisionDraft, excluded: readonly string[]): Promise<SimilarResult> {
    const { set, threshold, embedder, semantic, sim } = this;
    const title = draft.title?.trim() || deriveTitle(draft.decision);
    const text = [title, draft.decision, (draft.keywords ?? []).join(' ')].join('\n');
    const exclude = new Set([...excluded, ...this.undecided]);
    const found = await retrieveForText({
      snapshot: set.snapshot,
      set,
      semantic,
      text,
      filters: { type: ['decision'] },
      // the fused band only: a declared or linked record is not one the draft restates
      caps: { declared: 0, fused: CANDIDATES + exclude.size, links: 0 },
      staleness: false,
      feedback: false,
    });
    const fused = found.results.filter((r) => r.slot === 'fused');
    const candidates = fused.filter((r) => !exclude.has(r.id)).slice(0, CANDIDATES);
    // search's weak band (under its relevance floor) never holds a restatement, but may hold the
    // record a draft replaces: a draft naming a choice no record knows ("Use DynamoDB for the
    // event store") meets it only in the subject's words. Scored alike, for the hint alone (DEC-130)
    const weak = (found.weak ?? []).filter((r) => r.slot === 'fused' && !exclude.has(r.id)).slice(0, CANDIDATES - candidates.length);
    if (!candidates.length && !weak.length) return { threshold, ...(embedder ? { embedder: `${embedder.provider}/${embedder.model}` } : {}), similar: [] };
    const pairs = new Map((await sim.score(draftText(draft), text, exclude)).map((s) => [s.id, s]));
    // the draft's words by how much each says (rare among the records' decisions: much), the
    // heaviest MATCHED_SHOWN of them the most a record can match
    const weights = [...new Set(terms(text))].map((t) => sim.termWeight(t)).sort((a, b) => b - a);
    const whole = weights.slice(0, MATCHED_SHOWN).reduce((a, b) => a + b, 0) || 1;
    // a fixed scale: a pair's score does not depend on the threshold it is compared with
    const scale = DEFAULT_CONFLICT_THRESHOLD / AGREEMENT_AT_THRESHOLD;
    const names = namesOf(`${title}\n${draft.decision}`);
    const known = names.length ? this.recordWords() : new Set<string>();
    const similar: SimilarRecord[] = [];
    const first = (fused[0] ?? weak[0])!.score;
    [...candidates, ...weak].forEach((r, i) => {
      const pair = pairs.get(r.id);
      if (!pair) return;
      const matched = new Set(terms(matchedWords(r).join(' ')));
      const coverage = Math.min(1, [...matched].reduce((a, t) => a + sim.termWeight(t), 0) / whole);
      // search's own ranking weighs the agreement: a record search puts well below its first
      // answer for the draft is a neighbour of what the draft restates, not a second copy. The
      // first answer counts even when excluded: a record judged against the others (the check
      // rule, the PR comment) is its own first answer, and a neighbour it shares only the
      // repository's template words with scores a few hundredths of it
      const standing = r.score / first;
      const named = namedIn(names, this.set.byId.get(r.id), known);
      const similarity = Math.min(1, ((pair.similarity + coverage) / 2) * scale * standing * named);
      similar.push({ ...pair, similarity: round(similarity), coverage: round(coverage), rank: i + 1 });
    });
    similar.sort((x, y) => y.similarity - x.similarity || x.rank! - y.rank!);
    const answers = similar.filter((s) => s.rank! <= candidates.length);
    const over = answers.filter((s) => s.similarity >= threshold);
    const closest = !over.length && answers[0] && answers[0].similarity >= CLOSEST_SHOWN ? answers[0] : undefined;
    return { threshold, ...(sim.embedderName ? { embedder: sim.embedderName } : {}), similar: over, ...(closest ? { closest } : {}), candidates: similar };
  }
}

/**
 * The things a draft names: its capitalised words, not acronyms, that do not start a sentence
 * or a line (Koin, Redis, GraphQL), each as its terms. What a decision chooses is usually one.
 */
export function namesOf(text: string): string[][] {
  const out = new Map<string, string[]>();
  for (const sentence of text.split(/\n+|[.!?;:]\s+/)) {
    const words = sentence.trim().split(/\s+/).slice(1);
    for (const w of words) {
      const bare = w.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
      // an acronym (UI, API, CI, JWTs) is as often the area's word as a thing chosen
      if (!/^[A-Z]/.test(bare) || /^[A-Z0-9]+s?$/.test(bare)) continue;
      const t = terms(bare);
      if (t.length) out.set(t.join(' '), t);
    }
  }
  return [...out.values()];
}

/** A record's words, whole text. */
const textTerms = (a: Artifact) => terms([a.title, a.summary ?? '', a.keywords.join(' '), a.body].join('\n'));

/**
 * How far a record names the new things a draft names: of the draft's names that this record
 * or no record of the set mentions (a name other records know, JavaScript or UI, is the
 * area's, not what the draft chooses), the share this record mentions, counted half; 1 with
 * none. A draft choosing a thing no record mentions (Koin for dependency injection, beside the
 * build's dependency management) decides something else than the records it shares its
 * area's words with. Half, not all: a restatement may name one thing its record does not.
 * @decision DEC-096
 */
function namedIn(names: readonly string[][], a: Artifact | undefined, known: ReadonlySet<string>): number {
  if (!names.length || !a) return 1;
  const words = new Set(textTerms(a));
  const has = (n: readonly string[], w: ReadonlySet<string>) => n.every((t) => w.has(t));
  const counted = names.filter((n) => has(n, words) || !has(n, known));
  if (!counted.length) return 1;
  return (1 + counted.filter((n) => has(n, words)).length / counted.length) / 2;
}

/** The draft's words search matched in a record (its keyword evidence, as the draft wrote them). */
function matchedWords(r: RetrievedRecord): string[] {
  return r.why.find((w) => w.kind === 'keywords')?.terms ?? [];
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Two records the pair score proposes as restating each other. */
export interface CandidatePair {
  a: Artifact;
  b: Artifact;
}

/**
 * Records judged per call at most (one search each, ~3 ms at 1,500 records): a set whose pair
 * score proposes thousands of pairs (invented words the embedder does not know, one template)
 * stays bounded. Pairs past it keep the pair score's word, as before search judged them.
 */
export const JUDGED_RECORDS = 200;

/**
 * Which of the pairs the pair score proposes (DecisionSimilarity.pairs, cheap over every pair
 * of a large set) are restatements as `add` would judge them: a pair stands when, taking
 * either record as a draft (its title, summary, decision part and keywords), the draft check
 * above flags the other. The pair score alone flags unrelated records of a small repository
 * (they share its vocabulary); search's judgement does not. Records linked either way
 * (relations, links, requires) are never paired: their authors know of each other, and a
 * record that supersedes, amends or refines another is expected to resemble it. Each record is
 * judged once however many pairs it is in; the most similar pairs are judged first, and past
 * JUDGED_RECORDS a pair stands on its pair score (marked `unjudged`, and counted). The check rule and
 * the PR comment both ask this.
 */
export async function confirmRestatements(root: string, set: ArtifactSet, pairs: readonly (CandidatePair & { score: SimilarRecord })[], opts: Pick<SimilarOptions, 'threshold' | 'embedder' | 'env' | 'writeCache'> = {}): Promise<{ pairs: (CandidatePair & { score: SimilarRecord; unjudged?: true })[]; unjudged: number }> {
  const judge = await DraftJudge.open(root, set, opts);
  const judged = new Map<string, Map<string, SimilarRecord>>();
  const restated = async (a: Artifact) => {
    let m = judged.get(a.id);
    if (!m) {
      m = new Map((await judge.judge(recordDraft(a), [a.id])).similar.map((s) => [s.id, s]));
      judged.set(a.id, m);
    }
    return m;
  };
  const out: { i: number; pair: CandidatePair & { score: SimilarRecord; unjudged?: true } }[] = [];
  let unjudged = 0;
  const order = pairs.map((p, i) => ({ p, i })).sort((x, y) => y.p.score.similarity - x.p.score.similarity || x.i - y.i);
  for (const { p, i } of order) {
    if (areLinked(p.a, p.b)) continue;
    const fresh = (judged.has(p.a.id) ? 0 : 1) + (judged.has(p.b.id) ? 0 : 1);
    if (judged.size + fresh > JUDGED_RECORDS) {
      unjudged++;
      out.push({ i, pair: { ...p, unjudged: true } });
      continue;
    }
    const ab = (await restated(p.a)).get(p.b.id);
    const ba = (await restated(p.b)).get(p.a.id);
    if (!ab && !ba) continue;
    // reported as b seen from a, with the higher of the two judgements
    let score = ab;
    if (!score || (ba && ba.similarity > score.similarity)) {
      const { status: _, ...judgement } = ba!;
      score = { ...judgement, id: p.b.id, title: p.b.title, file: p.b.file, origin: p.b.origin, ...(p.b.status !== undefined ? { status: p.b.status } : {}) };
    }
    out.push({ i, pair: { ...p, score } });
  }
  // in the order the callers gave them
  return { pairs: out.sort((x, y) => x.i - y.i).map((x) => x.pair), unjudged };
}

/** Does either record name the other in its relations, links or requires? */
export function areLinked(a: Artifact, b: Artifact): boolean {
  const names = (x: Artifact, id: string) => Object.values(x.relations).some((l) => l?.includes(id)) || x.links.some((l) => l.id === id) || x.requires.includes(id);
  return names(a, b.id) || names(b, a.id);
}

/** A record as the draft `add` would have been given for it. */
function recordDraft(a: Artifact): DecisionDraft {
  return { title: a.title, decision: [a.summary ?? '', decisionSection(a.body)].join('\n').trim() || a.title, keywords: a.keywords };
}
