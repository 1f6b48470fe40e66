// @spec SPEC-RETRIEVE-001

import { queryOf, type KeywordHit } from './bm25.js';
import { englishRanks, keywordQuery, keywordScoreFloor, lookupWords, PLACE_EVIDENCE_SCALE, SHORT_QUESTION_TERMS, textEvidence } from './floor.js';
import { searchRecords } from './keyword-cache.js';
import { camelNamesIn, formInRecord, shownWords, surfaceForms, terms as termsOf } from './text.js';
import { mentionSignals, movedFileSignals, nearnessSignals, typeNameSignals } from './signals.js';
import { mark } from '../util/timing.js';
import type { LaneContext, LaneHit, LaneQuery, ReplaceableLane, RetrievalLane, Why } from './types.js';

/** Score given to declared hits: always above the fused band (whose scores stay below 3). */
export const DECLARED_BASE = 1000;

const round = (n: number) => Math.round(n * 1000) / 1000;
const artifact = (id: string) => ({ kind: 'artifact' as const, id });

/** Slot 1: what is declared at the place and by walking the code graph outward, nearest first. */
export const declaredLane: RetrievalLane = {
  name: 'declared',
  async run(q, ctx) {
    const target = q.kind === 'place' ? q.target : q.place;
    if (!target) return [];
    const [index, { declaredFor, declaredRank }] = await Promise.all([ctx.index(), import('./declared.js')]);
    const r = await declaredFor({ snapshot: ctx.snapshot, set: ctx.set, index, target, neighbours: await ctx.neighbours(), symbol: q.kind === 'place' ? q.symbol : target.symbol });
    const hits: LaneHit[] = r.hits.map((h) => ({ ref: artifact(h.id), score: DECLARED_BASE - declaredRank(h), why: h.why }));
    return r.graphError ? { hits, partial: r.graphError } : hits;
  },
};

/** The weighted terms of the code at a place (passive extraction; its module loads only for places). */
async function placeTerms(q: Extract<LaneQuery, { kind: 'place' }>, ctx: LaneContext): Promise<Map<string, number>> {
  const [{ extractPlaceTerms, placeQuery }, { codeWordsOf, distinctWords }] = await Promise.all([import('./extract.js'), import('./code-words.js')]);
  // how distinctive each word is in this repository's code; unknown (every word alike) when the tree cannot be read
  const cw = await codeWordsOf(ctx.snapshot).catch(() => undefined);
  return placeQuery(extractPlaceTerms(await q.code(), q.path), distinctWords(cw));
}

/**
 * Each hit's evidence on the calibrated scale (floor.ts): for a question, the share of its
 * words, weighed by rarity in English and in this repository's code, that the record matches;
 * for a place, the share of the place query's weight (already weighed by distinctiveness).
 */
async function evidenceOf(q: LaneQuery, ctx: LaneContext, terms: Map<string, number>, forms: Map<string, string>, found: readonly KeywordHit[], unconfirmed?: Map<string, number>): Promise<Map<string, number>> {
  if (q.kind === 'place') return new Map([...textEvidence({ terms, forms }, found)].map(([id, e]) => [id, Math.min(1, PLACE_EVIDENCE_SCALE * e)]));
  const { codeWordsOf } = await import('./code-words.js');
  const codeWords = await codeWordsOf(ctx.snapshot).catch(() => undefined);
  const rank = englishRanks();
  // a short question's hits are read passage by passage (PASSAGE_SHARE, DEC-092): only then
  const passages = terms.size <= SHORT_QUESTION_TERMS && found.length ? (await import('./passages.js')) : undefined;
  const index = passages?.passageIndexFor(ctx.snapshot.root, ctx.set.artifacts, ctx.set.key);
  // a text written as keywords is judged word by word too (LOOKUP_MISSED, DEC-106); the parts of
  // a file's name no record matches do not count against the question (fileTerms, DEC-105)
  const words = lookupWords(q.text, termsOf);
  const asked = !keywordQuery(q.text);
  return textEvidence({ terms, forms, unused: true, asked, ...(asked ? { scoreFloor: keywordScoreFloor(ctx.set.artifacts.length) } : {}), ...(unconfirmed ? { unconfirmed } : {}), ...(words ? { words } : {}), ...(q.fileTerms?.length ? { fileTerms: new Set(q.fileTerms) } : {}), ...(rank ? { englishRank: rank } : {}), ...(codeWords ? { codeWords } : {}), ...(passages && index ? { passages: (id: string) => passages.passagesIn(index, id) } : {}) }, found);
}

