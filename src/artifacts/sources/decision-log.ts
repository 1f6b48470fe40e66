// @spec SPEC-SOURCES-001

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../util/atomic.js';
import { containedPath } from '../../util/contained.js';

/**
 * A records folder's generated log (adr-log's `index.md`, or a README holding the same
 * markers): a list of the records between `<!-- adrlog ... -->` and `<!-- adrlogstop -->`. A new
 * record written into the folder gets its line there, modelled on the list's last line, so the
 * team's log does not fall behind until someone runs the generator again. Anything else in the
 * file is kept byte for byte; a folder without such a file, or a file without both markers or
 * without a list line to model on, is left alone.
 */

const LOG_FILES = ['index.md', 'README.md'];
const START = /<!--\s*adrlog\b/;
const STOP = /<!--\s*adrlogstop\s*-->/;
/** `- [ADR-0010](0010-repository-library-design.md) - Repository library design` and kin */
const ENTRY = /^(\s*[-*+]\s+)\[([^\]\n]*)\]\(([^)\s]+)\)(.*)$/;

/** The text of the log with the new record's line, or undefined when there is no log to extend. */
export function withLogEntry(text: string, record: { number: string; file: string; title: string; oldTitleOf: (link: string) => string | undefined }): string | undefined {
  const nl = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(nl);
  const start = lines.findIndex((l) => START.test(l) && !STOP.test(l));
  const stop = lines.findIndex((l, i) => i > start && STOP.test(l));
  if (start < 0 || stop < 0) return undefined;
  let last = -1;
  for (let i = start + 1; i < stop; i++) if (ENTRY.test(lines[i]!)) last = i;
  if (last < 0) return undefined;
  const base = path.posix.basename(record.file);
  if (lines.slice(start + 1, stop).some((l) => ENTRY.exec(l)?.[3] === base)) return undefined;
  const [, bullet, label, link, rest] = ENTRY.exec(lines[last]!)!;
  // the label's number padded as the list pads it; the text after the link with the title swapped
  const newLabel = /\d+/.test(label!) ? label!.replace(/\d+/, (d) => record.number.padStart(d.length, '0')) : record.title;
  const oldTitle = record.oldTitleOf(link!);
  const newRest = oldTitle && rest!.includes(oldTitle) ? rest!.replace(oldTitle, record.title) : rest!.trim() ? ` - ${record.title}` : '';
  const dir = path.posix.dirname(link!);
  const newLink = dir === '.' ? base : `${dir}/${base}`;
  lines.splice(last + 1, 0, `${bullet}[${newLabel}](${newLink})${newRest}`);
  return lines.join(nl);
}

/**
 * Add a new record's line to its folder's generated log, when the folder keeps one. Returns the
 * log's repository path when it was updated. `titleOf` gives an existing record's title by its
 * file name in the folder (to swap it for the new one in the modelled line).
 */
export async function updateDecisionLog(root: string, dir: string, record: { number: string; file: string; title: string }, titleOf: (fileName: string) => string | undefined): Promise<string | undefined> {
  for (const name of LOG_FILES) {
    const rel = `${dir}/${name}`;
    const abs = path.join(root, ...rel.split('/'));
    const text = await readFile(abs, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const next = withLogEntry(text, { ...record, oldTitleOf: (link) => titleOf(path.posix.basename(link)) });
    if (next === undefined) continue;
    await containedPath(root, abs);
    await writeFileAtomic(abs, next);
    return rel;
  }
  return undefined;
}
