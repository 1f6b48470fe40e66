// @spec SPEC-CODEGRAPH-001

import { sha1 } from '../../util/hash.js';
import type { Snapshot } from '../../snapshot/types.js';
import { memo as cacheMemo } from '../../cache/memo.js';
import type { CallSite, CodeNeighbours } from '../neighbours.js';
import { CODE_GRAPH_VERSION } from './version.js';
import { collectCode, fresh, type Collected } from './build.js';
import { innermostAt, Neighbours, norm, previous, validMeta, type Previous } from './index-store.js';
import { answerForFile, type FileAnswer } from './scoped.js';

export { graphLanguageOf } from './build.js';
export type { FileFacts, GraphLanguage, GraphDecl, GraphImport, GraphCall } from './types.js';
export { extractTsFacts } from './extract-ts.js';
export { extractTreeSitterFacts } from './extract-tree-sitter.js';

export { CODE_GRAPH_VERSION };

const DEFAULT_MAX_BYTES = 1_000_000;

export interface CodeGraphOptions {
  /** files larger than this are skipped (reported, not read); default 1 MB */
  maxFileBytes?: number;
  /** read and write the code-graph caches (default true; `GIT_CTX_NO_CACHE=1` also turns them off) */
  cache?: boolean;
}

/** A file the graph could not read fully: skipped (too large, binary) or parsed with errors. */
export interface CodeGraphProblem {
  path: string;
  reason: string;
}

export interface CodeGraphStats {
  /** code files in the snapshot the graph reads */
  files: number;
  /** files parsed by this run */
  parsed: number;
  /** files whose facts came from the blob-keyed cache */
  cached: number;
  /** files whose imports and calls this run resolved (an update after an edit links only what the edit can change) */
  linked: number;
  /** the whole linked index came from the cache (nothing changed since it was built) */
  indexCached: boolean;
}

/** A CodeNeighbours over a whole snapshot, with what it could not read and what it cost. */
export interface CodeGraphIndex extends CodeNeighbours {
  readonly problems: readonly CodeGraphProblem[];
  readonly stats: CodeGraphStats;
  /** the code files indexed, sorted */
  files(): Promise<string[]>;
  /** declarations of a file: `[name, line, endLine]` */
  declarations(path: string): Promise<[string, number, number][]>;
  /** every symbol of a file that something calls, with its call sites as `callers` gives them (projections enumerate the graph with it) */
  callersIn(path: string): Promise<[string, CallSite[]][]>;
}

/**
 * The code graph of a snapshot: imports and importers of files, callers and callees of
 * symbols, for TypeScript/JavaScript (compiler module resolution), Python, Go, Java and Ruby
 * (tree-sitter). Per-file facts are cached by blob id; the linked index is cached by the
 * set of (path, blob) of the code and config files, so a question on an unchanged tree
 * reads one cache file and parses nothing, and after an edit only changed files are parsed.
 */
export async function openCodeNeighbours(snapshot: Snapshot, opts: CodeGraphOptions = {}): Promise<CodeGraphIndex> {
  const kept = await openKept(snapshot, opts);
  return 'index' in kept ? kept.index : kept.build();
}

/**
 * The code graph for a question about one file (`for`, the agent-read hook): the kept index
 * when there is one, or one kept earlier to update after an edit. On a tree with neither, the
 * first question answers the file's imports, importers and declarations from the files that
 * can matter to them (scoped.ts), and the next question on the same tree builds the whole
 * graph that answers every later one from a shard. Callers and callees, and any other file,
 * are asked of the whole graph (built then).
 */
export async function openFileNeighbours(snapshot: Snapshot, focus: string, opts: CodeGraphOptions = {}): Promise<CodeNeighbours> {
  const kept = await openKept(snapshot, opts);
  if ('index' in kept) return kept.index;
  const { collected: c, stats, maxBytes, useCache } = kept;
  const prev = useCache ? previous(snapshot.root, c.env) : undefined;
  const asked = cacheMemo<{ focus: string }>(useCache ? snapshot.root : undefined, 'code-graph-asked');
  if (prev || asked.get(c.env)) return kept.build(prev ?? null);
  const path = norm(focus);
  const answer = await answerForFile(snapshot, c, path, maxBytes, useCache, stats);
  if (!answer) return kept.build(null);
  asked.set(c.env, { focus: path });
  return new FocusedNeighbours(path, answer, () => kept.build(null));
}

type Kept =
  | { index: CodeGraphIndex }
  | { collected: Collected; stats: CodeGraphStats; maxBytes: number; useCache: boolean; build: (prev?: Previous | null) => Promise<CodeGraphIndex> };

