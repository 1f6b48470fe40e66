// @spec SPEC-CACHE-001

import { extraOf, type SourceExtra } from '../sources/extra.js';
import type { Artifact, LoadProblem } from '../types.js';

/**
 * What traversal, lookup and the link graph read of every artifact, as an array (arrays parse
 * faster than objects): id, type, status, scope, domain, links, relations, requires (the
 * blob id is the entry's key). `null` stands for undefined.
 */
export type Light = [
  id: string,
  type: string,
  status: string | null,
  scope: Artifact['scope'],
  domain: string | null,
  links: Artifact['links'],
  relations: Artifact['relations'],
  requires: string[],
  /** what the reader found for the set to finish (format, mention candidates, relations in the text) */
  extra: SourceExtra | null,
];
/** Everything else, decoded from its own byte range on first access. */
export type Heavy = [
  title: string,
  summary: string | null,
  keywords: string[],
  paths: string[],
  anchors: string[],
  owner: string | null,
  created: string | null,
  source: string | null,
  stamp: Artifact['stamp'] | null,
  keyLines: Artifact['keyLines'],
  bodyLine: number,
  data: Record<string, unknown>,
  body: string,
];
export type Problem = Omit<LoadProblem, 'file'>;
/** `a` = the light fields; `h` = [offset, length] of the heavy fields as JSON in the heavy section */
export type Stored = { a?: Light; p: Problem[]; h?: [number, number] };
export type Entry = { s: Stored; heavy?: Heavy };

export const n = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
export const lightOf = (x: Artifact): Light => [x.id, x.type, n(x.status), x.scope, n(x.domain), x.links, x.relations, x.requires, n(extraOf(x))];

/**
 * An artifact read from the cache. The fields traversal and lookup read of every artifact
 * are own properties; the rest (title, summary, keywords, paths, anchors, owner, created,
 * source, stamp, keyLines, bodyLine, data, body) are accessors on the prototype that decode
 * this artifact's part of the cache on first read, and take assignments like fields. A bundle
 * of 40 artifacts out of 2,000 decodes 40. Consequence: `{ ...artifact }` copies only the
 * own fields; `toJSON` (and so JSON.stringify) includes everything.
 */
/** What holds a cached artifact's heavy fields: a byte range of the file, or its parse entry (range unused). */
export interface HeavySource {
  heavyAt(at: number, len: number): Heavy;
}

export class CachedArtifact {
  // declared only (no field initialisers): the constructor sets every one, in this order, so
  // each record gets one store per field instead of a definition and then a store (DEC-040)
  declare id: string;
  declare type: string;
  declare status: string | undefined;
  declare scope: Artifact['scope'];
  declare domain: string | undefined;
  declare links: Artifact['links'];
  declare relations: Artifact['relations'];
  declare requires: string[];
  declare file: string;
  declare origin: Artifact['origin'];
  declare blob: string;
  declare format: Artifact['format'];
  declare mentions: Artifact['mentions'];
  declare statusText: Artifact['statusText'];
  /** where the heavy fields are: a loader and a byte range (no closure per record: a set has thousands) */
  #src: HeavySource;
  #at: number;
  #len: number;
  #heavy: Heavy | undefined;
  /** keyLines entries to add where absent, applied on first read (see defaultKeyLine) */
  #keyLineDefaults: Record<string, number> | undefined;
  /**
   * From the light fields, in the order the cache stores them (one tuple type says that order
   * for the encoder, lightOf, and for this decoder), and where the heavy fields are.
   */
  constructor(l: Light, blob: string, file: string, origin: Artifact['origin'], src: HeavySource, at = 0, len = 0) {
    this.id = l[0];
    this.type = l[1];
    this.status = l[2] ?? undefined;
    this.scope = l[3];
    this.domain = l[4] ?? undefined;
    this.links = l[5];
    this.relations = l[6];
    this.requires = l[7];
    this.file = file;
    this.origin = origin;
    this.blob = blob;
    this.format = l[8]?.f ? l[8].f : undefined;
    this.mentions = undefined;
    this.statusText = undefined;
    this.#src = src;
    this.#at = at;
    this.#len = len;
  }
  get #h(): Heavy {
    return (this.#heavy ??= [...this.#src.heavyAt(this.#at, this.#len)] as Heavy);
  }
  get title(): string { return this.#h[0]; }
  set title(v: string) { this.#h[0] = v; }
  get summary(): string | undefined { return this.#h[1] ?? undefined; }
  set summary(v: string | undefined) { this.#h[1] = v ?? null; }
  get keywords(): string[] { return this.#h[2]; }
  set keywords(v: string[]) { this.#h[2] = v; }
  get paths(): string[] { return this.#h[3]; }
  set paths(v: string[]) { this.#h[3] = v; }
  get anchors(): string[] { return this.#h[4]; }
  set anchors(v: string[]) { this.#h[4] = v; }
  get owner(): string | undefined { return this.#h[5] ?? undefined; }
  set owner(v: string | undefined) { this.#h[5] = v ?? null; }
  get created(): string | undefined { return this.#h[6] ?? undefined; }
  set created(v: string | undefined) { this.#h[6] = v ?? null; }
  get source(): string | undefined { return this.#h[7] ?? undefined; }
  set source(v: string | undefined) { this.#h[7] = v ?? null; }
  get stamp(): Artifact['stamp'] { return this.#h[8] ?? undefined; }
  set stamp(v: Artifact['stamp']) { this.#h[8] = v ?? null; }
  get keyLines(): Artifact['keyLines'] {
    const d = this.#keyLineDefaults;
    if (d) {
      this.#keyLineDefaults = undefined;
      const kl = { ...this.#h[9] };
      for (const [k, v] of Object.entries(d)) if (kl[k] === undefined) kl[k] = v;
      this.#h[9] = kl;
    }
    return this.#h[9];
  }
  set keyLines(v: Artifact['keyLines']) { this.#keyLineDefaults = undefined; this.#h[9] = v; }
  /**
   * `keyLines[key] ??= line` without decoding this artifact's part of the cache now: finishing
   * ADR sources gives every record with a broken reference a `links` line, and decoding
   * hundreds of record bodies for that would cost more than the rest of a warm load.
   */
  defaultKeyLine(key: string, line: number): void {
    if (this.#heavy) {
      if (this.#heavy[9][key] === undefined) this.#heavy[9] = { ...this.#heavy[9], [key]: line };
      return;
    }
    (this.#keyLineDefaults ??= {})[key] ??= line;
  }
  get bodyLine(): number { return this.#h[10]; }
  set bodyLine(v: number) { this.#h[10] = v; }
  get data(): Record<string, unknown> { return this.#h[11]; }
  set data(v: Record<string, unknown>) { this.#h[11] = v; }
  get body(): string { return this.#h[12]; }
  set body(v: string) { this.#h[12] = v; }
  /** The same shape and key order as a freshly parsed artifact. */
  toJSON(): Artifact {
    return {
      id: this.id, type: this.type, title: this.title, status: this.status, scope: this.scope, domain: this.domain, summary: this.summary,
      keywords: this.keywords, links: this.links, relations: this.relations, requires: this.requires, paths: this.paths, anchors: this.anchors,
      owner: this.owner, created: this.created, source: this.source, stamp: this.stamp, ...(this.format ? { format: this.format } : {}),
      file: this.file, origin: this.origin, blob: this.blob, data: this.data, body: this.body, keyLines: this.keyLines, bodyLine: this.bodyLine,
      ...(this.mentions ? { mentions: this.mentions } : {}), ...(this.statusText !== undefined ? { statusText: this.statusText } : {}),
    };
  }
}

