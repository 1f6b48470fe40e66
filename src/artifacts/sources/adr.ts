// @spec SPEC-SOURCES-001

import path from 'node:path';
import { splitFrontmatter, MAX_ARTIFACT_BYTES, type ParseResult } from '../parse.js';
import { loadRecordFrontmatter } from './lenient-frontmatter.js';
import type { Artifact, LoadProblem } from '../types.js';
import { gitBlobHash } from '../../util/hash.js';
import { setExtra, type SourceExtra } from './extra.js';
import { adrIdFor, fileDate, fileNumber, recordStem } from './files.js';
import { mentionCandidates } from './mentions.js';
import { isDatedStatusLabel, STATUS_NAME, statusOfLine } from './status.js';
import { dateValue, isChoicePrompt, isPlaceholderTitle, isPromptValue, keptInBrackets, tagList, unbraceValues, unemphasized } from './placeholders.js';
import { derivedSummary } from './parts.js';
import { frontmatterPaths } from './code-refs.js';
import { BLOB_URL, frontmatterSides, linkedPath, pageSlug, safeDecode } from './adr-links.js';
import { PART_BEFORE, PHRASE_ANY, phrasesIn, saysPartlySuperseded, SECTION_AFTER, SENTENCE_END, THIS_RECORD } from './relation-wording.js';
import { adocToMarkdown, isAdoc } from './adoc-record.js';
import { blankComments, linesWithoutComments } from './html-comments.js';
import { frontmatterTitle, lowerTitle, NOT_TITLE, plain, stripNumber, titleCodeNames, titleOfStem, type Found } from './adr-title.js';

export { adrIdFor, fileNumber, isAdrFile } from './files.js';

/** How a folder of decision records names and types its records. */
export interface AdrSourceOptions {
  /** id prefix for numbered files: 0048-x.md → ADR-0048 */
  prefix: string;
  /** artifact type of the records */
  type: string;
}

const prefixPatterns = new Map<string, RegExp>();
/** `ADR-12`, `adr 12`, `ADR12` for a configured prefix; one compiled pattern per prefix (callers reset lastIndex). */
function prefixPattern(prefix: string): RegExp {
  let re = prefixPatterns.get(prefix);
  if (!re) {
    re = new RegExp(`\\b${prefix.replace(/[-_ ]+$/, '').replace(/[-/\\^$*+?.()|[\]{}]/g, '\\$&')}[-_ ]?(\\d+)\\b`, 'gi');
    prefixPatterns.set(prefix, re);
  }
  return re;
}

