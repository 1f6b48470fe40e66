// @spec SPEC-AUTHORING-001

import path from 'node:path';
import { readFile } from 'node:fs/promises';
import type { Artifact } from './types.js';
import type { ArtifactSet } from './load.js';
import { splitFrontmatter } from './parse.js';
import { folderMark, inRecordLanguage, MARK_CHARS } from './sources/status-language.js';
import { editFrontmatterText, readFrontmatterData, updateFrontmatter, type FrontmatterEdit } from './write.js';
import { CtxError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic.js';
import { containedPath } from '../util/contained.js';
import { withLock } from '../git/lock.js';

/** A mark just before a status word, and the markup between them ("✅ **"). */
const LEADING_MARK = new RegExp(`(${MARK_CHARS}+)\\s*([*_]*)$`, 'u');

/**
 * The status line of an ADR-format record (Nygard `## Status` section, `Status:` line, table
 * cell, or MADR frontmatter) with a new status written in place of the old one: only the
 * status text changes, in the record's own capitalisation; everything else stays byte for
 * byte. `line` is the 1-based line the parser read the status from; `old` the status as
 * written there (markup removed). A mark before the old status (`✅ Accepted`) goes with it;
 * the new one takes the mark the folder writes before its word (`❌ Superseded`, folderMark),
 * where `folder` (the statuses the folder's records wrote) shows one. Throws when the old
 * status is not on that line.
 */
export function replaceAdrStatus(text: string, line: number, old: string, next: string, file?: string, folder: readonly (string | undefined)[] = []): string {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const from = starts[line - 1];
  if (from === undefined) throw new CtxError('PARSE', `line ${line} is past the end of the record; status not rewritten`, { file, line });
  const end = starts[line] !== undefined ? starts[line]! - 1 : text.length;
  const l = text.slice(from, end);
  const lower = l.toLowerCase();
  let at = old ? lower.indexOf(old.toLowerCase()) : -1;
  let len = old.length;
  if (at < 0) {
    // markup inside the value ("**Accepted**", "✅ **Accepted**"): replace its first word
    const w = old.split(/\s+/).find((x) => /\p{L}/u.test(x)) ?? '';
    at = w ? lower.indexOf(w.toLowerCase()) : -1;
    len = w.length;
  }
  if (at < 0) throw new CtxError('PARSE', `could not find the status "${old}" on line ${line}; status not rewritten`, { file, line, hint: 'edit the status line by hand' });
  const was = l.slice(at, at + len);
  // the record's capitalisation, read from its first letter ("✅ Done" → "Deprecated");
  // a leading emoji or symbol goes with the old status (a green mark would contradict it)
  const letters = was.replace(/[^\p{L}]+/gu, '');
  // in the record's language (DEC-107); the capitals go to the status, not to a reason or a link after it
  const local = inRecordLanguage(was.replace(/[^\p{L}\s]+/gu, ' ').trim(), next);
  const head = /^\p{L}+(?: (?:by|par|por|durch|door)\b)?/u.exec(local)?.[0] ?? '';
  const cased = letters.length > 1 && letters === letters.toUpperCase() ? head.toUpperCase() : /^\p{Lu}/u.test(letters) ? head.charAt(0).toUpperCase() + head.slice(1) : head;
  const status = cased + local.slice(head.length);
  // a mark the old status wrote before its markup ("✅ **Accepted**") goes with it too; the
  // folder's mark for the new word takes its place
  let pre = l.slice(0, at);
  const before = LEADING_MARK.exec(pre);
  const mark = folderMark(status, folder);
  if (before) pre = pre.slice(0, before.index) + (mark ? `${mark} ` : '') + before[2];
  const line2 = pre + (mark && !before ? `${mark} ` : '') + status + l.slice(at + len);
  return text.slice(0, from) + recolourBadge(line2, next) + text.slice(end);
}

/** The colour a status badge shows for each status (shields.io's and badgen's names). */
const BADGE_COLOUR: Record<string, string> = { accepted: 'green', proposed: 'yellow', deprecated: 'lightgrey', superseded: 'lightgrey', rejected: 'red' };

// @decision DEC-107
/**
 * A status badge's colour set to its new status's (DEC-104 reads the status from the badge's
 * address): badgen's `/badge/ADR/deprecated/green` would still show a deprecated record green.
 * badgen `/badge/subject/status/colour`, shields.io `/badge/label-message-colour` and
 * `?…&color=`; a badge without a colour, or a line that is no badge, is left as it is.
 */
export function recolourBadge(line: string, status: string): string {
  const colour = BADGE_COLOUR[/^\w+/.exec(status)?.[0]?.toLowerCase() ?? ''];
  if (!colour || !/\/badge\//.test(line)) return line;
  return line.replace(/(https?:\/\/[^\s)"'<>]*\/badge\/)([^\s)"'<>]+)/g, (_m, base: string, rest: string) => {
    if (/[?&]colou?r=/.test(rest)) return base + rest.replace(/([?&]colou?r=)[^&#]*/, `$1${colour}`);
    if (/badgen\./.test(base)) return base + rest.replace(/^([^/?#]+\/[^/?#]+\/)[^/?#]+/, `$1${colour}`);
    // shields.io: label-message-colour, the colour last before an extension or a query
    return base + rest.replace(/^([^?#]*-)[A-Za-z0-9]+(\.svg|\.png)?(?=$|[?#])/, `$1${colour}$2`);
  });
}

/**
 * Write a status on a record in its own format: frontmatter `status:` (and the other
 * frontmatter edits given) for frontmatter artifacts and MADR records with frontmatter, the
 * status line for other ADR records (where `suffix`, e.g. a reason in parentheses, follows
 * the word, and `set`, the record's set, gives the status line the mark its folder writes
 * before that word). Under the file lock, atomic, inside the work tree.
 */
export async function writeRecordStatus(root: string, a: Artifact, status: string, opts: { extra?: FrontmatterEdit[]; suffix?: string; set?: ArtifactSet } = {}): Promise<boolean> {
  const abs = path.join(root, ...a.file.split('/'));
  if (a.format !== 'adr') {
    const r = await updateFrontmatter(abs, [{ op: 'set', path: 'status', value: status }, ...(opts.extra ?? [])]);
    return r.changed;
  }
  await containedPath(root, abs);
  return withLock(abs, async () => {
    const before = await readFile(abs, 'utf8');
    let after: string;
    if (splitFrontmatter(before).hasFrontmatter && readFrontmatterData(before, a.file).status !== undefined) {
      after = editFrontmatterText(before, { status }, a.file);
    } else {
      const line = a.keyLines.status;
      const old = a.statusText ?? a.status;
      if (!line || !old) throw new CtxError('PARSE', `${a.id} has no status line to rewrite`, { file: a.file, hint: 'add a "## Status" section or a "Status:" line' });
      after = replaceAdrStatus(before, line, old, status + (opts.suffix ?? ''), a.file, opts.set ? folderStatuses(opts.set, a) : []);
    }
    if (after === before) return false;
    await writeFileAtomic(abs, after);
    return true;
  });
}

/** The statuses written by the other records in `a`'s folder (replaceAdrStatus's `folder`). */
function folderStatuses(set: ArtifactSet, a: Artifact): (string | undefined)[] {
  const dir = path.posix.dirname(a.file);
  return set.artifacts.filter((b) => b !== a && path.posix.dirname(b.file) === dir).map((b) => b.statusText);
}

/**
 * Whether a record keeps its status on a status line of its text (an adr-tools `## Status`
 * section, a `Status:` line) rather than in frontmatter: such a record says who replaces it on
 * that line ("Superseded by [3. …](0003-….md)"), and gets no frontmatter added.
 */
export async function statusOnItsLine(root: string, a: Artifact): Promise<boolean> {
  if (a.format !== 'adr' || !a.keyLines.status) return false;
  const abs = path.join(root, ...a.file.split('/'));
  await containedPath(root, abs);
  const text = await readFile(abs, 'utf8');
  return !(splitFrontmatter(text).hasFrontmatter && readFrontmatterData(text, a.file).status !== undefined);
}

/**
 * Add a paragraph after a record's status line ("Supersedes [2. …](0002-….md)", as adr-tools
 * writes it in the newer record's Status section), unless the record already holds it. Under
 * the file lock, atomic, inside the work tree; the rest of the file stays byte for byte.
 */
export async function addAfterStatusLine(root: string, a: Artifact, paragraph: string): Promise<boolean> {
  const line = a.keyLines.status;
  if (!line) throw new CtxError('PARSE', `${a.id} has no status line to write after`, { file: a.file });
  const abs = path.join(root, ...a.file.split('/'));
  await containedPath(root, abs);
  return withLock(abs, async () => {
    const before = await readFile(abs, 'utf8');
    if (before.includes(paragraph)) return false;
    const eol = before.includes('\r\n') ? '\r\n' : '\n';
    const lines = before.split('\n');
    if (line > lines.length) throw new CtxError('PARSE', `line ${line} is past the end of the record`, { file: a.file, line });
    // only a Status section takes a paragraph: a "* Status: accepted" line of a metadata list does not
    let h = line - 2;
    while (h >= 0 && !lines[h]!.trim()) h--;
    if (h < 0 || !/^(?:#+|={2,})\s*status\s*:?\s*$/i.test(lines[h]!.trim())) return false;
    lines.splice(line, 0, eol === '\r\n' ? `\r` : '', paragraph + (eol === '\r\n' ? '\r' : ''));
    await writeFileAtomic(abs, lines.join('\n'));
    return true;
  });
}