/** The kept index of the snapshot's tree if there is one; else its code files listed, and how to build (or update) the index. */
async function openKept(snapshot: Snapshot, opts: CodeGraphOptions): Promise<Kept> {
  const maxBytes = opts.maxFileBytes ?? DEFAULT_MAX_BYTES;
  const useCache = opts.cache !== false;
  const root = snapshot.root;
  // a snapshot whose listing is a function of a cheap identity (the git index's stamp and the
  // focus files' blobs: PlaceSnapshot) finds its index key in a memo, without listing the tree
  // and hashing every (path, blob) of it; anything else computes the key from the listing
  const identityOf = (snapshot as { listIdentity?: (listed?: boolean) => Promise<string | undefined> }).listIdentity?.bind(snapshot);
  const identity = useCache && identityOf ? await identityOf() : undefined;
  const memoKey = identity ? sha1(`git-ctx/code-graph-memo ${CODE_GRAPH_VERSION} ${maxBytes}\n${identity}`) : undefined;
  if (memoKey) {
    const memo = cacheMemo<Partial<KeyMemo>>(root, 'code-graph-memo').get(memoKey);
    const meta = memo && typeof memo.key === 'string' && Number.isInteger(memo.files) ? validMeta(cacheMemo(root, 'code-graph-index').get(memo.key)) : undefined;
    if (memo && meta) {
      const n = memo.files!;
      const stats: CodeGraphStats = { files: n, parsed: 0, cached: n, linked: 0, indexCached: true };
      let collected: Promise<Collected> | undefined;
      const collect = () => (collected ??= collectCode(snapshot, maxBytes));
      const rebuild = async (update = true) => fresh(snapshot, await collect(), maxBytes, useCache, stats, update);
      return { index: new Neighbours(async () => (await collect()).code.map((c) => c.path), meta.problems, stats, { root, meta, rebuild }) };
    }
  }
  const c = await collectCode(snapshot, maxBytes);
  const stats: CodeGraphStats = { files: c.code.length, parsed: 0, cached: 0, linked: 0, indexCached: false };
  const paths = c.code.map((x) => x.path);
  const meta = useCache ? validMeta(cacheMemo(root, 'code-graph-index').get(c.key)) : undefined;
  // remembered only when the identity held while the tree was listed
  const remember = () => {
    if (memoKey && identityOf) void identityOf(true).then((listed) => listed === identity && cacheMemo<KeyMemo>(root, 'code-graph-memo').set(memoKey, { key: c.key, files: c.code.length }), () => undefined);
  };
  if (meta) {
    stats.indexCached = true;
    stats.cached = c.code.length;
    remember();
    return { index: new Neighbours(async () => paths, meta.problems, stats, { root, meta, rebuild: (update = true) => fresh(snapshot, c, maxBytes, useCache, stats, update) }) };
  }
  let built: Promise<CodeGraphIndex> | undefined;
  // `prev`: the index to update, null when there is none to look for, absent to look for it
  const build = (prev?: Previous | null) =>
    (built ??= (async () => {
      const linked = await fresh(snapshot, c, maxBytes, useCache, stats, true, prev);
      remember();
      return new Neighbours(async () => paths, linked.problems, stats, linked.files);
    })());
  return { collected: c, stats, maxBytes, useCache, build };
}

/** A file's answers from the files that can matter to it; everything else from the whole graph, built when first asked. */
class FocusedNeighbours implements CodeNeighbours {
  readonly languages: readonly string[] = ['typescript', 'javascript', 'python', 'go', 'java', 'ruby', 'rust'];

  constructor(
    private readonly focus: string,
    private readonly answer: FileAnswer,
    private readonly whole: () => Promise<CodeGraphIndex>,
  ) {}

  private mine = (path: string) => norm(path) === this.focus;

  async imports(path: string): Promise<string[]> {
    return this.mine(path) ? [...this.answer.imports] : (await this.whole()).imports(path);
  }

  async importers(path: string): Promise<string[]> {
    return this.mine(path) ? [...this.answer.importers] : (await this.whole()).importers(path);
  }

  async declarations(path: string): Promise<[string, number, number][]> {
    return this.mine(path) ? [...this.answer.decls] : (await this.whole()).declarations(path);
  }

  async symbolAt(path: string, line: number): Promise<string | undefined> {
    return this.mine(path) ? innermostAt(this.answer.decls, line) : (await this.whole()).symbolAt(path, line);
  }

  async callers(path: string, symbol: string): Promise<CallSite[]> {
    return (await this.whole()).callers(path, symbol);
  }

  async callees(path: string, symbol: string): Promise<CallSite[]> {
    return (await this.whole()).callees(path, symbol);
  }
}

/** Where the index key of a listing identity was found last (code-graph-memo.json). */
interface KeyMemo {
  key: string;
  files: number;
}
