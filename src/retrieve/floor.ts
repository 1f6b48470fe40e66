// @spec SPEC-RETRIEVE-001

import type { CodeWords } from './code-words.js';
import { isFunctionWord } from './text.js';

/**
 * Calibrated relevance (issue 30 item 3, DEC-057): one scale in [0, 1] for every fused result,
 * with a floor. A result's relevance is the query's *evidence* (how much of what the query
 * says the best record says too) times the result's standing beside the best fused result.
 * Results under the floor are not answers: they are reported apart, as `weak`, and when none
 * is left the honest answer is "nothing here governs this".
 */

/**
 * The floor, calibrated on the development sets (bench/retrieval.mjs, DEC-057, DEC-068): the
 * trade-off curve of off-topic questions answered with nothing against right answers lost is
 * in the decision records. With 58 labelled off-topic questions (DEC-072: far and near-domain)
 * it answers 44 with nothing for 1 right answer lost (ONE_WORD_SHARE, AGREEMENT_PIVOT below);
 * most of those left are near-domain and meet a record in two of its own words, which no
 * statistic measured there (DEC-072: record frequency, the subject word, meaning as
 * confirmation, foreign words; DEC-074: phrases, passage meaning, nearest words, z-scores) told
 * from a real question's. One number for every repository and every front end (CLI, JSON, MCP,
 * the agent-read hook, trace's fallback, the PR comment's retrieved band).
 */
export const RELEVANCE_FLOOR = 0.17;

/** Is a calibrated relevance an answer (at or above the floor)? */
export const aboveFloor = (relevance: number): boolean => relevance >= RELEVANCE_FLOOR - 1e-9;

/** GloVe's vocabulary size: a word it does not list is rarer than any it does. */
const ENGLISH_WORDS = 400_000;
/** How strongly rarity in English counts (measured: 1 weaker, 3 no better; DEC-057). */
const ENGLISH_POWER = 2;

/**
 * How much a query word says, in (0, 1]: rare in English (a common word such as "hurt" or
 * "everyone" in a paraphrase says little; "terraform", "invoices", "kotlin" say much) and
 * rare in this repository's code (a word every file has says little). `englishRank` is the
 * word's frequency rank in general English (1 = most common), undefined when unknown (rare).
 */
export function wordWeight(englishRank: number | undefined, codeDf: number | undefined, codeFiles: number): number {
  const english = englishRank && englishRank > 1 ? Math.log(englishRank) / Math.log(ENGLISH_WORDS) : englishRank === 1 ? 0.01 : 1;
  const code = codeFiles >= 20 ? Math.log((codeFiles + 1) / ((codeDf ?? 0) + 1)) / Math.log(codeFiles + 1) : 1;
  return Math.pow(Math.min(1, english), ENGLISH_POWER) * Math.max(0.01, code);
}

/**
 * Meaning as evidence (measured with the default embedder, whose threshold is 0.2): a cosine
 * counts by how far it is above SEMANTIC_BASE. It adds to the keyword evidence of the record
 * both lanes put first (two lanes agreeing), and stands alone for a question only when one
 * record is clearly the closest: at least `min`, ahead of the next by `gap`. On both
 * development sets no off-topic question's closest record passed either test that was not
 * already above the floor, and a question in other words that shares no word with its
 * record (the paraphrase fixture's "letters to customers" → the mail queue) is still answered.
 */
export const SEMANTIC_BASE = 0.2;
export const SEMANTIC_ALONE = { min: 0.42, gap: 0.1 } as const;

/**
 * For a question, two lanes agreeing on a record is worth as much as the keyword lane's own
 * say (DEC-074): a keyword lane whose evidence is under the floor found its first record by
 * chance words ("How are reader comments moderated?" meets three records in "reader" and
 * "comments" alike), and meaning putting the same record first confirms little. Meaning's
 * lift counts in full once the keyword evidence reaches the floor, and in proportion below it.
 * Measured over the three development sets (bench/retrieval-floor.mjs, 58 off-topic
 * questions): at the floor 0.17, 44 of 58 answered with nothing instead of 42, for no right
 * answer lost; pivots from 0.13 to 0.3 give the same, 0.1 one fewer. A question met by no word
 * (the paraphrase fixture's "letters to customers") is answered by meaning alone as before
 * (SEMANTIC_ALONE).
 */
