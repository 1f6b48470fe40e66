// @spec SPEC-SOURCES-001
//
// AsciiDoc decision records (`0001-use-postgres.adoc`, arc42 and the Java world keep them so):
// read through a line-for-line markdown reading of their text, so that the record parts,
// titles, status language, relation wordings and links markdown records have apply to them
// unchanged (@decision DEC-128). A new record in a folder of `.adoc` records is written as one.

import { learnRstShape, type RstShape } from './rst-record.js';
import { roleOf, type Role } from './record-shape.js';

export { ADOC_FILE, isAdoc } from './adoc-file.js';

/** A record file a link names without its extension (`<<0002-cache#,…>>`): an AsciiDoc one. */
function docTarget(target: string): string | undefined {
  const hash = target.indexOf('#');
  const p = hash < 0 ? target : target.slice(0, hash);
  if (!p) return undefined;
  return /\.[A-Za-z0-9]{1,9}$/.test(p) ? target : p + '.adoc' + (hash < 0 ? '' : target.slice(hash));
}

/** The words a link shows: its text, else its target's file name. */
function shown(text: string | undefined, target: string): string {
  const t = text?.replace(/^"(.*)"$/, '$1').trim();
  return t || target.replace(/#.*$/, '').replace(/^.*\//, '') || target;
}

/** One line's inline markup read as markdown: links and cross references, passthroughs, roles; code spans kept. */
function inline(line: string): string {
  return line
    .split(/(`[^`]*`)/)
    .map((seg, i) => {
      if (i % 2) return seg;
      return (
        seg
          // xref:0002-cache.adoc[Cache], xref:0002-cache.adoc#why[] ; an anchor of this document alone is words
          .replace(/\bxref:([^\s[\]]+)\[([^\]]*)\]/g, (_, t: string, x: string) => {
            const doc = docTarget(t);
            return doc ? `[${shown(x, t)}](${doc})` : shown(x, t);
          })
          // <<0002-cache.adoc#,Cache>>, <<0002-cache#,Cache>>, <<section-id>>
          .replace(/<<([^,>\s]+)(?:,\s*([^>]*))?>>/g, (_, t: string, x: string | undefined) => {
            const doc = t.includes('#') || /\.(?:adoc|asciidoc)$/i.test(t) ? docTarget(t) : undefined;
            return doc ? `[${shown(x, t)}](${doc})` : shown(x, t);
          })
          // link:0002-cache.adoc[Cache], link:https://…[text], https://…[text]
          .replace(/\blink:([^\s[\]]+)\[([^\]]*)\]/g, (_, t: string, x: string) => `[${shown(x, t)}](${t})`)
          .replace(/(?<![(\w/])((?:https?|ftp):\/\/[^\s[\]]+)\[([^\]]*)\]/g, (_, t: string, x: string) => (x.trim() ? `[${shown(x, t)}](${t})` : t))
          .replace(/\bfootnote:\[([^\]]*)\]/g, ' ($1)')
          .replace(/\b(?:kbd|btn):\[([^\]]*)\]/g, '$1')
          .replace(/\bpass:\w*\[([^\]]*)\]/g, '$1')
          // [.role]#text#, [line-through]#text#: the text
          .replace(/\[[^\]\s]*\]#([^#]+)#/g, '$1')
          .replace(/\s\+$/, '')
      );
    })
    .join('');
}

/** Attribute entries whose value is a record's metadata, as the markdown line that states it. */
const META_ATTRIBUTE: Record<string, string> = { status: 'Status', revdate: 'Date', date: 'Date', author: 'Authors', authors: 'Authors', deciders: 'Deciders', tags: 'Tags', keywords: 'Tags' };

/**
 * An AsciiDoc text as markdown, line for line (a line of the reading is the line of the file
 * at the same number, so a finding's line is the file's): `= Title` and `==` sections as ATX
 * headings (a `:doctitle:` attribute names the title), `----`/`....` blocks and `[source,…]`
 * listings as fenced code, comments (`//` lines, `////` blocks) and block attributes blank,
 * `:status:`/`:revdate:`/`:date:` attributes as `Status:`/`Date:` lines, lists as markdown
 * lists, `Status:: Accepted` as `Status: Accepted`, one-line table rows as markdown rows, and links and cross references
 * (`xref:`, `link:`, `<<file#,text>>`) as markdown links.
 */
export function adocToMarkdown(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const docTitle = lines.map((l) => /^:doctitle:\s*(\S.*?)\s*$/.exec(l)?.[1]).find((t) => t !== undefined);
  const hasTitleLine = lines.some((l) => /^=[ \t]+\S/.test(l));
  const out: string[] = [];
  let block: string | undefined;
  let comment = false;
  let sourcePara = false;
  let lang: string | undefined;
  let header = false;
  let table = false;
  let seenTitle = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (comment) {
      out.push('');
      if (/^\/{4,}\s*$/.test(l)) comment = false;
      continue;
    }
    if (block !== undefined) {
      const closes = l.trimEnd() === block;
      out.push(closes ? '```' : l);
      if (closes) block = undefined;
      continue;
    }
    if (sourcePara) {
      if (l.trim()) out.push(l);
      else {
        out.push('```');
        sourcePara = false;
      }
      continue;
    }
    if (/^\/{4,}\s*$/.test(l)) {
      comment = true;
      out.push('');
      continue;
    }
    if (/^\/\/(?!\/\/)/.test(l)) {
      out.push('');
      continue;
    }
    const delim = /^(-{4,}|\.{4,}|\+{4,}|`{3,}[\w-]*)\s*$/.exec(l);
    if (delim) {
      const d = delim[1]!;
      block = d.startsWith('`') ? d.replace(/[\w-]+$/, '') : d;
      out.push(d.startsWith('`') ? d : '```' + (lang ?? ''));
      lang = undefined;
      continue;
    }
    const src = /^\[(?:source|listing|literal)(?:,\s*([\w+#-]+))?[^\]]*\]\s*$/.exec(l);
    if (src) {
      const next = lines[i + 1] ?? '';
      if (next.trim() && !/^(-{4,}|\.{4,}|`{3,})/.test(next)) {
        out.push('```' + (src[1] ?? ''));
        sourcePara = true;
      } else {
        lang = src[1];
        out.push('');
      }
      continue;
    }
    if (!l.trim()) {
      header = false;
      out.push('');
      continue;
    }
    if (/^\|={3,}\s*$/.test(l)) table = !table;
    // other delimited blocks (example, sidebar, quote, open, table): their text is the record's, the line is not
    if (/^(?:={4,}|\*{4,}|_{4,}|--|[|!]={3,})\s*$/.test(l) || /^\[[^\]]*\]\s*$/.test(l) || /^\.(?=[^\s.])/.test(l) || /^(?:image|include|video|audio|toc)::/.test(l) || /^'{3,}\s*$/.test(l)) {
      out.push('');
      continue;
    }
    const h = /^(={1,6})[ \t]+(\S.*?)(?:[ \t]+=+)?[ \t]*$/.exec(l);
    if (h) {
      const level = h[1]!.length;
      if (level === 1 && !seenTitle) {
        seenTitle = true;
        header = true;
        out.push(`# ${inline(docTitle ?? h[2]!)}`);
      } else out.push(`${'#'.repeat(level)} ${inline(h[2]!)}`);
      continue;
    }
    const attr = /^:([\w][\w-]*)!?:\s*(.*?)\s*$/.exec(l);
    if (attr) {
      const name = attr[1]!.toLowerCase();
      const label = META_ATTRIBUTE[name];
      if (name === 'doctitle' && !hasTitleLine && !seenTitle) {
        seenTitle = true;
        out.push(`# ${inline(attr[2]!)}`);
      } else out.push(label && attr[2] ? `${label}: ${inline(attr[2])}` : '');
      continue;
    }
    if (header) {
      // the header's author line, then its revision line ("v1.2, 2024-03-01: remark"), whose date is the record's
      const rev = /^v?\d[\w.]*,\s*(\d{4}-\d\d-\d\d)\b/.exec(l) ?? /^(\d{4}-\d\d-\d\d)\s*(?::|$)/.exec(l);
      // a "Date: 2025-06-17" line written there is the record's metadata line, as in markdown
      out.push(rev ? `Date: ${rev[1]}` : /^\p{L}[\p{L} ()/-]{1,30}:\s/u.test(l) ? inline(l) : '');
      continue;
    }
    const item = /^(\s*)(\*{1,5}|-|\.{1,5})[ \t]+(\S.*)$/.exec(l);
    if (item) {
      const mark = item[2]!;
      const depth = mark === '-' ? 1 : mark.length;
      out.push(`${'  '.repeat(depth - 1)}${mark[0] === '.' ? '1.' : '-'} ${inline(item[3]!)}`);
      continue;
    }
    // a description list's item ("Status:: Accepted"): a label and its value
    const dl = /^(\S[^:]{0,40}?):{2,4}(?:[ \t]+(.*))?$/.exec(l);
    if (dl) {
      out.push(dl[2] ? `${dl[1]}: ${inline(dl[2])}` : `${dl[1]}:`);
      continue;
    }
    // a table's row written on one line ("| Status | Accepted"): a markdown row, closed
    out.push(table && /^\|.*\S/.test(l) && !/\|\s*$/.test(l) ? `${inline(l.trimEnd())} |` : inline(l));
  }
  if (block !== undefined || sourcePara) out.push('```');
  return out.join('\n');
}

/** Section headings of an AsciiDoc text: the `= Title` line as `=`, `== Status` as `==`, … (comments and blocks skipped). */
export function adocHeadings(text: string): { title: string; char: string; over: boolean }[] {
  const out: { title: string; char: string; over: boolean }[] = [];
  for (const m of adocToMarkdown(text).matchAll(/^(#{1,6}) (.+)$/gm)) out.push({ title: m[2]!.trim(), char: '='.repeat(m[1]!.length), over: false });
  return out;
}

/** How a folder's AsciiDoc records are written: an rst record's shape, and where the status and date go. */
export type AdocShape = RstShape & { statusAttribute: boolean; date: ':revdate:' | ':date:' | 'Date:' | undefined };

/**
 * The shape of a folder's AsciiDoc records, learned from one of them (as an rst record's): its
 * `= Title`, its `==` sections, a `:status:` attribute standing for the Status section, and how
 * it dates itself. Undefined when the record has no `= Title` or no status.
 */
export function learnAdocShape(text: string, others: readonly string[] = []): AdocShape | undefined {
  // a `:status:` attribute in place of a Status section: a section the shape stands on, left out when written
  const own = adocHeadings(text);
  const statusAttribute = /^:status:/im.test(text) && !own.some((h) => roleOf(h.title) === 'status');
  const level = own.slice(1).find((h) => h.char.length > 1)?.char ?? '==';
  const headings = (t: string) => (t === text && statusAttribute ? [...own.slice(0, 1), { title: 'Status', char: level, over: false }, ...own.slice(1)] : adocHeadings(t));
  const shape = learnRstShape(text, others, headings);
  if (!shape || shape.title.char !== '=') return undefined;
  const date = /^:revdate:/m.test(text) ? ':revdate:' : /^:date:/im.test(text) ? ':date:' : /^Date:/m.test(text) ? 'Date:' : undefined;
  return { ...shape, sections: statusAttribute ? shape.sections.filter((x) => x.role !== 'status') : shape.sections, statusAttribute, date };
}

/** A folder of AsciiDoc records none of which shows a shape to follow: adr-tools' sections, in AsciiDoc. */
export const DEFAULT_ADOC_SHAPE: AdocShape = {
  title: { char: '=', over: false, numbered: true },
  sections: (['Status', 'Context', 'Decision', 'Consequences'] as const).map((t) => ({ title: t, char: '==', role: t.toLowerCase() as Role })),
  statusAttribute: false,
  date: ':revdate:',
};

/** A new AsciiDoc record's text in a learned shape: `= N. Title`, its date and status attributes as the folder writes them, then its sections. */
export function renderAdoc(shape: AdocShape, f: { number: string; fileNumber?: string; title: string; status: string; date: string; context?: string; decision?: string; consequences?: string }): string {
  const lead = shape.title.prefix?.replace('{N}', f.fileNumber ?? f.number).replace('{n}', String(Number(f.number)));
  const title = lead ? `${lead}${f.title}` : shape.title.numbered ? `${Number(f.number)}. ${f.title}` : f.title;
  let out = `= ${title}\n${shape.date ? `${shape.date} ${f.date}\n` : ''}${shape.statusAttribute ? `:status: ${f.status}\n` : ''}`;
  const written = new Set<Role>(shape.statusAttribute ? ['status'] : []);
  for (const s of shape.sections) {
    const text = written.has(s.role) || s.role === 'other' ? undefined : s.role === 'status' ? f.status : f[s.role];
    written.add(s.role);
    out += `\n${s.char} ${s.title}\n${text?.trim() ? `\n${text.trim()}\n` : ''}`;
  }
  return out;
}

/** A record's markdown confirmation section (confirmationSection) in AsciiDoc: its heading an `==` one, its fenced block a `[source,git-ctx]` listing, read back as the same fence. */
export function adocConfirmation(markdown: string): string {
  return markdown.replace(/^(#+) /gm, (_, h: string) => '='.repeat(h.length) + ' ').replace(/^```git-ctx$/m, '[source,git-ctx]\n----').replace(/^```$/m, '----');
}
