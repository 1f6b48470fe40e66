// @spec SPEC-AUTHORING-001
// @decision DEC-130

import type { ArtifactSet } from '../artifacts/load.js';
import type { Artifact } from '../artifacts/types.js';
import { terms } from '../retrieve/text.js';
import { namesOf } from './draft-similar.js';
import { activeDecisions, decisionSection, deriveTitle, type DecisionDraft, type SimilarRecord } from './similar.js';

/**
 * A record a draft looks like it replaces: it decides about the same subject, and the draft
 * says it changes that choice ("move … from PostgreSQL", "stop using Redux", "instead of JWT")
 * or names another choice for it ("Use DynamoDB for the event store" beside "Use PostgreSQL
 * for the event store"). A suggestion only: `add` never writes `supersedes` unless asked
 * (`--supersedes <id>`). Every field says which words matched, as written. @decision DEC-130
 */
export interface ReplacementHint {
  id: string;
  title: string;
  file: string;
  /** the record's place in search's answer for the draft (1: first) */
  rank: number;
  /** the record's score in add's check (the same fused scoring as the similar list) */
  similarity: number;
  /** the draft's change wording, as written ("from PostgreSQL", "stop using Redux"); empty when it names another choice without one */
  change: string[];
  /** the choice the draft leaves or the record makes, as the record writes it ("PostgreSQL") */
  leaves: string[];
  /** the draft's own choice for the subject when it names one the record does not ("DynamoDB") */
  chooses: string[];
  /** the words of the record's title the draft shares, the choice aside: the subject ("event store") */
  subject: string[];
  /** one line: why this record */
  reason: string;
}

/** How the candidate was scored: the record and its entry in add's fused check. */
export interface ScoredCandidate {
  record: Artifact;
  score: SimilarRecord;
  rank: number;
}

/**
 * Change wording, each with what it leaves when it names it: the words after "from", "stop
 * using", "instead of", "replace … with"… up to the next phrase ("to", "with", a comma). A
 * verb and its object are matched as written (any case); the object is at most four words.
 */
const OBJECT = String.raw`((?:[\w.+#/-]+\s+){0,3}?[\w.+#/-]+?)(?=\s+(?:to|with|by|for|in|on|over|via|through|and|as|because|since|so|onto|into|across)\b|\s*[,;:()]|\.\s|\.?$)`;
const CUES: { label: string; re: RegExp }[] = [
  { label: 'from', re: new RegExp(String.raw`\b(?:mov(?:e|es|ed|ing)|migrat(?:e|es|ed|ing|ion)|switch(?:es|ed|ing)?|port(?:s|ed|ing)?|chang(?:e|es|ed|ing)|transition(?:s|ed|ing)?)\b(?:\s+[\w.-]+){0,5}?\s+(?:away\s+)?from\s+` + OBJECT, 'i') },
  { label: 'away from', re: new RegExp(String.raw`\baway\s+from\s+` + OBJECT, 'i') },
  { label: 'replace', re: new RegExp(String.raw`\breplac(?:e|es|ed|ing)\s+` + OBJECT + String.raw`\s+(?:with|by)\b`, 'i') },
  { label: 'stop using', re: new RegExp(String.raw`\bstop(?:s|ped|ping)?\s+(?:using|use)\s+` + OBJECT, 'i') },
  { label: 'instead of', re: new RegExp(String.raw`\binstead\s+of\s+` + OBJECT, 'i') },
  { label: 'rather than', re: new RegExp(String.raw`\brather\s+than\s+` + OBJECT, 'i') },
  { label: 'no longer', re: new RegExp(String.raw`\bno\s+longer\s+(?:uses?\s+|using\s+|[a-z]+s?\s+(?:with|on|to|in)\s+)?` + OBJECT, 'i') },
  { label: 'drop', re: new RegExp(String.raw`\bdrop(?:s|ped|ping)?\s+` + OBJECT, 'i') },
  { label: 'deprecate', re: new RegExp(String.raw`\bdeprecat(?:e|es|ed|ing)\s+` + OBJECT, 'i') },
  { label: 'retire', re: new RegExp(String.raw`\b(?:retir(?:e|es|ed|ing)|phas(?:e|es|ed|ing)\s+out|abandon(?:s|ed|ing)?)\s+` + OBJECT, 'i') },
  // wording that changes a choice without naming what it leaves
  { label: 'switch to', re: /\bswitch(?:es|ed|ing)?\s+(?:\w+\s+){0,3}?to\b()/i },
  { label: 'migrate to', re: /\bmigrat(?:e|es|ed|ing|ion)\s+(?:\w+\s+){0,3}?to\b()/i },
  { label: 'in favour of', re: /\bin\s+favou?r\s+of\b()/i },
];

