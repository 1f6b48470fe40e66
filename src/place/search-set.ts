// @spec SPEC-SCALE-001

import type { ArtifactSet } from '../artifacts/load.js';
import type { Artifact } from '../artifacts/types.js';
import type { Config } from '../config.js';
import type { Snapshot, SnapshotEntry } from '../snapshot/types.js';
import { keepAnswer, keptAnswer, RecordingSnapshot, type PlaceQuestion } from './kept.js';

/**
 * The kept search set (DEC-066): what a search with new words reads of the artifact set,
 * kept in the cache registry (`search-set`) beside the kept answers (DEC-062) and by the same
 * key — the code, HEAD, the git index's stamp, the environment — and the stat of every file
 * and folder loading the set read (the config, the lock, the records folders). It holds the
 * config, the set's key (which names the keyword index and the vector plan, each kept by it:
 * DEC-037) and per record the fields a search ranks, filters and shows by. A warm search
 * with words it was never asked then reads this one entry instead of opening the snapshot,
 * the config, the parse cache and the finished set.
 *
 * Anything else a search might read (a record's body, keywords or paths: a keyword index or
 * vector plan missing and rebuilt, `--depth full`; a stamped record shown and judged stale;
 * a file of the tree) is not in the entry: reading it marks the light set `missed` and
 * throws, and the caller computes the answer from the repository instead. So an answer from
 * the entry is the answer from scratch, or none.
 */

/** The question the entry answers: the set as a search reads it (no words: one entry per repository). */
const QUESTION: PlaceQuestion = { command: 'search-set', place: '', options: { v: 1 } };

/**
 * One record's search fields but its id and relations, as an array (`null` for undefined):
 * type, title, status, scope, domain, summary, owner, created, source, format, file, origin,
 * links, and whether it is stamped. Not the blob id: a search reads it only to embed a
 * record the vector plan lacks (then from its text). Each row is kept as its own JSON text,
 * decoded when a search first reads a field of that record: a search reads the ids of every
 * record, the relations of those with any, and the rest of the hundred or so it ranks.
 */
type Row = [
  type: string,
  title: string,
  status: string | null,
  scope: Artifact['scope'],
  domain: string | null,
  summary: string | null,
  owner: string | null,
  created: string | null,
  source: string | null,
  format: string | null,
  file: string,
  origin: Artifact['origin'],
  links: Artifact['links'],
  stamped: 0 | 1,
];

interface SearchSetEntry {
  key: string;
  config: Config;
  ids: string[];
  /** each record's Row as JSON text */
  rows: string[];
  /** relations and requires of the records that have any, by position */
  graph: Record<number, [Artifact['relations'], string[]]>;
  /** positions of the record each id answers with, in the set's own order of ids */
  byId: number[];
  /** what the tree view answered as its listing identity (the code words' key) */
  identity: string | null;
  /** what loading the set read, so an answer computed from the entry is kept by the same files */
  files: string[];
  folders: string[];
}

const n = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

/** Thrown when a search reads what the entry does not hold: the answer is computed afresh. */
export class NotInSearchSet extends Error {
  constructor(what: string) {
    super(`the kept search set holds no ${what}`);
  }
}

/** The config as JSON keeps it: a config JSON cannot carry (a number like .inf) is not kept. */
function plainConfig(config: Config): boolean {
  let plain = true;
  JSON.stringify(config, (_k, v: unknown) => {
    if ((typeof v === 'number' && !Number.isFinite(v)) || v instanceof Map || v instanceof Set || v instanceof RegExp || typeof v === 'function') plain = false;
    return v;
  });
  return plain;
}

/**
 * Keep what a search reads of `set`, loaded through `rec` (which noted what loading read),
 * before anything else is read through it. Not kept: a set without a key (its keyword index
 * and vectors are kept by it), with global records, one loaded by listing the whole tree, a
 * config JSON cannot carry. Returns whether it was kept.
 */
export function keepSearchSet(rec: RecordingSnapshot, set: ArtifactSet, identity: string | undefined, startedMs: number, stampBefore: string | undefined): boolean {
  if (!set.key || rec.whole || set.artifacts.some((a) => a.origin === 'global') || !plainConfig(set.config)) return false;
  const at = new Map<Artifact, number>();
  const graph: SearchSetEntry['graph'] = {};
  const rows = set.artifacts.map((a, i): string => {
    at.set(a, i);
    if (a.requires.length || Object.keys(a.relations).length) graph[i] = [a.relations, a.requires];
    const row: Row = [a.type, a.title, n(a.status), a.scope, n(a.domain), n(a.summary), n(a.owner), n(a.created), n(a.source), n(a.format), a.file, a.origin, a.links, a.origin === 'repo' && a.stamp?.commit ? 1 : 0];
    return JSON.stringify(row);
  });
  const byId: number[] = [];
  for (const a of set.byId.values()) byId.push(at.get(a)!);
  const value: SearchSetEntry = { key: set.key, config: set.config, ids: set.artifacts.map((a) => a.id), rows, graph, byId, identity: identity ?? null, files: [...rec.files].sort(), folders: [...rec.folders].sort() };
  return keepAnswer(rec, QUESTION, value, startedMs, stampBefore);
}

