// @spec SPEC-ARTIFACTS-001

import { closeMatches } from '../util/close-match.js';
import { CtxError } from '../errors.js';
import type { ArtifactSet } from './load.js';
import type { Artifact } from './types.js';
import { inRecordFolder, recordStem } from './sources/files.js';
import { extraOf } from './sources/extra.js';

/** `10`, `0010`, `adr-10`, `ADR 10`, `ADR_0010`: an optional prefix and a number, as people type a record's id. */
const TYPED_NUMBER = /^(?:([A-Za-z][A-Za-z0-9]*(?:-[A-Za-z][A-Za-z0-9]*)*)[-_ ]?)?0*(\d+)$/;
/** A numbered id: its prefix (without the separator) and its number. */
const ID_NUMBER = /^(.*?)[-_]?0*(\d+)$/;

/**
 * The prefix and number of a record whose number another file of its folder has too: it reads
 * as `ADR-0021-use-kafka` (disambiguateNumbers), and "21" names it as much as ADR-0021.
 */
function sharedNumber(id: string, n: string | undefined): RegExpExecArray | null {
  const at = n === undefined ? -1 : id.indexOf(`${n}-`);
  return at < 0 ? null : ID_NUMBER.exec(id.slice(0, at + n!.length));
}

/** How a record is listed among several a typed id names: id, title and file. */
const candidate = (a: Artifact): string => `${a.id} "${a.title}" (${a.file})`;

/** Several records answer a typed id: an error listing them (id, title, path), so the reader can pick. */
function ambiguous(typed: string, what: string, found: Artifact[]): CtxError {
  const shown = found.slice(0, 10).map(candidate);
  return new CtxError('UNKNOWN_ID', `${typed} is ambiguous: ${what} ${found.length} records: ${shown.join(', ')}${found.length > shown.length ? ', …' : ''}`, { hint: `pass one of these ids, e.g. ${found[0]!.id}` });
}

/**
 * The records read from decision-record folders that a typed id names by number: same number
 * (leading zeros aside) and, when a prefix was typed, the same prefix (any case). Only those
 * records: their ids come from file numbers, which is how people refer to them ("ADR 10"), or
 * their frontmatter ids sit in numbered files (named by that number too); another frontmatter
 * id is written out in full and a near miss of it gets a suggestion instead.
 */
export function recordsByNumber(set: ArtifactSet, typed: string): Artifact[] {
  const t = TYPED_NUMBER.exec(typed.trim());
  if (!t) return [];
  const prefix = t[1]?.toLowerCase();
  const n = Number(t[2]);
  const out: Artifact[] = [];
  for (const a of set.byId.values()) {
    if (a.format !== 'adr') continue;
    // a frontmatter id in a numbered file (`id: 0003-use-x` in 0003-use-x.md) is named by the file's number
    // and the folder's prefix (`3`, `ADR-3`), as people and other records call it
    const x = extraOf(a);
    const m = ID_NUMBER.exec(a.id) ?? ID_NUMBER.exec(x?.nb ?? '') ?? sharedNumber(a.id, x?.n);
    if (!m || Number(m[2]) !== n) continue;
    if (prefix !== undefined && m[1]!.toLowerCase() !== prefix) continue;
    out.push(a);
  }
  return out.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}

/**
 * The records read from decision-record folders that a typed text names by the start of
 * their id up to a word (`ADR-20201016` for ADR-20201016-use-the-slug, a record named by its
 * date), by the start of their file name likewise (`20201016`, the date alone, as people
 * type it), by their file name without extension (`20201016-use-the-slug`, as log4brains and
 * links call it), by that name without its date or number (`use-the-slug`), by log4brains' `<package>/<file name>` or by their path. A dated record's id is its whole file name: people type
 * its date.
 */
