// @spec SPEC-RETRIEVE-001

import type { ChangedFile } from '../git/diff.js';
import { retrieveForText } from './engine.js';
import { isRetired } from '../artifacts/in-force.js';
import { aboveFloor, RELEVANCE_FLOOR } from './floor.js';
import { LANE_NAMES } from './types.js';
import { changeQuery, type ChangeQuery, type ChangeQueryInput } from './change-query.js';
import { searchRecords } from './keyword-cache.js';
import { mentionSignals, titleTerms } from './signals.js';
import { camelNamesIn, surfaceForms, terms } from './text.js';
import type { LaneReport, LaneName, RetrievalLane, RetrieveOptions, Why } from './types.js';

/*
 * Retrieval for a change (issue 31): the query is the change itself — its hunks' added and
 * removed lines and the symbols they sit in, its paths, its title and body — asked once for
 * the whole change through the engine `search` uses (keywords fused with the semantic lane),
 * so each record is found once, with the files and lines that brought it in.
 */

export type { ChangeQueryInput };

export interface ChangeRetrieveOptions extends Omit<RetrieveOptions, 'lanes' | 'caps'> {
  change: ChangeQueryInput;
  /** records returned at most (default 5) */
  max?: number;
  /** ids never returned nor counted: the records the change itself adds (a pull request's new record is written about it) */
  exclude?: ReadonlySet<string>;
}

/** Where in the change a record's words were found: a file and its changed line ranges (head lines; base lines for a deletion). */
export interface ChangePlace {
  path: string;
  lines: [number, number][];
}

/** A record retrieval finds for a change, above the floor. */
export interface ChangeRecord {
  id: string;
  type: string;
  title: string;
  status: string | null;
  file: string;
  /** relevance to the change on the change's own measure: 1 is the floor, more is stronger */
  strength: number;
  /** the same on the calibrated scale every retrieval shares (DEC-057, DEC-068): `strength × RELEVANCE_FLOOR`, at most 1 */
  relevance: number;
  /** one line: why it was found */
  why: string;
  /** the evidence, lane by lane */
  evidence: Why[];
  /** the changed files (and their line ranges) whose words or paths brought it in */
  places: ChangePlace[];
  /** the title or body named it or shares its words */
  fromText: boolean;
  inactive?: boolean;
}

export interface ChangeRetrieval {
  query: { kind: 'change'; files: number; read: string[]; skipped: { path: string; reason: string }[]; terms: number };
  results: ChangeRecord[];
  /** records the engine found that stayed under the floor */
  belowFloor: number;
  slots: Record<LaneName, LaneReport>;
}

/**
 * The floor, on the absolute scale of `strength`: a record's BM25 score over the change's
 * weighted terms divided by FLOOR_SCORE, raised by how far it stands out from the records
 * ranked after it and by a record naming a changed file. Calibrated on the PR development
 * sets (bench/pr-quality.mjs, DEC-059): a dependency bump or an unrelated fix reaches it
 * rarely, the record a reviewer should see mostly does.
 */
const FLOOR_SCORE = 0.45;
/** A record no better than those after it keeps this share of its score; one far above them up to 1 + this. */
const STANDOUT_BASE = 0.5;
/** A record the description names by id gains this much strength: above the floor whatever its words. */
const NAMED_STRENGTH = 2;
/**
 * Once the strongest record reaches the floor, the change is about some decision: the records
 * after it need only this share of the floor (the weak band just under it). A change whose
 * best record stays under the floor shows none (DEC-059). Judging them instead by their
 * standing beside the strongest, as the engine judges fused results, found one more right
 * record on the PR sets but let in records sharing a single word with a strong change
 * (DEC-068).
 */
const FOLLOW_SHARE = 0.8;
/**
 * A change's strength on the calibrated scale (DEC-068): strength 1, the change's floor as
 * DEC-059 set it on the PR development sets, is RELEVANCE_FLOOR, so one floor (`aboveFloor`)
 * and one number (`relevance`) serve `for`, `search` and the change alike, as places' evidence
 * is scaled onto the questions' (PLACE_EVIDENCE_SCALE).
 */