/**
 * A place's keyword hits less each record's background (place-background.ts, DEC-075): a
 * record standing high beside most code files of the repository gives way to one this file
 * alone brings up. Hits are as found when the tree has too few code files to tell.
 */
async function placeRanking(found: KeywordHit[], ctx: LaneContext): Promise<KeywordHit[]> {
  if (found.length < 2) return found;
  const { placeBackgroundOf, aboveBackground } = await import('./place-background.js');
  const bg = await placeBackgroundOf(ctx.snapshot, ctx.set.artifacts, ctx.set.key).catch(() => undefined);
  return bg ? aboveBackground(found, bg) : found;
}

/** Slot 2: BM25 over the records, the query being the text or the code at the place. */
export const keywordsLane: RetrievalLane = {
  name: 'keywords',
  async run(q, ctx) {
    const terms = q.kind === 'place' ? await placeTerms(q, ctx) : queryOf(q.text);
    const found = searchRecords(ctx.snapshot.root, ctx.set.artifacts, terms, ctx.pool, ctx.set.key, q.kind === 'place' ? { place: true } : { joined: true });
    // for a place, ranked by what each record says of this code beyond what it says of any code here
    const ranked = q.kind === 'place' ? await placeRanking(found, ctx) : found;
    mark('keywords: searched');
    // matched terms are stems: shown as the words of the question or the code they came from
    const forms = q.kind === 'place' ? surfaceForms(q.path, surfaceForms(await q.code())) : surfaceForms(q.text);
    const unconfirmed = new Map<string, number>();
    const evidence = await evidenceOf(q, ctx, terms, forms, found, unconfirmed);
    return ranked.map((h) => {
      // a term the record writes only inside a name ("WattTime") is shown as that name; a
      // search reads the title and summary only (a body read would leave the kept search set)
      const rec = ctx.set.byId.get(h.id);
      // as does one the question writes as a name ("GraphQL" is shown, not "graph, ql")
      const asked = q.kind === 'text' ? camelNamesIn(q.text, h.matched) : undefined;
      const named = camelNamesIn(rec ? `${rec.title}\n${q.kind === 'place' ? rec.body : (rec.summary ?? '')}` : '', h.matched);
      const names = asked?.size ? new Map([...asked, ...named]) : named;
      // `terms` are what matched (the judge of near-duplicate drafts weighs them); the text
      // names the words worth reading, and a match on nothing else still says what it matched
      const matched = [...new Set(h.matched.slice(0, 12).map((t) => forms.get(t) ?? t))];
      // a place's compound names ("create-upgrade-issues") are shown whole only where the record writes them
      let lower: string | undefined;
      const formOf = (t: string): string | undefined => {
        const f = forms.get(t);
        if (f === undefined || q.kind !== 'place' || !rec || !f.includes('-')) return f;
        return formInRecord(t, f, (lower ??= `${rec.title}\n${rec.body}`.toLowerCase()));
      };
      const readable = shownWords(h.matched.map((t) => names.get(t) ?? formOf(t) ?? t));
      const words = readable.length ? readable : matched;
      const alone = unconfirmed.get(h.id);
      return { ref: artifact(h.id), score: h.score, evidence: evidence.get(h.id) ?? 0, ...(alone === undefined ? {} : { unconfirmed: alone }), why: [{ kind: 'keywords', text: `matches ${words.slice(0, 6).join(', ')}`, terms: matched } satisfies Why] };
    });
  },
};

