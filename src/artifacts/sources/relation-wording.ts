// @spec SPEC-SOURCES-001
//
// The words a decision record relates itself to another with ("Superseded by", "Amends", "See
// also"), read from a line of its text. Apart from adr.ts, which finds the references they go with.

import type { RelationKind } from '../types.js';

/**
 * Wordings of a relation, with the direction they give: 0 this record holds the edge
 * ("Supersedes X": this supersedes X), 1 the other record does ("Superseded by X", "See X for
 * updates": X supersedes / amends this). Each reference on a line takes the wording written
 * nearest before it (else the first after it); a reference with no wording on its line is
 * `relates_to`, never a supersession (DEC-053).
 */
const PHRASES: [RegExp, RelationKind, 0 | 1][] = [
  // a supersession in part leaves the older record standing for the rest: it amends it (@decision DEC-103)
  // ("This ADR in part supersedes [0003]", alphagov/govuk-aws), first so "supersedes" inside it is this wording
  [/\b(?:partly|partially|in\s+part)\s+(?:superseded|replaced)\s+by\b/gi, 'amends', 1],
  [/\b(?:partly|partially|in\s+part)\s+(?:supersedes|replaces)\b|\b(?:supersedes|replaces)\s+(?:in\s+part|partly|partially)\b/gi, 'amends', 0],
  // a named part of the other record ("Supersedes the "option 3" portion of [ADR 0016]"): the rest stands
  [/\b(?:supersedes|replaces)\s+the\s+(?:[^\s[\]()]+\s+){0,3}?(?:portion|part|parts|section|sections|aspects?)\s+of\b/gi, 'amends', 0],
  // "Exceeded by": a team's template word for it (Altinn/altinn-studio) @decision DEC-129
  [/\b(?:superseded|replaced|obsoleted|exceeded)\s+by\b|\bdeprecated\s+in\s+favou?r\s+of\b/gi, 'supersedes', 1],
  [/\b(?:supersedes|replaces|obsoletes)\b/gi, 'supersedes', 0],
  [/\b(?:amended|refined|extended|modified|updated)\s+by\b/gi, 'amends', 1],
  // "See [0009-...] for updates!", "Please refer to the [0011-...] for the latest change"
  [/\b(?:see|refer\s+to)\b(?=.{0,200}?\bfor\s+(?:the\s+)?(?:updates?|latest|newer|current|changes|more\s+recent)\b)/gi, 'amends', 1],
  [/\b(?:amends|refines|extends|modifies|updates)\b|\b(?:a\s+)?(?:refinement|amendment|update|extension)\s+(?:of|to)\b/gi, 'amends', 0],
  [/\bclarified\s+by\b/gi, 'clarifies', 1],
  [/\bclarifies\b/gi, 'clarifies', 0],
  [/\b(?:related\s+to|relates\s+to|see\s+also|related(?:\s+(?:adrs?|decisions?|records?))?\s*:)/gi, 'relates_to', 0],
  [/\b(?:depends\s+on|builds\s+on)\b/gi, 'depends_on', 0],
  [/\bconflicts\s+with\b/gi, 'conflicts_with', 0],
];

/** Any word a phrase above starts with: one test per line instead of one per phrase. */
// "extension" has no "extend" in it ("an extension to [the package structure record]", guardian/cdk) @decision DEC-129
export const PHRASE_ANY = /superseded|replaced|obsoleted|exceeded|supersedes|replaces|obsoletes|deprecated|amend|refine|extend|extension|modif|updat|clarif|relate|see\b|refer|depends\s+on|builds\s+on|conflicts\s+with/i;

/** A markdown link's target (`](…)`) or a bare web address. */
const LINK_TARGET = /\]\([^)\s]*(?:\s+"[^"]*")?\)|\bhttps?:\/\/[^\s)\]>]+/g;

// @decision DEC-118
/** The wordings on a line, by where they end. */
export function phrasesIn(l: string): { end: number; start: number; kind: RelationKind; dir: 0 | 1 }[] {
  const out: { end: number; start: number; kind: RelationKind; dir: 0 | 1 }[] = [];
  // where a link points is no wording: "updates" in `(./0003-builder-updates-dependabot.md)` is a file's name
  const targets = l.includes('](') || l.includes('://') ? [...l.matchAll(LINK_TARGET)].map((m) => [m.index, m.index + m[0].length]) : [];
  for (const [re, kind, dir] of PHRASES) {
    re.lastIndex = 0;
    for (const m of l.matchAll(re)) {
      // a wording inside a longer one already found ("see" of "see also") is that one
      if (out.some((o) => m.index >= o.start && m.index < o.end)) continue;
      if (targets.some(([a, b]) => m.index >= a! && m.index < b!)) continue;
      out.push({ start: m.index, end: m.index + m[0].length, kind, dir });
    }
  }
  return out.sort((a, b) => a.end - b.end);
}

/** A sentence ends between a wording and a reference: a full stop, "!" or "?" and a capital or an opening bracket after it. */
export const SENTENCE_END = /[.!?]["')\]]*\s+["'([]?\p{Lu}/u;

/**
 * A section of a record named right after a reference to it: "ADR 0053 \u00a77" (a section sign),
 * "[0053](...), section 7", or a part of it named by the possessive ("replaces ADR-0036's row of
 * its ordering table").
 */
export const SECTION_AFTER = /^\s*[,:(]?\s*(?:\u00a7|(?:sections?|clauses?|parts?)\s+\d)|^['\u2019]s\s/i;

/**
 * A part of the other record named between the wording and the reference: "supersedes the
 * \"panic on option errors\" guidance in ADR-002", "replaces part of ADR 7": the rest of it
 * stands, so an amendment (joeycumines/go-utilpkg). @decision DEC-132
 */
export const PART_BEFORE = /^\s+(?:(?:the|its|their|one|some)\s+[^.;]{0,80}?\b(?:guidance|sections?|parts?|recommendations?|paragraphs?|clauses?|advice|guidelines?|points?|wording)\s+(?:in|of|from)|(?:parts?|portions?|some|one\s+part)\s+of(?:\s+the)?(?:\s+decision)?)\s+$/i;

/** This record, named right after a wording: "superseded by this one", "… by this ADR". */
export const THIS_RECORD = /^\s*(?:this|the\s+present|the\s+current)\s+(?:one|record|adr|decision|document)\b/i;

/**
 * Whether a record says it is superseded in part: its status ("Partly superseded"), or a note of
 * its own that opens a line ("> **Partially superseded.** The hook manager chosen below is
 * superseded by [ADR-0017]…", smorinlabs/envgen's 0012, status still Accepted). Its "superseded
 * by" then amends it: the rest stands, and check's advice to mark it superseded would drop it.
 */
export function saysPartlySuperseded(status: unknown, lines: readonly string[]): boolean {
  if (typeof status === 'string' && PARTLY_SUPERSEDED.test(status)) return true;
  return lines.some((l) => PARTLY_NOTE.test(l));
}
const PARTLY_SUPERSEDED = /\b(?:partly|partially|in\s+part)\s+(?:superseded|replaced)\b/i;
const PARTLY_NOTE = /^\s*(?:>\s*)*(?:[*_]{1,2})?(?:this\s+(?:record|adr|decision)\s+is\s+)?(?:partly|partially|in\s+part)\s+(?:superseded|replaced)\b(?!\s+by\b)/i;