function recordsByStart(set: ArtifactSet, typed: string): Artifact[] {
  // a path as a shell completes it (`./docs/adr/…`) is the path
  // a record in a folder of its own is named by that folder too, with the slash a shell adds
  const t = typed.trim().toLowerCase().replace(/\\/g, '/').replace(/^(?:\.\/)+/, '').replace(/\/+$/, '');
  if (!t) return [];
  // log4brains names a package's record `<package>/<file name>` (`web/20200927-avoid-react-fc-type`):
  // its id is the package's prefix and the file name (WEB-20200927-avoid-react-fc-type)
  const pkg = /^([^/]+)\/([^/]+)$/.exec(t);
  const packaged = pkg ? `${pkg[1]!.replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '')}-${pkg[2]}` : undefined;
  const out: Artifact[] = [];
  for (const a of set.byId.values()) {
    if (a.format !== 'adr') continue;
    const id = a.id.toLowerCase();
    const file = a.file.toLowerCase();
    const base = file.slice(file.lastIndexOf('/') + 1);
    const own = inRecordFolder(a.file);
    // `2022-02-07-tracing` for …/2022-02-07-tracing/README.md (@decision DEC-104)
    const stem = own ? recordStem(file) : base.replace(/\.[^.]+$/, '');
    // the file name as `ls` shows it (`0009-support-links.md`) names it as its stem does, and
    // its start up to a word as the id's does: the date alone (`20240219`) of a dated record
    // the name without its date or number (`using-go` for 2025-10-17-using-go.md, as the folder's
    // listing reads to a person; Altinn/altinn-studio's ids are the whole dated name) @decision DEC-129
    const named = stem.replace(/^(?:\d{4}[-_]?\d{2}[-_]?\d{2}|\d+)[-_]/, '');
    if (id.startsWith(t + '-') || stem === t || stem.startsWith(t + '-') || base === t || file === t || (own && file.slice(0, file.lastIndexOf('/')) === t) || id === packaged || (named !== stem && named === t)) out.push(a);
  }
  return out.sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}

/**
 * The artifact with this id, or UNKNOWN_ID with close-match suggestions. Case-insensitive
 * fallback; then, for records read from decision-record folders, by number as people type
 * it (`10`, `0010`, `adr-10` for ADR-0010): one record with that number is the answer,
 * several are listed so the reader can pick; then by the start of its id, its file name or
 * path (recordsByStart), the same way.
 */
export function requireArtifact(set: ArtifactSet, id: string): Artifact {
  const a = set.byId.get(id) ?? [...set.byId.values()].find((x) => x.id.toLowerCase() === id.toLowerCase());
  if (a) return a;
  const numbered = recordsByNumber(set, id);
  if (numbered.length === 1) return numbered[0]!;
  if (numbered.length > 1) throw ambiguous(id, 'its number is shared by', numbered);
  const started = recordsByStart(set, id);
  if (started.length === 1) return started[0]!;
  if (started.length > 1) throw ambiguous(id, 'it names', started);
  const unloaded = unloadedFileFor(set, id);
  if (unloaded) throw new CtxError('UNKNOWN_ID', `${id} is not loaded: ${unloaded.file}${unloaded.line ? `:${unloaded.line}` : ''}: ${unloaded.message}`, { hint: 'fix the file, then git ctx check' });
  const near = closeMatches(id, [...set.byId.keys()]);
  throw new CtxError('UNKNOWN_ID', `unknown artifact id: ${id}`, { hint: near.length ? `did you mean ${near.join(', ')}?` : 'run git ctx list to see the ids' });
}

/**
 * The load problem of a file that would have given this id and did not load (invalid
 * frontmatter, a binary file in a records folder): `DEC-007` for `…/DEC-007.md`, `7` for
 * `…/0007-diagram.md`. Without it "unknown id" sends the reader looking for a typo.
 */
function unloadedFileFor(set: ArtifactSet, id: string): ArtifactSet['problems'][number] | undefined {
  const typed = TYPED_NUMBER.exec(id.trim());
  const wanted = id.trim().toLowerCase();
  return set.problems.find((p) => {
    const stem = (p.file.split('/').pop() ?? '').replace(/\.[^.]*$/, '').toLowerCase();
    if (stem === wanted) return true;
    const n = /^0*(\d+)[-_ ]/.exec(stem);
    return !!typed && !!n && Number(n[1]) === Number(typed[2]);
  });
}

/** annotationId's answers per set: code repeats an annotation's id in every file it governs. */
const ANNOTATED = new WeakMap<ArtifactSet, Map<string, string>>();

/**
 * The id an annotation in code means (`@adr 5`, `@decision ADR-5`, `@adr 0005-use-kotlin`):
 * the id as written when an artifact has it; else, as for a typed id (requireArtifact), the one
 * record of a decision-record folder it names — by id in another case, by number (`5`,
 * `ADR-5`), by file name or the start of its id — so a team that spells its ids its own way
 * is read as it meant (DEC-093). An id naming none or several stays as written: check reports it.
 */
export function annotationId(set: ArtifactSet, written: string): string {
  if (set.byId.has(written)) return written;
  let memo = ANNOTATED.get(set);
  if (!memo) ANNOTATED.set(set, (memo = new Map()));
  let id = memo.get(written);
  if (id === undefined) {
    const lower = written.toLowerCase();
    const matches = [...set.byId.values()].filter((x) => x.id.toLowerCase() === lower);
    const found = matches.length ? matches : recordsByNumber(set, written).length ? recordsByNumber(set, written) : recordsByStart(set, written);
    id = found.length === 1 ? found[0]!.id : written;
    memo.set(written, id);
  }
  return id;
}