/** The line adr-tools writes in a Status section for a link to another record: a label, then `[N. Title](file)`. */
const ADR_TOOLS_LINK = /^\s*\p{L}[\p{L}' -]{0,40}\s\[\d+\.\s[^\]]+\]\([^)\s]+\)\s*$/u;

/** Section titles whose items are related records even without a phrase. */
const RELATED_SECTION = /^(?:related(?:\s+(?:adrs?|decisions?|records?|documents?))?|see also|links|references)$/i;

interface Section {
  title: string;
  /** 0-based index of the heading line */
  at: number;
  level: number;
  /** rst: the title has an overline too (the document title style) */
  over?: boolean;
}

const META_LINE = /^\s*(?:[-*+]\s+)?(?:\*\*|__)?(\p{L}[\p{L} ()/-]{1,30}?)(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*(.*?)\s*$/u;
const RST_FIELD = /^:([A-Za-z][A-Za-z ()-]{1,30}):\s*(.*?)\s*$/;

function metaKey(label: string): 'status' | 'date' | 'deciders' | undefined {
  const k = label.toLowerCase().replace(/[()]/g, '').trim();
  if (STATUS_NAME.test(k) || k === 'decision status' || k === 'adr status') return 'status';
  if (k === 'date' || k === 'created' || k === 'decided' || k === 'decision date' || k === 'last updated' || k === 'updated') return 'date';
  if (/^(?:deciders?|decision[- ]makers?|owners?|authors?|authored by|driver|drivers|proposed by)$/.test(k)) return 'deciders';
  return undefined;
}


/** Whether a text is fenced code alone: a fence, and no word outside fences (an empty file, a record being written, is no code). */
function codeAlone(lines: readonly string[]): boolean {
  let fence = false;
  let fenced = false;
  for (const l of lines) {
    if (/^\s*(```|~~~)/.test(l)) {
      fence = !fence;
      fenced = true;
    } else if (!fence && /\p{L}/u.test(l)) return false;
  }
  return fenced;
}

/**
 * Read one decision record without YAML frontmatter requirements: Nygard/adr-tools, MADR
 * 2–4 (with or without frontmatter), log4brains, hand-written variants (bold or plain
 * `Status:` lines, a table at the top, emoji), reStructuredText and AsciiDoc. Never throws and never
 * rejects a record for missing metadata: a record without status has none.
 */
export function parseAdr(file: string, bytes: Buffer, opts: AdrSourceOptions, origin: Artifact['origin'] = 'repo', blob?: string): ParseResult {
  const problems: LoadProblem[] = [];
  const problem = (rule: string, message: string, line?: number): ParseResult => {
    problems.push({ file, line, rule, message });
    return { problems };
  };
  if (bytes.length > MAX_ARTIFACT_BYTES) return problem('file-too-large', `file is ${(bytes.length / 1048576).toFixed(1)} MB; records over ${MAX_ARTIFACT_BYTES / 1048576} MB are not loaded`);
  if (bytes.includes(0)) return problem('binary-file', 'binary file in a decision-record folder; expected markdown, reStructuredText or AsciiDoc');
  const decoded = bytes.toString('utf8');
  if (decoded.includes('\uFFFD') && !Buffer.from(decoded, 'utf8').equals(bytes)) {
    const bad = decoded.indexOf('\uFFFD');
    return problem('invalid-encoding', 'file is not valid UTF-8', decoded.slice(0, bad).split('\n').length);
  }
  // a byte-order mark (Windows editors write one) is no text: left in, the body's frontmatter was shown and exported twice
  const unmarked = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  // an AsciiDoc record is read, and kept, as its line-for-line markdown reading (DEC-128)
  const adoc = isAdoc(file);
  const text = adoc ? adocToMarkdown(unmarked) : unmarked;
  const rst = /\.rst$/i.test(file);
  const keyLines: Record<string, number> = { id: 1 };
  let data: Record<string, unknown> = {};
  // MADR 3/4 frontmatter: status, date, deciders, … (anything else is kept too)
  let startLine = 0;
  if (!rst && !adoc) {
    const split = splitFrontmatter(text);
    if (split.hasFrontmatter) {
      const { load: loaded, quoted } = loadRecordFrontmatter(split.yaml);
      for (const q of quoted) problems.push({ file, line: split.yamlLine - 1 + q.line, rule: 'frontmatter-unquoted-value', message: `\`${q.key}: ${q.value}\`: a YAML value cannot start with ${q.value[0]}, so the frontmatter does not parse as written; read as the text ${JSON.stringify(q.value)} (quote it to make it valid YAML)` });
      if (loaded.ok && loaded.data && typeof loaded.data === 'object' && !Array.isArray(loaded.data)) {
        data = unbraceValues(loaded.data as Record<string, unknown>);
        const lines = split.yaml.split('\n');
        lines.forEach((l, i) => {
          const m = /^([A-Za-z_][\w-]*)\s*:/.exec(l);
          if (m && !(m[1]! in keyLines)) keyLines[m[1]!] = split.yamlLine + i;
        });
        keyLines.id = 1;
      } else if (!loaded.ok) problems.push({ file, line: split.yamlLine - 1 + loaded.line, rule: 'frontmatter-malformed', message: `invalid YAML in the record's frontmatter: ${loaded.message}` });
      startLine = split.bodyLine - 1;
    }
  }
  const lines = text.includes('\r') ? text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)) : text.split('\n');

  // headings: markdown ATX and setext, rst underlined (optionally overlined) titles
  const sections: Section[] = [];
  let title: Found | undefined;
  const rstLevels: string[] = [];
  let fence = false;
  for (let i = startLine; i < lines.length; i++) {
    const l = lines[i]!;
    if (!rst && (l.includes('```') || l.includes('~~~')) && /^\s*(```|~~~)/.test(l)) fence = !fence;
    if (fence) continue;
    if (!rst) {
      // a no-break space after the hashes ("##\u00a0Status", typed on some keyboards) reads as a heading too
      const m = l[0] === '#' ? /^(#{1,6})[ \t\u00a0]+(.+?)[ \t#]*$/.exec(l) : null;
      const c = lines[i + 1]?.[0];
      if (m) sections.push({ title: m[2]!.trim(), at: i, level: m[1]!.length });
      else if ((c === '=' || c === '-') && l.trim() && /^(=+|-+)\s*$/.test(lines[i + 1]!) && !/^\s*[-*+|>]/.test(l) && (i === startLine || !lines[i - 1]!.trim())) {
        sections.push({ title: l.trim(), at: i, level: lines[i + 1]![0] === '=' ? 1 : 2 });
        i++;
      }
    } else {
      const under = lines[i + 1] ?? '';
      const m = under.length > 2 ? /^([=\-~^"'`#*+:.])\1{2,}\s*$/.exec(under) : null;
      if (l.trim() && m && under.trim().length >= l.trim().length - 1 && !/^([=\-~^"'`#*+:.])\1+\s*$/.test(l)) {
        const over = i > 0 && lines[i - 1]!.trim() === under.trim();
        const key = (over ? 'o' : 'u') + m[1];
        if (!rstLevels.includes(key)) rstLevels.push(key);
        sections.push({ title: l.trim(), at: i, level: rstLevels.indexOf(key) + 1, over });
        i++;
      }
    }
  }
  // a file of code alone beside the records (SAP/cloud-sdk-js's 0017-code-snippets.md: one
  // fenced block a record links to) has no heading, no metadata and no prose: no record
  if (!sections.length && !Object.keys(data).length && codeAlone(lines.slice(startLine))) return { problems };
  // the title: an rst overlined heading, else the first level-1 heading that is not a section's name
  const h1 = sections.find((s) => s.over && !NOT_TITLE.test(plain(s.title))) ?? sections.find((s) => s.level === 1 && !NOT_TITLE.test(plain(s.title)));
  const kept = h1 && keptInBrackets(plain(h1.title));
  if (h1 && (kept || !isPlaceholderTitle(plain(h1.title)))) title = { value: stripNumber(unemphasized(kept || h1.title)), line: h1.at + 1 };
  if (!h1) title = lowerTitle(lines, sections, startLine);

  // metadata: frontmatter first, then a Status section, then metadata lines/fields/tables
  const found: Partial<Record<'status' | 'date' | 'deciders', Found>> = {};
  const fm = (k: string, ...alts: string[]): void => {
    for (const key of [k, ...alts]) {
      const v = data[key];
      if (v !== undefined && v !== null && v !== '') {
        const mk = metaKey(k)!;
        found[mk] ??= { value: Array.isArray(v) ? v.map(String).join(', ') : String(v), line: keyLines[key] ?? 1 };
      }
    }
  };
  fm('status');
  fm('date', 'created');
  fm('deciders', 'decision-makers', 'authors', 'owner');
  const sectionEnd = (idx: number): number => {
    const s = sections[idx]!;
    for (let j = idx + 1; j < sections.length; j++) if (sections[j]!.level <= s.level) return sections[j]!.at;
    return sections[idx + 1]?.at ?? lines.length;
  };
  const statusIdx = sections.findIndex((s) => STATUS_NAME.test(plain(s.title).replace(/[:\s]+$/, '').replace(/^\d+\.\s*/, '')));
  if (statusIdx >= 0 && !found.status) {
    const s = sections[statusIdx]!;
    const from = s.at + (rst || lines[s.at]!.startsWith('#') ? 1 : 2);
    // the template's prompt kept above the value (`<!--- What is the status, such as proposed,
    // accepted …? -->` ⏎ `proposed`, guardian/cdk) is no status: the section is read without comments
    const sec = rst ? lines.slice(from, sectionEnd(statusIdx)) : linesWithoutComments(lines.slice(from, sectionEnd(statusIdx)));
    for (let i = from; i < sectionEnd(statusIdx); i++) {
      const v = plain(sec[i - from]!.replace(/^\s*(?:[-*+]\s+|>\s*)/, ''));
      if (v && !/^[=\-~^]+$/.test(v)) {
        // "Status: Accepted" inside a Status section reads as its value
        const mm = META_LINE.exec(sec[i - from]!);
        // a date-led line states a status only when a status word follows its date
        const value = statusOfLine(mm && metaKey(mm[1]!) === 'status' ? plain(mm[2]!) : v);
        if (value) found.status = { value, line: i + 1 };
        break;
      }
    }
    // "Accepted" then, added later, "Superseded by …": the replacement decides
    for (let i = (found.status?.line ?? from) ; found.status && i < sectionEnd(statusIdx); i++) {
      if (/\b(?:superseded|replaced)\s+by\b/i.test(sec[i - from]!)) {
        found.status = { value: plain(sec[i - from]!.replace(/^\s*(?:[-*+]\s+|>\s*)/, '')), line: i + 1 };
        break;
      }
    }
    // "Superseded by" ⏎ "[7. Queues](…)": the status goes on to the next line of its paragraph
    const next = found.status ? lines[found.status.line]?.trim() : undefined;
    if (found.status && next && /\b(?:by|of|to)\s*:?$/i.test(found.status.value)) found.status = { ...found.status, value: `${found.status.value} ${plain(next)}` };
  }
  // "## Status: Proposed": a heading that carries the status itself
  if (!found.status) {
    for (const sec of sections) {
      const hm = /^(?:\d+\.\s*)?status\s*[:\-\u2013\u2014]\s*(\S.*)$/i.exec(plain(sec.title));
      if (hm) {
        found.status = { value: hm[1]!.trim(), line: sec.at + 1 };
        break;
      }
    }
  }
  // metadata lines near the top (before the second section), rst field lists, tables
  const headEnd = Math.min(lines.length, Math.max(sections[1]?.at ?? 40, 40));
  // "Status" alone on a line, its value on the next ("Status" / "**Draft**": a heading written
  // without its underline), in the head and not a heading: a short value is the status
  for (let i = startLine; !found.status && i < headEnd - 1; i++) {
    if (!/^\s*(?:\*\*|__)?status(?:\*\*|__)?\s*$/i.test(lines[i]!) || sections.some((x) => x.at === i)) continue;
    const v = plain(lines[i + 1]!.replace(/^\s*(?:[-*+]\s+|>\s*)/, ''));
    if (v && /\p{L}/u.test(v) && v.split(/\s+/).length <= 4) found.status = { value: v, line: i + 2 };
    break;
  }
  // a fenced block shows an example (a "```markdown" block holding "status: accepted"), not this record's metadata
  let metaFence = false;
  let headTags: string[] | undefined;
  const promptLines = new Set<number>();
  for (let i = startLine; i < lines.length; i++) {
    const l = lines[i]!;
    if (!rst && (l.includes('```') || l.includes('~~~')) && /^\s*(```|~~~)/.test(l)) metaFence = !metaFence;
    if (metaFence) continue;
    if (l.indexOf(':') < 0 && l.indexOf('|') < 0) continue;
    const inHead = i < headEnd;
    const rf = rst ? RST_FIELD.exec(l) : null;
    const mm = rf ?? (inHead ? META_LINE.exec(l) : null);
    if (mm) {
      // log4brains' "- Tags: a, b" (also "[a, b]", "a b"): the record's keywords, as frontmatter tags are
      if (!rf && /^(?:tags?|keywords?)$/i.test(mm[1]!.trim())) headTags ??= tagList(mm[2]!);
      const k = metaKey(mm[1]!);
      // "- Status: [ accepted | deprecated | … ]": the template's choices, none chosen (its links name nothing) @decision DEC-132
      if (k === 'status' && !rf && isChoicePrompt(mm[2]!)) promptLines.add(i);
      const v = k === 'status' ? (isChoicePrompt(mm[2]!) ? undefined : statusOfLine(plain(mm[2]!))) : k === 'date' && !rf ? dateValue(plain(mm[2]!)) : plain(mm[2]!);
      // "- Deciders: [list everyone involved in the decision]": the template's prompt, no decider
      if (k && v && !found[k] && !(k === 'deciders' && isPromptValue(mm[2]!))) found[k] = { value: v, line: i + 1 };
      continue;
    }
    // "- Status 01/03/2021: Accepted": a dated label the Key: value reading cannot take
    const bare = inHead && !found.status ? plain(l.replace(/^\s*(?:[-*+]\s+)/, '')) : '';
    if (bare && isDatedStatusLabel(bare)) {
      const v = statusOfLine(bare);
      if (v) found.status = { value: v, line: i + 1 };
      continue;
    }
    if (inHead && /^\s*\|/.test(l)) {
      const cells = l.split('|').slice(1, -1).map((c) => plain(c));
      // | Status | Date |  /  |---|---|  /  | Accepted | 2020-01-01 |  (a header row)
      if (cells.some((c) => metaKey(c)) && /^\s*\|?\s*:?-{2,}/.test(lines[i + 1] ?? '') && !metaKey(plain((lines[i + 2] ?? '').split('|')[1] ?? ''))) {
        const vals = (lines[i + 2] ?? '').split('|').slice(1, -1).map((c) => plain(c));
        cells.forEach((c, j) => {
          const k = metaKey(c);
          if (k && vals[j]) found[k] ??= { value: vals[j]!, line: i + 3 };
        });
        i += 2;
        continue;
      }
      // | Status | Accepted |  (key, value rows)
      if (cells.length >= 2 && metaKey(cells[0]!) && cells[1] && !/^:?-+:?$/.test(cells[1])) {
        const k = metaKey(cells[0]!)!;
        found[k] ??= { value: cells[1]!, line: i + 1 };
      }
    }
  }
  // no date written as one: the earliest entry of a Changelog section ("- 2020-07-28: Initial
  // version", as cosmos-style records such as oasis-core's keep them) is when the record began
  const logIdx = found.date ? -1 : sections.findIndex((x) => /^change\s?log$/i.test(plain(x.title)));
  if (logIdx >= 0) {
    let first: Found | undefined;
    for (let i = sections[logIdx]!.at + 1; i < sectionEnd(logIdx); i++) {
      const d = /^\s*[-*+]\s+(?:\*\*|__)?(\d{4}-\d{2}-\d{2})\b/.exec(lines[i]!)?.[1];
      if (d && (!first || d < first.value)) first = { value: d, line: i + 1 };
    }
    if (first) found.date = first;
  }
  // log4brains names a record by its day (20250909-x.md) and writes no Date line in some: the name's date is the record's
  const named = found.date ? undefined : fileDate(file);
  if (named) found.date = { value: named.replace(/^(\d{4})[-_]?(\d\d)[-_]?(\d\d)$/, '$1-$2-$3'), line: 1 };
  // "...", "-", "TBD": a placeholder, not a status
  if (found.status && (!/[\p{L}\p{N}]/u.test(found.status.value) || /^(?:tbd|tbc|n\/?a|none|\?+)$/i.test(found.status.value.trim()))) delete found.status;
  for (const [k, f] of Object.entries(found)) {
    keyLines[k] ??= f.line;
    if (data[k] === undefined) data[k] = f.value;
  }

  // relations written in the text: phrase lines anywhere, and every reference in a Related/Links section
  const rel: NonNullable<SourceExtra['rel']> = [];
  const relatedRanges: [number, number][] = [];
  sections.forEach((s, idx) => {
    if (RELATED_SECTION.test(plain(s.title).replace(/[:\s]+$/, ''))) relatedRanges.push([s.at + 1, sectionEnd(idx)]);
  });
  const statusRange: [number, number] | undefined = statusIdx >= 0 ? [sections[statusIdx]!.at + 1, sectionEnd(statusIdx)] : undefined;
  const dir = path.posix.dirname(file);
  const prefixRe = prefixPattern(opts.prefix);
  // "ADR 7", "ADR-0007", "ADR #7"
  const numbered = new RegExp(prefixRe.source.replace('[-_ ]?', '[-_ ]?#?\\s?'), 'gi');
  // a folder given its own prefix (CORE-, one of several folders) whose records still call each
  // other "ADR-0001", as the team numbers them: a loose reference to this folder's record
  const aliased = /^adr\b|^adr[-_ ]/i.test(opts.prefix) ? undefined : new RegExp(prefixPattern('ADR-').source.replace('[-_ ]?', '[-_ ]?#?\\s?'), 'gi');
  /** The record a link's text names by prefix and number, as an alternative after `\u0001` (none: ''). */
  const labelRef = (label: string): string => {
    numbered.lastIndex = 0;
    const m = numbered.exec(label);
    numbered.lastIndex = 0;
    return m ? '\u0001' + opts.prefix + m[1] : '';
  };
  /** References on a line and where each is written: record files linked, `ADR 7`/`ADR #7`, and (`~`, kept only when a record has the number) `#7`, `0007-…`. */
  const refsIn = (l: string, phrased: boolean): { ref: string; at: number; end: number; aliased?: boolean }[] => {
    const out: { ref: string; at: number; end: number; aliased?: boolean }[] = [];
    const spans: [number, number][] = [];
    for (const m of l.matchAll(/\]\(([^)\s#]+\.(?:md|markdown|rst|adoc|asciidoc))(?:#[^)]*)?\)|`[^`<]*<([^>`]+\.(?:rst|md))>`_|:doc:`(?:[^`<]*<)?([^`>]+)>?`/gi)) {
      const target = (m[1] ?? m[2] ?? m[3])!;
      // a markdown link's text starts at its `[`: the wording before the link text counts
      const open = m[1] ? l.lastIndexOf('[', m.index) : m.index;
      const at = open < 0 ? m.index : open;
      // the record its text names ("[ADR-0015](…)"), kept beside the target: the target decides
      const named = m[1] && open >= 0 ? labelRef(l.slice(open + 1, m.index)) : '';
      if (/^[a-z]+:/i.test(target)) {
        // a record linked by its forge address (".../blob/main/docs/adr/0008-x.md"): a reference
        // only when this repository has a record at that path (`^`: dropped otherwise, never broken)
        const blob = file.startsWith('~') ? null : BLOB_URL.exec(target);
        if (blob) {
          out.push({ ref: '^' + safeDecode(blob[1]!) + named, at, end: m.index + m[0].length });
          spans.push([at, m.index + m[0].length]);
        }
        continue;
      }
      const p = linkedPath(file, dir, safeDecode(target));
      out.push({ ref: '@' + (m[3] && !/\.(rst|md)$/i.test(p) ? p + '.rst' : p) + named, at, end: m.index + m[0].length });
      spans.push([at, m.index + m[0].length]);
    }
    // a record's published page (".../docs/architecture/decisions/watt-time-v3" on a docs site,
    // "./0016-watt-time-v3" without its extension): `%folder/slug`, a reference when a record of
    // that folder has that file name (with or without its number); else the link's text decides
    for (const m of l.matchAll(/\]\(([^)\s]+)\)/g)) {
      const open = l.lastIndexOf('[', m.index);
      if (open < 0 || spans.some(([a, b]) => m.index >= a && m.index < b)) continue;
      const slug = pageSlug(file, dir, m[1]!);
      if (!slug) continue;
      // another site's page ("[ADR 002: …](https://docs.other.io/…/adr-002-…)"): its text names our record only when we have one @decision DEC-132
      const label = labelRef(l.slice(open + 1, m.index));
      out.push({ ref: '%' + slug + (label && /^[a-z][a-z+.-]*:/i.test(m[1]!) ? '\u0001~' + label.slice(1) : label), at: open, end: m.index + m[0].length });
      spans.push([open, m.index + m[0].length]);
    }
    const free = (i: number) => !spans.some(([a, b]) => i >= a && i < b);
    for (const m of l.matchAll(numbered)) if (free(m.index)) out.push({ ref: opts.prefix + m[1], at: m.index, end: m.index + m[0].length });
    if (aliased) for (const m of l.matchAll(aliased)) if (free(m.index)) out.push({ ref: '~' + opts.prefix + m[1], at: m.index, end: m.index + m[0].length, aliased: true });
    if (phrased) {
      // a dated record named by its file's name alone ("Exceeded by 2025-10-08-library-storage"): a
      // reference when a record of this folder has that name, dropped otherwise @decision DEC-129
      for (const m of l.matchAll(/(?<![\w/.#-])\d{4}-\d{2}-\d{2}-[A-Za-z][\w-]*\w/g)) {
        const slug = free(m.index) ? pageSlug(file, dir, './' + m[0]) : undefined;
        if (slug) out.push({ ref: '%' + slug, at: m.index, end: m.index + m[0].length });
      }
      for (const m of l.matchAll(/(?<![\w/&#])#(\d{1,5})\b|(?<![\w/.#-])(\d{3,5})-[A-Za-z][\w-]*/g)) if (free(m.index) && !out.some((o) => o.at === m.index)) out.push({ ref: '~' + opts.prefix + (m[1] ?? m[2]), at: m.index, end: m.index + m[0].length });
    }
    return out.sort((a, b) => a.at - b.at);
  };
  // MADR frontmatter `status: "superseded by ADR-0002"` states the relation as a Status
  // section's line does: its wording and references, at the status key's line
  if (startLine > 0 && typeof data.status === 'string' && PHRASE_ANY.test(data.status)) {
    const v = data.status;
    const phrases = phrasesIn(v);
    for (const r of refsIn(v, phrases.length > 0)) {
      let ph = undefined as (typeof phrases)[number] | undefined;
      for (const p of phrases) if (p.end <= r.at) ph = p;
      ph ??= phrases.find((p) => p.start >= r.at);
      if (ph) rel.push([ph.kind, r.ref, keyLines.status ?? 1, ph.dir]);
    }
  }
  // frontmatter naming the other side (`supersededBy: 'docs/…/0004-x.md'`, `superseded_by: ADR-4`); a path where nothing is: a finding @decision DEC-132 DEC-137
  const sides = startLine > 0 ? frontmatterSides(data, keyLines, file, dir, (v) => refsIn(v, true).map((r) => r.ref)) : undefined;
  if (sides) rel.push(...sides.rel);
  // a fenced block shows text (an example file, output), also inside a quote ("> ```markdown"):
  // a link written there is the example's, not this record's reference
  let quotedFence = false;
  // a wording that ends its line ("Superseded by" ⏎ "[7. Queues](0007-queues.md)", a paragraph
  // wrapped at 80 columns): it is the wording of the first reference on the next line
  let carried: ReturnType<typeof phrasesIn>[number] | undefined;
  // an HTML comment is no text of the record: a template's "<!-- example: Refined by [xxx](yyyymmdd-xxx.md) -->" names nothing
  let inComment = false;
  for (let i = startLine; i < lines.length; i++) {
    let l = lines[i]!;
    if (!rst && (inComment || l.includes('<!--'))) ({ text: l, open: inComment } = blankComments(l, inComment));
    const before = carried;
    carried = undefined;
    if (!rst && (l.includes('```') || l.includes('~~~')) && /^\s*(?:>\s*)*(```|~~~)/.test(l)) {
      quotedFence = !quotedFence;
      continue;
    }
    if (quotedFence || promptLines.has(i)) continue;
    const phrases = PHRASE_ANY.test(l) ? phrasesIn(l) : [];
    const inRelated = relatedRanges.length > 0 && relatedRanges.some(([a, b]) => i >= a && i < b);
    const inStatus = !!statusRange && i >= statusRange[0] && i < statusRange[1];
    const refs = refsIn(l, phrases.length > 0 || before !== undefined);
    const last = phrases[phrases.length - 1];
    // unless a reference before it on its line took it ("- [ADR-0036](…) — the stream this ADR amends")
    if (last && /^[\s:,\u2013\u2014-]*$/.test(l.slice(last.end)) && !refs.some((r) => r.end <= last.start)) carried = last;
    if (!refs.length) continue;
    // a title's leading number is the record's own as written, a wrong one too ("# ADR-0006 …" in 0008, dasch-swiss/dsp-api): no reference
    if (title && i + 1 === title.line) refs.splice(0, refs.length, ...refs.filter((r) => !/^[#\s*_`\p{Extended_Pictographic}\uFE0F]*$/u.test(l.slice(0, r.at))));
    for (const [n, r] of refs.entries()) {
      // the wording nearest before the reference, else the first after it, in the reference's
      // own sentence: "dynamic form updates, hidden elements, etc. We … (see [the SSR record](…))"
      // is no record that updates another
      let ph = undefined as (typeof phrases)[number] | undefined;
      for (const p of phrases) if (p.end <= r.at && !SENTENCE_END.test(l.slice(p.end, r.at))) ph = p;
      if (!ph && n === 0 && before && !SENTENCE_END.test(l.slice(0, r.at)) && !phrases.some((p) => p.start < r.at)) ph = before;
      ph ??= phrases.find((p) => p.start >= r.at && !SENTENCE_END.test(l.slice(r.end, p.start)));
      if (!ph) {
        // a reference without wording: related, in a Related section or anywhere (a Status section's bare link is left out)
        // except the link adr-tools writes there for any label its `-l` was given ("Implements
        // [5. Forever beta](0005-forever-beta.md)", "Implemented in …"): a relation of its own
        if (inStatus && !inRelated && !ADR_TOOLS_LINK.test(l)) continue;
        if (r.ref.startsWith('~') && !r.aliased) continue;
        // "ADR-0001" named in passing with no wording ("[#2263 ADR-0001][pr-2263]": a pull
        // request's title) relates only when a record has that number: a number nobody wrote
        // a record for is the team's prose, not a broken reference that fails check
        rel.push(['relates_to', /^[@^%~]/.test(r.ref) ? r.ref : '~' + r.ref, i + 1, 0]);
        continue;
      }
      // a Status section is where "Superseded by" is written without more; other wordings there are prose
      // "Supersedes ADR 0053, section 7": one section of the other record is replaced and the rest stands, an amendment
      // "ADR 07 …, which is superseded by this one": a wording after the reference whose other
      // side is this record turns round (ADR 07 is the one superseded)
      const dir = ph.start >= r.end && THIS_RECORD.test(l.slice(ph.end)) ? ((1 - ph.dir) as 0 | 1) : ph.dir;
      // "This supersedes the \"panic on errors\" guidance in ADR-002": one part replaced, an amendment @decision DEC-132
      const part = SECTION_AFTER.test(l.slice(r.end)) || (ph.end <= r.at && PART_BEFORE.test(l.slice(ph.end, r.at)));
      rel.push([ph.kind === 'supersedes' && dir === 0 && part ? 'amends' : ph.kind, r.ref, i + 1, dir]);
    }
  }
  // a record whose status says it is superseded in part ("Partly superseded") still stands for the
  // rest: "These IP ranges have been superseded by [ADR #0033]" in it is an amendment (@decision DEC-103)
  if (rel.some((r) => r[0] === 'supersedes' && r[3] === 1) && saysPartlySuperseded(data.status, lines)) {
    for (const r of rel) if (r[0] === 'supersedes' && r[3] === 1) r[0] = 'amends';
  }
  // where its relations are written: a title naming the record's own id ("# ADR-0004: …") is no relation
  const relAt = rel.find((r) => r[2] !== title?.line) ?? rel[0];
  if (relAt) keyLines.relations ??= relAt[2];

  const id = typeof data.id === 'string' && data.id ? data.id : adrIdFor(file, opts.prefix);
  const stem = recordStem(file);
  const fallbackTitle = (): string => titleOfStem(stem);
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' && v.trim() ? v.split(',').map((s) => s.trim()).filter(Boolean) : []);
  if (title) keyLines.title = title.line;
  const artifact: Artifact = {
    id,
    type: str(data.type) ?? opts.type,
    title: (str(data.title) && !isPlaceholderTitle(str(data.title)!) ? frontmatterTitle(str(data.title)!, file) : undefined) ?? title?.value ?? fallbackTitle(),
    status: found.status?.value,
    scope: 'project',
    domain: str(data.domain),
    summary: str(data.summary) ?? str(data.description) ?? derivedSummary(startLine ? lines.slice(startLine).join('\n') : text, rst),
    keywords: list(data.keywords ?? data.tags ?? headTags),
    links: [],
    relations: {},
    requires: [],
    paths: frontmatterPaths(data, keyLines),
    anchors: list(data.anchors),
    owner: found.deciders?.value,
    created: found.date?.value,
    source: 'manual',
    format: 'adr',
    file,
    origin,
    blob: blob ?? gitBlobHash(bytes),
    data,
    body: text,
    keyLines,
    bodyLine: 1,
  };
  // n: only an id taken from the file name is renumbered; a frontmatter id is still found by its file's number (nb)
  const fromName = id === adrIdFor(file, opts.prefix);
  const num = fileNumber(file);
  const tc = titleCodeNames(str(data.title) ?? (title ? lines[title.line - 1] : undefined));
  setExtra(artifact, { f: 'adr', mc: mentionCandidates(lines, file, 1), rel, n: fromName ? num : undefined, nb: !fromName && num !== undefined ? opts.prefix + num : undefined, ...(tc ? { tc } : {}), ...(sides?.fp.length ? { fp: sides.fp } : {}) });
  return { artifact, problems };
}
