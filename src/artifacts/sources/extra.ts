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
  /**
   * the reference by number a numbered file answers to when its id is written in its
   * frontmatter (`ADR-0003` for `id: 0003-use-x` in 0003-use-x.md): "ADR 3" in another record
   * still finds it, though it is never renumbered
   */
  nb?: string;
  /**
   * relations of this record that another record's text states ("Superseded by [20…]" in
   * 0012 gives 0020 `supersedes: 0012`): [kind, target, the record whose text says so].
   * Set by finishing the set, so `show` and the map can say who said it.
   */
  by?: [RelationKind, string, string][];
  /** the names its title writes as code (`Option<T>`, `` `Registrar` ``): a file declaring one, or named after it, is the record's subject (DEC-116) */
  tc?: string[];
  /** record files its frontmatter names by path as the other side of a supersession: [key, value, line, the paths it may mean] (DEC-137) */
  fp?: [string, string, number, string[]][];
}

const extras = new WeakMap<object, SourceExtra>();

export function setExtra(a: Artifact, x: SourceExtra | undefined): void {
  if (x && (x.f || x.mc?.length || x.rel?.length || x.n || x.nb || x.by?.length || x.tc?.length || x.fp?.length)) extras.set(a, x);
}

export function extraOf(a: Artifact): SourceExtra | undefined {
  return extras.get(a);
}

/**
 * Which record's text states this relation of `a`, when it is not `a`'s own: "ADR-0012" for
 * ADR-0020's `supersedes: [ADR-0012]` drawn from 0012's "Superseded by". Undefined: `a`
 * states it (its text or frontmatter).
 */
export function relationStatedBy(a: Artifact, kind: RelationKind, to: string): string | undefined {
  return extraOf(a)?.by?.find(([k, t]) => k === kind && t === to)?.[2];
}
