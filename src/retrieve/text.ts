// @spec SPEC-RETRIEVE-001

import { joinPhrasal } from './phrasal.js';

/**
 * Terms as retrieval compares them: identifiers split on camelCase, snake_case, kebab-case
 * and dots, lower-cased, stop words dropped, lightly stemmed. Records and code go through
 * the same function, so `rateLimitWebhook` in code meets "rate limiting webhooks" in prose.
 */

/** Words of English that say nothing of a subject. */
const ENGLISH_STOP = (
  'a an and are as at be been but by can could did do does doing done for from had has have how i if in into is it its ' +
  'may me might must my no not of on or our shall should so some such than that the their them then there these they this ' +
  'those to too us was we were what when where which while who why will with would you your'
).split(' ');

const STOP = new Set([
  ...ENGLISH_STOP,
  // code noise: keywords and boilerplate shared by every file
  ...(
    'const let var function return import export default class new this null undefined true false void async await ' +
    'public private protected static readonly interface type enum extends implements typeof instanceof ' +
    'def self none elif else try except finally raise pass lambda yield func package go nil err string int bool ' +
    'any unknown number object boolean require module exports use js ts tsx jsx mjs cjs py ' +
    'args arg param params opts e x y i j k n s t'
  ).split(' '),
]);

const ENGLISH = new Set(ENGLISH_STOP);
/** Whether a word (lower case) is an English stop word; the code's keywords (`static`, `type`, `interface`) are words of prose. */
export const isEnglishStopWord = (w: string): boolean => ENGLISH.has(w);

/**
 * What is left of a contraction once the apostrophe splits it ("don't" → don, "we'll" → ll):
 * no word of the subject, so no term of a question, a record or code, and never a word `why`
 * shows as matched. A record still wrote the word: it counts in the record's length
 * (`contractionCount`), as it did when it was a term. "re" ("we're") stays a term: it is
 * mostly the prefix of "re-render", "re-use" in technical prose; `why` does not show it.
 */
const CONTRACTIONS = new Set('don doesn didn isn aren wasn weren haven hasn hadn won wouldn shouldn couldn mustn needn shan ain ll ve'.split(' '));
for (const w of CONTRACTIONS) STOP.add(w);

