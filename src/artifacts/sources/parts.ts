// @spec SPEC-SOURCES-001

import { linesWithoutComments } from './html-comments.js';

/**
 * A decision record read as a document (DEC-053): its text cut into parts by what each part
 * says — what was decided, its consequences, the context that led there, the options weighed
 * — and, inside any part, the material that is quoted rather than written (fenced or indented
 * code, logs, data tables, quoted output, frontmatter). Retrieval weighs the parts (bm25.ts),
 * and a record without a summary gets one from its decision part. Markdown (ATX and setext
 * headings) and reStructuredText (underlined titles, `::` literal blocks) are read; anything
 * unrecognised is an `other` part, never dropped.
 */
export type PartKind = 'heading' | 'decision' | 'consequences' | 'context' | 'options' | 'status' | 'other' | 'quoted';

export interface RecordPart {
  kind: PartKind;
  text: string;
}

/**
 * Section titles by the part they open; the first match wins, a subsection inherits its parent's
 * kind. MADR's two "Decision …" sections come first: "Decision Drivers" are the forces weighed
 * (context) and "Decision Outcome" is what was decided, not a consequence.
 */
const SECTION_KINDS: [RegExp, PartKind][] = [
  [/\bdecision\s+drivers?\b/i, 'context'],
  // MADR's sections translated (SocialGouv/pass-emploi-api: "Facteurs de Decision" before "Resultat
  // de la Decision", "Solutions Etudiees", "Impacts Positifs"): the drivers are no decision @decision DEC-136
  [/(?<![\p{L}])(?:(?:facteurs?|crit\u00e8res?|factores|fatores|criterios|crit\u00e9rios)\s+de\s+(?:la\s+)?d[e\u00e9]cis|entscheidungs(?:treiber|faktoren|kriterien))/iu, 'context'],
  [/(?<![\p{L}])(?:(?:solutions?|options?|opciones|op\u00e7\u00f5es)\s+(?:\u00e9tudi|envisag|consid\u00e9r|consideradas|evaluadas)|avantages\s+et\s+inconv\u00e9nients|betrachtete\s+optionen)/iu, 'options'],
  [/\bdecision\s+outcomes?\b/i, 'decision'],
  [/^(?:status|state|statut|\u00e9tat|estado|stato|date|deciders?|metadata|technical story|synopsis)(?![\p{L}])/iu, 'status'],
  [/\b(?:considered options|options considered|alternatives?|pros and cons|options)\b/i, 'options'],
  [/\b(?:consequences?|implications?|outcomes?|trade-?offs?|drawbacks?|risks?|positive|negative)\b/i, 'consequences'],
  [/(?<![\p{L}])impacts?(?![\p{L}])/iu, 'consequences'],
  // French, Spanish, Portuguese, German, Italian and Dutch section names (MTES-MCT/dialog's
  // "Contexte", "Decision" and "Consequences" with their accents) @decision DEC-104
  [/(?<![\p{L}])(?:cons\u00e9quences|consecuencias|consequ\u00eancias|konsequenzen|conseguenze|gevolgen)(?![\p{L}])/iu, 'consequences'],
  [/(?<![\p{L}])(?:d\u00e9cision|decisi\u00f3n|decis\u00e3o|entscheidung|decisione|besluit)(?![\p{L}])/iu, 'decision'],
  [/(?<![\p{L}])(?:contexte|contexto|kontext|contesto)(?![\p{L}])/iu, 'context'],
  // "Decisions" over a numbered list of them (openedx/openedx-events' rst records) @decision DEC-129
  [/\b(?:decisions?(?:\s+outcome)?|decided|resolution|rules?|chosen option|we will|policy|proposal)\b/i, 'decision'],
  [/\b(?:context|problem(?:\s+statement)?|background|motivation|forces|drivers|decision drivers|why)\b/i, 'context'],
];

