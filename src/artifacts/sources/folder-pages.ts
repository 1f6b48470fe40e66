// @spec SPEC-SOURCES-001
// @decision DEC-119

import type { Artifact } from '../types.js';
import { fileDate, fileNumber, recordDir } from './files.js';
import { roleOf } from './record-shape.js';
import { rstHeadings } from './rst-record.js';

/**
 * The section titles of a record's text: Markdown `#` headings outside fenced blocks (a
 * template kept in a fence is not the page's own parts), or reStructuredText's (rstHeadings).
 */
function headingsOf(body: string, rst: boolean): string[] {
  if (rst) return rstHeadings(body).map((h) => h.title);
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of body.replace(/\r\n/g, '\n').split('\n')) {
    const f = /^[ \t]{0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (fence === undefined) fence = f[1]![0];
      else if (f[1]![0] === fence) fence = undefined;
      continue;
    }
    const m = fence === undefined ? /^#{1,6}[ \t]+(.+?)[ \t#]*$/.exec(line) : null;
    if (m) out.push(m[1]!);
  }
  return out;
}

/**
 * Whether a record read from a folder of numbered records is a page about them instead: it
 * has no status, headings of its own but none of a record's parts (Status, Context, Decision,
 * Consequences), and either its file name has no number or date where most records' have one,
 * or its number is zero (`000-index.md`, `000-intro.rst`: the folder's front page, sorted
 * first). gardenlinux/gardenlinux keeps `install.md` (how to install adr-tools) beside its 37
 * numbered records: it was listed, searched and counted as "ADR-install"; DependencyTrack/hyades
 * keeps `000-index.md` (where the records live, the template in a fence) and smarter-sh/smarter
 * `000-intro.rst` (guidelines), read as "ADR-000". A folder of mostly unnumbered records keeps
 * them all, and a record with a status or a Decision is a record, numbered zero or not
 * (`0000-use-adrs.md`).
 */
function isFolderPage(a: Artifact, numbered: ReadonlyMap<string, [number, number]>): boolean {
  if (a.format !== 'adr' || a.status !== undefined || a.statusText !== undefined) return false;
  const rst = /\.rst$/i.test(a.file);
  const n = fileNumber(a.file);
  const zero = n !== undefined && Number(n) === 0;
  if (!zero && (rst || n !== undefined || fileDate(a.file) !== undefined)) return false;
  const [withNumber, without] = numbered.get(recordDir(a.file)) ?? [0, 0];
  if (withNumber - (zero ? 1 : 0) < 2 || withNumber <= without) return false;
  const headings = headingsOf(a.body, rst);
  if (headings.some((h) => roleOf(h) !== 'other')) return false;
  // a few lines without any heading may be a record not yet given its parts: it stays one
  return headings.length > 0;
}

/**
 * The records of `artifacts` without the pages isFolderPage tells apart, in place; returns the
 * ids and files of the pages dropped, for dropLinksToPages once references are resolved.
 */
export function dropFolderPages(artifacts: Artifact[]): Set<string> {
  // per records folder: how many records are named by a number or a date, how many are not
  const numbered = new Map<string, [number, number]>();
  for (const a of artifacts) {
    if (a.format !== 'adr') continue;
    const dir = recordDir(a.file);
    const c = numbered.get(dir) ?? numbered.set(dir, [0, 0]).get(dir)!;
    c[fileNumber(a.file) !== undefined || fileDate(a.file) !== undefined ? 0 : 1]++;
  }
  let w = 0;
  const pages = new Set<string>();
  for (const a of artifacts) {
    if (isFolderPage(a, numbered)) pages.add(a.id).add(a.file);
    else artifacts[w++] = a;
  }
  artifacts.length = w;
  return pages;
}

/**
 * A record's link to a page dropFolderPages set apart (smarter's "Related ADRs:
 * [ADR-000: Introduction](000-intro)" under every record) is no relation, and no broken one.
 */
export function dropLinksToPages(artifacts: Artifact[], pages: ReadonlySet<string>): void {
  if (!pages.size) return;
  for (const a of artifacts) {
    if (a.format !== 'adr') continue;
    for (const [kind, ids] of Object.entries(a.relations) as [keyof Artifact['relations'], string[]][]) {
      if (!ids.some((id) => pages.has(id))) continue;
      const kept = ids.filter((id) => !pages.has(id));
      if (kept.length) a.relations[kind] = kept;
      else delete a.relations[kind];
    }
  }
}