export const AGREEMENT_PIVOT = RELEVANCE_FLOOR;

// @decision DEC-094
/** Words a question starts with: an interrogative or an auxiliary put first ("What's", "Don't": the letters before the apostrophe). */
const ASKING = new Set('how why what which when where who whom whose can could should would will shall do does did is are was were has have had may might must don doesn didn isn aren wasn weren shouldn wouldn couldn won'.split(' '));

/**
 * A text query written as keywords ("kafka stream processing", "react native push
 * notifications") is judged by its words (DEC-094). Its words are what it looks for: a record
 * that decides it uses them, and the default embedder's average of three or four nouns is a blur
 * of topics in which one common word ("processing" ~ bulk data loading, "newsletter" ~ event
 * subscription) lifts a record with none of the subject's words. For such a query meaning
 * never stands alone (SEMANTIC_ALONE is a question's), and its agreement with the keyword lane
 * adds its lift only once the keyword evidence itself reaches the floor (AGREEMENT_PIVOT as a
 * step, not a slope). A question ("how are letters to customers delivered", "why no decimals
 * for money", a question followed by the agent's terms as MCP search_decisions joins them) keeps
 * both, and so does a text of more than one line (a draft `add` compares).
 * Measured over the seven development sets (DEC-094): 3 more of 122 off-topic queries answered
 * with nothing, no right answer lost, every R@5/MRR unchanged.
 */
export function keywordQuery(text: string): boolean {
  const t = text.trim();
  // a draft's title and decision (add's near-duplicate check) is a document, not a lookup; a
  // question mark anywhere is a question (MCP search_decisions appends the agent's terms after it)
  if (t.includes('?') || text.includes('\n')) return false;
  const first = /^[A-Za-z]+/.exec(t)?.[0]?.toLowerCase();
  return !first || !ASKING.has(first);
}

/**
 * The evidence meaning adds: `keywordsFirst` is the keyword lane's best record and its
 * evidence, `semantic` the semantic lane's hits best first, `alone` whether the query is a
 * text query (meaning may then stand alone, and its agreement is scaled by AGREEMENT_PIVOT),
 * `lookup` whether that text is written as keywords (keywordQuery: meaning never stands alone,
 * and agrees only with keyword evidence at the floor).
 */
export function semanticEvidence(keywordsFirst: { id: string; evidence: number } | undefined, semantic: readonly { id: string; score: number }[], alone: boolean, lookup = false): number {
  const [first, second] = semantic;
  if (!first) return 0;
  const lift = Math.max(0, first.score - SEMANTIC_BASE);
  let e = 0;
  if (keywordsFirst?.id === first.id) e = keywordsFirst.evidence + (alone ? lift * agreement(keywordsFirst.evidence, lookup) : lift);
  if (alone && !lookup && first.score >= SEMANTIC_ALONE.min && first.score - (second?.score ?? 0) >= SEMANTIC_ALONE.gap) e = Math.max(e, lift);
  return Math.min(1, e);
}

/** How much of meaning's lift agreement with keyword evidence `ev` confirms (AGREEMENT_PIVOT). */
const agreement = (ev: number, lookup: boolean): number => (lookup ? (ev >= AGREEMENT_PIVOT - 1e-9 ? 1 : 0) : Math.min(1, ev / AGREEMENT_PIVOT));

// @decision DEC-110
/**
 * A written word's English rank for evidence: a function word (isFunctionWord: English's closed
 * classes, DEC-110, and the other record languages', DEC-108) ranks as the commonest. "between"
 * and "using" are rarer in English than the sixty commonest words and passed WEIGHTY_WORD: "How are
 * prices converted between currencies using exchange rates?" met a record in three telling words.
 */
