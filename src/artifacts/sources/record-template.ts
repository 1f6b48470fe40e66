// @spec SPEC-SOURCES-001

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Snapshot } from '../../snapshot/types.js';
import type { ArtifactSet } from '../load.js';
import type { Artifact } from '../types.js';
import { isTemplateFile } from './files.js';
import { isPlaceholderTitle } from './placeholders.js';
import { LICENCE_LEAD, roleOf, type RecordFill, type Role } from './record-shape.js';
import { SITE_ORDER_KEYS } from './site-keys.js';
import { inRecordLanguage } from './status-language.js';

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
  for (const file of templateOrder(found)) {
    const t = asTemplate(file, await readFile(path.join(root, ...file.split('/')), 'utf8').catch(() => undefined));
    if (t) return t;
  }
  return undefined;
}

/**
 * The template of each folder holding ADR-format decisions of the repository, by folder
 * (undefined: none), as the snapshot holds them: the tree state judged (`check --at`, the
 * index for `--staged` and the pre-commit hook, a pull request's head), never the working
 * tree's when another state is judged. Each folder's templates are found as findTemplate
 * finds them on disk; a symlink is not followed (a snapshot never follows one).
 * @decision DEC-100
 */
export async function snapshotTemplates(snapshot: Snapshot, artifacts: readonly Artifact[]): Promise<Map<string, string | undefined>> {
  const dirs = [...new Set(artifacts.filter((a) => a.type === 'decision' && a.format === 'adr' && a.origin === 'repo').map((a) => path.posix.dirname(a.file)))].sort();
  const m = new Map<string, string | undefined>();
  if (!dirs.length) return m;
  // one listing per outermost folder: a folder below another is in its listing
  const tops = dirs.filter((d) => !dirs.some((o) => o !== d && (o === '.' || d.startsWith(`${o}/`))));
  const listed = (await Promise.all(tops.map((t) => (t === '.' ? snapshot.list() : snapshot.listUnder(t))))).flat();
  const candidates = listed.filter((e) => e.mode !== '120000' && isTemplateFile(e.path)).map((e) => e.path);
  for (const dir of dirs) {
    const homes = new Set(TEMPLATE_DIRS.map((sub) => (dir === '.' ? sub || '.' : sub ? `${dir}/${sub}` : dir)));
    let found: { file: string; text: string } | undefined;
    for (const file of templateOrder(candidates.filter((f) => homes.has(path.posix.dirname(f))))) {
      found = asTemplate(file, (await snapshot.read(file))?.toString('utf8'));
      if (found) break;
    }
    m.set(dir, found?.text);
  }
  return m;
}

/** snapshotTemplates of a set's own snapshot (the state its records were read from), read once per set. */
const SET_TEMPLATES = new WeakMap<ArtifactSet, Promise<Map<string, string | undefined>>>();
export function setTemplates(set: ArtifactSet): Promise<Map<string, string | undefined>> {
  let m = SET_TEMPLATES.get(set);
  if (!m) SET_TEMPLATES.set(set, (m = snapshotTemplates(set.snapshot, set.artifacts)));
  return m;
}

/** Templates in the order findTemplate takes them. */
function templateOrder(found: string[]): string[] {
  const plain = (f: string) => (/^[_.]?(?:0+[-_ .])?(?:adr-|madr-)?template\.(md|markdown)$/i.test(path.posix.basename(f)) ? 0 : 1);
  return [...found].sort((a, b) => plain(a) - plain(b) || a.length - b.length || (a < b ? -1 : 1));
}

/** A template file's text, or undefined when it is none: a template with no title line is no record template (a snippet, an include). */
function asTemplate(file: string, text: string | undefined): { file: string; text: string } | undefined {
  return text !== undefined && /^#\s+\S/m.test(text) ? { file, text: text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n') } : undefined;
}

