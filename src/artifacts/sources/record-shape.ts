// @spec SPEC-SOURCES-001

import { splitFrontmatter } from '../parse.js';
import { SITE_KEYS, SITE_ORDER_KEYS } from './site-keys.js';

/** What a new record fills in: the rest of the learned shape stays as empty sections. */
export interface RecordFill {
  /** the number as the title writes it (`14`, or padded like the file's) */
  number: string;
  /** the number as the file name writes it (`0034`); `number` when not given */
  fileNumber?: string;
  title: string;
  status: string;
  date: string;
  context?: string;
  decision?: string;
  consequences?: string;
  /** the new record's file name without extension, for a frontmatter key that holds it (`id: {stem}`) */
  stem?: string;
  /** MADR frontmatter lists (only where the shape has frontmatter) */
  paths?: string[];
  keywords?: string[];
}

export type Role = 'status' | 'context' | 'decision' | 'consequences' | 'other';

/**
 * The shape of a folder's records, learned from one of them: how the title line numbers the
 * record (`# 14. Title`, `# ADR-014: Title`, `# Title`), where status and date are written
 * (frontmatter, `Date:` / `* Status:` / `**Status:**` lines under the title, a `## Status`
 * section), and its sections in order. A new record copies it so that the folder keeps one
 * style: adr-tools records stay adr-tools records, MADR ones MADR.
 */
export interface RecordShape {
  style: 'nygard' | 'madr';
  /**
   * the model's frontmatter as line templates in its order (undefined: no frontmatter):
   * `status: {status}`, `date: {date}`, `title: {title}` (`{heading}`: with its number), a key holding the record's own
   * number (`adr: "{N}"`, `{N}` as the file name pads it, `{n}` bare), a list left empty
   * (`tags: []`), the documentation site's keys copied (`parent: Decision Records`;
   * `nav_order: {n}`); other values, which belong to one record, are left out (DEC-107)
   */
  frontmatter?: string[];
  /** a comment every record opens with before its frontmatter (a licence header), copied as written */
  header?: string;
  /** a blank line between the frontmatter and the title, as the model leaves one */
  frontmatterGap?: boolean;
  /** the model's frontmatter status in capitals (`Accepted`), not lower case as MADR's template writes it */
  frontmatterStatusCapital?: boolean;
  /** lines between the title and the first section that every other record read repeats verbatim (`<AdrTable frontMatter={frontMatter}></AdrTable>`) */
  preamble?: string[];
  /** the title line before the title: `14. `, `ADR-014: ` (the number as `{n}`), or '' */
  titlePrefix: string;
  /** the title's number is zero-padded like the file name's (`# 0014. …`), not bare (`# 14. …`) */
  titlePadded: boolean;
  /** metadata lines under the title, `{v}` for the value */
  meta: { key: 'status' | 'date'; line: string }[];
  sections: { hashes: string; title: string; role: Role }[];
  /** the model wrote its status in lower case (`* Status: accepted`), as MADR does */
  statusLower: boolean;
  /** how the model's Status section writes its value (`- **{v}**`), when it decorates it */
  statusLine?: string;
  /** the model writes its status in frontmatter and again in its Status section: the new record too */
  statusRepeated?: boolean;
  /**
   * the model opens with a table of its metadata and has no title line (DependencyTrack/hyades:
   * `| Status | Date | Author(s) |`, the title in the documentation site's menu): the table's
   * header and rule as written, and its row with `{status}` and `{date}`, other cells left empty
   */
  table?: string[];
}

/** An HTML comment opening a record, and the blank lines after it, when frontmatter follows. */
export const LICENCE_LEAD = /^(?:[ \t]*\n)*<!--[\s\S]*?-->[ \t]*\n(?:[ \t]*\n)*(?=---[ \t]*\n)/;