const rankFor = (word: string, rank: EnglishRank | undefined): number | undefined => (isFunctionWord(word) ? 1 : rank?.(word));

/** A word's frequency rank in general English (1 = most common), undefined when unknown (rare). */
export type EnglishRank = (word: string) => number | undefined;
let english: EnglishRank | undefined;
/**
 * Where English word frequencies come from: the default embedder's word table belongs to the
 * semantic layer, above this one, which registers it when loaded (src/semantic/lane.ts), so
 * the floor weighs words alike whichever embedder, if any, is configured. Unregistered (a
 * library caller that never loads the semantic layer), every word counts as rare.
 */
export function useEnglishRanks(rank: EnglishRank | undefined): void {
  english = rank;
}
export const englishRanks = (): EnglishRank | undefined => english;

/** What the evidence of a text query needs: its terms (stem → weight) and how to weigh a word. */
export interface EvidenceInput {
  /** query terms, stem → weight in the query */
  terms: Map<string, number>;
  /** each stem's word as written in the query (its English rank is looked up by it) */
  forms: Map<string, string>;
  /** the frequency rank of a word in general English, when known */
  englishRank?: (word: string) => number | undefined;
  codeWords?: CodeWords;
  /** the text asks (keywordQuery false): two words of it are no lookup unless meaning confirms the match (`unconfirmed`) */
  asked?: boolean;
  /** for a question (`asked`): a hit whose keyword score is under it is evidence only where meaning puts it first (`unconfirmed` 0), or none without `unconfirmed` (keywordScoreFloor, DEC-113) */
  scoreFloor?: number;
  /**
   * filled with the evidence a hit keeps when meaning does not find it too (DEC-106): a question
   * of two words ("Where can I adopt a puppy?", "Why no decimals for money?") met in one of them
   * counts ONE_WORD_SHARE of a lookup's share unless the semantic lane puts the same record first
   * (meaning confirms "money" for integer cents; nothing confirms "adopt" for a record that
   * adopts a library); 0 for a question's hit under `scoreFloor` (DEC-113)
   */
  unconfirmed?: Map<string, number>;
  /** a text written as keywords (keywordQuery): the terms of each word as written, for LOOKUP_MISSED */
  words?: readonly (readonly string[])[];
  // @decision DEC-105
  /**
   * terms that only name files of the tree (`libs`, `toml` of `libs.versions.toml`): with
   * `unused`, one no candidate matches counts for nothing instead of against the question (a
   * record decides about the version catalog without writing its file's name); matched, as any
   */
  fileTerms?: ReadonlySet<string>;
}

/**
 * How much more a question's word counts when no candidate record uses it at all (DEC-068).
 * A question about this repository's decisions mostly misses words the records use in other
 * forms or common prose; an off-topic one misses its subject ("passwords", "broker",
 * "refunds"), a word no record has, while a few of its other words meet a record by chance.
 * Measured over the three development sets (bench/retrieval.mjs, the floor re-chosen for each
 * weight): 1.5 lets the floor empty one more off-topic question for no right answer lost; 2
 * and more empty more only at the price of paraphrases, whose words are rarely the records' own.
 */
export const UNUSED_WORD_WEIGHT = 1.5;

/**
 * A matched word says something when its weight (wordWeight × its weight in the query) is at
 * least this: rarer in English than about the sixty commonest words, and not in most of the
 * repository's code files ("app", "model", "state", "get" in the development sets fall under it).
 */
export const WEIGHTY_WORD = 0.1;
/**
 * What a question's evidence counts when a record meets it in one weighty word only (DEC-072):
 * a question of three words or more that shares a single telling word with a record shares it
 * by chance more often than not — "kubernetes helm chart deployment" and a record that says
 * "deployment", "GraphQL schema federation" and one that says "schema" — while a record that
 * decides a question meets it in two telling words or more (its subject and what is asked of
 * it), or in meaning. Measured over the three development sets at the floor 0.17 (58
 * off-topic questions, bench/retrieval-floor.mjs): 0.5 empties 42 of 58 for the same 1 right
 * answer lost as without it (33 of 58); 0.6 empties 40, 0 (one word is never evidence) 45 for
 * 3 lost; the weighty bar at 0.05 empties 40, at 0.2 41 for 10 lost. One- and two-word queries
 * are lookups ("typescript flow", "amp"): one matched word is what they ask for.
 */