export interface TemplateFill extends RecordFill {
  /** the title line before the title as the folder's records write it (`14. `), the number in place; undefined: as the template has it */
  titlePrefix?: string;
  /** most of the folder's records write their status in lower case (`- Status: accepted`); undefined: none to tell */
  statusLower?: boolean;
}

/**
 * The status as a placeholder asks for it: in lower case where the placeholder is
 * (`proposed`, `{proposed | accepted}`, `[draft | proposed]`); as given where it is capitalised
 * (`**Proposed**`). A placeholder in capitals (`{{ STATUS }}`, log4brains' template) says
 * nothing of case: the folder's records decide (SSW.CleanArchitecture writes `accepted`).
 */
const statusFor = (placeholder: string, f: TemplateFill): string => {
  const word = /[A-Za-z]+/.exec(placeholder)?.[0];
  const lower = word && !(word.length > 1 && word === word.toUpperCase()) ? word === word.toLowerCase() : !!f.statusLower;
  // the template's choices in the team's language ("Vorgeschlagen | **Akzeptiert** | Abgelehnt",
  // HubEvolution/EvolutionHub): the status in that language, not English @decision DEC-132
  const theirs = placeholder.split(/[|/]/).map((o) => o.replace(/[*_[\]{}`]/g, '').trim()).find((o) => inRecordLanguage(o, 'proposed') !== 'proposed');
  const status = theirs ? inRecordLanguage(theirs, f.status.toLowerCase()) : f.status;
  return lower ? status.toLowerCase() : status.charAt(0).toUpperCase() + status.slice(1);
};

/** A value as written with its emphasis (`**Proposed**` → `**Accepted**`); a placeholder's brackets are dropped. */
const decorate = (placeholder: string, value: string) => {
  const m = /^([-*+]\s+)?(\*\*|__|\*|_)?[^*_]*\2$/.exec(placeholder.trim());
  return `${m?.[1] ?? ''}${m?.[2] ?? ''}${value}${m?.[2] ?? ''}`;
};

/**
 * A date written the way the template's placeholder spells its format ("Proposal date
 * (dd.MM.yyyy)", "DD/MM/YYYY", "[YYYY-MM-DD]"): Altinn/altinn-studio's records write 04.09.2025,
 * and a new one with 2025-09-04 stood out. Any other placeholder gets the ISO date. @decision DEC-129
 */
export function dateAsSpelled(iso: string, placeholder: string): string {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!d) return iso;
  const [, y, mo, da] = d;
  const dmy = /\b(dd?)([./-])(mm?)\2(yyyy)\b/i.exec(placeholder);
  if (dmy) return `${da}${dmy[2]}${mo}${dmy[2]}${y}`;
  const mdy = /\b(mm?)([./-])(dd?)\2(yyyy)\b/i.exec(placeholder);
  if (mdy) return `${mo}${mdy[2]}${da}${mdy[2]}${y}`;
  return iso;
}

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
export function fillTemplate(template: string, f: TemplateFill): { text: string; madr: boolean; guidance: string[] } {
  let yaml: string[] | undefined;
  let body = template;
  // a licence header in a comment before the frontmatter (REUSE's SPDX lines): kept, and the frontmatter still read
  const headed = LICENCE_LEAD.exec(template);
  const lead = headed?.[0] ?? '';
  const fm = /^---[ \t]*\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(template.slice(lead.length));
  if (fm) {
    yaml = followRemovals(fm[1]!.split('\n'));
    body = template.slice(lead.length + fm[0].length);
  }
  let lines = body.split('\n');
  // a template led by how to use it ("# ADR template by …", "In each ADR file, write these
  // sections:") and then the record's own title placeholder ("# Title"): the record starts
  // there (SAP/cloud-sdk-js's template.md wrote its instructions into every new record) @decision DEC-104
  const heads = lines.flatMap((l, i) => (/^#\s+\S/.test(l) ? [i] : []));
  const own = heads.find((i, k) => k > 0 && isPlaceholderTitle(lines[i]!.replace(/^#\s+/, '').trim()));
  if (own !== undefined) lines = lines.slice(own);
  lines = followRemovals(lines);
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
    // in the template's language too (`* Statut: [propose | accepte | ...]`, SocialGouv/pass-emploi-api) @decision DEC-136
    const m = /^(\s*(?:[-*]\s+)?(?:\*\*)?)(status|statut|estado|stato|date|datum|fecha)((?:\*\*)?\s*:(?:\*\*(?=\s))?\s*)(.*?)\s*(?:<!--.*-->)?\s*$/i.exec(lines[i]!);
    if (!m) continue;
    const key = /^(?:date|datum|fecha)$/i.test(m[2]!) ? 'date' : 'status';
    if (key === 'status') statusHome = true;
    else dateHome = true;
    const value = key === 'status' ? decorate(m[4]!, statusFor(m[4]!, f)) : dateAsSpelled(f.date, m[4]!);
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
      fill = decorate(decorated ? first! : '', statusFor(first ?? '', f));
    } else if (s.role !== 'other' && f[s.role]?.trim() && sections.findIndex((x) => x.role === s.role) === k) {
      fill = f[s.role]!.trim();
      // the guidance under it goes with its own (a thunderbird "### Positive Outcomes" list of placeholders), a part of the style stays (MADR's Consequences under the outcome)
      for (let j = k + 1; j < sections.length && sections[j]!.depth > s.depth; j++) if (sections[j]!.role === 'other') dropped.add(j);
    }
    if (fill === undefined) continue;
    // an HTML comment closing the body belongs to the next section (MADR's "This is an optional element")
    let keep = s.end;
    while (keep > s.at + 1 && /^\s*(<!--.*-->)?\s*$/.test(lines[keep - 1]!)) keep--;
    // … with the blank line after it that keeps it apart from the next heading
    const closing = lines.slice(keep, s.end).filter((l) => l.trim());
    // a section that holds only a comment: the comment is its own prompt, and the folder's
    // records keep it above their text (guardian/cdk's `<!--- What is the status …? -->` ⏎ `proposed`) @decision DEC-129
    if (keep === s.at + 1 && closing.length) replace.set(k, ['', ...closing, '', fill, '']);
    else replace.set(k, ['', fill, '', ...closing, ...(closing.length ? [''] : [])]);
  }
  const out: string[] = lines.slice(0, firstSection);
  // the sections whose template text stays: the author still has them to write (DEC-096)
  const guidance: string[] = [];
  for (const [k, s] of sections.entries()) {
    if (dropped.has(k)) continue;
    const body = replace.get(k) ?? lines.slice(s.at + 1, s.end);
    out.push(lines[s.at]!, ...body);
    // a line whose placeholders are all filled (`- {date}: {changelog}`) is written, not guidance
    const filled = (l: string) => l.includes('{') && !fillPlaceholders(l, f).includes('{');
    if (!replace.has(k) && body.some((l) => l.replace(/<!--.*?-->/g, '').trim() && !filled(l))) {
      // a heading that is itself a placeholder (MADR's "### {title of option 1}") is named by the section it sits in
      let at = k;
      const name = (j: number) => lines[sections[j]!.at]!.replace(/<!--.*-->/, '').replace(/^#+\s*/, '').trim();
      while (/^\{.*\}$/.test(name(at)) && at > 0) {
        let up = at - 1;
        while (up > 0 && sections[up]!.depth >= sections[at]!.depth) up--;
        if (sections[up]!.depth >= sections[at]!.depth) break;
        at = up;
      }
      if (!guidance.includes(name(at))) guidance.push(name(at));
    }
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
  if (yaml) front = `${lead}---\n${fillFrontmatter(yaml, f, statusHome, dateHome).join('\n')}\n---\n`;
  let text = front + out.map((l) => fillPlaceholders(l, f)).join('\n');
  if (!text.endsWith('\n')) text += '\n';
  return { text: text.replace(/\n{3,}/g, '\n\n'), madr, guidance };
}

const COUNT: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5 };

/**
 * The template's word to whoever copies it, followed (JabRef/jabref's MADR 4 template): an HTML
 * comment "Remove these three lines when creating a real ADR" goes with the run of comment lines
 * it counts (a markdownlint switch for the template's own heading), when the count is that run's;
 * a frontmatter comment "Remove it when creating a new ADR" goes with the key under it. The
 * folder's records have neither; a new record kept them. @decision DEC-136
 */
function followRemovals(lines: string[]): string[] {
  const out = [...lines];
  const comment = (l: string | undefined) => l !== undefined && /^\s*<!--.*-->\s*$/.test(l);
  for (let i = 0; i < out.length; i++) {
    const html = /^\s*<!--.*\bremove\s+these\s+(\w+)\s+lines\s+when\s+(?:creating|writing)\b.*-->\s*$/i.exec(out[i]!);
    if (html) {
      let a = i;
      let b = i + 1;
      while (comment(out[a - 1])) a--;
      while (comment(out[b])) b++;
      if ((COUNT[html[1]!.toLowerCase()] ?? Number(html[1])) === b - a) {
        out.splice(a, b - a);
        i = a - 1;
      }
      continue;
    }
    if (!/^#.*\bremove\s+(?:it|this)\s+when\s+(?:creating|writing)\b/i.test(out[i]!)) continue;
    let j = i + 1;
    while (j < out.length && !out[j]!.trim()) j++;
    if (!/^[A-Za-z_-]+:/.test(out[j] ?? '')) continue;
    out.splice(i, j - i + 1);
    i--;
  }
  return out;
}

// @decision DEC-107
/**
 * Brace placeholders git-ctx can fill wherever the template writes them, escaped for MDX or
 * not: a changelog's first entry (`- {date}: {changelog}`, cosmos/ibc-go) is the record's
 * creation on its date. Placeholders only the author can fill (`{authors}`) stay for them.
 */
function fillPlaceholders(line: string, f: TemplateFill): string {
  if (!line.includes('{')) return line;
  const known: Record<string, string> = { date: f.date, changelog: 'Initial draft', title: f.title };
  return line.replace(/\\?\{([A-Za-z]+)\\?\}/g, (m, key: string) => known[key.toLowerCase()] ?? m);
}

/**
 * A frontmatter status as its placeholder asks (statusFor); a placeholder that says nothing of
 * case (`status: STATUS`, CumulusCI's template, or none) follows the folder's records when they
 * are capitalised (`status: Accepted`), else MADR's lower case.
 */
const frontmatterStatus = (placeholder: string, f: TemplateFill): string => (/[a-z]/.test(placeholder) || f.statusLower === false ? statusFor(placeholder, f) : f.status.toLowerCase());

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
    if (key === 'status') return `status: ${frontmatterStatus(m[4]!, f)}${comment}`;
    if (key === 'date') return `date: ${f.date}${comment}`;
    if (key === 'title') return `title: ${yamlScalar(f.title)}${comment}`;
    // the template's own description ("Template für neue … Records") says nothing of the new record @decision DEC-132
    if ((key === 'description' || key === 'summary') && m[4]!.trim()) return `${key}: ''${comment}`;
    if (SITE_ORDER_KEYS.has(key!) && /^\d+$/.test(m[4]!)) return `${key}: ${Number(f.number)}${comment}`;
    return l;
  });
  if (!statusElsewhere && !out.some((l) => /^status:/.test(l))) out.push(`status: ${f.status.toLowerCase()}`);
  if (!dateElsewhere && !out.some((l) => /^date:/.test(l))) out.push(`date: ${f.date}`);
  out.push(...list('paths', f.paths), ...list('keywords', f.keywords));
  return out;
}

/** The one line `new` and `add` print for a record whose sections still hold the template's guidance. @decision DEC-096 */
export function guidanceNote(sections: readonly string[]): string {
  return `to write: ${sections.join(', ')} (the template's guidance is still there)`;
}