/** Words of deciding that are nobody's subject ("We will use", "Adopt", "Prefer"). */
const DECIDING = new Set(terms('we will use adopt adopting choose chose prefer keep decide decided decision record go going move moving switch migrate replace stop using instead longer drop deprecate retire phase out abandon port change transition rather away favour favor all every'));
/** Determiners an object may start with ("the current PostgreSQL store"): not the thing left. */
const OBJECT_NOISE = new Set(terms('the a an our its their current existing old legacy using use of'));

/** The change wording a text uses, with what each leaves (terms and as written). */
export function changeCues(text: string): { label: string; written: string; object: string; objectTerms: string[] }[] {
  const out: { label: string; written: string; object: string; objectTerms: string[] }[] = [];
  for (const line of text.split(/\n+|(?<=[.!?;])\s+/)) {
    for (const c of CUES) {
      const m = c.re.exec(line);
      if (!m) continue;
      const object = (m[1] ?? '').trim().replace(/[.]+$/, '');
      // a value is not a choice ("from 30 to 60 seconds"): an object names something in words
      const objectTerms = /\p{L}/u.test(object) ? terms(object).filter((t) => !OBJECT_NOISE.has(t)) : [];
      // as written up to its object ("replace REST polling", not "… with")
      const written = m[0].replace(/\s+(?:with|by)$/i, '').replace(/\s+/g, ' ').trim();
      // one cue per stretch of text: "move … from X" already said what "away from X" would
      // and once in any case: a title and a decision that each say it are one change
      const lower = written.toLowerCase();
      if (out.some((o) => o.written.toLowerCase().includes(lower) || lower.includes(o.written.toLowerCase()))) continue;
      out.push({ label: c.label, written, object, objectTerms });
    }
  }
  return out;
}

/**
 * A record's choices: the names in its title (namesOf), and a first word written as a name
 * is (PostgreSQL, GraphQL: a capital after the first letter) — a title often starts with it.
 */