export const ONE_WORD_SHARE = 0.5;

/**
 * A short question is answered by a record that says its words together (DEC-092). A question of
 * SHORT_QUESTION_TERMS terms or fewer names a subject and what is asked of it, and the record
 * that decides it says both in one passage (a paragraph, or the head: title, summary and
 * keywords); a near-domain question no record decides ("What is the retry policy when fetching
 * from a remote fails?", "How are the gas used and fees of a transaction reported?") meets a
 * record in words it says in different paragraphs, by chance. A hit that meets such a question
 * in two telling words or more (WEIGHTY_WORD; one alone is ONE_WORD_SHARE's to judge) and whose
 * best passage holds under PASSAGE_SHARE of its weight is no evidence. Measured over the six
 * development sets (bench/retrieval-floor.mjs, 112 off-topic questions, 40 of them answered
 * before): at 5 terms and 0.28, 82 answered with nothing instead of 72, for no right answer lost
 * and no R@5/MRR figure moved (83 when one telling word also had to stand in one passage, which
 * loses a question in other words met by one word and confirmed by meaning); 0.25 empties 79,
 * 0.31 84 for 2 right answers lost (the nearest right answers hold 0.29 of their question); 4
 * terms empty 74, 6 terms 82 for 1 lost. Longer questions are read whole: a question in other
 * words meets its record's title in one passage and its decision in another (DEC-069), and its
 * best passage runs as low as an off-topic one's. Six terms since session 28 (DEC-092, section Six
 * terms): over eight sets and the far bench, 10 more of 317 off-topic questions answered with
 * nothing for that one 6-term paraphrase lost; 7 terms lose 4 right questions.
 */
export const SHORT_QUESTION_TERMS = 6;
export const PASSAGE_SHARE = 0.28;

// @decision DEC-106
/**
 * A query written as keywords names what it looks for word by word (DEC-106): a record that
 * leaves LOOKUP_MISSED of its telling words or more unmatched, and half of them at least, does
 * not have it ("GraphQL schema federation gateway" and a record that says GraphQL and schema,
 * "database schema migration tool" and one about migrating tools). A word counts as matched when
 * any term of it is ("first_published_at" by "published"), and telling as WEIGHTY_WORD says.
 */
export const LOOKUP_MISSED = 2;
/** Longer texts without a question word (words as written, "for" and "the" included) are statements (a paraphrase, a sentence pasted in), not lookups. */
export const LOOKUP_WORDS = 6;
/** What joins the calling agent's own terms to a query (MCP search_decisions): they widen it, they are not what it looks for. */
export const AGENT_TERMS = ' \u2014 ';

// @decision DEC-113
/**
 * A question's record says its words with weight (DEC-113): in its title, summary or keywords, or
 * more than once, not a word each in passing. The keyword lane's BM25 score of a hit (record
 * frequency, saturation, length and the fields' weights) tells that apart where the share of
 * the question's words (textEvidence) does not: "How does the mobile app keep working offline and
 * sync later?" meets a record that writes "keep", "working", "later" and "sync" once each in a
 * long body (a share of 0.27, a score of 4.0). A question's hit scoring under the floor keeps its
 * share only where the semantic lane puts the same record first (as `unconfirmed`, the way a
 * two-word question met in one word does, DEC-106): meaning confirms a record met in passing
 * ("Why no decimals for money?" and the integer-cents record); without it the hit is no
 * evidence. Lookups written as keywords, whose one or two words score low by nature, are judged
 * by their words (LOOKUP_MISSED). The score's scale grows with the records' count (a word in one
 * record of n has an idf of log(1 + (n - 0.5) / 1.5)), so below SCORE_FLOOR_RECORDS records the
 * floor shrinks with that idf: a folder of three records is not held to a larger one's scores.
 * Measured over the eight development sets (bench/retrieval.mjs, bench/retrieval-far.mjs): 4 of
 * 28 off-topic questions answered before get nothing, 9 of 59 software questions off the
 * domain and 3 of 17 everyday ones, for one right answer lost (an obscure paraphrase, "Which
 * paid tool photographs public pages…"); every file, symbol and keyword figure unchanged. The
 * floor at 4 without the scaling answers as many and loses a question of a twelve-record set
 * from its top 5; 5 loses 5 right answers; counting the hit for nothing even where meaning
 * agrees empties one more software question and loses the money question (test/semantic).
 */
