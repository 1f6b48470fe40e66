// @spec SPEC-SNAPSHOT-001
//
// A path the user typed that the snapshot does not hold: the error says which files they
// probably meant (`.github/dependabot.yml` for `.yaml`, `src/pay.ts` typed from `src/`), so a
// typo costs one more try instead of a search through the tree.

import { CtxError } from '../errors.js';
import { closeMatches } from '../util/close-match.js';
import type { Snapshot } from './types.js';

/** Up to three paths of the snapshot a missing `file` probably meant, best first. */
export async function nearPaths(snapshot: Snapshot, file: string): Promise<string[]> {
  if (!file) return [];
  const all = (await snapshot.list()).map((e) => e.path);
  // the same file name elsewhere: the path was typed from another directory
  const base = file.slice(file.lastIndexOf('/') + 1);
  const same = all.filter((p) => p === base || p.endsWith('/' + base));
  if (same.length) return same.slice(0, 3);
  // the same file with another extension (`.yml` for `.yaml`, `.markdown` for `.md`)
  const stem = (p: string) => p.replace(/\.[^./]+$/, '');
  const want = stem(file);
  const other = all.filter((p) => stem(p) === want);
  if (other.length) return other.slice(0, 3);
  // a typo or another extension: edit distance, on paths of about the same length only
  return closeMatches(file, all.filter((p) => Math.abs(p.length - file.length) <= 2));
}

/** A missing place shaped like a record id (ADR-0002, DEC-12): letters, a hyphen, digits, no folder or extension. */
const ID_SHAPED = /^[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z][A-Za-z0-9]*)*-\d+$/;

/**
 * The submodule `.gitmodules` names at `file` or above it, if any: a submodule's files are in
 * its own repository, so the snapshot holds none of them (DEFRA/epr-re-ex-service keeps each
 * service under lib/ as one, and `for lib/epr-backend` said there was no such directory).
 */
async function submoduleOf(snapshot: Snapshot, file: string): Promise<string | undefined> {
  if (!file) return undefined;
  const text = (await snapshot.read('.gitmodules'))?.toString('utf8');
  if (!text) return undefined;
  for (const m of text.matchAll(/^\s*path\s*=\s*(.+?)\s*$/gm)) {
    const p = m[1]!.replace(/^\.\/|\/+$/g, '');
    if (file === p || file.startsWith(p + '/')) return p;
  }
  return undefined;
}

/** The usage error for a place that is neither a file nor a directory of the snapshot. */
export async function noSuchPath(snapshot: Snapshot, file: string, suffix = ''): Promise<CtxError> {
  const sub = await submoduleOf(snapshot, file.replace(/\/+$/, ''));
  if (sub) return new CtxError('USAGE', `${file} ${file.replace(/\/+$/, '') === sub ? 'is a git submodule' : `is in the git submodule ${sub}`}: its files are in another repository, not in this snapshot${suffix}`, { hint: `run git ctx there (cd ${sub}), or ask about a place of this repository` });
  const near = await nearPaths(snapshot, file);
  // a record id given where a place is wanted (`trace ADR-0002`): say where ids go (DEC-109)
  const idHint = ID_SHAPED.test(file) ? `${file} looks like a record id, not a place in the code: git ctx show ${file} prints the record` : '';
  return new CtxError('USAGE', `no such file or directory in the snapshot: ${file || '.'}${suffix}`, {
    hint: near.length ? `did you mean ${near.join(', ')}?` : idHint || 'paths are relative to the repository root',
  });
}
