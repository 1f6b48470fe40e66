// @spec SPEC-SOURCES-001

import { roleOf, type Role } from './record-shape.js';

/**
 * The shape of a folder's reStructuredText records, learned from one of them: the title's
 * adornment (underline character, overlined or not, numbered `1. ` or not) and the sections
 * in order with their underline. A new record in a folder of `.rst` records is written as one,
 * not as markdown beside them.
 */
export interface RstShape {
  /**
   * the title's adornment character (`=`), whether it is overlined too, numbered `1. `, or led
   * by the record's id as the folder writes it (`ADR-{n}: `, `{N}` padded like the file name)
   */
  title: { char: string; over: boolean; numbered: boolean; prefix?: string };
  sections: { title: string; char: string; role: Role }[];
}

const ADORNMENT = /^([=\-~^"'`#*+:.])\1{2,}\s*$/;

/** Headings of an rst text: [title, adornment character, overlined, line index]. */
export function rstHeadings(text: string): { title: string; char: string; over: boolean }[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const out: { title: string; char: string; over: boolean }[] = [];
  for (let i = 0; i < lines.length - 1; i++) {
    const l = lines[i]!;
    const under = ADORNMENT.exec(lines[i + 1]!);
    if (!l.trim() || ADORNMENT.test(l) || !under || lines[i + 1]!.trim().length < l.trim().length - 1) continue;
    const over = i > 0 && lines[i - 1]!.trim() === lines[i + 1]!.trim();
    out.push({ title: l.trim(), char: under[1]!, over });
    i++;
  }
  return out;
}

/**
 * The shape of one rst record, or undefined when it has no title or no Status section (a shape
 * git-ctx could not fill). `others` (a few other records of the folder) tell the folder's own
 * sections from this record's discussion: a section that is no part of a record's role stays
 * only when another record has it too. `headings` reads another markup's (AsciiDoc's, DEC-128).
 */
export function learnRstShape(text: string, others: readonly string[] = [], headings = rstHeadings): RstShape | undefined {
  const hs = headings(text);
  const top = hs[0];
  if (!top) return undefined;
  const rest = hs.slice(1);
  const level = rest.find((h) => roleOf(h.title) !== 'other')?.char;
  if (level === undefined) return undefined;
  const seen = new Set(others.flatMap((o) => headings(o).map((h) => h.title.toLowerCase())));
  const sections = rest.filter((h) => h.char === level && !h.over).map((h) => ({ title: h.title, char: h.char, role: roleOf(h.title) }));
  if (!sections.some((s) => s.role === 'status')) return undefined;
  // a part the model left out goes back where the order puts it: before the first later part
  const order: Role[] = ['status', 'context', 'decision', 'consequences'];
  const names = { context: 'Context', decision: 'Decision', consequences: 'Consequences' };
  for (const role of ['context', 'decision', 'consequences'] as const) {
    if (sections.some((s) => s.role === role)) continue;
    const at = sections.findIndex((s) => s.role !== 'other' && order.indexOf(s.role) > order.indexOf(role));
    sections.splice(at < 0 ? sections.length : at, 0, { title: names[role], char: level, role });
  }
  // "ADR-001: Django" (smarter-sh/smarter): the new record's title is led by its own id so;
  // "0018: Supporting …" (openedx/openedx-events' newest) by its number so @decision DEC-129
  const named = /^([A-Za-z]{2,8}[-_ ]?)(\d+)(\s*[:.\u2013\u2014-]\s*)(?=\S)/.exec(top.title) ?? /^()(\d+)(\s*[:\u2013\u2014]\s*|\s+-\s+)(?=\S)/.exec(top.title);
  const prefix = named ? `${named[1]}${named[2]!.length > 1 && named[2]!.startsWith('0') ? '{N}' : '{n}'}${named[3]}` : undefined;
  return {
    title: { char: top.char, over: top.over, numbered: /^\d+\.\s/.test(top.title), ...(prefix ? { prefix } : {}) },
    sections: sections.filter((s) => s.role !== 'other' || !others.length || seen.has(s.title.toLowerCase())),
  };
}

/** A new rst record's text in a learned shape. */
export function renderRst(shape: RstShape, f: { number: string; fileNumber?: string; title: string; status: string; context?: string; decision?: string; consequences?: string }): string {
  const adorn = (t: string, c: string) => c.repeat(Math.max(t.length, 3));
  const lead = shape.title.prefix?.replace('{N}', f.fileNumber ?? f.number).replace('{n}', String(Number(f.number)));
  const title = lead ? `${lead}${f.title}` : shape.title.numbered ? `${Number(f.number)}. ${f.title}` : f.title;
  let out = shape.title.over ? `${adorn(title, shape.title.char)}\n${title}\n${adorn(title, shape.title.char)}\n` : `${title}\n${adorn(title, shape.title.char)}\n`;
  const written = new Set<Role>();
  for (const s of shape.sections) {
    const text = written.has(s.role) || s.role === 'other' ? undefined : s.role === 'status' ? f.status : f[s.role];
    written.add(s.role);
    out += `\n${s.title}\n${adorn(s.title, s.char)}\n${text?.trim() ? `\n${text.trim()}\n` : ''}`;
  }
  return out;
}
