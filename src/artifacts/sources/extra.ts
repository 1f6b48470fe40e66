// @spec SPEC-SOURCES-001

import type { Artifact, RelationKind } from '../types.js';

/**
 * What a reader found in a file that needs the whole set (or the repository listing) to
 * become fields of an artifact; `loadArtifactSet` finishes the job. Kept beside the
 * artifact, never on it, so the public shape stays the one in types.ts; the parse cache
 * stores it with the artifact.
 */
export interface SourceExtra {
  /** written format ('adr'); absent: contextia */
  f?: 'adr';
  /** code named in the text: candidate repository paths (first that exists wins) and its line */
  mc?: [string[], number][];
  /**
   * relations written in the text: [kind, ref, line, incoming]. A ref is an id, `@path`
   * (a linked record file), `^path` (a record linked by its GitHub/GitLab address: kept only
   * when a record has that path), `%folder/slug` (a record's published page: its folder's
   * name and file name, with or without the number) or `~` + id (a loose number, kept only
   * when a record has it); a link whose text names a record carries it after `\u0001`
   * (`@doc/adr/0016-x.md\u0001ADR-15`: the target decides, a disagreement is a finding);
   * incoming (1) means the other record holds the edge
   * ("Superseded by X" is X supersedes this).
   */
  rel?: [RelationKind, string, number, 0 | 1][];
  /** the number in the file name (adr), for references like "ADR 7" */
  n?: string;
}

const extras = new WeakMap<object, SourceExtra>();

export function setExtra(a: Artifact, x: SourceExtra | undefined): void {
  if (x && (x.f || x.mc?.length || x.rel?.length || x.n)) extras.set(a, x);
}

export function extraOf(a: Artifact): SourceExtra | undefined {
  return extras.get(a);
}
