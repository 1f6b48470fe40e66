// @spec SPEC-SOURCES-001

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isTemplateFile } from './files.js';
import { roleOf, type RecordFill, type Role } from './record-shape.js';
import { SITE_ORDER_KEYS } from './site-keys.js';

/** Folders beside the records where a team keeps its template (adr-tools reads `templates/template.md`). */
const TEMPLATE_DIRS = ['', 'templates', 'template'];

/**
 * The team's template for new records in a records folder, or undefined when it keeps none.
 * Several templates (MADR ships `adr-template.md` beside `adr-short-template.md`): the one
 * named only "template" (`template.md`, `adr-template.md`, `0000-adr-template.md`) first, then
 * the shortest name — the others are variants for special cases.
 */
export async function findTemplate(root: string, dir: string): Promise<{ file: string; text: string } | undefined> {
  const found: string[] = [];
  for (const sub of TEMPLATE_DIRS) {
    const rel = sub ? `${dir}/${sub}` : dir;
    const names = await readdir(path.join(root, ...rel.split('/'))).catch(() => [] as string[]);
    for (const n of names) if (isTemplateFile(n)) found.push(`${rel}/${n}`);
  }
  const plain = (f: string) => (/^[_.]?(?:0+[-_ .])?(?:adr-|madr-)?template\.(md|markdown)$/i.test(path.posix.basename(f)) ? 0 : 1);
  found.sort((a, b) => plain(a) - plain(b) || a.length - b.length || (a < b ? -1 : 1));
  for (const file of found) {
    const text = await readFile(path.join(root, ...file.split('/')), 'utf8').catch(() => undefined);
    // a template with no title line is no record template (a snippet, an include)
    if (text !== undefined && /^#\s+\S/m.test(text)) return { file, text: text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n') };
  }
  return undefined;
}

export interface TemplateFill extends RecordFill {
  /** the title line before the title as the folder's records write it (`14. `), the number in place; undefined: as the template has it */
  titlePrefix?: string;
}

/** A placeholder value written in lower case (`proposed`, `{proposed | accepted}`, `[draft | proposed]`): the status is written so too; `STATUS`, `**Proposed**` keep its case. */
const lowerPlaceholder = (v: string) => {
  const word = /[A-Za-z]+/.exec(v)?.[0];
  return !!word && word === word.toLowerCase();
};

/** A value as written with its emphasis (`**Proposed**` → `**Accepted**`); a placeholder's brackets are dropped. */
const decorate = (placeholder: string, value: string) => {
  const m = /^([-*+]\s+)?(\*\*|__|\*|_)?[^*_]*\2$/.exec(placeholder.trim());
  return `${m?.[1] ?? ''}${m?.[2] ?? ''}${value}${m?.[2] ?? ''}`;
};

const yamlScalar = (s: string) => (/^[A-Za-z0-9][^:#'"{}[\],&*!|>%@`]*$/.test(s) ? s : JSON.stringify(s));

/**
 * A new record written from the team's template, as adr-tools' `adr new` does: the template's
 * text stays (its guidance, its extra lines such as thunderbird's "- Issue:", its sections and
 * their order); git-ctx fills what it knows — the title line, the status and the date wherever
 * the template keeps them (frontmatter, a `Status:` line under the title, a Status section),
 * the number in a site's menu-order key, and the parts `git ctx add` wrote (context, decision,
 * consequences replace that section's guidance). A template whose status lines are commented
 * out of its frontmatter gets them back: a record without a status has no lifecycle.
 */
export function fillTemplate(template: string, f: TemplateFill): { text: string; madr: boolean } {
  let yaml: string[] | undefined;
  let body = template;
  const fm = /^---[ \t]*\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(template);
  if (fm) {
    yaml = fm[1]!.split('\n');
    body = template.slice(fm[0].length);
  }
  const lines = body.split('\n');
  const h1 = lines.findIndex((l) => /^#\s+\S/.test(l));
  let firstSection = lines.findIndex((l, i) => i > h1 && /^#{2,6}\s+\S/.test(l));
  if (firstSection < 0) firstSection = lines.length;
  let statusHome = false;
  let dateHome = false;
  // the title line: the folder's numbering, or the template's own `NUMBER.` placeholder
  if (h1 >= 0) {
    const numbered = /^#\s+(?:NUMBER|N{2,}|\{?number\}?)\.\s/i.test(lines[h1]!);
    lines[h1] = `# ${f.titlePrefix ?? (numbered ? `${f.number}. ` : '')}${f.title}`;
  }
  // `Status: …` and `Date: …` lines under the title (`- Status: **Proposed**`, `* Date: [YYYY-MM-DD] <!-- optional -->`)
  for (let i = h1 + 1; i < firstSection; i++) {
    const m = /^(\s*(?:[-*]\s+)?(?:\*\*)?)(status|date)((?:\*\*)?\s*:(?:\*\*(?=\s))?\s*)(.*?)\s*(?:<!--.*-->)?\s*$/i.exec(lines[i]!);
    if (!m) continue;
    const key = m[2]!.toLowerCase();
    if (key === 'status') statusHome = true;
    else dateHome = true;
    const value = key === 'status' ? decorate(m[4]!, lowerPlaceholder(m[4]!) ? f.status.toLowerCase() : f.status) : f.date;
    lines[i] = `${m[1]}${m[2]}${m[3]}${value}`;
  }
  // sections, as [start line, end line (exclusive), depth, role]
  const sections: { at: number; end: number; depth: number; role: Role }[] = [];
  let fence = false;
  for (let i = firstSection; i < lines.length; i++) {
    if (/^\s*(```|~~~)/.test(lines[i]!)) fence = !fence;
    const s = !fence && /^(#{2,6})\s+(.+?)\s*(?:<!--.*-->)?\s*$/.exec(lines[i]!);
    if (!s) continue;
    if (sections.length) sections.at(-1)!.end = i;
    sections.push({ at: i, end: lines.length, depth: s[1]!.length, role: roleOf(s[2]!) });
  }
  const replace = new Map<number, string[]>();
  const dropped = new Set<number>();
  for (const [k, s] of sections.entries()) {
    let fill: string | undefined;
    if (s.role === 'status') {
      statusHome = true;
      const first = lines.slice(s.at + 1, s.end).find((l) => l.trim() && !/^\s*<!--.*-->\s*$/.test(l));
      // `- **Proposed**` keeps its emphasis; a question or `STATUS` placeholder is replaced whole
      const decorated = first !== undefined && /^([-*+]\s+)?(\*\*|__|\*|_)?[A-Za-z]+\2$/.test(first.trim());
      fill = decorate(decorated ? first! : '', first !== undefined && lowerPlaceholder(first) ? f.status.toLowerCase() : f.status);
    } else if (s.role !== 'other' && f[s.role]?.trim() && sections.findIndex((x) => x.role === s.role) === k) {
      fill = f[s.role]!.trim();
      // the guidance under it goes with its own (a thunderbird "### Positive Outcomes" list of placeholders), a part of the style stays (MADR's Consequences under the outcome)
      for (let j = k + 1; j < sections.length && sections[j]!.depth > s.depth; j++) if (sections[j]!.role === 'other') dropped.add(j);
    }
    if (fill === undefined) continue;
    // an HTML comment closing the body belongs to the next section (MADR's "This is an optional element")
    let keep = s.end;
    while (keep > s.at + 1 && /^\s*(<!--.*-->)?\s*$/.test(lines[keep - 1]!)) keep--;
    replace.set(k, ['', fill, '', ...lines.slice(keep, s.end).filter((l) => l.trim())]);
  }
  const out: string[] = lines.slice(0, firstSection);
  for (const [k, s] of sections.entries()) {
    if (dropped.has(k)) continue;
    out.push(lines[s.at]!, ...(replace.get(k) ?? lines.slice(s.at + 1, s.end)));
  }
  const madr = !!yaml || sections.some((s) => s.role === 'decision' && /outcome/i.test(lines[s.at]!));
  // a part git ctx add wrote that the template has no section for
  for (const role of ['context', 'decision', 'consequences'] as const) {
    if (!f[role]?.trim() || sections.some((s) => s.role === role)) continue;
    const title = { context: madr ? 'Context and Problem Statement' : 'Context', decision: madr ? 'Decision Outcome' : 'Decision', consequences: 'Consequences' }[role];
    while (out.length && !out.at(-1)!.trim()) out.pop();
    out.push('', `## ${title}`, '', f[role]!.trim(), '');
  }
  let front = '';
  if (yaml) front = `---\n${fillFrontmatter(yaml, f, statusHome, dateHome).join('\n')}\n---\n`;
  let text = front + out.join('\n');
  if (!text.endsWith('\n')) text += '\n';
  return { text: text.replace(/\n{3,}/g, '\n\n'), madr };
}

/** The template's frontmatter with status, date, title and a menu-order number filled. */
function fillFrontmatter(yaml: string[], f: TemplateFill, statusElsewhere: boolean, dateElsewhere: boolean): string[] {
  const active = (k: string) => yaml.some((l) => new RegExp(`^${k}:`).test(l));
  const list = (k: string, v: string[] | undefined) => (v?.length ? [`${k}: [${v.map((x) => JSON.stringify(x)).join(', ')}]`] : []);
  const out = yaml.map((l) => {
    const m = /^(#\s*)?([a-z_-]+):([ \t]*)(.*?)((?:[ \t]+#.*)?)$/.exec(l);
    if (!m) return l;
    const [, commented, key, , , comment] = m;
    // a key the template comments out is put back only when the record has no other place for it
    if (commented && (active(key!) || (key === 'status' && statusElsewhere) || (key === 'date' && dateElsewhere) || (key !== 'status' && key !== 'date'))) return l;
    if (key === 'status') return `status: ${f.status.toLowerCase()}${comment}`;
    if (key === 'date') return `date: ${f.date}${comment}`;
    if (key === 'title') return `title: ${yamlScalar(f.title)}${comment}`;
    if (SITE_ORDER_KEYS.has(key!) && /^\d+$/.test(m[4]!)) return `${key}: ${Number(f.number)}${comment}`;
    return l;
  });
  if (!statusElsewhere && !out.some((l) => /^status:/.test(l))) out.push(`status: ${f.status.toLowerCase()}`);
  if (!dateElsewhere && !out.some((l) => /^date:/.test(l))) out.push(`date: ${f.date}`);
  out.push(...list('paths', f.paths), ...list('keywords', f.keywords));
  return out;
}