/** How many contraction fragments a text writes (a record's length: see CONTRACTIONS). */
export function contractionCount(text: string): number {
  if (!/['\u2019]/.test(text)) return 0;
  let n = 0;
  for (const w of splitWords(text)) if (CONTRACTIONS.has(w)) n++;
  return n;
}

/**
 * What separates words: anything but a letter, a mark or a digit of any script. A record in
 * French or German keeps its words whole ("g\u00e9ocodage", "Stra\u00dfe"): split at ASCII only,
 * they fell apart ("g", "ocodage") and matched no question (MTES-MCT/dialog trial). @decision DEC-104
 */
export const WORD_BREAK = /[^\p{L}\p{M}\p{N}]+/u;
/** The ASCII word breaks the word table of the semantic slot was built with. */
export const ASCII_WORD_BREAK = /[^A-Za-z0-9]+/;

/** Split an identifier or phrase into lower-case words: `parseHTTPRequest_v2` → parse, http, request, v2. */
export function splitWords(text: string, breaks: RegExp = WORD_BREAK): string[] {
  const out: string[] = [];
  for (const raw of text.split(breaks)) {
    if (!raw) continue;
    // most words have no capital to split at: kept as they are (the same result, without the replaces)
    if (!/[A-Z]/.test(raw)) {
      out.push(raw);
      continue;
    }
    const parts = raw
      // names that are one word though written in mixed case (DEC-093): a plural acronym ("APIs",
      // "ADRs", "URLs" → api, adr, url; not "ap", "ad rs"), a lower-case letter before an acronym
      // ("gRPC", "iOS", "eBPF" → grpc, ios, ebpf; not a one-letter word dropped), an acronym with a
      // version ("IPv6" → ipv6, not "pv6")
      .replace(/([A-Z]{2,})s(?=$|[A-Z0-9])/g, '$1 ')
      .replace(/(^|[^A-Za-z])([a-z])([A-Z]{2,})(?![a-z])/g, (_m, pre: string, a: string, b: string) => `${pre}${a}${b.toLowerCase()} `)
      .replace(/([A-Z]+)([a-z]\d+)/g, (_m, a: string, b: string) => ` ${a.toLowerCase()}${b} `)
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .split(' ');
    for (const p of parts) if (p) out.push(p.toLowerCase());
  }
  return out;
}

/**
 * Stems already computed: code repeats its words (a cold run reads up to 1,500 files for the
 * code's word shares, DEC-055), and the suffix rules below cost more than a lookup. Bounded:
 * cleared when full, so a long-lived MCP server does not grow with every word it ever met.
 */
const STEMS = new Map<string, string>();
const STEMS_MAX = 100_000;

/** Light suffix stripping (plural, -ing, -ed, -ation…): enough to meet "limits"/"limiting"/"limited". */
export function stem(w: string): string {
  if (w.length <= 3) return w;
  const known = STEMS.get(w);
  if (known !== undefined) return known;
  if (STEMS.size >= STEMS_MAX) STEMS.clear();
  const out = stemOf(w);
  STEMS.set(w, out);
  return out;
}

const RULES: [RegExp, string][] = [
  [/ies$/, 'y'],
  // retried, applied, queried meet retry, apply, query (as retries and retrying do)
  [/(..)ied$/, '$1y'],
  [/(ss)es$/, '$1'],
  [/([^s])s$/, '$1'],
];
const ENDS: [string, number][] = [
  ['ational', 5],
  // serialization, serialize and serialized share serializ
  ['ation', 4],
  // validator, generator, creator meet validate, generate, create (ateVerb)
  ['ator', 4],
  ['ness', 4],
  ['ment', 4],
  ['ing', 4],
  ['ed', 4],
  ['ly', 4],
];

function stemOf(w: string): string {
  if (/^\d/.test(w)) return w;
  for (const [re, rep] of RULES) if (re.test(w)) {
    w = w.replace(re, rep);
    break;
  }
  let took = '';
  for (const [suf, min] of ENDS) {
    if (w.endsWith(suf) && w.length - suf.length >= min - 1 && w.length - suf.length >= 3) {
      w = w.slice(0, -suf.length);
      took = suf;
      // verification, classification, notification meet verify, classify, notify
      if (suf === 'ation' && w.endsWith('ific')) w = `${w.slice(0, -4)}ify`;
      // limitt → limit, stopp → stop
      if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) {
        w = w.slice(0, -1);
        took = '';
      }
      break;
    }
  }
  w = ateVerb(w, took);
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  return britishToAmerican(w);
}

/**
 * A verb in -ate meets its noun in -ation and its agent in -ator: validate, validated,
 * validating, validation and validator share `valid`; authenticate meets authentication,
 * migrate migration, paginate pagination (trials29: "how do we authenticate" missed the
 * "Authentication" record). `took` is the suffix already taken off: after -ed or -ing
 * ("validat"), the `-at` left is the verb's, unless the verb ends in -at itself: after an o
 * (float, boat) or an e (treat, repeat; create aside). A doubled consonant (formatted) was
 * never an -ate verb. @decision DEC-115
 */
function ateVerb(w: string, took: string): string {
  if (w.endsWith('ate') && w.length >= 6) w = w.slice(0, -3);
  else if ((took === 'ed' || took === 'ing') && w.endsWith('at') && w.length >= 5 && w[w.length - 3] !== 'o' && (w[w.length - 3] !== 'e' || w.endsWith('creat'))) w = w.slice(0, -2);
  else return w;
  // certificate meets certify and certification (-ific, as above)
  return w.endsWith('ific') ? `${w.slice(0, -4)}ify` : w;
}

/**
 * Stems whose British and American spellings differ meet (initialisation, initialize; licence,
 * license; modelling, modeling; behaviour, behavior), so a team's spelling and a question's
 * need not agree. `-is` becomes `-iz` after a stem of four letters or more that is not one of
 * the words spelt `-ise` on both sides of the Atlantic (promise, expertise, enterprise).
 */
const ISE_ON_BOTH = new Set(
  ('advert appr chast circumc clockw compr comprom conc desp disgu enterpr exerc expert franch improv likew merchand ' +
    'mort otherw parad porpo prec prem prom repr sunr superv surm surpr telev torto treat turquo').split(' '),
);
const SPELT = new Map(
  ('behaviour:behavior colour:color favour:favor honour:honor labour:labor neighbour:neighbor flavour:flavor ' +
    'centr:center catalogu:catalog dialogu:dialog artefact:artifact licenc:licens defenc:defens offenc:offens grey:gray ' +
    'analys:analyz paralys:paralyz catalys:catalyz').split(' ').map((p) => p.split(':') as [string, string]),
);

// @decision DEC-115
function britishToAmerican(w: string): string {
  const spelt = SPELT.get(w);
  if (spelt) return spelt;
  const m = /^(.{4,}?)is(er)?$/.exec(w);
  if (m && !ISE_ON_BOTH.has(m[1]!)) return `${m[1]}iz${m[2] ?? ''}`;
  // modelling, labelled, cancelled (a suffix taken off, a doubled l left): model, label, cancel
  if (w.length >= 6 && w.endsWith('ell')) return w.slice(0, -1);
  return w;
}

/** Terms of a text, in order, repeats kept (term frequency matters). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const w of joinPhrasal(splitWords(text))) {
    if (w.length < 2 || STOP.has(w) || w.length > 40) continue;
    out.push(stem(w));
  }
  return out;
}

/**
 * Names written in parts, run together (`WattTime` → watttime, `parseHTTPRequest` →
 * parsehttprequest): a name split at its capitals is also found by its words joined, as people
 * type it into a search. A record is indexed under these too (bm25.ts), apart from its words
 * and without their counting in its length: a search reads them as the word, nothing else does.
 */
export function joinedTerms(text: string, opts: { pairs?: boolean } = {}): string[] {
  const out: string[] = [];
  for (const raw of text.split(WORD_BREAK)) {
    // a word with no capital, or all capitals ("HTTP"), is one word already
    if (!/[A-Z]/.test(raw) || !/[a-z]/.test(raw)) continue;
    const t = joinedTerm(splitWords(raw));
    if (t !== undefined) out.push(t);
  }
  // a compound written with a hyphen is the word people type run together ("front-end", "e-mail", "on-call")
  for (const m of text.matchAll(HYPHENATED)) {
    const t = joinedTerm(m[0].toLowerCase().split('-'));
    if (t !== undefined) out.push(t);
  }
  // a title's words side by side are a compound written apart too ("Front End Technologies" → frontend)
  if (opts.pairs) {
    // words written apart, each of letters alone (a hyphenated compound is joined above)
    // and within one clause: no pair across a comma, a colon or a closing bracket
    const words = text.split(/\s+/);
    for (let i = 0; i + 1 < words.length; i++) {
      const a = words[i]!.replace(/^[("'`[]+/u, '');
      const b = words[i + 1]!.replace(/[)"'`\].,;:!?]+$/u, '');
      if (!/^\p{L}{2,}$/u.test(a) || !/^\p{L}{2,}$/u.test(b)) continue;
      const t = joinedTerm([a.toLowerCase(), b.toLowerCase()]);
      if (t !== undefined) out.push(t);
    }
  }
  return out;
}

// @decision DEC-114
/** A hyphenated compound of two or three words of letters ("front-end", "read-only", "e-mail"). */
const HYPHENATED = /(?<![\p{L}\p{N}-])\p{L}+(?:-\p{L}+){1,2}(?![\p{L}\p{N}-])/gu;

/** The term of a name's words run together; undefined for one word, a stop word or a run too long to be a name. */
function joinedTerm(words: readonly string[]): string | undefined {
  if (words.length < 2) return undefined;
  const w = words.join('');
  return w.length > 40 || STOP.has(w) ? undefined : stem(w);
}

/** A word written as part of a hyphenated compound ("well-formed", "round-half-even"). */
const COMPOUND = /^\p{L}+(?:-\p{L}+){1,3}$/u;

/**
 * Each term of a text → the word as written there (its first occurrence, lower-cased as
 * terms are), so an explanation shows "referencing", not the stem "referenc" (DEC-053); a
 * word of a hyphenated compound is shown as the compound, not a fragment ("well-formed",
 * not "formed": DEC-069).
 */
export function surfaceForms(text: string, into: Map<string, string> = new Map()): Map<string, string> {
  for (const token of text.split(/[^\p{L}\p{M}\p{N}-]+/u)) {
    const compound = COMPOUND.test(token) ? token.toLowerCase() : undefined;
    for (const w of splitWords(token)) {
      if (w.length < 2 || STOP.has(w) || w.length > 40) continue;
      const t = stem(w);
      if (!into.has(t)) into.set(t, compound ?? w);
    }
  }
  return into;
}

/**
 * The form to show for a matched term when the record reads `text` (lower-cased): a compound
 * the code or its path wrote ("infra-stack-dns-zones") stands for the term only where the
 * record writes that compound too; else its word the term came from ("dns"), which the record
 * does write. Any other form is shown as it is.
 */
export function formInRecord(term: string, form: string, text: string): string {
  if (!form.includes('-') || text.includes(form)) return form;
  return splitWords(form).find((w) => stem(w) === term) ?? form;
}

/**
 * Terms a record writes only inside a camel-case name ("WattTime", "GitHub", "JavaScript") →
 * that name as the record spells it. Terms split such a name into its words (watt, time) so
 * that code and prose meet; an explanation showing "matches watt, time" reads as two words
 * the record never wrote. A term the record also writes on its own keeps its usual showing.
 * Only `wanted` terms are looked for, and the scan stops once each has been seen on its own.
 */
export function camelNamesIn(text: string, wanted: Iterable<string>): Map<string, string> {
  const want = new Set(wanted);
  const named = new Map<string, string>();
  const alone = new Set<string>();
  if (!want.size) return named;
  for (const token of text.split(WORD_BREAK)) {
    if (!token) continue;
    const words = splitWords(token);
    const stems = words.map(stem);
    // a search for the name run together ("watttime") matched the name itself
    const joined = joinedTerm(words);
    if (joined !== undefined && want.has(joined) && !named.has(joined)) named.set(joined, token);
    // the name stands for its words only when the match is the name (two of its words matched):
    // code that says "provider" does not match "K9AppNameProvider", it matches "provider"
    const camel = words.length > 1 && stems.filter((t) => want.has(t)).length > 1;
    for (const t of stems) {
      if (!want.has(t)) continue;
      if (words.length === 1) alone.add(t);
      else if (camel && !named.has(t)) named.set(t, token);
    }
    if (alone.size === want.size) break;
  }
  for (const t of alone) named.delete(t);
  return named;
}

// @decision DEC-108
/**
 * The articles, prepositions, pronouns, conjunctions and question words of the other languages whose records
 * git-ctx reads (French, Spanish, Portuguese, German, Dutch: DEC-104). They say how a sentence
 * is put, never its subject: an explanation does not show them ("matches redis, sessions, les,
 * dans") and a question's evidence does not count them (floor.ts), while GloVe's English ranks
 * would count "dans" or "pour" as rare, telling words. Words that are also English words of a
 * subject are left out: die, van, son, car, con, sin, mit, os, dos, des, del, es, den, comment, com.
 */
const FOREIGN_FUNCTION_WORDS: ReadonlySet<string> = new Set(
  (
    'le la les un une de du dans pour avec sont qui que pas aux cette ces ses leur leurs nous vous ils elles lors comme mais donc \u00eatre \u00e9t\u00e9 sous chez entre aussi tr\u00e8s tout tous toutes sur par est et ou au ce se sa ne ' +
    'el los las una unos unas para por sobre pero como m\u00e1s muy est\u00e1 est\u00e1n ser sus nuestro nuestra cuando donde tambi\u00e9n ' +
    'uma umas das pelo pela sem mas mais muito est\u00e3o s\u00e3o seus suas nosso nossa quando onde n\u00e3o ' +
    'der das dem ein eine einer eines und oder f\u00fcr von zu im ist sind nicht auch wird werden wir sie bei nach \u00fcber unter zwischen ' +
    'het een en voor met niet ook wordt worden wij zij naar onder tussen ' +
    // and their question words, which English's stop words hold for English (why, how, which)
    'pourquoi quel quelle quels quelles quand combien porqu\u00e9 qu\u00e9 c\u00f3mo cu\u00e1l cu\u00e1ndo d\u00f3nde porque qual warum wie welche welcher welches wann wo waarom hoe welke wanneer waar'
  ).split(' '),
);

// @decision DEC-110
/**
 * English's closed classes beyond the stop words: prepositions, pronouns, conjunctions and
 * sentence adverbs (and using/used/uses, the forms of the stop word "use"). They say how a
 * sentence is put ("between", "before", "using"), never its subject. The stop list keeps them
 * (it is shared with code, where "after" or "over" can be a name); an explanation does not show
 * them and a question's evidence does not count them (floor.ts). Quantifiers are not among them:
 * "its own class" and "every language" found right answers by those words.
 */
const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  (
    'about above across after against along among amongst around before behind below beneath beside besides between beyond despite during except inside near onto outside over past per since through throughout toward towards under underneath unlike until upon versus via within without ' +
    'he him his she her hers herself himself itself myself ourselves themselves yourself yourselves anyone anything everyone everything someone something whatever whichever whoever whose ' +
    'although because though unless whereas whether nor yet also again almost already ever here just often once only quite rather really still therefore thus very using used uses'
  ).split(' '),
);

/** A function word of English (FUNCTION_WORDS) or of another language records are read in (FOREIGN_FUNCTION_WORDS). */
export const isFunctionWord = (w: string): boolean => FUNCTION_WORDS.has(w) || FOREIGN_FUNCTION_WORDS.has(w);

/**
 * Words an explanation does not show (DEC-069): they may count in the match, but "matches
 * after, 2021, md" reads like a bug. Function words (isFunctionWord), the quantifiers and
 * adverbs of prose, years, and file extensions.
 */
const UNSHOWN = new Set(
  (
    'all another both each either else even every few further however least less many more most much neither never other others own same soon together re ' +
    'md mdx rst adoc asciidoc txt json yml yaml toml xml html htm css scss cfg ini lock'
  ).split(' '),
);

/** The words of an explanation: those worth showing, each once, in order. */
export function shownWords(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of words) if (!UNSHOWN.has(w) && !isFunctionWord(w) && !/^(?:19|20)\d\d$/.test(w) && !out.includes(w)) out.push(w);
  return out;
}
