// @spec SPEC-CACHE-001

import { rm } from 'node:fs/promises';
import path from 'node:path';
import { CtxError } from '../errors.js';
import { cacheFile } from '../git/git-dir.js';
import { readCacheBytes, writeCacheFile } from './file.js';
import { extraOf, setExtra, type SourceExtra } from '../sources/extra.js';
import type { Artifact, LoadProblem } from '../artifacts/types.js';

/** Bump when parseArtifact's output changes shape or meaning. */
export const PARSE_CACHE_VERSION = 10;
const TOOL = 'git-ctx/artifacts';

/**
 * What traversal, lookup and the link graph read of every artifact, as an array (arrays parse
 * faster than objects): id, type, status, scope, domain, links, relations, requires (the
 * blob id is the entry's key). `null` stands for undefined.
 */
type Light = [
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
type Heavy = [
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
type Problem = Omit<LoadProblem, 'file'>;
/** `a` = the light fields; `h` = [offset, length] of the heavy fields as JSON after the index line */
type Stored = { a?: Light; p: Problem[]; h?: [number, number] };
type Entry = { s: Stored; heavy?: Heavy };

/**
 * Parsed artifacts keyed by git blob id, under `<git-dir>/ctx/cache/artifacts.bin`.
 * A warm run reads one file instead of reading and parsing every artifact; the blob id of an
 * unchanged file is known from the index, so nothing is hashed either.
 *
 * The file is a JSON index on the first line (every field but the frontmatter map and the
 * body) followed by those two per entry, each as JSON at a recorded byte range. Traversal,
 * lookup and most rules read only indexed fields, so `data` and `body` are decoded on first
 * access: a bundle of 40 artifacts out of 2,000 decodes 40 bodies (the index parses in
 * about a third of the time of the whole). Corrupt, old-version or unwritable caches are
 * ignored: the cache only ever saves time.
 */
let preloaded: { root: string; cache: ParseCache } | undefined;

export class ParseCache {
  private entries = new Map<string, Entry>();
  private used = new Set<string>();
  private dirty = false;
  private buf: Buffer | undefined;
  private base = 0;
  private constructor(private readonly file: string | undefined) {}

  /**
   * Read the cache now, before it is needed: a caller that has just started a git process
   * parses the cache while git works, instead of after. `open` then returns this instance.
   */
  static preload(root: string): void {
    if (preloaded?.root !== root) preloaded = { root, cache: ParseCache.read(root) };
  }

  static async open(root: string): Promise<ParseCache> {
    if (preloaded?.root === root) {
      const c = preloaded.cache;
      preloaded = undefined; // one run, one instance: a later open reads the file afresh
      return c;
    }
    return ParseCache.read(root);
  }

  private static read(root: string): ParseCache {
    const file = cacheFile(root, 'artifacts.bin');
    const c = new ParseCache(file);
    if (!file) return c;
    try {
      // one synchronous read: the file is needed before anything else can happen
      const buf = readCacheBytes(file);
      if (!buf) return c;
      const nl = buf.indexOf(10);
      const data = JSON.parse(buf.toString('utf8', 0, nl < 0 ? buf.length : nl)) as { tool?: string; version?: number; entries?: Record<string, Stored> };
      if (nl > 0 && data.tool === TOOL && data.version === PARSE_CACHE_VERSION && data.entries) {
        const room = buf.length - (nl + 1);
        const entries = new Map<string, Entry>();
        for (const k in data.entries) {
          const s = data.entries[k]!;
          // a cut-off file (disk full, killed writer on a filesystem without atomic rename) is dropped whole
          if (s.a && !(s.h && s.h[0] >= 0 && s.h[0] + s.h[1] <= room)) throw new Error('truncated');
          entries.set(k, { s });
        }
        c.buf = buf;
        c.base = nl + 1;
        c.entries = entries;
      }
    } catch {
      /* absent or unreadable: start empty */
    }
    return c;
  }

  private heavyOf(e: Entry): Heavy {
    if (!e.heavy) {
      const [o, n] = e.s.h ?? [0, 0];
      const start = this.base + o;
      try {
        e.heavy = JSON.parse(this.buf!.toString('utf8', start, start + n)) as Heavy;
      } catch (err) {
        // ranges were checked at open; bytes that changed under us are beyond repair here
        throw new CtxError('IO', `the artifact cache is damaged: ${this.file}`, { cause: err, hint: 'delete it (rm -r .git/ctx/cache) and run again' });
      }
    }
    return e.heavy;
  }

  /** `key` is the blob id, followed by `:`-separated reader settings for formats whose parse depends on them. */
  get(key: string, file: string, origin: 'repo' | 'global'): { artifact?: Artifact; problems: LoadProblem[] } | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.used.add(key);
    let artifact: Artifact | undefined;
    if (e.s.a) {
      const colon = key.indexOf(':');
      artifact = new CachedArtifact(e.s.a, colon < 0 ? key : key.slice(0, colon), file, origin, () => this.heavyOf(e)) as Artifact;
      setExtra(artifact, e.s.a[8] ?? undefined);
    }
    return { artifact, problems: e.s.p.length ? e.s.p.map((p) => ({ ...p, file })) : [] };
  }

  set(key: string, artifact: Artifact | undefined, problems: LoadProblem[]): void {
    let a: Light | undefined;
    let heavy: Heavy | undefined;
    if (artifact) {
      const x = artifact;
      const n = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
      a = [x.id, x.type, n(x.status), x.scope, n(x.domain), x.links, x.relations, x.requires, n(extraOf(x))];
      heavy = [x.title, n(x.summary), x.keywords, x.paths, x.anchors, n(x.owner), n(x.created), n(x.source), n(x.stamp), x.keyLines, x.bodyLine, x.data, x.body];
    }
    this.entries.set(key, { s: { a, p: problems.map(({ file: _f, ...rest }) => rest) }, heavy });
    this.used.add(key);
    this.dirty = true;
  }

  /** Write when something changed; keeps this run's entries plus a bounded number of others. */
  async save(): Promise<void> {
    if (!this.file || !this.dirty) return;
    const keep: string[] = [...this.used];
    let extra = Math.max(5000, this.used.size);
    for (const k of this.entries.keys()) {
      if (extra <= 0) break;
      if (!this.used.has(k)) {
        keep.push(k);
        extra--;
      }
    }
    const index: Record<string, Stored> = {};
    const parts: Buffer[] = [];
    let offset = 0;
    for (const k of keep) {
      const e = this.entries.get(k)!;
      let bytes: Buffer | undefined;
      if (e.heavy) bytes = Buffer.from(JSON.stringify(e.heavy));
      else if (e.s.h && this.buf) bytes = this.buf.subarray(this.base + e.s.h[0], this.base + e.s.h[0] + e.s.h[1]);
      const s: Stored = { p: e.s.p };
      if (e.s.a) {
        if (!bytes) continue; // an old entry whose bytes are gone: parse again next time
        s.a = e.s.a;
        s.h = [offset, bytes.length];
        parts.push(bytes);
        offset += bytes.length;
      }
      index[k] = s;
    }
    // a read-only checkout (CI, Action) skips the write: the cache is an optimisation only
    if (writeCacheFile(this.file, Buffer.concat([Buffer.from(JSON.stringify({ tool: TOOL, version: PARSE_CACHE_VERSION, entries: index }) + '\n'), ...parts]))) {
      // the JSON cache of earlier versions
      await rm(path.join(path.dirname(this.file), 'artifacts.json'), { force: true }).catch(() => undefined);
    }
  }
}

/**
 * An artifact read from the cache. The fields traversal and lookup read of every artifact
 * are own properties; the rest (title, summary, keywords, paths, anchors, owner, created,
 * source, stamp, keyLines, bodyLine, data, body) are accessors on the prototype that decode
 * this artifact's part of the cache on first read, and take assignments like fields. A bundle
 * of 40 artifacts out of 2,000 decodes 40. Consequence: `{ ...artifact }` copies only the
 * own fields; `toJSON` (and so JSON.stringify) includes everything.
 */
class CachedArtifact {
  id: string;
  type: string;
  status: string | undefined;
  scope: Artifact['scope'];
  domain: string | undefined;
  links: Artifact['links'];
  relations: Artifact['relations'];
  requires: string[];
  file: string;
  origin: Artifact['origin'];
  blob: string;
  format: Artifact['format'];
  mentions: Artifact['mentions'];
  statusText: Artifact['statusText'];
  #load: () => Heavy;
  #heavy: Heavy | undefined;
  /** keyLines entries to add where absent, applied on first read (see defaultKeyLine) */
  #keyLineDefaults: Record<string, number> | undefined;
  constructor(l: Light, blob: string, file: string, origin: Artifact['origin'], load: () => Heavy) {
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
    if (l[8]?.f) this.format = l[8].f;
    this.#load = load;
  }
  get #h(): Heavy {
    return (this.#heavy ??= [...this.#load()] as Heavy);
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

