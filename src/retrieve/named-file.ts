// @spec SPEC-RETRIEVE-001
// @decision DEC-105

import type { Snapshot } from '../snapshot/types.js';
import { terms } from './text.js';
import { namedPlaces } from './trace.js';
import type { TraceTarget } from './trace-target.js';
import type { NamedNote } from './types.js';

/** A word of a search that names files of the tree (its path, or a name only some files have). */
export interface NamedFiles {
  /** the word as a path (normalised), with `#Symbol` when written */
  target: TraceTarget;
  /** the files it names, sorted: its own path when that is a file, else the files whose path ends with it */
  files: string[];
}

/** How many of the files an ambiguous name names are listed. */
export const NAMED_LISTED = 5;

/**
 * The words of a search that name files (namedPlaces: a word with an extension or a folder).
 * A word that is a file's path names that file; otherwise a bare name (`libs.versions.toml`)
 * or a path written from a folder down (`adr/README.md`) names the files whose path ends with
 * it, read from the tree's listing only when some word needs it. Words naming nothing are left out.
 */
export async function filesNamedBy(snapshot: Snapshot, text: string): Promise<NamedFiles[]> {
  const out: NamedFiles[] = [];
  let listing: Promise<string[]> | undefined;
  for (const target of namedPlaces(text)) {
    if ((await snapshot.blobOf(target.path)) !== undefined) {
      out.push({ target, files: [target.path] });
      continue;
    }
    if (!target.path || target.path.startsWith('../')) continue;
    listing ??= snapshot.listPaths ? snapshot.listPaths() : snapshot.list().then((es) => es.map((e) => e.path));
    const tail = `/${target.path}`;
    const files = (await listing).filter((p) => p.endsWith(tail));
    if (files.length) out.push({ target, files });
  }
  return out;
}

/**
 * The place a search of one word names, when it names exactly one file: that file, or a symbol
 * or a line in it (`src/billing/invoice.ts#invoiceTotal`, `invoice.ts:12`), asked as `for` asks.
 */
export function wholeSearchPlace(text: string, named: readonly NamedFiles[]): TraceTarget | undefined {
  const [only] = named;
  if (named.length !== 1 || only!.files.length !== 1) return undefined;
  return text.trim().split(/\s+/).length === 1 ? { ...only!.target, path: only!.files[0]! } : undefined;
}

/** How many of the words naming files a result speaks of. */
export const NAMED_WORDS = 5;

/**
 * What a result says of the names it read (RetrievalResult.named): each word taken as the one
 * file whose path ends with it, or naming several files (searched as words then), the first few.
 */
export function namedNotes(named: readonly NamedFiles[]): NamedNote[] {
  return named
    .filter((x) => x.files.length > 1 || x.files[0] !== x.target.path)
    .slice(0, NAMED_WORDS)
    .map((n) => ({ word: n.target.path, files: n.files.slice(0, NAMED_LISTED), count: n.files.length }));
}

/** The notes as a result's fields: the first as `named` (as before), the others as `alsoNamed`. */
export function namedFields(named: readonly NamedFiles[]): { named?: NamedNote; alsoNamed?: NamedNote[] } {
  const [first, ...rest] = namedNotes(named);
  return { ...(first ? { named: first } : {}), ...(rest.length ? { alsoNamed: rest } : {}) };
}

/**
 * The terms of a search that only name files of the tree (the parts of `libs.versions.toml`,
 * of `src/billing/invoice.ts`), not also written as words of their own (a symbol after `#` is
 * the asker's word): a record need not say a file's name to decide about it (lanes.ts).
 */
export function fileNameTerms(text: string, named: readonly NamedFiles[]): string[] {
  const paths = new Set(named.map((n) => n.target.path));
  const file = new Set<string>();
  const own = new Set<string>();
  for (const word of text.split(/\s+/)) {
    const [t] = namedPlaces(word);
    if (t && paths.has(t.path)) {
      for (const x of terms(t.path)) file.add(x);
      for (const x of terms(t.symbol ?? '')) own.add(x);
    } else for (const x of terms(word)) own.add(x);
  }
  return [...file].filter((x) => !own.has(x));
}