/** Records whose text names the place (approximate evidence, fused). */
export const mentionsLane: RetrievalLane = {
  name: 'mentions',
  async run(q, ctx) {
    const place = q.kind === 'place' ? { path: q.path, symbol: q.symbol } : q.place && { path: q.place.path, symbol: q.place.symbol };
    if (!place) return [];
    // a record that names the file is direct evidence: its strength is its evidence; so is
    // one naming the type the file is named after, for a place (DEC-091)
    const signals = mentionSignals(ctx.set, place.path, place.symbol);
    if (q.kind === 'place') for (const [id, s] of typeNameSignals(ctx.set, place.path)) if (s.score > (signals.get(id)?.score ?? 0)) signals.set(id, s);
    // and one whose title writes, as code, a name the file declares or is named after (DEC-116)
    if (q.kind === 'place') {
      const { codeTitleSignals } = await import('./code-title.js');
      for (const [id, s] of codeTitleSignals(ctx.set, place.path, await q.code())) if (s.score > (signals.get(id)?.score ?? 0)) signals.set(id, s);
    }
    // and one whose title names a library the file imports (DEC-111)
    if (q.kind === 'place') {
      const [{ importTitleSignals, codePathWords }, { codeWordsOf }] = await Promise.all([import('./imported-title.js'), import('./code-words.js')]);
      const cw = await codeWordsOf(ctx.snapshot).catch(() => undefined);
      const own = async () => codePathWords(await ctx.snapshot.list());
      for (const [id, s] of await importTitleSignals(ctx.set, await q.code(), cw, own)) if (s.score > (signals.get(id)?.score ?? 0)) signals.set(id, s);
    }
    // and one naming the path the file had before it moved (DEC-095)
    if (q.kind === 'place') {
      const tree = {
        exists: async (p: string) => (await ctx.snapshot.blobOf(p).catch(() => undefined)) !== undefined,
        sameName: async (name: string) => (await ctx.snapshot.list()).filter((e) => e.path === name || e.path.endsWith(`/${name}`)).map((e) => e.path),
      };
      for (const [id, s] of await movedFileSignals(ctx.set, place.path, tree)) if (s.score > (signals.get(id)?.score ?? 0)) signals.set(id, s);
    }
    return [...signals].map(([id, s]) => ({ ref: artifact(id), score: s.score, evidence: s.score, why: [s.why] }));
  },
};

/** Records about code in directories near the place (only adds to what another lane found). */
export const nearnessLane: RetrievalLane = {
  name: 'nearness',
  async run(q, ctx) {
    if (q.kind !== 'place') return [];
    return [...nearnessSignals(ctx.set, q.path)].map(([id, s]) => ({ ref: artifact(id), score: s.score, why: [s.why] }));
  },
};

/** Slot 5: similarity in meaning, through the configured embedder. */
export const semanticLane: RetrievalLane = {
  name: 'semantic',
  async run(q, ctx) {
    if (!ctx.semantic) return [];
    let text: string;
    if (q.kind === 'place') {
      const { extractPlaceTerms } = await import('./extract.js');
      const t = extractPlaceTerms(await q.code(), q.path);
      text = [...t.path, ...t.comments, ...t.identifiers].join(' ');
    } else text = q.text;
    const hits = await ctx.semantic.similar(text, ctx.set.artifacts.map((a) => a.id), ctx.pool);
    return hits.map((s) => ({ ref: artifact(s.id), score: s.score, why: [{ kind: 'semantic', text: `similar in meaning (${round(s.score)}, ${ctx.semantic!.embedder ?? ctx.semantic!.name})`, ...(ctx.semantic!.embedder ? { embedder: ctx.semantic!.embedder } : {}) } satisfies Why] }));
  },
};

/** The built-in lanes by name. */
export const BUILTIN_LANES: Record<ReplaceableLane, RetrievalLane> = {
  declared: declaredLane,
  keywords: keywordsLane,
  mentions: mentionsLane,
  nearness: nearnessLane,
  semantic: semanticLane,
};