const NONE: Artifact['relations'] = Object.freeze({});
const NO_IDS: string[] = Object.freeze([]) as unknown as string[];

/** A record of the kept search set: its search fields (decoded on first read), and a throw (noted) for anything else. */
class SearchRecord {
  #row: Row | undefined;
  constructor(
    readonly id: string,
    private readonly text: string,
    readonly relations: Artifact['relations'],
    readonly requires: string[],
    private readonly miss: (what: string) => never,
  ) {}
  get #r(): Row {
    return (this.#row ??= JSON.parse(this.text) as Row);
  }
  get type(): string { return this.#r[0]; }
  get title(): string { return this.#r[1]; }
  get status(): string | undefined { return this.#r[2] ?? undefined; }
  get scope(): Artifact['scope'] { return this.#r[3]; }
  get domain(): string | undefined { return this.#r[4] ?? undefined; }
  get summary(): string | undefined { return this.#r[5] ?? undefined; }
  get owner(): string | undefined { return this.#r[6] ?? undefined; }
  get created(): string | undefined { return this.#r[7] ?? undefined; }
  get source(): string | undefined { return this.#r[8] ?? undefined; }
  get format(): Artifact['format'] { return (this.#r[9] ?? undefined) as Artifact['format']; }
  get file(): string { return this.#r[10]; }
  get origin(): Artifact['origin'] { return this.#r[11]; }
  get links(): Artifact['links'] { return this.#r[12]; }
  /** undefined when unstamped (what a search asks: is it judged stale?); the stamp itself is not kept */
  get stamp(): Artifact['stamp'] {
    return this.#r[13] === 1 ? this.miss('stamp') : undefined;
  }
  get blob(): string { return this.miss('blob id'); }
  get keywords(): string[] { return this.miss('keywords'); }
  get paths(): string[] { return this.miss('paths'); }
  get anchors(): string[] { return this.miss('anchors'); }
  get mentions(): Artifact['mentions'] { return this.miss('mentions'); }
  get statusText(): string | undefined { return this.miss('status text'); }
  get data(): Record<string, unknown> { return this.miss('data'); }
  get body(): string { return this.miss('body'); }
  get keyLines(): Record<string, number> { return this.miss('key lines'); }
  get bodyLine(): number { return this.miss('body line'); }
  toJSON(): never { return this.miss('whole record'); }
}

/** What a search computed over the kept set reads instead of the repository. */
export interface KeptSearchSet {
  set: ArtifactSet;
  snapshot: Snapshot;
  config: Config;
  /** whether the search read something the entry does not hold (its answer is not the answer) */
  missed(): boolean;
  /** a recorder holding what loading the set read: the answer is kept by it, as a computed one */
  recorder(): RecordingSnapshot;
}

/** The kept search set of this repository, when nothing loading it read has changed. */
export function keptSearchSet(root: string, commit: string | undefined, env: NodeJS.ProcessEnv = process.env): KeptSearchSet | undefined {
  const e = keptAnswer<SearchSetEntry>(root, commit, QUESTION, env);
  if (!e || !Array.isArray(e.ids) || !Array.isArray(e.rows) || !Array.isArray(e.byId) || e.ids.length !== e.rows.length) return undefined;
  let missed = false;
  const miss = (what: string): never => {
    missed = true;
    throw new NotInSearchSet(what);
  };
  const graph = e.graph ?? {};
  const artifacts = e.ids.map((id, i) => {
    const g = graph[i];
    return new SearchRecord(id, e.rows[i]!, g ? g[0] : NONE, g ? g[1] : NO_IDS, miss) as unknown as Artifact;
  });
  const byId = new Map<string, Artifact>();
  for (const i of e.byId) byId.set(artifacts[i]!.id, artifacts[i]!);
  const none = (what: string) => () => Promise.reject(miss(what));
  const snapshot: Snapshot & { listIdentity(): Promise<string | undefined> } = {
    kind: 'worktree',
    root,
    commit,
    backend: 'git',
    list: none('listing of the tree') as () => Promise<SnapshotEntry[]>,
    listPaths: none('listing of the tree') as () => Promise<string[]>,
    listUnder: none('listing of a folder') as () => Promise<SnapshotEntry[]>,
    read: none('file') as () => Promise<Buffer | undefined>,
    readMany: none('files') as () => Promise<(Buffer | undefined)[]>,
    blobOf: none('file') as () => Promise<string | undefined>,
    // the code words are kept by the tree view's identity: a function of the index stamp, in the key
    listIdentity: () => Promise.resolve(e.identity ?? miss('listing identity')),
    close: () => undefined,
  };
  const set: ArtifactSet = { artifacts, byId, problems: [], config: e.config, snapshot, duplicates: new Map(), globalHashes: {}, key: e.key };
  return {
    set,
    snapshot,
    config: e.config,
    missed: () => missed,
    recorder() {
      const rec = new RecordingSnapshot(snapshot);
      for (const f of e.files) rec.files.add(f);
      for (const f of e.folders) rec.folders.add(f);
      return rec;
    },
  };
}
