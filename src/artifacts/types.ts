// @spec SPEC-ARTIFACTS-001

/** Relation kinds that may be written in `relations:`. Reverse edges are computed. */
export const RELATION_KINDS = ['supersedes', 'depends_on', 'conflicts_with', 'caused_by', 'co_decided', 'amends', 'clarifies', 'relates_to'] as const;
export type RelationKind = (typeof RELATION_KINDS)[number];

/** Keys of `links:`; each names ids of artifacts (the key is a hint, not a type filter). */
export const LINK_KINDS = ['specs', 'decisions', 'norms', 'tasks'] as const;

export type Depth = 'meta' | 'summary' | 'full';
export const DEPTHS: readonly Depth[] = ['meta', 'summary', 'full'];

export type Scope = 'global' | 'domain' | 'project';

/** The format an artifact's file is written in: YAML frontmatter, or a decision record without it. */
export type SourceFormat = 'contextia' | 'adr';

/**
 * Code named in an artifact's prose (a path, directory, glob or `file#Symbol` in backticks
 * or a link) that exists in the repository. Weaker than a declared anchor, and shown as such.
 */
export interface Mention {
  /** repository-relative path, directory, glob, or `file#Symbol` */
  target: string;
  /** 1-based line of the artifact's file where it is written */
  line: number;
}

export interface Stamp {
  commit?: string;
  fingerprints?: Record<string, string>;
}

/**
 * A parsed artifact. `data` is the whole frontmatter, unknown keys included, with scalars kept as strings.
 * Artifacts that come from the parse cache decode most fields on first access (accessors on
 * their prototype): copy one with `JSON.parse(JSON.stringify(a))` or field by field, not with
 * `{ ...a }`, which copies only id, type, status, scope, domain, links, relations, requires,
 * file, origin and blob.
 */
export interface Artifact {
  id: string;
  type: string;
  title: string;
  status?: string;
  scope: Scope;
  domain?: string;
  summary?: string;
  keywords: string[];
  /** all `links:` ids, flattened, in file order, with the key each came from */
  links: { kind: string; id: string }[];
  relations: Partial<Record<RelationKind, string[]>>;
  requires: string[];
  paths: string[];
  anchors: string[];
  owner?: string;
  created?: string;
  source?: string;
  stamp?: Stamp;
  /** the format of its file (absent: 'contextia', frontmatter) */
  format?: SourceFormat;
  /** code mentioned in its text that exists in the repository (absent or empty: none) */
  mentions?: Mention[];
  /** the status exactly as written, when the configured status table mapped it to `status` */
  statusText?: string;
  /** repo-relative path of the file ('' root for global artifacts: see `origin`) */
  file: string;
  /** where it came from: the repository, another repository pinned as a git source (file `~name@commit/…`), or the user's global store */
  origin: 'repo' | 'federated' | 'global';
  /** git blob id of the file's bytes */
  blob: string;
  /** frontmatter as parsed (strings, arrays, maps) */
  data: Record<string, unknown>;
  /** markdown body after the frontmatter */
  body: string;
  /** 1-based line of each top-level frontmatter key, for messages */
  keyLines: Record<string, number>;
  /** 1-based line where the body starts */
  bodyLine: number;
}

/** A file that could not be loaded as an artifact; the rest still load. */
export interface LoadProblem {
  file: string;
  line?: number;
  rule: string;
  message: string;
}

/** An id is DEC-BILLING-001-like (letters, digits, dashes, dots, underscores) or path-like (segments joined by /). */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*(?:\/[A-Za-z0-9][A-Za-z0-9_.-]*)*$/;
