// @spec SPEC-SOURCES-001

import type { Artifact } from '../types.js';
import { fileDate, fileNumber, recordDir } from './files.js';
import { roleOf } from './record-shape.js';

/**
 * Whether a record read from a folder of numbered records is a page about them instead: its
 * file name has no number or date where most records' have one, it has no status, and it has
 * headings of its own but none of a record's parts (Status, Context, Decision, Consequences).
 * gardenlinux/gardenlinux keeps `install.md` (how to install adr-tools) beside its 37 numbered
 * records: it was listed, searched and counted as "ADR-install". A folder of mostly unnumbered
 * records keeps them all, and an unnumbered record with a status or a Decision is a record.
 */
function isFolderPage(a: Artifact, numbered: ReadonlyMap<string, [number, number]>): boolean {
  if (a.format !== 'adr' || a.status !== undefined || a.statusText !== undefined || /\.rst$/i.test(a.file)) return false;
  if (fileNumber(a.file) !== undefined || fileDate(a.file) !== undefined) return false;
  const [withNumber, without] = numbered.get(recordDir(a.file)) ?? [0, 0];
  if (withNumber < 2 || withNumber <= without) return false;
  let headings = 0;
  for (const m of a.body.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    if (roleOf(m[1]!) !== 'other') return false;
    headings++;
  }
  // a few lines without any heading may be a record not yet given its parts: it stays one
  return headings > 0;
}

// @decision DEC-118
/** The records of `artifacts` without the pages isFolderPage tells apart, in place. */
export function dropFolderPages(artifacts: Artifact[]): void {
  // per records folder: how many records are named by a number or a date, how many are not
  const numbered = new Map<string, [number, number]>();
  for (const a of artifacts) {
    if (a.format !== 'adr') continue;
    const dir = recordDir(a.file);
    const c = numbered.get(dir) ?? numbered.set(dir, [0, 0]).get(dir)!;
    c[fileNumber(a.file) !== undefined || fileDate(a.file) !== undefined ? 0 : 1]++;
  }
  let w = 0;
  for (const a of artifacts) if (!isFolderPage(a, numbered)) artifacts[w++] = a;
  artifacts.length = w;
}