function choicesOf(title: string): { written: string; terms: string[] }[] {
  // a title in Title Case ("Use Separate Base Form Types") capitalises every word: only a word
  // written as a name is (a capital after the first letter, PostgreSQL, GraphQL)
  const long = title.split(/\s+/).filter((w) => w.length > 3);
  const titleCase = long.length >= 3 && long.filter((w) => /^[A-Z]/.test(w)).length >= long.length * 0.6;
  const out = titleCase ? [] : namesOf(title).map((t) => ({ written: writtenOf(title, t), terms: t }));
  for (const w of titleCase ? title.split(/\s+/) : [/^\s*([\w.+#-]+)/.exec(title)?.[1] ?? '']) {
    const word = w.replace(/^[^\w]+|[^\w.+#-]+$/g, '');
    if (!/^[A-Za-z][\w.+#-]*[A-Z0-9]/.test(word) || /^[A-Z0-9]+s?$/.test(word)) continue;
    const t = terms(word);
    if (t.length && !out.some((o) => o.terms.join(' ') === t.join(' '))) out.push({ written: word, terms: t });
  }
  return out;
}

/** The words of a text whose terms are among `wanted`, as written, in order, once each. */
function writtenOf(text: string, wanted: readonly string[]): string {
  const want = new Set(wanted);
  const out: string[] = [];
  for (const w of text.split(/\s+/)) {
    const bare = w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    const t = terms(bare);
    if (t.length && t.every((x) => want.has(x)) && !out.includes(bare)) out.push(bare);
  }
  return out.join(' ');
}

/** The terms of a record that say what it decides: title, summary, keywords and Decision part. */
const headTerms = (a: Artifact) => new Set(terms([a.title, a.summary ?? '', a.keywords.join(' '), decisionSection(a.body)].join('\n')));

/**
 * The share of the record's subject the draft must name to share it, each word weighted by
 * how rare it is among the titles in force (a word of every title says little).
 */
const SAME_SUBJECT = 0.5;
/** Without change wording, only another choice for a subject the draft names all but fully counts. */
const SAME_SUBJECT_NO_CUE = 0.67;

/**
 * Which of add's candidates (search's first answers for the draft, scored by the same fused
 * check as the similar list) the draft looks like it replaces. Deterministic: the same draft
 * and records give the same hints, each saying which words matched.
 * @decision DEC-130
 */
export function replacementHints(set: ArtifactSet, draft: DecisionDraft, candidates: readonly ScoredCandidate[]): ReplacementHint[] {
  const title = draft.title?.trim() || deriveTitle(draft.decision);
  const text = `${title}\n${draft.decision}`;
  const mine = new Set(terms(text));
  const cues = changeCues(text);
  // what the draft names outside its change wording: a thing it leaves and names again is its subject, not what it leaves
  const outsideCues = new Set(terms(withoutCues(text, cues)));
  const myWords = wordsOf(text);
  const myChoices = choicesOf(title).concat(namesOf(text).map((t) => ({ written: writtenOf(text, t), terms: t })));
  // title words' weights over the decisions in force: a word in every title says little
  const titles = activeDecisions(set).map((a) => new Set(terms(a.title)));
  const weight = (t: string) => Math.log(1 + titles.length / (1 + titles.filter((s) => s.has(t)).length));
  const out: ReplacementHint[] = [];
  let looseSeen = false;
  for (const { record: a, score, rank } of [...candidates].sort((x, y) => x.rank - y.rank)) {
    const head = headTerms(a);
    const theirs = choicesOf(a.title);
    const choiceTerms = new Set(theirs.flatMap((c) => c.terms));
    // what the draft's cues leave and this record names (all of an object's terms), and the
    // draft does not name again as its subject ("drop events … from the event store" acts on
    // the store, it does not leave it)
    // A record that makes the same change itself ("Use npm instead of yarn", "Moving from React
    // to Preact") is what the draft restates, not what it replaces
    const theirCues = changeCues(`${a.title}\n${a.summary ?? ''}\n${decisionSection(a.body)}`);
    const agrees = (c: (typeof cues)[number]) => theirCues.some((r) => r.objectTerms.length && c.objectTerms.every((t) => r.objectTerms.includes(t)));
    const left = cues.filter((c) => c.objectTerms.length && c.objectTerms.every((t) => head.has(t)) && !c.objectTerms.every((t) => outsideCues.has(t)) && !agrees(c));
    const leftTerms = new Set(left.flatMap((c) => c.objectTerms));
    // the subject: the record title's words beside its choice and what the draft leaves
    const subject = [...new Set(terms(a.title))].filter((t) => !DECIDING.has(t) && !choiceTerms.has(t) && !leftTerms.has(t));
    const shared = subject.filter((t) => mine.has(t));
    const whole = subject.reduce((s, t) => s + weight(t), 0);
    const share = whole ? shared.reduce((s, t) => s + weight(t), 0) / whole : 0;
    const inTitle = left.some((c) => c.objectTerms.every((t) => terms(a.title).includes(t)));
    // the record's choice the draft does not name, and the draft's the record does not
    // compared as written ("MySQL" is not "PostgreSQL", though both hold the term sql; "Postgres" is)
    const headWords = wordsOf(`${a.title}\n${a.summary ?? ''}\n${a.keywords.join(' ')}\n${decisionSection(a.body)}`);
    const dropped = theirs.filter((c) => !namedAmong(c.written, myWords));
    const chosen = myChoices.filter((c) => !namedAmong(c.written, headWords) && !c.terms.every((t) => leftTerms.has(t)));
    // the subject the draft names for itself, "… for configuration files", beside its choices
    const forWhat = /\bfor\s+(.+)$/i.exec(title)?.[1] ?? '';
    const namedSubject = terms(forWhat).filter((t) => !DECIDING.has(t) && !myChoices.some((c) => c.terms.includes(t)) && !leftTerms.has(t));
    let change: typeof cues = [];
    // the subject shared, or what it leaves named in the record's title when the draft names no
    // other subject ("Retire Heroku") or one the record's text decides about too ("Switch from
    // npm to pnpm for installing packages" beside "Use npm … to install packages"; not "Stop
    // using JSON for configuration files" beside "Structured JSON logs")
    const ownIsTheirs = namedSubject.filter((t) => head.has(t)).length * 2 >= namedSubject.length;
    const byTitleAlone = left.length > 0 && share < SAME_SUBJECT && inTitle && !shared.length && ownIsTheirs;
    if (left.length && (share >= SAME_SUBJECT || (inTitle && (shared.length > 0 || ownIsTheirs)))) change = left;
    // wording that names no object ("switch … to") counts when the draft names its new choice
    else if (cues.length && !cues.some((c) => c.objectTerms.length) && shared.length && share >= SAME_SUBJECT && dropped.length && chosen.length) change = cues;
    // another choice alone: the draft's own subject must be the record's too, both ways ("Use
    // Kafka Connect to copy the event store into the warehouse" is about the warehouse)
    const ownSubject = [...new Set(terms(title))].filter((t) => !DECIDING.has(t) && !myChoices.some((c) => c.terms.includes(t)));
    const ownShare = share ? ownSubject.filter((t) => subject.includes(t)).reduce((s, t) => s + weight(t), 0) / (ownSubject.reduce((s, t) => s + weight(t), 0) || 1) : 0;
    const another = !cues.length && shared.length > 0 && share >= SAME_SUBJECT_NO_CUE && ownShare >= SAME_SUBJECT_NO_CUE && dropped.length > 0 && chosen.length > 0;
    if (!change.length && !another) continue;
    // what is left, as the record's title writes it, else as the draft does
    const asTitled = (c: (typeof cues)[number]) => {
      const w = writtenOf(a.title, c.objectTerms);
      return w && c.objectTerms.every((t) => terms(w).includes(t)) ? w : c.object;
    };
    const leaves = dedupe(change.length && left.length ? left.map(asTitled) : dropped.map((c) => c.written));
    const chooses = dedupe(chosen.map((c) => c.written));
    const subjectWords = writtenOf(a.title, shared);
    const reason = change.length
      ? `${change.map((c) => `"${c.written}"`).join(', ')}${leaves.length ? ` leaves ${leaves.join(', ')}, which ${a.id} names` : ''}${subjectWords ? `; same subject: ${subjectWords}` : ''}`
      : `names another choice (${chooses.join(', ')}) than ${a.id} (${leaves.join(', ')}) for the same subject: ${subjectWords}`;
    // the loosest evidence (what it leaves is in the title, no subject shared) names one record at most: search's first
    if (byTitleAlone && looseSeen) continue;
    looseSeen ||= byTitleAlone;
    out.push({ id: a.id, title: a.title, file: a.file, rank, similarity: score.similarity, change: change.map((c) => c.written), leaves: dedupe(leaves), chooses, subject: subjectWords ? subjectWords.split(' ') : [], reason });
  }
  // the record the draft most clearly leaves first: named in its change wording, then search's order
  return out.sort((x, y) => Number(y.change.length > 0) - Number(x.change.length > 0) || x.rank - y.rank);
}

/** Each once, the first spelling of each in any case ("Bull" left by two cues is said once). */
const dedupe = (xs: string[]) => xs.filter((x, i) => x && xs.findIndex((y) => y.toLowerCase() === x.toLowerCase()) === i);

/** A text's words, lower case, without punctuation around them. */
function wordsOf(text: string): string[] {
  return text
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '').toLowerCase())
    .filter(Boolean);
}

/**
 * Is a name among the words, as written or shortened ("Postgres" for "PostgreSQL"): the same
 * word, or one that starts with the other, four letters at least. Every word of a name must be there.
 */
function namedAmong(name: string, words: readonly string[]): boolean {
  const same = (a: string, b: string) => a === b || (Math.min(a.length, b.length) >= 4 && (a.startsWith(b) || b.startsWith(a)));
  return wordsOf(name).every((n) => words.some((w) => same(n, w)));
}

/**
 * The text without its change wording: every place any cue is written goes, in any case, so a
 * title and a decision that each say it ("Stop using Bull for background jobs" over "We will
 * stop using Bull and Redis…") leave nothing of it behind.
 */
function withoutCues(text: string, cues: readonly { written: string }[]): string {
  let rest = text.replace(/\s+/g, ' ');
  for (const c of cues) rest = rest.replace(new RegExp(c.written.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'), 'gi'), '\n');
  return rest;
}