/** A level-1 heading starting with a section's name is that section, not the record's title. */
export const SECTION_START = /^(?:status|state|date|context|decisions?|consequences?|considered|options?|alternatives?|pros|background|problem|motivation|drivers|rationale|outcome|resolution|links|references|notes)\b/i;

/** The kind of part a section title opens, or undefined (not a known section: inherits). */
export function sectionKind(title: string): PartKind | undefined {
  const t = title
    .replace(/^[#\s]*(?:\d+(?:\.\d+)*\.?\s*)?/, '')
    .replace(/[*_`:]+/g, '')
    .trim();
  for (const [re, kind] of SECTION_KINDS) {
    if (!re.test(t)) continue;
    // "Status", "Technical Story": the metadata sections are named, not described ("State
    // entry denom -> amount" opens a part of cosmos/ibc-go's decision, not its status)
    if (kind === 'status' && wordCount(t) > 2) continue;
    return kind;
  }
  return undefined;
}

/** Words of a title (letters or digits in them; "->" is none). */
const wordCount = (t: string): number => t.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/**
 * Words at most in a subsection's title for it to open a part of its own under a known part:
 * "Positive Consequences" under "Decision Outcome" is one; "Panic if amount is negative" under
 * "Decision" is a part of the decision that happens to hold a consequence word. @decision DEC-104
 */
const SUBSECTION_NAME_WORDS = 4;

/** A line that is data or machine output rather than prose: JSON, log lines, stack frames, hex dumps. */
const LOG_LINE = /^\s*(?:[{}\]]|\[(?![^\]\n]*\][([])|"[^"]*"\s*:|\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\[\d{2}:\d{2}|at\s+[\w$.<>]+\s*\(|(?:[0-9a-f]{2}\s){6,}|(?:DEBUG|INFO|WARN|WARNING|ERROR|TRACE)\b|\$\s|>>>\s)/;

/**
 * The parts of a record's text, in order. `levelOne` headings after the first that are not
 * known sections (a "Write up" appendix) are `other`; text before the first section is
 * `other` too (the lead paragraph under the title).
 */
export function recordParts(text: string, rst = false): RecordPart[] {
  const lines = text.split('\n');
  const out: RecordPart[] = [];
  let kind = 'other' as PartKind;
  /** section kinds on the heading stack: [level, kind] */
  const stack: [number, PartKind][] = [];
  let buf: string[] = [];
  let bufKind = kind as PartKind;
  const flush = () => {
    if (buf.length) out.push({ kind: bufKind, text: buf.join('\n') });
    buf = [];
  };
  const push = (k: PartKind, line: string) => {
    if (k !== bufKind) {
      flush();
      bufKind = k;
    }
    buf.push(line);
  };
  let titled = false;
  const heading = (level: number, title: string) => {
    while (stack.length && stack[stack.length - 1]![0] >= level) stack.pop();
    // the record's own title ("Use Markdown Architectural Decision Records") opens no section,
    // whatever its words: what follows it is the lead
    const isTitle = !titled && level === 1 && !SECTION_START.test(title.replace(/^[#\s]*(?:\d+(?:\.\d+)*\.?\s*)?/, '').replace(/[*_`]+/g, ''));
    titled = true;
    const parent = stack.length ? stack[stack.length - 1]![1] : 'other';
    const own = isTitle || (parent !== 'other' && wordCount(title.replace(/^[#\s]*(?:\d+(?:\.\d+)*\.?\s*)?/, '')) > SUBSECTION_NAME_WORDS) ? undefined : sectionKind(title);
    kind = own ?? parent;
    stack.push([level, kind]);
    push('heading', title);
  };
  let i = 0;
  // frontmatter: metadata, not prose (its title and summary are counted as fields)
  if (!rst && /^---\s*$/.test(lines[0] ?? '')) {
    const end = lines.findIndex((l, j) => j > 0 && /^(?:---|\.\.\.)\s*$/.test(l));
    if (end > 0) {
      for (; i <= end; i++) push('status', lines[i]!);
    }
  }
  let fence: string | undefined;
  let literal = false;
  let prevBlank = true;
  const rstLevels: string[] = [];
  for (; i < lines.length; i++) {
    const l = lines[i]!;
    const blank = !l.trim();
    if (fence !== undefined) {
      push('quoted', l);
      if (l.trimStart().startsWith(fence)) fence = undefined;
      prevBlank = blank;
      continue;
    }
    const f = /^\s*(```+|~~~+)/.exec(l);
    if (f) {
      fence = f[1]!;
      push('quoted', l);
      prevBlank = false;
      continue;
    }
    // rst literal block: an indented block after a paragraph ending in `::`
    if (literal) {
      if (blank || /^\s/.test(l)) {
        push('quoted', l);
        prevBlank = blank;
        continue;
      }
      literal = false;
    }
    if (rst) {
      const under = lines[i + 1] ?? '';
      const m = under.length > 2 ? /^([=\-~^"'`#*+:.])\1{2,}\s*$/.exec(under) : null;
      if (l.trim() && m && under.trim().length >= l.trim().length - 1 && !/^([=\-~^"'`#*+:.])\1+\s*$/.test(l)) {
        const over = i > 0 && lines[i - 1]!.trim() === under.trim();
        const key = (over ? 'o' : 'u') + m[1];
        if (!rstLevels.includes(key)) rstLevels.push(key);
        heading(rstLevels.indexOf(key) + 1, l.trim());
        i++;
        prevBlank = false;
        continue;
      }
      if (/^([=\-~^"'`#*+:.])\1{2,}\s*$/.test(l)) continue;
    } else {
      const h = l[0] === '#' ? /^(#{1,6})[ \t\u00a0]+(.+?)[ \t#]*$/.exec(l) : null;
      if (h) {
        heading(h[1]!.length, h[2]!);
        prevBlank = false;
        continue;
      }
      const next = lines[i + 1] ?? '';
      if (l.trim() && prevBlank && /^(=+|-+)\s*$/.test(next) && !/^\s*[-*+|>]/.test(l)) {
        heading(next[0] === '=' ? 1 : 2, l.trim());
        i++;
        prevBlank = false;
        continue;
      }
    }
    if (blank) {
      push(bufKind === 'quoted' ? 'quoted' : kind, l);
      prevBlank = true;
      continue;
    }
    // quoted material inside any section: indented code after a blank line, tables, block quotes, logs
    const indented = /^(?: {4}|\t)/.test(l) && (prevBlank || bufKind === 'quoted') && !/^\s*(?:[-*+]|\d+[.)])\s/.test(l);
    const table = /^\s*(?:\|.*\||\+[-=+]{3,})/.test(l);
    const quote = /^\s*>/.test(l);
    // a `Date: 2016-02-12` / `* Status: accepted` line of the lead is metadata: its key is no
    // word of the record (every adr-tools record writes "Date:"), its value is status-weight
    const meta = kind === 'other' && !indented && !table && !quote ? METADATA_KEY.exec(l) : null;
    if (meta) push('status', l.slice(meta[0].length));
    else if (indented || table || quote || LOG_LINE.test(l)) push('quoted', l);
    else push(kind, l);
    if (rst && /::\s*$/.test(l)) literal = true;
    prevBlank = false;
  }
  flush();
  return out;
}

/**
 * A short summary derived from a record's text when it has none (DEC-053): the first
 * paragraph of prose of its decision part, else of its context, else the first prose under
 * its title; list items joined, markup dropped, one line of at most `max` characters cut at a
 * word. Deterministic; undefined when the record has no prose at all.
 */
export function derivedSummary(text: string, rst = false, max = 240): string | undefined {
  const parts = recordParts(text, rst);
  for (const want of ['decision', 'context', 'other'] as const) {
    const s = firstParagraph(parts, want);
    if (s) {
      const named = referenceLinks(want === 'decision' ? namedOption(s, parts) : s, text);
      return named.length <= max ? named : cutAt(named, max);
    }
  }
  return undefined;
}

/**
 * Markdown reference links read as their text: `[transactional outbox]` and `[CEL][cel-spec]`
 * where the record defines them (`[transactional outbox]: https://…`, DependencyTrack/hyades);
 * brackets nothing defines (`[WIP]`) stay.
 */
function referenceLinks(s: string, text: string): string {
  if (!s.includes('[')) return s;
  const defined = new Set([...text.matchAll(/^[ \t]{0,3}\[([^\]\n]+)\]:[ \t]+\S/gm)].map((m) => m[1]!.trim().toLowerCase()));
  if (!defined.size) return s;
  return s
    .replace(/\[([^\]\n]+)\]\[([^\]\n]*)\]/g, (all, t: string, ref: string) => (defined.has((ref || t).trim().toLowerCase()) ? t : all))
    .replace(/\[([^\]\n]+)\](?![(:[])/g, (all, t: string) => (defined.has(t.trim().toLowerCase()) ? t : all));
}

/**
 * "We will follow option D." says nothing on its own: when a short decision names an option by
 * its letter or number and the record has a heading for it ("#### D: Build our own", "### Option
 * 2. Postgres"), the option's name is said with it: "We will follow option D (Build our own)."
 * (DependencyTrack/hyades' workflow orchestration record).
 */
function namedOption(s: string, parts: RecordPart[]): string {
  const m = /^([^.!?]*\b(?:option|solution|alternative|approach)\s+)([A-Z]|\d{1,2})\b([^.!?]*)([.!]?)$/i.exec(s);
  if (!m || s.length > 80) return s;
  const key = m[2]!.toLowerCase();
  for (const p of parts) {
    if (p.kind !== 'heading') continue;
    const h = /^(?:(?:option|solution|alternative|approach)\s+)?([A-Za-z]|\d{1,2})\s*[:.)\u2013\u2014-]\s+(.+)$/i.exec(p.text.trim());
    if (h && h[1]!.toLowerCase() === key && !/^(?:option|solution|alternative|approach)\b/i.test(h[2]!)) return `${m[1]}${m[2]} (${h[2]!.trim()})${m[3]}${m[4] || '.'}`;
  }
  return s;
}

/** A reStructuredText directive that opens a block of code (its options, `:linenos:`, come before the code). */
const RST_CODE = /^\.\.\s+(?:code-block|code|sourcecode)::/;

/** The first paragraph of the first part of a kind that has prose (a heading or quoted material ends it). */
function firstParagraph(parts: RecordPart[], kind: PartKind): string | undefined {
  for (let k = 0; k < parts.length; k++) {
    if (parts[k]!.kind !== kind) continue;
    let para: string[] = [];
    // a lone bullet of a few words ("- Decoupling from SDK") is a label: the prose under it says what it means
    let label: string | undefined;
    let firstRaw = '';
    // "We decided that:", "Chosen option: X, because" and a list or a paragraph after a blank
    // line: what follows finishes the sentence, so its first item (or the paragraph) is read
    // into the summary (else it stops mid-thought)
    let listAfter: 'wait' | 'in' | undefined;
    // a template's prompt kept in a section (`<!-- What is the change that we're proposing? -->`) says nothing of this record @decision DEC-129
    const lines = linesWithoutComments(parts[k]!.text.split('\n'));
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i]!.trim();
      if (l && !para.length) firstRaw = l;
      if (!l) {
        // the metadata list under a title ("Status: accepted; Date: 2020-10-20") is skipped
        if (para.length && para.every((x) => METADATA_LINE.test(x))) para = [];
        if (para.length === 1 && label === undefined && LABEL_ITEM.test(firstRaw)) {
          label = para[0]!;
          para = [];
        }
        if (para.length && listAfter === undefined && label === undefined && INTRODUCES.test(para[para.length - 1]!)) {
          listAfter = 'wait';
          continue;
        }
        if (para.length) break;
        continue;
      }
      // list items read as one sentence each
      const item = /^(?:[-*+]|\d+[.)])\s+/.test(l);
      // reStructuredText's code directive ("Example:" ⏎ `.. code-block:: python`): the code's first line finishes it
      if (listAfter === 'wait' && RST_CODE.test(l)) {
        // the code is indented under the directive, in this part or (read as quoted) in the next
        const after = [...lines.slice(i + 1), ...(parts[k + 1]?.kind === 'quoted' ? parts[k + 1]!.text.split('\n') : [])];
        const first = codeLead(after.map((x) => x.trim()).filter((x) => !/^:[\w-]+:/.test(x)));
        if (first) para.push(`\`${first}\``);
        break;
      }
      if (listAfter === 'wait') {
        listAfter = 'in';
        para.push(l.replace(/^(?:[-*+]|\d+[.)])\s+/, ''));
        continue;
      }
      // the first item (or paragraph) finishes the sentence; the rest is the record's to tell
      if (listAfter === 'in' && item) break;
      // a label followed by another item is a list of short items: the first of them is the paragraph
      if (item && label !== undefined && !para.length) {
        para = [label];
        label = undefined;
        break;
      }
      if (item && para.length && !/[.;:!?]$/.test(para[para.length - 1]!)) para[para.length - 1] += ';';
      para.push(l.replace(/^(?:[-*+]|\d+[.)])\s+/, ''));
    }
    // "… will be built with:" and a fenced block right after it: its first line finishes the sentence
    if (para.length && listAfter === undefined && /:$/.test(para[para.length - 1]!) && parts[k + 1]?.kind === 'quoted' && /^\s*(```|~~~)/.test(parts[k + 1]!.text)) {
      const code = codeLead(parts[k + 1]!.text.split('\n').map((x) => x.trim()).filter((x) => !/^(```|~~~)/.test(x)));
      if (code) para.push(`\`${code}\``);
    }
    if (label !== undefined && !para.length) para = [label];
    else if (label !== undefined) para[0] = `${label.replace(/[.:;]$/, '')}: ${para[0]}`;
    // code spans keep what they hold (`:feature:*:api`, `__init__`): emphasis is stripped around them
    const code: string[] = [];
    const s = para
      .join(' ')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/`([^`<]*?)\s*<[^>`]*>`_+/g, '$1')
      // reStructuredText's literal (``x``) is one code span, and a named reference (`OEP-41`_) its
      // text: read one backtick at a time, "``string`` … `type format`_" left "type format_" @decision DEC-129
      .replace(/``([^`]+)``/g, '`$1`')
      .replace(/`([^`<]+)`_{1,2}(?!\w)/g, '$1')
      .replace(/`([^`]+)`/g, (_, c: string) => `\uE000${code.push(c) - 1}\uE000`)
      // a backslash escape (markdown's and reStructuredText's "\*", "\_", "\(") is the character it escapes
      .replace(/\\([!-/:-@[-`{-~])/g, '$1')
      .replace(/\*{1,3}|`+|(?<![\w])_{1,2}|_{1,2}(?![\w])/g, '')
      .replace(/\uE000(\d+)\uE000/g, (_, i: string) => code[Number(i)]!)
      .replace(/\s+/g, ' ')
      .trim()
      // the number of the chosen option ("(#2) Use separate services …") points into the options
      // listed elsewhere in the record: the summary says what was chosen without it
      .replace(/^\((?:#|option\s*)\d+[a-z]?\)\s*(?=\S)/i, '')
      // a dash-led section ("— Adding feature to store …", cloud-carbon-footprint) writes the dash as a bullet
      .replace(/^[\u2013\u2014]\s+(?=\S)/, '')
      .replace(TEMPLATE_BECAUSE, '');
    // a status word alone ("Accepted"), a bare link or a metadata list alone is not a summary, nor the template's own prompt
    if (s && /\s/.test(s) && !para.every((l) => METADATA_LINE.test(l)) && !TEMPLATE_PROMPT.test(s) && !bracketPromptsOnly(s) && !bracketPromptsOnly(para.join(' '))) return s;
  }
  return undefined;
}

/**
 * The line of a block of code that finishes the sentence introducing it: its first line of code,
 * short and whole. Comment lines (`# .. setting_name: X`, openedx/openedx-events' settings
 * annotations) say nothing of what was decided, and a line that only opens a bracket
 * (`CONFIG = {`) says half of it: then the sentence stands alone. @decision DEC-129
 */
function codeLead(lines: readonly string[]): string | undefined {
  const first = lines.find((x) => x && !/^(?:#|\/\/)/.test(x));
  return first && first.length <= 80 && !first.includes('`') && !/[[{(]$/.test(first) ? first : undefined;
}

/**
 * MADR's template justification, left as the template wrote it: ', because comes out best
 * (see below)' says nothing of why, and "below" points at options a summary or a rule file
 * does not carry. Left out of derived summaries and rule files (src/rules/text.ts).
 */
export const TEMPLATE_BECAUSE = /,?\s*because\s+(?:it\s+)?comes out best\s*\\?\(see below\\?\)/gi;

/**
 * The prompt adr-tools' template writes under each section, left in a record not yet written
 * ("The change that we're proposing or have agreed to implement."): it says nothing of this
 * record, so the summary is read from the next part that has prose of its own.
 */
const TEMPLATE_PROMPT = /^(?:the change that we['\u2019]re proposing or have agreed to implement|the issue motivating this decision, and any context that influences or constrains the decision|what becomes easier or more difficult to do and any risks introduced by the change that will need to be mitigated)\.?$/i;

/**
 * MADR 2's template text left as it was, its prompts in brackets: `[Describe the context and
 * problem statement, …]`, `Chosen option: "[option 1]", because [justification. e.g., …]`
 * (three of hyperledger/identus-cloud-agent's records are the template under a title), `[Link
 * type](link to adr)`. Nothing but the template's words outside bracketed prompts, one of
 * three words or more. @decision DEC-132
 */
function bracketPromptsOnly(s: string): boolean {
  // `[Link type](link to adr)`: a link whose target has spaces is the template's too
  const prompt = /\[[^\]]*\](?:\([^)]*\s[^)]*\))?/g;
  if (![...s.matchAll(prompt)].some((m) => m[0].split(/\s+/).length >= 3)) return false;
  return !/\p{L}/u.test(s.replace(prompt, '').replace(/\b(?:chosen\s+option|because|e\.g\.|see\s+below)\b/gi, ''));
}

/** The end of a line that announces what follows: "that:", "the following:", ", because". */
const INTRODUCES = /(?::|\bbecause|\bas follows)$/i;

/** A list item of at most five words without a sentence's end: a label, not a statement. */
const LABEL_ITEM = /^(?:[-*+]|\d+[.)])\s+(?:\S+\s+){0,4}\S*[^\s.!?;]$/;

/** A `Key: value` line of the metadata MADR and Nygard records write as a list under the title. */
const METADATA_LINE = /^(?:status|date|deciders?|consulted|informed|technical story|authors?|tags?)\s*:/i;

// @decision DEC-102
/**
 * The key of such a line as written in a record's lead, list marker and emphasis included
 * (`* **Date:** `). Tags and a technical story say what the record is about: they stay prose.
 */
const METADATA_KEY = /^\s*(?:[-*+]\s+)?(?:\*\*|__)?(?:status|date|deciders?|consulted|informed|authors?)(?:\*\*|__)?\s*:(?:\*\*|__)?\s*/i;

function cutAt(s: string, max: number): string {
  const cut = s.slice(0, max - 1);
  const at = cut.lastIndexOf(' ');
  return (at > max / 2 ? cut.slice(0, at) : cut).replace(/[,;:.\s]+$/, '') + '…';
}
