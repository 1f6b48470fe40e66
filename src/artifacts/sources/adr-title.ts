// @spec SPEC-SOURCES-001

import { fileNumber } from './files.js';
import { SECTION_START } from './parts.js';
import { isPlaceholderTitle, unemphasized } from './placeholders.js';
import { imageText } from './status.js';
import { MARK_CHARS } from './status-language.js';

/** Metadata found in the text: value and 1-based line. */
export type Found = { value: string; line: number };

/**
 * A frontmatter title as a heading's is read: led by the record's own number ("title: 0011 -
 * Angular folder structure" in 0011-….md, bitwarden's contributing-docs), the number goes; any
 * other number is the title's ("title: 3 environments" in 0007-….md).
 */
export function frontmatterTitle(title: string, file: string): string {
  const own = fileNumber(file);
  const lead = /^\s*(?:[A-Za-z]{2,8}[-_ ]?)?0*(\d+)/.exec(title);
  return own !== undefined && lead && Number(lead[1]) === Number(own) ? stripNumber(title) || title : title;
}

/** A title's leading number, an icon before it (the same marks a status wears, MARK_CHARS), and what separates it from the title. */
const LEADING_NUMBER = new RegExp(String.raw`^\s*(?:${MARK_CHARS}+\s*)?(?:[A-Za-z]{2,8}[-_ ]?)?\d+(?![\p{L}\d])[.:)\]]?\s*(?:[-\u2013\u2014:|]\s*)?(?=\S)`, 'u');

/** "1. Use X", "ADR-0048: Use X", "📄 ADR-007: Use X", "ADR 7 - Use X", "0003 Use X", "n. Use X", "ADR: Use X" → "Use X". */
export function stripNumber(title: string): string {
  const t = title
    // the number must end there: "3rd-Party review" and "2FA for admins" keep theirs; an icon
    // before it (it-timo/goboot heads every record "# 📄 ADR-NNN: …") goes with it
    .replace(LEADING_NUMBER, '')
    // the template's number left unfilled ("# n. Django Templates", "# NNNN. Title"): no number
    // was written, and the placeholder is no word of the title
    .replace(/^\s*(?:n|N{1,4}|NUMBER|[Xx]{3,4})[.:]\s+(?=\S)/, '')
    // the kind of record without a number ("# ADR: Move data loading to the backend", Altinn/altinn-studio) @decision DEC-129
    .replace(/^\s*(?:ADR|MADR|(?:architecture\s+)?decision(?:\s+record)?)\s*:\s+(?=\S)/i, '')
    .replace(/`([^`]+)`/g, '$1')
    .replace(/^[*_`]+|[*_`]+$/g, '')
    .trim();
  return t || title.trim();
}

/**
 * The title a file name gives a record without any heading: its words, without the record's
 * number, first letter capitalised (`0003-use-postgres` → "Use postgres", `identity` → "Identity").
 */
export function titleOfStem(stem: string): string {
  return stripNumber(stem.replace(/[-_]+/g, ' ')).replace(/^./, (c) => c.toUpperCase());
}

/** Section names that are never a record's title ("Status", "Synopsis" as the first heading of a record without one). */
export const NOT_TITLE = /^(?:\d+\.\s*)?(?:status|synopsis|summary|context(?:\s+and\s+problem\s+statement)?|decision(?:\s+outcome)?|consequences|metadata|date|deciders|considered\s+options|technical\s+story|decision\s+drivers)\s*:?$/i;

/**
 * Section names beyond NOT_TITLE's and parts.ts's SECTION_START (which also names a level-1
 * heading as a section): a record's first heading of these is a section, not its title.
 */
const SECTION_NAME = /^(?:\d+\.\s*)?(?:proposal|overview|introduction|purpose|intent|why|abstract|tl;?dr|goals?|objectives?|requirements|assumptions|constraints|issues?|questions?|scope|related|title|description|discussion|solution|approach)\s*:?$/i;

/**
 * The title of a record without a level-1 heading (SAP/cloud-sdk-js writes some at level 2):
 * the first line of a "Title" section ("## Title" then "OData v4 Enum"), else the record's first
 * heading when nothing but blank lines comes before it and it names no section ("## Count
 * Method on Entities", not "## Motivation" or "## Status").
 */
export function lowerTitle(lines: readonly string[], sections: readonly { title: string; at: number; level: number }[], start: number): Found | undefined {
  const named = sections.find((x) => /^title\s*:?$/i.test(plain(x.title)));
  if (named) {
    for (let i = named.at + 1; i < lines.length && !sections.some((x) => x.at === i); i++) {
      const t = lines[i]!.trim();
      if (/^[-=]+$/.test(t)) continue;
      if (t) return isPlaceholderTitle(plain(t)) ? undefined : { value: stripNumber(unemphasized(t)), line: i + 1 };
    }
    return undefined;
  }
  const first = sections[0];
  if (!first || lines.slice(start, first.at).some((l) => l.trim())) return undefined;
  const name = plain(first.title);
  if (NOT_TITLE.test(name) || SECTION_START.test(name) || SECTION_NAME.test(name) || isPlaceholderTitle(name)) return undefined;
  return { value: stripNumber(unemphasized(first.title)), line: first.at + 1 };
}

/** any markup `plain` removes; a value without it only needs trimming */
const MARKUP = /[[`*_|]/;

/** Strip markdown emphasis/links of a metadata value. */
export function plain(v: string): string {
  if (!MARKUP.test(v)) return v.trim();
  return imageText(v.replace(/<!--.*?(?:-->|$)/g, ''))
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`<]*?)\s*<[^>`]*>`_+/g, '$1')
    .replace(/\*{1,3}|`+|(?<![\w])_{1,2}|_{1,2}(?![\w])/g, '')
    .replace(/\s+\|?\s*$/, '')
    .trim();
}

/** A file name's extension after a dot (`names.go`, `config.yaml`): a file, which mentions read, not a name. */
const EXTENSION = /\.[a-z]{1,4}$/;

/**
 * The names a title writes as code (DEC-116): in backticks (`` `Option<T>` ``, `` `os.Root` ``,
 * `` `createServiceConfig()` ``, `` `baseLocal` ``) or with type parameters (`Result<T, E>`),
 * each as its last dotted part without arguments or parameters. One word counts: written as
 * code it is a name, not prose. Paths, file names and phrases are left out.
 */
export function titleCodeNames(raw: string | undefined): string[] | undefined {
  if (!raw || !/[`<]/.test(raw)) return undefined;
  const out = new Set<string>();
  const add = (span: string) => {
    const s = span.trim().replace(/\(.*\)$/, '').replace(/<.*>$/, '').trim();
    if (!s || /[\s/\\]/.test(s) || s.startsWith('.') || EXTENSION.test(s)) return;
    const name = s.split(/\.|::/).pop()!;
    if (/^[A-Za-z_$][\w$]{2,}$/.test(name)) out.add(name);
  };
  for (const m of raw.matchAll(/`([^`\n]+)`/g)) add(m[1]!);
  for (const m of raw.replace(/`[^`\n]*`/g, ' ').matchAll(/\b([A-Z][\w$]*)<[^<>\n]*>/g)) add(m[1]!);
  return out.size ? [...out] : undefined;
}