export const KEYWORD_SCORE_FLOOR = 4.5;
export const SCORE_FLOOR_RECORDS = 20;
const oneRecordIdf = (records: number): number => Math.log(1 + (Math.max(1, records) - 0.5) / 1.5);
/** The keyword score a question's hit needs to count as evidence, in a set of `records` records. */
export const keywordScoreFloor = (records: number): number => KEYWORD_SCORE_FLOOR * Math.min(1, oneRecordIdf(records) / oneRecordIdf(SCORE_FLOOR_RECORDS));

/** The terms of each written word of a keyword query (its own words, not the agent's), or undefined when LOOKUP_MISSED does not apply. */
export function lookupWords(text: string, termsOf: (word: string) => string[]): string[][] | undefined {
  if (!keywordQuery(text)) return undefined;
  const written = text.split(AGENT_TERMS)[0]!.split(/\s+/).filter(Boolean);
  return written.length <= LOOKUP_WORDS ? written.map(termsOf).filter((ts) => ts.length > 0) : undefined;
}

/**
 * The passages of a record as sets of terms, for PASSAGE_SHARE: its head (title, summary,
 * keywords) and each paragraph of its body, split at blank lines. `termsOf` is the index's own
 * tokeniser (plain and joined terms), so a matched term is found in the passage it came from.
 */
export function passagesOf(head: string, body: string, termsOf: (text: string) => Iterable<string>): Set<string>[] {
  return [head, ...body.split(/\n[ \t]*\n/)].map((p) => new Set(termsOf(p))).filter((p) => p.size > 0);
}

/**
 * Each fused candidate's evidence: the share of the query's weighted words (wordWeight) that
 * the record matches. Off-topic questions use words the repository never uses, or words that
 * only common prose shares with a record: their best share stays low. For a question
 * (`unused`), a word no candidate matches weighs UNUSED_WORD_WEIGHT times as much, and a
 * record that meets a question of three words or more in one weighty word only counts
 * ONE_WORD_SHARE of its share; a hit that meets a question of SHORT_QUESTION_TERMS terms or
 * fewer (`passages` given) in two telling words or more, none of its passages (`passages`)
 * holding PASSAGE_SHARE of the question's weight, counts 0.
 */
