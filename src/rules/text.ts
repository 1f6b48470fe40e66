// @spec SPEC-RULES-001

import path from 'node:path';
import type { Artifact } from '../artifacts/types.js';
import { fileNumber } from '../artifacts/sources/files.js';
import { TEMPLATE_BECAUSE } from '../artifacts/sources/parts.js';
import { norm, plainWords } from '../artifacts/meta-record.js';

/**
 * What a record tells an agent: the part of its text that decides something, as plain
 * markdown. Decision records come in many shapes (Nygard/adr-tools, MADR with options,
 * reStructuredText, hand-written variants); a rule file wants none of their status, date,
 * context or options boilerplate, and a pointer line ("See 0009 for updates") is useless
 * to an agent unless it names the record it points at.
 */

/** Marks a link target resolved to a repository path, rewritten per rule-file folder by relinkText. */
const MARK = '\u0001';

/** The records a text may point at, by file and by folder + number. */
export interface RecordIndex {
  byFile: Map<string, Artifact>;
  byNumber: Map<string, Artifact>;
}

export function recordIndex(arts: Iterable<Artifact>): RecordIndex {
  const byFile = new Map<string, Artifact>();
  const byNumber = new Map<string, Artifact>();
  for (const a of arts) {
    byFile.set(a.file, a);
    const n = a.format === 'adr' ? fileNumber(a.file) : undefined;
    if (n !== undefined) byNumber.set(`${path.posix.dirname(a.file)}\0${Number(n)}`, a);
  }
  return { byFile, byNumber };
}

export interface RuleText {
  /** what the record decides, markdown; repository links marked for relinkText */
  text: string;
  /** the summary, or '' when the text already says it */
  summary: string;
}

/** Sections that say what to do, by (normalized) heading. */
const DECIDES =
  /^(?:the |our )?(?:decisions?|decision outcome|decision made|outcome|resolution|rules?|policy|policies|norms?|guidelines?|conventions?|standards?|what we (?:do|decided)|we will|agreement)$/;
/** Sections no agent needs: metadata, the problem, the options weighed. */
const BOILERPLATE =
  /^(?:status|date|dates|deciders?|decision[- ]makers?|authors?|owners?|technical story|context|context and problem statement|problem statement|problem|background|motivation|considered options|options considered|options|alternatives(?: considered)?|pros and cons of the options|decision drivers|drivers|table of contents|contents|change ?log|history|revision history|metadata)$/;
/** Parts of a decision section that weigh it rather than state it (MADR's consequences, confirmation). */
const WEIGHS = /^(?:(?:positive|negative|good|bad|neutral)?\s*consequences?|confirmation|pros and cons|more information|validation)$/;
/** A metadata line at the head of a record ("Date: …", "* Status: accepted", ":Status: Accepted"). */
const META =
  /^\s*(?:[-*+]\s+)?(?:\*\*|__)?(?:status|state|date|created|updated|last updated|deciders?|decision[- ]makers?|authors?|owners?|consulted|informed|technical story|tags|supersedes|superseded by|amended by|amends)(?:\*\*|__)?\s*:(?:\*\*|__)?\s/i;

interface Heading {
  /** first line of the heading (its text) */
  at: number;
  /** lines it takes (2 for setext) */
  span: number;
  level: number;
  title: string;
}