const onScale = (strength: number): number => Math.min(1, strength * RELEVANCE_FLOOR);
export const changeRelevance = (strength: number): number => Math.round(onScale(strength) * 1000) / 1000;
/** Records whose text names a changed file gain this much strength (1 for the exact file). */
const MENTION_STRENGTH = 0.6;
/** The least query weight a score is divided by: a query of one or two words cannot make its match strong by being short. */
const MIN_QUERY_WEIGHT = 20;
/** Records scored by the engine, before the floor. */
const POOL = 12;
/**
 * A record found by the change's words alone shares at least this many distinct words with it:
 * one word in common ("code" in a title, "types" in a path) is chance, however rare the word
 * among the records; a record named by the description or naming a changed file needs none
 * (DEC-080).
 */
const MIN_SHARED_TERMS = 2;

/**
 * A record whose own title the change's title says gains up to this much strength (DEC-097): the
 * share of the record title's words, each weighed by how rare it is among the records' titles,
 * that the change's title has. "Delete AMP components" says all of the record "AMP"; the words
 * of a long change outnumber a short record's, and a record sharing more common words with the
 * diff would rank above it. @decision DEC-097
 */
const TITLE_STRENGTH = 0.5;

/** Per record, the share of its title's words (weighed by their rarity among titles) that `title` has. */
function titleCover(set: ChangeRetrieveOptions['set'], title: string): Map<string, number> {
  const out = new Map<string, number>();
  const asked = new Set(terms(title));
  if (!asked.size) return out;
  const titles = new Map(set.artifacts.map((a) => [a.id, new Set(titleTerms(set, a.id))]));
  const df = new Map<string, number>();
  for (const ts of titles.values()) for (const t of ts) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t: string) => Math.log(1 + titles.size / (df.get(t) ?? 1));
  for (const [id, ts] of titles) {
    let all = 0;
    let said = 0;
    for (const t of ts) {
      all += idf(t);
      if (asked.has(t)) said += idf(t);
    }
    if (said > 0) out.set(id, said / all);
  }
  return out;
}

/** Words of a dependency bump's title that say only that something was bumped. */
const BUMP_WORDS = new Set(terms('bump bumps update updates upgrade dependency dependencies deps dep version versions chore build group directory across from to pin unpin remove add packages package lock lockfile'));

/**
 * A dependency bump's records: those whose own title names what was bumped, or a rare word of
 * the bump's title (a record preferring that library). Its lines are only versions and its
 * description says "bump": words that would match every record about dependencies.
 */
function bumpRecords(set: ChangeRetrieveOptions['set'], bumped: readonly string[], title: string): { id: string; shared: string[] }[] {
  const records = set.artifacts.filter((a) => a.origin === 'repo' || a.origin === undefined);
  // each title's terms as the other title signals read them (signals.ts, cached per set); their frequency among this repository's own records
  const titled = new Map(records.map((a) => [a.id, new Set(titleTerms(set, a.id))]));
  const df = new Map<string, number>();
  for (const ts of titled.values()) for (const t of ts) df.set(t, (df.get(t) ?? 0) + 1);
  const rare = Math.max(2, Math.ceil(records.length / 10));
  const asked = new Set([...bumped, ...terms(title)].filter((t) => !BUMP_WORDS.has(t) && !/^v?\d/.test(t)));
  const out: { id: string; shared: string[] }[] = [];
  for (const [id, ts] of titled) {
    const shared = [...asked].filter((t) => ts.has(t) && (df.get(t) ?? 0) <= rare);
    if (shared.length) out.push({ id, shared });
  }
  return out;
}

