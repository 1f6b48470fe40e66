// @spec SPEC-SOURCES-001

import path from 'node:path';

/** File names in a record folder that are not records. */
const NOT_RECORDS = new Set(['readme', 'index', 'template', 'adr-template', 'toc', 'summary', 'changelog', 'license', 'contributing']);

/** Whether a file in a decision-record folder is a record: markdown or reStructuredText, not a README, index or template. */
export function isAdrFile(p: string): boolean {
  const base = p.slice(p.lastIndexOf('/') + 1);
  const m = /^(.*)\.(md|markdown|rst)$/i.exec(base);
  if (!m || base[0] === '_' || base[0] === '.') return false;
  return !NOT_RECORDS.has(m[1]!.toLowerCase());
}

/** The number a record's file name starts with (`0048-x.md`, `ADR-0048-x.md`, `adr_48.md`), as written. */
export function fileNumber(file: string): string | undefined {
  const stem = path.posix.basename(file).replace(/\.(md|markdown|rst)$/i, '');
  return /^(?:[A-Za-z]{2,8}[-_ ]?)?(\d+)(?:$|[-_ .])/.exec(stem)?.[1];
}

/** The id of a record from its file name: prefix + number as written, or prefix + slug when unnumbered. */
export function adrIdFor(file: string, prefix: string): string {
  const n = fileNumber(file);
  if (n !== undefined) return prefix + n;
  const stem = path.posix.basename(file).replace(/\.(md|markdown|rst)$/i, '');
  const slug = stem.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'record';
  return prefix + slug;
}