function headingsOf(lines: string[]): Heading[] {
  const out: Heading[] = [];
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const f = /^\s{0,3}(```|~~~)/.exec(l);
    if (f) {
      if (!fence) fence = f[1];
      else if (f[1] === fence) fence = undefined;
      continue;
    }
    if (fence) continue;
    const m = /^(#{1,6})[ \t\u00a0]+(.*?)[ \t#]*$/.exec(l);
    if (m) {
      out.push({ at: i, span: 1, level: m[1]!.length, title: m[2]! });
      continue;
    }
    const next = lines[i + 1];
    if (next && l.trim() && /^(=+|-+)\s*$/.test(next) && !/^\s*([-*+|>]|\d+\.)/.test(l) && (i === 0 || !lines[i - 1]!.trim())) {
      out.push({ at: i, span: 2, level: next[0] === '=' ? 1 : 2, title: l.trim() });
      i++;
    }
  }
  return out;
}

/** Lines of a section: from after its heading to the next heading of the same or a higher level. */
function sectionEnd(heads: Heading[], k: number, total: number): number {
  const h = heads[k]!;
  for (let j = k + 1; j < heads.length; j++) if (heads[j]!.level <= h.level) return heads[j]!.at;
  return total;
}

/** reStructuredText to markdown, for the constructs decision records use. */
export function rstToMarkdown(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  const styles: string[] = [];
  const indentOf = (l: string) => /^\s*/.exec(l)![0].length;
  /** the indented block after line i (blank lines inside kept), de-indented */
  const block = (i: number): { body: string[]; end: number } => {
    let j = i;
    while (j < lines.length && !lines[j]!.trim()) j++;
    const ind = j < lines.length ? indentOf(lines[j]!) : 0;
    if (!ind) return { body: [], end: i };
    const body: string[] = [];
    while (j < lines.length && (!lines[j]!.trim() || indentOf(lines[j]!) >= ind)) body.push(lines[j++]!.slice(ind));
    while (body.length && !body[body.length - 1]!.trim()) body.pop();
    return { body, end: j };
  };
  const ADORN = /^([=\-~^"'`#*+:._])\1{2,}\s*$/;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    // overlined title: the overline goes, the underline decides the level
    if (ADORN.test(l) && lines[i + 1]?.trim() && ADORN.test(lines[i + 2] ?? '') && lines[i + 2]!.trim()[0] === l.trim()[0]) {
      const key = 'o' + l.trim()[0];
      if (!styles.includes(key)) styles.push(key);
      out.push(`${'#'.repeat(Math.min(6, styles.indexOf(key) + 1))} ${inline(lines[i + 1]!.trim())}`);
      i += 2;
      continue;
    }
    const under = lines[i + 1] ?? '';
    if (l.trim() && !ADORN.test(l) && ADORN.test(under) && under.trim().length >= l.trim().length - 1 && indentOf(l) === 0) {
      const key = 'u' + under.trim()[0];
      if (!styles.includes(key)) styles.push(key);
      out.push(`${'#'.repeat(Math.min(6, styles.indexOf(key) + 1))} ${inline(l.trim())}`);
      i++;
      continue;
    }
    // directives: code blocks fenced, admonitions as a bold label, the rest (targets, comments, images) dropped
    const d = /^\.\.\s+([\w-]+)::\s*(.*)$/.exec(l);
    if (d) {
      const { body, end } = block(i + 1);
      const kind = d[1]!.toLowerCase();
      if (kind === 'code-block' || kind === 'code' || kind === 'sourcecode') out.push('```' + d[2]!.trim(), ...body.filter((b, k) => k > 0 || !b.startsWith(':')), '```', '');
      else if (/^(note|tip|important|warning|caution|attention|danger|hint|admonition|seealso)$/.test(kind)) out.push(`**${kind === 'seealso' ? 'See also' : kind[0]!.toUpperCase() + kind.slice(1)}:** ${inline([d[2]!, ...body].join(' ').replace(/\s+/g, ' ').trim())}`, '');
      i = end - 1;
      continue;
    }
    if (/^\.\.(\s|$)/.test(l)) {
      // a comment or a link target, with its indented continuation
      i = block(i + 1).end - 1;
      continue;
    }
    // field list (":Status: Accepted") as a metadata line
    const field = /^:([A-Za-z][\w ()-]{0,30}):\s*(.*)$/.exec(l);
    if (field) {
      out.push(`${field[1]}: ${inline(field[2]!)}`);
      continue;
    }
    // a paragraph ending in "::" introduces a literal block
    if (/::\s*$/.test(l) && lines[i + 1] !== undefined) {
      const { body, end } = block(i + 1);
      if (body.length) {
        const lead = l.replace(/\s*::\s*$/, '');
        if (lead.trim()) out.push(inline(lead.replace(/\s+$/, '') + (/\s::\s*$/.test(l) ? '' : ':')));
        out.push('', '```', ...body, '```', '');
        i = end - 1;
        continue;
      }
    }
    out.push(inline(l.replace(/^(\s*)#\.(\s)/, '$11.$2')));
  }
  return out.join('\n');
}

/** Inline reStructuredText markup as markdown (``literal`` parts taken as they are). */
function inline(s: string): string {
  if (!/[`:_|]/.test(s)) return s;
  return s
    .split(/``([^`]+)``/)
    .map((part, k) =>
      k % 2
        ? '`' + part + '`'
        : part
            .replace(/`([^`<]+?)\s*<([^>`]+)>`__?/g, '[$1]($2)')
            .replace(/:(?:doc|ref|any|term|file|class|func|meth|mod|attr|obj):`(?:([^`<]+?)\s*<[^>`]+>|([^`]+))`/g, (_m, x?: string, y?: string) => '`' + (x ?? y ?? '').trim() + '`')
            .replace(/`([^`]+)`_/g, '$1'),
    )
    .join('');
}

/** A name for a record in running text: its id and title. */
function nameOf(a: Artifact): string {
  const title = (a.title ?? '').replace(/\s+/g, ' ').trim();
  return title && title !== a.id ? `${a.id} (${title})` : a.id;
}

const POINTER = /\b(?:see|refer to|superseded by|replaced by|amended by|updated (?:in|by)|moved to|continued in|follow[- ]up in|obsoleted by)\b/i;