export const roleOf = (title: string): Role => {
  const t = title.normalize('NFC').toLowerCase().replace(/^[\d.\s]+/, '').replace(/[*_`:]/g, '').trim();
  if (/^(status|statut|estado)$/.test(t)) return 'status';
  // and the same parts named in the team's language ("Kontext", "Entscheidung", "Konsequenzen":
  // HubEvolution/EvolutionHub): a new record got MADR's English sections after them @decision DEC-132
  if (/^(context|context and problem statement|problem statement|context and problem|background|kontext|hintergrund|contexte|contexto|achtergrond)$/.test(t)) return 'context';
  // MADR's "Context and Problem Statement" and "Decision Outcome" translated ("Contexte et Definition du
  // Probleme", "Resultat de la Decision", SocialGouv/pass-emploi-api): `add` writes there @decision DEC-136
  if (/^(?:contexte|kontext|contexto|contesto) (?:et|und|y|e|en) /.test(t)) return 'context';
  if (/^(decision|decision outcome|the decision|entscheidung|d\u00e9cision|decisi\u00f3n|decis\u00e3o|besluit|beslissing)$/.test(t)) return 'decision';
  if (/^(?:r\u00e9sultat de la d\u00e9cision|d\u00e9cision retenue|entscheidungsergebnis|ergebnis der entscheidung|resultado de la decisi\u00f3n|resultado da decis\u00e3o)$/.test(t)) return 'decision';
  // "Outcomes" (with "Positive/Negative Outcomes" under it), "Consequences and Risks", "Implications": where a style weighs what follows
  if (/^(consequences?|outcomes|consequences and risks|implications|konsequenzen|auswirkungen|cons\u00e9quences|consecuencias|consequ\u00eancias|gevolgen)$/.test(t)) return 'consequences';
  return 'other';
};

/**
 * The shape of one record's text, or undefined when it has no place for a status (a shape
 * git-ctx could not fill) or no level-1 title.
 */
export function learnShape(text: string, opts: { number?: string; others?: readonly string[]; stem?: string; statusless?: boolean } = {}): RecordShape | undefined {
  // a licence header in a comment before the frontmatter (REUSE's SPDX lines): the frontmatter is under it;
  // the header is the folder's when every other record read opens with the same one
  const unix = text.replace(/\r\n/g, '\n');
  const lead = LICENCE_LEAD.exec(unix)?.[0] ?? '';
  const fm = splitFrontmatter(unix.slice(lead.length));
  const header = lead && opts.others?.length && opts.others.every((o) => o.replace(/\r\n/g, '\n').startsWith(lead)) ? lead : undefined;
  const learned = fm.hasFrontmatter ? frontmatterLines(fm.yaml, opts.number, opts.stem) : undefined;
  let frontmatter = learned?.lines;
  const lines = fm.body.split('\n');
  let h1 = lines.findIndex((l) => /^#\s+\S/.test(l));
  const table = h1 < 0 ? metadataTable(lines) : undefined;
  if (table) h1 = table.end;
  if (h1 < 0) return undefined;
  const heading = table ? '' : lines[h1]!.replace(/^#\s+/, '');
  let titlePrefix = '';
  let titlePadded = false;
  const dotted = /^(\d+)\.\s+/.exec(heading);
  const named = /^([A-Za-z]{2,8}[-_ ]?)(\d+)(\s*[:.\u2013\u2014-]\s*|\s+)/.exec(heading);
  // "# 0033 - Adopt Mermaid diagram standard" (bitwarden/contributing-docs): a bare number and a dash or colon
  const bare = /^(\d+)(\s*[:\u2013\u2014-]\s*)(?=\S)/.exec(heading);
  const padded = (digits: string) => digits.length > 1 && digits.startsWith('0');
  if (dotted) {
    titlePrefix = `{n}. `;
    titlePadded = padded(dotted[1]!);
  } else if (named) {
    titlePrefix = `${named[1]}{n}${named[3]}`;
    titlePadded = padded(named[2]!);
  } else if (bare) {
    titlePrefix = `{n}${bare[2]}`;
    titlePadded = padded(bare[1]!);
  }
  const meta: RecordShape['meta'] = [];
  const sections: RecordShape['sections'] = [];
  const before: string[] = [];
  let statusValue: string | undefined;
  let sectionStatus: string | undefined;
  for (const line of lines.slice(h1 + 1)) {
    const s = /^(#{2,4})\s+(.+?)\s*$/.exec(line);
    if (s) {
      sections.push({ hashes: s[1]!, title: s[2]!, role: roleOf(s[2]!) });
      continue;
    }
    if (sections.length) {
      // the Status section's first line (a meta `Status:` line above may have given statusValue already)
      if (sections.at(-1)!.role === 'status' && line.trim()) {
        sectionStatus ??= line.trim();
        statusValue ??= line.trim();
      }
      continue;
    }
    // `Date: 2020-01-01`, `* Status: accepted`, `- Date: …`, `**Status:** …`
    const m = /^(\s*(?:[-*]\s+)?(?:\*\*)?)(status|date)((?:\*\*)?\s*:\s*(?:\*\*)?\s*|\s*:(?:\*\*)?\s*)(.*)$/i.exec(line);
    if (!m) {
      if (line.trim()) before.push(line.trim());
      continue;
    }
    const key = m[2]!.toLowerCase() as 'status' | 'date';
    meta.push({ key, line: `${m[1]}${m[2]}${m[3]}{v}` });
    if (key === 'status') statusValue = m[4]!.trim();
  }
  const statusLower = !!statusValue && /[a-z]/.test(statusValue) && statusValue === statusValue.toLowerCase();
  // the record's own parts, not the subsections of what it happened to discuss ("### Problems
  // identified", "#### 1. …"): the shallowest level, and deeper ones only when they are a part
  // of the style (MADR's "### Consequences" under the outcome)
  const top = Math.min(...sections.map((x) => x.hashes.length));
  for (let i = sections.length - 1; i >= 0; i--) if (sections[i]!.hashes.length > top && sections[i]!.role === 'other') sections.splice(i, 1);
  const hasStatus = !!frontmatter || !!table || meta.some((m) => m.key === 'status') || sections.some((s) => s.role === 'status');
  // a folder whose records state no status (joeycumines/go-utilpkg: `# ADR-007: …`, Context,
  // Decision, Rationale) keeps its title and parts; a new record says it is proposed in a
  // Status section of the records' level, first, which its authors may drop once it stands @decision DEC-135
  if (!hasStatus && !(opts.statusless && sections.length && !table)) return undefined;
  if (!hasStatus) sections.unshift({ hashes: '#'.repeat(Math.min(...sections.map((x) => x.hashes.length))), title: 'Status', role: 'status' });
  if (frontmatter && learned) frontmatter = ownFrontmatter(frontmatter, learned, { meta, sections, heading, titlePrefix });
  const madr = !!frontmatter?.some((l) => l.startsWith('status:')) || meta.some((m) => /^\s*[-*]\s/.test(m.line)) || sections.some((s) => s.role === 'decision' && /outcome/i.test(s.title));
  completeSections(sections, madr);
  // a Status section's value as a list item or emphasised (`- **Accepted**`): the new record's too
  const decorated = statusValue !== undefined && !meta.some((m) => m.key === 'status') ? /^([-*+]\s+)?(\*\*|__|\*|_)?[A-Za-z]+\2$/.exec(statusValue) : null;
  const statusLine = decorated && (decorated[1] || decorated[2]) ? `${decorated[1] ?? ''}${decorated[2] ?? ''}{v}${decorated[2] ?? ''}` : undefined;
  // a line every other record repeats under its title is the folder's, not this record's (a site component, a banner)
  const preamble = opts.others?.length ? before.filter((l) => opts.others!.every((o) => o.split('\n').some((x) => x.trim() === l))) : [];
  const fmStatus = fm.hasFrontmatter ? /^status:[ \t]*["']?([^"'\n]*?)["']?[ \t]*$/m.exec(fm.yaml)?.[1] : undefined;
  const statusRepeated = !!frontmatter && !!fmStatus && sectionStatus?.replace(/[*_]/g, '').replace(/^[-+]\s+/, '').trim().toLowerCase() === fmStatus.toLowerCase();
  return { style: madr ? 'madr' : 'nygard', ...(table ? { table: table.lines } : {}), ...(header ? { header } : {}), ...(frontmatter ? { frontmatter } : {}), ...(statusRepeated ? { statusRepeated } : {}), ...(learned?.capital ? { frontmatterStatusCapital: true } : {}), ...(learned && /^[ \t]*\n/.test(fm.body) ? { frontmatterGap: true } : {}), ...(preamble.length ? { preamble } : {}), titlePrefix, titlePadded, meta, sections, statusLower, ...(statusLine ? { statusLine } : {}) };
}

/**
 * The metadata table a record opens with instead of a title (first lines `| Status | Date | … |`,
 * a rule, one row): its template (RecordShape.table) and the index of its last line.
 */
function metadataTable(lines: string[]): { lines: string[]; end: number } | undefined {
  const at = lines.findIndex((l) => l.trim() !== '');
  const cells = (l: string | undefined) => (l !== undefined && /^\s*\|.*\|\s*$/.test(l) ? l.trim().slice(1, -1).split('|') : undefined);
  const head = cells(lines[at]);
  const rule = cells(lines[at + 1]);
  const row = cells(lines[at + 2]);
  if (at < 0 || !head || !rule || !row || !rule.every((c) => /^\s*:?-+:?\s*$/.test(c))) return undefined;
  const keys = head.map((c) => c.trim().toLowerCase());
  if (!keys.includes('status')) return undefined;
  const value = keys.map((k) => (k === 'status' ? '{status}' : k === 'date' ? '{date}' : ''));
  return { lines: [lines[at]!, lines[at + 1]!, `| ${value.join(' | ')} |`.replace(/ {2,}\|/g, ' |')], end: at + 2 };
}

/**
 * A model's frontmatter without what its body holds: frontmatter of a documentation site's or
 * a sync tool's keys (`title`, `github_repo`) above a `## Status` section and a `Date:` line
 * (gardenlinux/gardenlinux) gets no `status:`/`date:` the model did not write, so the status is
 * written in the Status section as the folder's records write it. A `title` that repeats the
 * heading with its number (`title: "ADR 0018: …"`) is written so too (`{heading}`).
 */
function ownFrontmatter(lines: string[], learned: { added: string[]; title?: string }, body: { meta: RecordShape['meta']; sections: RecordShape['sections']; heading: string; titlePrefix: string }): string[] | undefined {
  const inBody = (k: 'status' | 'date') => body.meta.some((m) => m.key === k) || (k === 'status' && body.sections.some((x) => x.role === 'status'));
  let out = lines.filter((l) => !(learned.added.includes(l) && inBody(l.startsWith('status:') ? 'status' : 'date')));
  // without a status of its own the date it was given goes too: the body's `Date:` line, or none, as the model
  if (!out.some((l) => l.startsWith('status:'))) out = out.filter((l) => !learned.added.includes(l));
  if (body.titlePrefix && learned.title !== undefined && learned.title.trim() === body.heading.trim()) out = out.map((l) => (l === 'title: {title}' ? 'title: {heading}' : l));
  return out.length ? out : undefined;
}

// @decision DEC-107
/**
 * A model record's frontmatter as line templates (RecordShape.frontmatter). `number` is the
 * model's number as its file name writes it: a key whose value is that number numbers the
 * new record too, padded or not, quoted or not, as the model writes it.
 */
function frontmatterLines(yaml: string, number: string | undefined, stem?: string): { lines: string[]; capital: boolean; added: string[]; title?: string } {
  const lines: string[] = [];
  let capital = false;
  let title: string | undefined;
  const rows = yaml.split('\n');
  for (let i = 0; i < rows.length; i++) {
    const m = /^([A-Za-z_][\w-]*):[ \t]*(.*?)\s*$/.exec(rows[i]!);
    if (!m) continue;
    const [, key, raw] = m as unknown as [string, string, string];
    const quote = /^(["'])(.*)\1$/.exec(raw);
    const value = quote ? quote[2]! : raw;
    const q = quote?.[1] ?? '';
    const block = !raw && /^\s*-\s/.test(rows[i + 1] ?? '');
    if (key === 'status') {
      capital = /^[A-Z][a-z]/.test(value);
      lines.push(`status: ${q}{status}${q}`);
    } else if (key === 'date' || (/^\d{4}-\d{2}-\d{2}$/.test(value) && !SITE_KEYS.has(key))) lines.push(`${key}: ${q}{date}${q}`);
    else if (key === 'title') {
      lines.push('title: {title}');
      title = value;
    }
    // a key holding the record's file name (`id: 0012-use-queues`): the new record's own
    else if (stem !== undefined && value === stem) lines.push(`${key}: ${q}{stem}${q}`);
    else if (key === 'paths' || key === 'keywords') continue;
    else if (SITE_KEYS.has(key)) {
      if (key !== 'permalink' && raw) lines.push(SITE_ORDER_KEYS.has(key) && /^\d+$/.test(value) ? `${key}: {n}` : rows[i]!);
    } else if (number !== undefined && /^\d+$/.test(value) && Number(value) === Number(number)) lines.push(`${key}: ${q}${value.length > 1 && value.startsWith('0') ? '{N}' : '{n}'}${q}`);
    else if (/^\[.*\]$/.test(raw) || block) lines.push(`${key}: []`);
  }
  // the lines the model did not have, which learnShape leaves out where its body has their place
  const added: string[] = [];
  if (!lines.some((l) => l.startsWith('status:'))) lines.unshift(added[added.push('status: {status}') - 1]!);
  // the record's date under another key (`created: 2024-03-01`) is where its date goes
  if (!lines.some((l) => l.includes('{date}'))) lines.splice(lines.findIndex((l) => l.startsWith('status:')) + 1, 0, added[added.push('date: {date}') - 1]!);
  return { lines, capital, added, ...(title !== undefined ? { title } : {}) };
}

const ORDER: Role[] = ['status', 'context', 'decision', 'consequences'];

/**
 * The parts of its style a model record left out (an unfinished record without Consequences)
 * are put back where the style has them: a new record offers every part to fill in.
 */
function completeSections(sections: RecordShape['sections'], madr: boolean): void {
  const decision = sections.find((s) => s.role === 'decision');
  const titles: Record<'context' | 'decision' | 'consequences', [string, string]> = {
    context: ['##', madr ? 'Context and Problem Statement' : 'Context'],
    decision: ['##', madr ? 'Decision Outcome' : 'Decision'],
    // MADR keeps its consequences under the outcome
    consequences: [madr && decision && /outcome/i.test(decision.title) ? decision.hashes + '#' : '##', 'Consequences'],
  };
  for (const role of ['context', 'decision', 'consequences'] as const) {
    if (sections.some((s) => s.role === role)) continue;
    const after = ORDER.indexOf(role);
    let at = sections.findIndex((s) => s.role !== 'other' && ORDER.indexOf(s.role) > after);
    if (at < 0 && role === 'consequences') {
      // right after the decision and its subsections: a trailing "## Links" or "## Notes" stays
      // last, and MADR's consequences sit under the outcome, not under the links
      const prev = sections.findLastIndex((s) => s.role === 'decision');
      if (prev >= 0) {
        const depth = sections[prev]!.hashes.length;
        at = prev + 1;
        while (at < sections.length && sections[at]!.hashes.length > depth) at++;
      }
    }
    const [hashes, title] = titles[role];
    sections.splice(at < 0 ? sections.length : at, 0, { hashes, title, role });
  }
}

/** A new record's text in a learned shape. */
export function renderShape(shape: RecordShape, f: RecordFill): string {
  const list = (k: string, v: string[] | undefined) => (v?.length ? `${k}: [${v.map((x) => JSON.stringify(x)).join(', ')}]\n` : '');
  const status = shape.statusLower ? f.status.toLowerCase() : f.status;
  const value = (k: 'status' | 'date') => (k === 'status' ? status : f.date);
  let out = shape.header ?? '';
  if (shape.frontmatter) {
    // frontmatter statuses are written lower case, as MADR's template does, unless the folder capitalises them
    const fmStatus = shape.frontmatterStatusCapital ? f.status.charAt(0).toUpperCase() + f.status.slice(1) : f.status.toLowerCase();
    const fill: Record<string, string> = { status: fmStatus, date: f.date, title: JSON.stringify(f.title), heading: JSON.stringify(shape.titlePrefix.replace('{n}', f.number) + f.title), n: String(Number(f.fileNumber ?? f.number)), N: f.fileNumber ?? f.number, stem: f.stem ?? '' };
    out += `---\n${shape.frontmatter.map((l) => `${l.replace(/\{(status|date|title|heading|n|N|stem)\}/g, (_m, k: string) => fill[k]!)}\n`).join('')}${list('paths', f.paths)}${list('keywords', f.keywords)}---\n${shape.frontmatterGap ? '\n' : ''}`;
  }
  // a folder whose records open with their metadata table has no title line: its site's menu names them
  if (shape.table) out += `${shape.table.map((l) => l.replace('{status}', status).replace('{date}', f.date)).join('\n')}\n`;
  else out += `# ${shape.titlePrefix.replace('{n}', f.number)}${f.title}\n`;
  const written = new Set<string>();
  if (shape.meta.length) out += `\n${shape.meta.map((m) => m.line.replace('{v}', value(m.key))).join('\n')}\n`;
  if (shape.preamble?.length) out += `\n${shape.preamble.join('\n\n')}\n`;
  const parts = shape.sections.map((s) => {
    const text = written.has(s.role) || s.role === 'other' ? undefined : s.role === 'status' ? ((shape.frontmatter?.some((l) => l.startsWith('status:')) && !shape.statusRepeated) || shape.meta.some((m) => m.key === 'status') ? undefined : (shape.statusLine ?? '{v}').replace('{v}', status)) : f[s.role];
    if (s.role !== 'other') written.add(s.role);
    return `${s.hashes} ${s.title}\n${text?.trim() ? `\n${text.trim()}\n` : ''}`;
  });
  if (parts.length) out += `\n${parts.join('\n')}`;
  return out;
}