/** Record ids the title or body names (`ADR-12`, `ADR#0012`, `DEC-031`), as the set spells them. */
function namedIds(text: string, ids: Iterable<string>): Set<string> {
  const byKey = new Map<string, string>();
  const exact = new Map<string, string>();
  for (const id of ids) {
    if (id.length >= 3 && /[-_]/.test(id)) exact.set(id.toLowerCase(), id);
    const m = /^([A-Za-z][A-Za-z0-9]*(?:-[A-Za-z][A-Za-z0-9]*)*)[-_#]?0*(\d+)$/.exec(id);
    if (m) byKey.set(`${m[1]!.toLowerCase()}:${m[2]}`, id);
  }
  const out = new Set<string>();
  // an id as written (DEC-IDEM, ADR-0012), then a numbered id however it is spelled (ADR#12, adr 12)
  for (const w of text.split(/[^\w./-]+/)) {
    const id = exact.get(w.replace(/[./-]+$/, '').toLowerCase());
    if (id) out.add(id);
  }
  for (const m of text.matchAll(/\b([A-Za-z][A-Za-z0-9]*(?:-[A-Za-z][A-Za-z0-9]*)*)[ \-_#]?0*(\d{1,5})\b/g)) {
    const id = byKey.get(`${m[1]!.toLowerCase()}:${m[2]}`);
    if (id) out.add(id);
  }
  return out;
}

/**
 * A mention said about the record itself: "its text mentions src/db (line 15)" rather than the
 * place lane's "mentions src/db (docs/adr/0003-….md:15)", whose file is the record being listed.
 */
function ownMention(m: { why: Why; mention?: { target: string; line: number } }): string {
  return m.mention ? `its text mentions ${m.mention.target} (line ${m.mention.line})` : m.why.text;
}

/** Consecutive line numbers as ranges: 3, 4, 5, 9 → [3, 5], [9, 9]. */
function ranges(lines: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const n of [...new Set(lines)].sort((a, b) => a - b)) {
    const last = out[out.length - 1];
    if (last && n <= last[1] + 1) last[1] = n;
    else out.push([n, n]);
  }
  return out;
}

/**
 * The changed files that brought a record in, strongest first: those whose terms carry the
 * most of the record's leading matched terms (a word every file shares brings in none by
 * itself), each with the changed lines holding them (head lines; base lines for a deletion).
 */
function placesOf(files: ReadonlyMap<string, ChangedFile>, byFile: ChangeQuery['byFile'], weights: ChangeQuery['terms'], matched: readonly string[]): ChangePlace[] {
  const lead = matched.slice(0, 8);
  const scored: { f: ChangedFile; score: number; hits: Set<string> }[] = [];
  for (const [path, ts] of byFile) {
    const hits = new Set(lead.filter((t) => ts.has(t)));
    let score = 0;
    for (const t of hits) score += weights.get(t) ?? 0;
    if (score > 0) scored.push({ f: files.get(path)!, score, hits });
  }
  scored.sort((a, b) => b.score - a.score || (a.f.path < b.f.path ? -1 : 1));
  const best = scored[0]?.score ?? 0;
  return scored
    .filter((x) => x.score >= best / 2)
    .slice(0, 10)
    .map(({ f, hits }) => {
      const text = f.text;
      const at: number[] = [];
      if (text) {
        const side = f.status === 'deleted' ? { lines: text.removed, at: text.removedAt } : { lines: text.added, at: text.addedAt };
        side.lines.forEach((l, i) => {
          if (terms(l).some((t) => hits.has(t))) at.push(side.at[i]!);
        });
      }
      return { path: f.path, lines: ranges(at).slice(0, 10) };
    });
}

/**
 * What a change asks for: records above the floor, strongest first, each once. Declared
 * governance (anchors, annotations, `paths`) is the caller's: this is the retrieved band.
 * Reads only the change and the records; an empty answer is an answer.
 */
export async function retrieveForChange(opts: ChangeRetrieveOptions): Promise<ChangeRetrieval> {
  const { snapshot, set, change } = opts;
  const { codeWordsOf } = await import('./code-words.js');
  const cw = await codeWordsOf(snapshot).catch(() => undefined);
  const q: ChangeQuery = changeQuery({ ...change, recordDirs: change.recordDirs ?? [set.config.dir, ...set.config.sources.map((s) => s.dir)] }, cw);
  const excluded = opts.exclude ?? new Set<string>();
  const named = namedIds(`${change.title ?? ''}\n${change.body ?? ''}`, [...set.byId.keys()].filter((id) => !excluded.has(id)));
  const query: ChangeRetrieval['query'] = { kind: 'change', files: change.files.length, read: [...q.byFile.keys()], skipped: q.skipped, terms: q.terms.size };
  // nothing that can be governed was read (lockfiles, CI settings, generated files only), or
  // only versions changed: no retrieval over words, only what names the change's subject
  if (!q.byFile.size || q.versionsOnly) {
    const hits = new Map<string, { strength: number; why: string }>();
    // the shared words as the record's title spells them, not as stems ("workspaces", not "workspac")
    const spelt = (id: string, ts: readonly string[]) => {
      const forms = surfaceForms(set.byId.get(id)?.title ?? '');
      return [...new Set(ts.map((t) => forms.get(t) ?? t))];
    };
    if (q.versionsOnly) for (const b of bumpRecords(set, q.bumped, change.title ?? '')) hits.set(b.id, { strength: 1 + 0.5 * (b.shared.length - 1), why: `its title names ${spelt(b.id, b.shared).join(', ')}, which this change bumps` });
    for (const id of named) hits.set(id, { strength: NAMED_STRENGTH + (hits.get(id)?.strength ?? 0), why: `the description names ${id}` });
    const results: ChangeRecord[] = [];
    for (const [id, h] of [...hits].sort((a, b) => b[1].strength - a[1].strength || (a[0] < b[0] ? -1 : 1))) {
      const a = set.byId.get(id);
      if (!a || excluded.has(id) || (!opts.filters?.all && isRetired(a, set.config))) continue;
      const places = [...q.byFile.keys()].map((path) => ({ path, lines: [] as [number, number][] }));
      results.push({ id, type: a.type, title: a.title, status: a.status ?? null, file: a.file, strength: h.strength, relevance: changeRelevance(h.strength), why: h.why, evidence: [], places, fromText: named.has(id) });
    }
    return { query, results: results.slice(0, opts.max ?? 5), belowFloor: 0, slots: r0Slots() };
  }
  const raw = new Map<string, { score: number; matched: string[] }>();
  const forms = surfaceForms([change.title ?? '', change.body ?? '', ...change.files.flatMap((f) => [f.path, ...(f.text?.added ?? []).slice(0, 200), ...(f.text?.removed ?? []).slice(0, 200)])].join('\n'));
  const keywords: RetrievalLane = {
    name: 'keywords',
    run: async () => {
      const found = searchRecords(snapshot.root, set.artifacts, q.terms, 50, set.key);
      for (const h of found) raw.set(h.id, { score: h.score, matched: h.matched });
      return found.map((h) => {
        const words = h.matched.slice(0, 12).map((t) => forms.get(t) ?? t);
        return { ref: { kind: 'artifact' as const, id: h.id }, score: h.score, why: [{ kind: 'keywords', text: `the change says ${words.slice(0, 6).join(', ')}`, terms: words } satisfies Why] };
      });
    },
  };
  const none: RetrievalLane = { name: 'declared', run: async () => [] };
  const noMentions: RetrievalLane = { name: 'mentions', run: async () => [] };
  const r = await retrieveForText({ ...opts, text: q.prose || ' ', lanes: { keywords, declared: none, mentions: noMentions }, caps: { declared: 0, fused: POOL, links: 0 }, staleness: false });

  // records whose text names a changed file: evidence beside the words
  const mentions = new Map<string, { score: number; why: Why; mention?: { target: string; line: number }; path: string }>();
  for (const f of change.files) {
    for (const [id, s] of mentionSignals(set, f.path)) if (s.score > (mentions.get(id)?.score ?? 0)) mentions.set(id, { score: s.score, why: s.why, ...(s.mention ? { mention: s.mention } : {}), path: f.path });
  }
  const enough = (id: string) => named.has(id) || mentions.has(id) || (raw.get(id)?.matched.length ?? 0) >= MIN_SHARED_TERMS;
  // the whole fused band, the engine's weak matches included (DEC-057's floor is calibrated on
  // questions and places; a change is judged on its own scale below), best first as fused
  const ranked = [...r.results, ...(r.weak ?? [])].filter((x) => x.slot === 'fused' && !excluded.has(x.id)).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  const scores = ranked.map((x) => raw.get(x.id)?.score ?? 0);
  // the scale of the score: the query's own weight (a long change matches more of any record)
  let wsum = 0;
  for (const w of q.terms.values()) wsum += w;
  const cover = titleCover(set, change.title ?? '');
  const strengthOf = (i: number): number => {
    const x = ranked[i]!;
    // standing out: a record well above those after it is what the change is about
    const after = scores.slice(i + 1, i + 6);
    const rest = after.length ? after.reduce((a, b) => a + b, 0) / after.length : 0;
    const standOut = scores[i]! > 0 ? Math.max(0, (scores[i]! - rest) / scores[i]!) : 0;
    let s = (scores[i]! / Math.max(wsum, MIN_QUERY_WEIGHT) / FLOOR_SCORE) * (STANDOUT_BASE + standOut);
    s += MENTION_STRENGTH * (mentions.get(x.id)?.score ?? 0);
    if (named.has(x.id)) s += NAMED_STRENGTH;
    s += TITLE_STRENGTH * (cover.get(x.id) ?? 0);
    return Math.round(s * 1000) / 1000;
  };
  const byId = new Map(change.files.map((f) => [f.path, f]));
  const out: ChangeRecord[] = ranked.map((x, i) => {
    const m = raw.get(x.id);
    const matched = m?.matched ?? [];
    const places = placesOf(byId, q.byFile, q.terms, matched);
    const men = mentions.get(x.id);
    if (men && !places.some((p) => p.path === men.path)) places.push({ path: men.path, lines: [] });
    const evidence = [...x.why, ...(men ? [men.why] : [])];
    const fromText = named.has(x.id) || matched.some((t) => q.text.has(t));
    // two stems may read as one word (docker-compose, dockercompose): each said once
    // a term the record writes only inside a name ("WattTime") is shown as that name
    // and every word as the record writes it (DEC-053/069): "JSON", not the change's "csl-json"
    const rec = set.byId.get(x.id);
    const recText = rec ? `${rec.title}\n${rec.body}` : '';
    const names = camelNamesIn(recText, matched.slice(0, 6));
    const recForms = surfaceForms(recText);
    const words = [...new Set(matched.slice(0, 6).map((t) => names.get(t) ?? recForms.get(t) ?? forms.get(t) ?? t))].slice(0, 4);
    // said to a reviewer: the words the record and the change have in common, and whether the description has them too
    const with_ = `with this change${fromText ? ' and its description' : ''}`;
    const why = named.has(x.id) ? `the description names ${x.id}` : men ? `${ownMention(men)}${words.length ? `; shares the words ${words.join(', ')} ${with_}` : ''}` : `shares the words ${words.join(', ')} ${with_}`;
    const strength = strengthOf(i);
    return { id: x.id, type: x.type, title: x.title, status: x.status, file: x.file, strength, relevance: changeRelevance(strength), why, evidence, places, fromText, ...(x.inactive ? { inactive: true } : {}) };
  });
  // a record the engine ranked low but the description names, or that names a changed file, still counts
  out.sort((a, b) => b.strength - a.strength || (a.id < b.id ? -1 : 1));
  // one word in common is chance: such a record keeps its place in the others' standing, never a place in the answer
  const candidates = out.filter((x) => enough(x.id));
  // one scale (DEC-068): the strongest record must reach the floor, those after it FOLLOW_SHARE of it
  const best = candidates[0];
  const kept = best && aboveFloor(onScale(best.strength)) ? candidates.filter((x) => aboveFloor(onScale(x.strength) / FOLLOW_SHARE)).slice(0, opts.max ?? 5) : [];
  return {
    query,
    results: kept,
    belowFloor: out.length - kept.length,
    slots: r.slots,
  };
}

/** Lane reports of an answer the engine was not asked for (nothing in the change to search with). */
function r0Slots(): Record<LaneName, LaneReport> {
  const r = {} as Record<LaneName, LaneReport>;
  for (const n of LANE_NAMES) r[n] = { status: 'skipped', count: 0, ms: 0, message: 'the change has nothing to search with (only versions, or only files no record can govern)' };
  return r;
}
