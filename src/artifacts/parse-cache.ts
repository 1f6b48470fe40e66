import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CtxError } from '../errors.js';
import { cacheFile } from '../git/git-dir.js';
import type { Artifact, LoadProblem } from './types.js';

/** Bump when parseArtifact's output changes shape or meaning. */
export const PARSE_CACHE_VERSION = 5;
const TOOL = 'git-ctx/artifacts';

/**
 * An artifact without file, origin, frontmatter map and body, as an array in field order
 * (`null` for undefined): arrays parse faster than objects and build objects of one shape.
 */
type Light = [
  id: string,
  type: string,
  title: string,
  status: string | null,
  scope: Artifact['scope'],
  domain: string | null,
  summary: string | null,
  keywords: string[],
  links: Artifact['links'],
  relations: Artifact['relations'],
  requires: string[],
  paths: string[],
  anchors: string[],
  owner: string | null,
  created: string | null,
  source: string | null,
  stamp: Artifact['stamp'] | null,
  blob: string,
  keyLines: Artifact['keyLines'],
  bodyLine: number,
];
type Problem = Omit<LoadProblem, 'file'>;
/** `a` = the light fields; `h` = [offset, length] of `[data, body]` as JSON in the heavy part */
type Stored = { a?: Light; p: Problem[]; h?: [number, number] };
type Heavy = [Record<string, unknown>, string];
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
      const buf = readFileSync(file);
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

  get(blob: string, file: string, origin: 'repo' | 'global'): { artifact?: Artifact; problems: LoadProblem[] } | undefined {
    const e = this.entries.get(blob);
    if (!e) return undefined;
    this.used.add(blob);
    let artifact: Artifact | undefined;
    if (e.s.a) {
      artifact = new CachedArtifact(e.s.a, file, origin, () => this.heavyOf(e)) as Artifact;
    }
    return { artifact, problems: e.s.p.length ? e.s.p.map((p) => ({ ...p, file })) : [] };
  }

  set(blob: string, artifact: Artifact | undefined, problems: LoadProblem[]): void {
    let a: Light | undefined;
    let heavy: Heavy | undefined;
    if (artifact) {
      const x = artifact;
      const n = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
      a = [x.id, x.type, x.title, n(x.status), x.scope, n(x.domain), n(x.summary), x.keywords, x.links, x.relations, x.requires, x.paths, x.anchors, n(x.owner), n(x.created), n(x.source), n(x.stamp), x.blob, x.keyLines, x.bodyLine];
      heavy = [x.data, x.body];
    }
    this.entries.set(blob, { s: { a, p: problems.map(({ file: _f, ...rest }) => rest) }, heavy });
    this.used.add(blob);
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
    try {
      await mkdir(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      await writeFile(tmp, Buffer.concat([Buffer.from(JSON.stringify({ tool: TOOL, version: PARSE_CACHE_VERSION, entries: index }) + '\n'), ...parts]));
      await rename(tmp, this.file);
      // the JSON cache of earlier versions
      await rm(path.join(path.dirname(this.file), 'artifacts.json'), { force: true });
    } catch {
      /* read-only checkout (CI, Action): the cache is an optimisation only */
    }
  }
}

/**
 * An artifact read from the cache. Every field is an own property except `data` and `body`,
 * which are decoded on first read (or replaced on assignment) by accessors on the prototype:
 * a class builds 2,000 of these several times faster than object literals with accessors or
 * `defineProperty`. Consequence: `{ ...artifact }` copies neither; `toJSON` includes both.
 */
class CachedArtifact {
  id: string;
  type: string;
  title: string;
  status: string | undefined;
  scope: Artifact['scope'];
  domain: string | undefined;
  summary: string | undefined;
  keywords: string[];
  links: Artifact['links'];
  relations: Artifact['relations'];
  requires: string[];
  paths: string[];
  anchors: string[];
  owner: string | undefined;
  created: string | undefined;
  source: string | undefined;
  stamp: Artifact['stamp'];
  file: string;
  origin: Artifact['origin'];
  blob: string;
  keyLines: Artifact['keyLines'];
  bodyLine: number;
  readonly #heavy: () => Heavy;
  constructor(l: Light, file: string, origin: Artifact['origin'], heavy: () => Heavy) {
    this.id = l[0];
    this.type = l[1];
    this.title = l[2];
    this.status = l[3] ?? undefined;
    this.scope = l[4];
    this.domain = l[5] ?? undefined;
    this.summary = l[6] ?? undefined;
    this.keywords = l[7];
    this.links = l[8];
    this.relations = l[9];
    this.requires = l[10];
    this.paths = l[11];
    this.anchors = l[12];
    this.owner = l[13] ?? undefined;
    this.created = l[14] ?? undefined;
    this.source = l[15] ?? undefined;
    this.stamp = l[16] ?? undefined;
    this.file = file;
    this.origin = origin;
    this.blob = l[17];
    this.keyLines = l[18];
    this.bodyLine = l[19];
    this.#heavy = heavy;
  }
  get data(): Record<string, unknown> {
    return settle(this, 'data', this.#heavy()[0]);
  }
  set data(v: Record<string, unknown>) {
    settle(this, 'data', v);
  }
  get body(): string {
    return settle(this, 'body', this.#heavy()[1]);
  }
  set body(v: string) {
    settle(this, 'body', v);
  }
  toJSON(): Artifact {
    return { ...this, data: this.data, body: this.body } as Artifact;
  }
}

/** Shadow a lazy accessor with the plain value it computed (or was assigned). */
function settle<T>(obj: object, key: 'data' | 'body', value: T): T {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  return value;
}