export function textEvidence(input: EvidenceInput & { unused?: boolean; passages?: (id: string) => readonly ReadonlySet<string>[] | undefined }, hits: readonly { id: string; matched: readonly string[]; score?: number }[]): Map<string, number> {
  const files = input.codeWords?.files ?? 0;
  const used = input.unused ? new Set(hits.flatMap((h) => h.matched)) : undefined;
  const w = new Map<string, number>();
  let total = 0;
  for (const [t, qw] of input.terms) {
    if (used && !used.has(t) && input.fileTerms?.has(t)) continue;
    const word = input.forms.get(t) ?? t;
    const x = qw * wordWeight(rankFor(word, input.englishRank), input.codeWords?.df[t], files) * (used && !used.has(t) ? UNUSED_WORD_WEIGHT : 1);
    w.set(t, x);
    total += x;
  }
  const out = new Map<string, number>();
  if (!total) return out;
  const lookup = input.terms.size <= 2;
  const short = input.unused && input.passages && input.terms.size <= SHORT_QUESTION_TERMS;
  for (const h of hits) {
    let s = 0;
    let weighty = 0;
    for (const t of h.matched) {
      const x = w.get(t) ?? 0;
      s += x;
      if (x >= WEIGHTY_WORD) weighty++;
    }
    if (input.unused && !lookup && weighty < 2) s *= ONE_WORD_SHARE;
    // a question of two words met in one of them: a lookup's whole share only when meaning puts the record first too
    else if (input.unused && lookup && input.asked && input.terms.size === 2 && weighty < 2) input.unconfirmed?.set(h.id, Math.min(1, (s * ONE_WORD_SHARE) / total));
    if (input.words && missesLookup(input.words, h.matched, w)) s = 0;
    // a question met only in passing, no word of it said with weight: evidence only when meaning puts the record first too (DEC-113)
    if (input.asked && input.scoreFloor !== undefined && (h.score ?? Infinity) < input.scoreFloor) {
      if (input.unconfirmed) input.unconfirmed.set(h.id, 0);
      else s = 0;
    }
    // one telling word is ONE_WORD_SHARE's to judge; two or more must stand together
    if (short && weighty >= 2 && bestPassage(h.matched, input.passages!(h.id), w) < PASSAGE_SHARE * total) s = 0;
    out.set(h.id, Math.min(1, s / total));
  }
  return out;
}

/** Does a hit leave LOOKUP_MISSED telling words of a keyword query or more, and half of them, unmatched? */
function missesLookup(words: readonly (readonly string[])[], matched: readonly string[], w: ReadonlyMap<string, number>): boolean {
  const hit = new Set(matched);
  let telling = 0;
  let missed = 0;
  for (const ts of words) {
    if (!ts.some((t) => (w.get(t) ?? 0) >= WEIGHTY_WORD)) continue;
    telling++;
    if (!ts.some((t) => hit.has(t))) missed++;
  }
  return missed >= LOOKUP_MISSED && 2 * missed >= telling;
}

/** The most weight of matched terms one passage holds (unknown passages: all of it). */
function bestPassage(matched: readonly string[], passages: readonly ReadonlySet<string>[] | undefined, w: ReadonlyMap<string, number>): number {
  if (!passages) return Infinity;
  let best = 0;
  for (const p of passages) {
    let s = 0;
    for (const t of matched) if (p.has(t)) s += w.get(t) ?? 0;
    if (s > best) best = s;
  }
  return best;
}

/**
 * How a result's standing beside the best (its fused score over the best one's) counts: as its
 * square root. Measured (DEC-057): the standing itself put right answers at ranks 2 to 5 under
 * the floor (7 of 23 file queries of git-en-boite); its square root loses none on either set,
 * and still lets a distant runner-up of a barely relevant query fall out.
 */
const STANDING_POWER = 0.5;
/**
 * A place's evidence is the share of its code's weighted words a record matches: code says
 * much more than a record, so the share runs lower than a question's (0.15 to 0.75 on the
 * development sets' file queries). Scaled onto the questions' scale so that no governed file
 * or symbol of the three sets falls under the floor (DEC-057: ×2 for the floor 0.21; DEC-068:
 * ×1.6 for 0.17, the same share). The sets' ungoverned files (DEC-068) score 0.09 to 0.55
 * of share, among the governed ones (0.15 to 0.94): a larger floor for places loses governed
 * files about as fast as it empties ungoverned ones (the trade-off is in DEC-068).
 */
export const PLACE_EVIDENCE_SCALE = 1.6;

/**
 * The calibrated relevance of each fused result: the query's evidence (the best candidate's)
 * times the square root of the result's fused score relative to the best fused score. The
 * best result's relevance is the evidence itself.
 */
export function calibrate(fused: readonly { id: string; score: number }[], evidence: number): Map<string, number> {
  const out = new Map<string, number>();
  const top = fused[0]?.score ?? 0;
  if (!(top > 0)) return out;
  for (const f of fused) out.set(f.id, Math.round(Math.min(1, evidence * Math.pow(Math.max(0, f.score) / top, STANDING_POWER)) * 1000) / 1000);
  return out;
}