/**
 * Resolve the references of a line: a relative link becomes a marked repository path (and,
 * on a pointer line, its text names the record it reaches); a bare record number on a
 * pointer line ("See 0009 for updates") becomes the record's id and title.
 */
function resolveLine(line: string, a: Artifact, index: RecordIndex): string {
  const dir = path.posix.dirname(a.file);
  const pointer = POINTER.test(line);
  let named = false;
  let out = line.replace(/(!?)\[([^\]]*)\]\(([^)\s]+)(\s+"[^"]*")?\)/g, (m, bang: string, text: string, target: string, title = '') => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('/')) return m;
    const [file, frag = ''] = target.split(/(?=#)/);
    let rel: string;
    try {
      rel = path.posix.normalize(path.posix.join(dir, decodeURI(file!)));
    } catch {
      return m;
    }
    if (rel.startsWith('../') || rel === '..') return m;
    const to = index.byFile.get(rel) ?? index.byFile.get(rel.replace(/\.html$/, '.md'));
    if (pointer && to && !bang) {
      named = true;
      text = nameOf(to);
    }
    return `${bang}[${text}](${MARK}${rel}${frag}${MARK}${title})`;
  });
  if (pointer && !named && a.format === 'adr') {
    // outside marked paths only; "ADR 9", "#9" or a zero-padded "0009", never a plain small number
    out = out
      .split(MARK)
      .map((seg, k) =>
        k % 2
          ? seg
          : seg.replace(/(?<![\w/.-])(?:(ADR[-_ ]?|#)0*(\d{1,5})|0+(\d{1,5})|(\d{3,5}))(?![\w/.-])/gi, (m, pre?: string, n1?: string, n2?: string, n3?: string) => {
              const n = pre ? n1 : (n2 ?? n3);
              const to = n === undefined ? undefined : index.byNumber.get(`${dir}\0${Number(n)}`);
              if (!to || to === a || named) return m;
              named = true;
              return nameOf(to);
            }),
      )
      .join(MARK);
  }
  return out;
}

/** Rewrite the marked repository paths of a text to work from a rule file's folder ('.' = the root). */
export function relinkText(text: string, fromDir: string): string {
  if (!text.includes(MARK)) return text;
  return text.replace(new RegExp(`${MARK}([^${MARK}]*)${MARK}`, 'g'), (_m, p: string) => {
    const [file, frag = ''] = p.split(/(?=#)/);
    const rel = fromDir === '.' || fromDir === '' ? file! : path.posix.relative(fromDir, file!);
    return encodeURI(rel || '.').replace(/[()]/g, (c) => encodeURIComponent(c)) + frag;
  });
}

/** Whether a summary says nothing the text does not (equal, contained, or its truncated start). */
export function summaryRepeats(summary: string, text: string): boolean {
  if (text.includes(summary)) return true;
  const s = plainWords(summary).replace(/\s*\u2026$/, '');
  if (!s) return true;
  return plainWords(text).includes(s);
}

export { isMetaRecord } from '../artifacts/meta-record.js';

/**
 * What a record decides: its decision / outcome / rules section (any heading of that kind,
 * however numbered), else its body without the title, metadata lines and boilerplate
 * sections. Inner headings become bold lines (they would break the rule file's outline);
 * references are resolved against the other records.
 */
export function ruleText(a: Artifact, index: RecordIndex): RuleText {
  let body = a.body.replace(/\r\n?/g, '\n');
  const fm = /^---\n[\s\S]*?\n---(?:\n|$)/.exec(body);
  if (fm) body = body.slice(fm[0].length);
  if (/\.rst$/i.test(a.file)) body = rstToMarkdown(body);
  const lines = body.split('\n');
  const heads = headingsOf(lines);
  // the record's own title: a first heading before any text
  const firstText = lines.findIndex((l) => l.trim());
  const h0 = heads[0];
  const titleHead = h0 && h0.at === firstText && (h0.level === 1 || !heads.some((h) => h.level < h0.level)) && !DECIDES.test(norm(h0.title)) && !BOILERPLATE.test(norm(h0.title)) ? h0 : undefined;

  const keep = new Array<boolean>(lines.length).fill(false);
  const decides = heads.map((h, k) => ({ h, k })).filter(({ h }) => h !== titleHead && DECIDES.test(norm(h.title)));
  // a decision section nested in another keeps only the outer one
  const outer = decides.filter(({ h, k }) => !decides.some((o) => o.k < k && sectionEnd(heads, o.k, lines.length) > h.at));
  const markSection = (k: number, from: number) => {
    const end = sectionEnd(heads, k, lines.length);
    for (let i = from; i < end; i++) keep[i] = true;
    // drop what weighs the decision rather than states it
    for (let j = k + 1; j < heads.length && heads[j]!.at < end; j++) {
      if (WEIGHS.test(norm(heads[j]!.title)) || BOILERPLATE.test(norm(heads[j]!.title))) for (let i = heads[j]!.at; i < sectionEnd(heads, j, lines.length) && i < end; i++) keep[i] = false;
    }
  };
  for (const { h, k } of outer) markSection(k, h.at + h.span);
  // pointer lines before the first section or in a Status section ("See 0009 for updates") are kept with any text
  const preambleEnd = heads.find((h) => h !== titleHead)?.at ?? lines.length;
  const statusAt = heads.map((h, k) => ({ h, k })).filter(({ h }) => norm(h.title) === 'status');
  const pointerLine = (i: number) => POINTER.test(lines[i]!) && /\]\(|\d/.test(lines[i]!);
  const keepPointers = () => {
    for (let i = titleHead ? titleHead.at + titleHead.span : 0; i < preambleEnd; i++) if (pointerLine(i)) keep[i] = true;
    for (const { h, k } of statusAt) for (let i = h.at + h.span; i < sectionEnd(heads, k, lines.length); i++) if (pointerLine(i)) keep[i] = true;
  };
  let text = collect(lines, heads, keep);
  if (text) {
    keepPointers();
    text = collect(lines, heads, keep);
  } else {
    keep.fill(true);
    if (titleHead) for (let i = 0; i < titleHead.at + titleHead.span; i++) keep[i] = false;
    heads.forEach((h, k) => {
      if (h !== titleHead && BOILERPLATE.test(norm(h.title))) for (let i = h.at; i < sectionEnd(heads, k, lines.length); i++) keep[i] = false;
    });
    // metadata lines and tables before the first section
    for (let i = titleHead ? titleHead.at + titleHead.span : 0; i < preambleEnd; i++) if (META.test(lines[i]!) || /^\s*\|/.test(lines[i]!)) keep[i] = false;
    keepPointers();
    text = collect(lines, heads, keep);
  }
  text = withoutDiagrams(text);
  // references outside code blocks only
  let fence = false;
  text = text
    .split('\n')
    .map((l) => {
      if (/^\s{0,3}(```|~~~)/.test(l)) fence = !fence;
      return fence ? l : resolveLine(l.replace(TEMPLATE_BECAUSE, ''), a, index);
    })
    .join('\n');
  // a decision record's summary not written by its authors was taken from its decision (so repeated) or its context (boilerplate)
  const derived = a.format === 'adr' && typeof a.data.summary !== 'string' && typeof a.data.description !== 'string';
  const summary = derived ? '' : (a.summary ?? '').replace(/\s+/g, ' ').trim();
  return { text, summary: summary && text && summaryRepeats(summary, text) ? '' : summary };
}

/** Fenced diagram languages: the source of a picture, not a rule an agent can follow. */
const DIAGRAM_FENCE = /^\s{0,3}(`{3,}|~{3,})\s*(?:mermaid|plantuml|puml|dot|graphviz|ditaa|d2|structurizr)\b/i;

/**
 * The text without its fenced diagrams (```mermaid, ```plantuml, …): a rule file is read by an
 * agent on every request, and a diagram's source costs tokens without saying what to do. The
 * full record, named under each rule, keeps it.
 */
export function withoutDiagrams(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = DIAGRAM_FENCE.exec(lines[i]!);
    if (!open) {
      out.push(lines[i]!);
      continue;
    }
    const close = new RegExp(`^\\s{0,3}${open[1]![0] === '`' ? '`' : '~'}{${open[1]!.length},}\\s*$`);
    let j = i + 1;
    while (j < lines.length && !close.test(lines[j]!)) j++;
    i = j;
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

/**
 * The kept lines, headings as bold lines, blank runs folded. The lines under each heading lose
 * the indentation they all share: a section written indented as a whole (cloud-carbon-footprint's
 * "    1) Host application …" under `## Decision`) is its list, not a code block whose first line
 * alone the final trim would pull left.
 */
function collect(lines: string[], heads: Heading[], keep: boolean[]): string {
  const headAt = new Map(heads.map((h) => [h.at, h]));
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    const shared = Math.min(...run.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
    out.push(...(Number.isFinite(shared) && shared > 0 ? run.map((l) => l.slice(Math.min(shared, /^ */.exec(l)![0].length))) : run));
    run = [];
  };
  for (let i = 0; i < lines.length; i++) {
    if (!keep[i]) continue;
    const h = headAt.get(i);
    if (h) {
      flush();
      out.push('', `**${h.title.replace(/^\*\*(.*)\*\*$/, '$1')}**`);
      i += h.span - 1;
      continue;
    }
    run.push(lines[i]!.replace(/\s+$/, ''));
  }
  flush();
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trim();
}

