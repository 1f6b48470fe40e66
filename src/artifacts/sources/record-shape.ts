// @spec SPEC-SOURCES-001

import { splitFrontmatter } from '../parse.js';
import { SITE_KEYS, SITE_ORDER_KEYS } from './site-keys.js';

/** What a new record fills in: the rest of the learned shape stays as empty sections. */
export interface RecordFill {
  number: string;
  title: string;
  status: string;
  date: string;
  context?: string;
  decision?: string;
  consequences?: string;
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
  /** frontmatter keys git-ctx fills, in the record's order (undefined: no frontmatter) */
  frontmatter?: ('status' | 'date')[];
  /** the model's documentation-site keys, copied so the site lists the new record too (`parent: Decision Records`; `nav_order: {n}` takes its number) */
  site?: string[];
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
}

export const roleOf = (title: string): Role => {
  const t = title.toLowerCase().replace(/^[\d.\s]+/, '').replace(/[*_`:]/g, '').trim();
  if (t === 'status') return 'status';
  if (/^(context|context and problem statement|problem statement|context and problem)$/.test(t)) return 'context';
  if (/^(decision|decision outcome|the decision)$/.test(t)) return 'decision';
  // "Outcomes" (with "Positive/Negative Outcomes" under it), "Consequences and Risks", "Implications": where a style weighs what follows
  if (/^(consequences?|outcomes|consequences and risks|implications)$/.test(t)) return 'consequences';
  return 'other';
};

/**
 * The shape of one record's text, or undefined when it has no place for a status (a shape
 * git-ctx could not fill) or no level-1 title.
 */
export function learnShape(text: string): RecordShape | undefined {
  const fm = splitFrontmatter(text.replace(/\r\n/g, '\n'));
  let frontmatter: RecordShape['frontmatter'];
  const site: string[] = [];
  if (fm.hasFrontmatter) {
    for (const m of fm.yaml.matchAll(/^([a-z_]+):[ \t]*(\S.*)$/gm)) {
      if (m[1] === 'permalink' || !SITE_KEYS.has(m[1]!)) continue;
      site.push(SITE_ORDER_KEYS.has(m[1]!) && /^\d+$/.test(m[2]!.trim()) ? `${m[1]}: {n}` : m[0]);
    }
    const keys = [...fm.yaml.matchAll(/^(status|date):/gm)].map((m) => m[1] as 'status' | 'date');
    frontmatter = keys.includes('status') ? keys : ['status', ...keys];
    if (!frontmatter.includes('date')) frontmatter.push('date');
  }
  const lines = fm.body.split('\n');
  const h1 = lines.findIndex((l) => /^#\s+\S/.test(l));
  if (h1 < 0) return undefined;
  const heading = lines[h1]!.replace(/^#\s+/, '');
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
  let statusValue: string | undefined;
  for (const line of lines.slice(h1 + 1)) {
    const s = /^(#{2,4})\s+(.+?)\s*$/.exec(line);
    if (s) {
      sections.push({ hashes: s[1]!, title: s[2]!, role: roleOf(s[2]!) });
      continue;
    }
    if (sections.length) {
      if (statusValue === undefined && sections.at(-1)!.role === 'status' && line.trim()) statusValue = line.trim();
      continue;
    }
    // `Date: 2020-01-01`, `* Status: accepted`, `- Date: …`, `**Status:** …`
    const m = /^(\s*(?:[-*]\s+)?(?:\*\*)?)(status|date)((?:\*\*)?\s*:\s*(?:\*\*)?\s*|\s*:(?:\*\*)?\s*)(.*)$/i.exec(line);
    if (!m) continue;
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
  const hasStatus = !!frontmatter || meta.some((m) => m.key === 'status') || sections.some((s) => s.role === 'status');
  if (!hasStatus) return undefined;
  const madr = !!frontmatter || meta.some((m) => /^\s*[-*]\s/.test(m.line)) || sections.some((s) => s.role === 'decision' && /outcome/i.test(s.title));
  completeSections(sections, madr);
  // a Status section's value as a list item or emphasised (`- **Accepted**`): the new record's too
  const decorated = statusValue !== undefined && !meta.some((m) => m.key === 'status') ? /^([-*+]\s+)?(\*\*|__|\*|_)?[A-Za-z]+\2$/.exec(statusValue) : null;
  const statusLine = decorated && (decorated[1] || decorated[2]) ? `${decorated[1] ?? ''}${decorated[2] ?? ''}{v}${decorated[2] ?? ''}` : undefined;
  return { style: madr ? 'madr' : 'nygard', ...(frontmatter ? { frontmatter } : {}), ...(site.length ? { site } : {}), titlePrefix, titlePadded, meta, sections, statusLower, ...(statusLine ? { statusLine } : {}) };
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
  let out = '';
  if (shape.frontmatter) {
    // frontmatter statuses are written lower case, as MADR's template does
    out += `---\n${(shape.site ?? []).map((l) => `${l.replace('{n}', String(Number(f.number)))}\n`).join('')}${shape.frontmatter.map((k) => `${k}: ${k === 'status' ? f.status.toLowerCase() : f.date}\n`).join('')}${list('paths', f.paths)}${list('keywords', f.keywords)}---\n`;
  }
  out += `# ${shape.titlePrefix.replace('{n}', f.number)}${f.title}\n`;
  const written = new Set<string>();
  if (shape.meta.length) out += `\n${shape.meta.map((m) => m.line.replace('{v}', value(m.key))).join('\n')}\n`;
  const parts = shape.sections.map((s) => {
    const text = written.has(s.role) || s.role === 'other' ? undefined : s.role === 'status' ? (shape.frontmatter || shape.meta.some((m) => m.key === 'status') ? undefined : (shape.statusLine ?? '{v}').replace('{v}', status)) : f[s.role];
    if (s.role !== 'other') written.add(s.role);
    return `${s.hashes} ${s.title}\n${text?.trim() ? `\n${text.trim()}\n` : ''}`;
  });
  if (parts.length) out += `\n${parts.join('\n')}`;
  return out;
}
