import { bodyAt } from '../artifacts/depth.js';
import { successorOf } from '../staleness/lifecycle.js';
import { loadArtifactSet, type ArtifactSet } from '../artifacts/load.js';
import { requireArtifact } from '../artifacts/lookup.js';
import type { Artifact, Depth } from '../artifacts/types.js';
import { CONFIG_FILE, loadConfig } from '../config.js';
import { CtxError } from '../errors.js';
import { CommitSnapshot } from '../snapshot/git-snapshot.js';
import { openSnapshot } from '../snapshot/open.js';
import type { Snapshot } from '../snapshot/types.js';
import { memo } from '../cache/memo.js';
import { tokenCountFile, tokenCounts } from '../cache/token-counts.js';
import { sha256 } from '../util/hash.js';
import { mark, phase } from '../util/timing.js';
import { VERSION } from '../version.js';
import { fitBudget, type BudgetItem } from './budget.js';
import { compareWithManifest, readManifests, type ReplayResult } from './record.js';
import { contextSection, type SectionInput } from './render.js';
import { cachedCounter, checkEncoding, tiktokenCounter, type TokenCounter } from './tokens.js';
import { cmp, formatChain, kindRank, traverse, type Reached } from './traversal.js';
import { BUNDLE_SCHEMA_VERSION, type Bundle, type BundleEntry, type BundleHeader, type BundleOptions, type StaleMark } from './types.js';
import { agentVisible } from '../artifacts/sources/provenance.js';
import { federatedFile } from '../artifacts/sources/federated-file.js';

export * from './types.js';
export { renderBundle, contextSection, RENDERERS } from './render.js';
export { traverse, formatChain, type Reached, type TraversalResult } from './traversal.js';
export { fitBudget, type BudgetItem, type BudgetResult } from './budget.js';
export { tiktokenCounter, cachedCounter, type TokenCounter, ENCODINGS } from './tokens.js';

/** Options of `assembleBundle`. Give either a loaded `set`, or `cwd` (+ `at`/`staged`/`global`) to open one. */
export interface AssembleOptions {
  /** artifact id to assemble for (a task, or any artifact) */
  id: string;
  /** an already loaded artifact set; its snapshot is read but not closed */
  set?: ArtifactSet;
  /** directory inside the repository, when no `set` is given */
  cwd?: string;
  /**
   * a snapshot being opened already (by a caller that started git while it loaded this
   * module); closed with the bundle. Takes the place of `cwd`, `at` and `staged`.
   */
  snapshot?: Promise<Snapshot>;
  /** build from this commit's objects only */
  at?: string;
  /** read the index instead of the working tree */
  staged?: boolean;
  /** include global artifacts (default: config.global); record it when passing `set` */
  global?: boolean;
  /** default: config.assemble.depth (full) */
  depth?: Depth;
  /** token budget; default: config.assemble.budget (none) */
  budget?: number;
  /** tiktoken encoding; default: config.assemble.encoding (o200k_base) */
  encoding?: string;
  /** link hops to follow; default: config.assemble.max_depth (unlimited) */
  maxDepth?: number;
  /** count tokens another way (tests, or a long-lived process keeping its own encoder) */
  tokenCounter?: TokenCounter;
  /** add up to this many records retrieved for the root's paths and anchors, after the linked ones */
  related?: number;
  /** token-count cache file; default the repository's `tokens` cache for the encoding; false = none */
  tokenCache?: string | false;
  /**
   * Staleness marks for the included artifacts, filled into `BundleEntry.stale` before token
   * counting (the mark is part of what the model reads). The staleness engine plugs in here.
   */
  staleness?: (artifacts: Artifact[], set: ArtifactSet) => Promise<Map<string, StaleMark>>;
}

/** The first `# Title` line repeats the title the section already gives; drop it. */
export function stripTitleHeading(body: string, title: string): string {
  const m = /^#\s+(.*)\n?/.exec(body);
  if (m && m[1]!.trim() === title.trim()) return body.slice(m[0].length).trim();
  return body;
}

function metaOf(a: Artifact): Record<string, unknown> {
  // confidence is internal (DEC-054): a bundle is read by agents
  const data = { ...agentVisible(a.data) };
  delete data.stamp;
  return data;
}

const DEPTH_LEVEL: Record<Depth, number> = { meta: 0, summary: 1, full: 2 };
const DEPTHS_DOWN: Depth[] = ['full', 'summary', 'meta'];


/**
 * Which artifact files read for this bundle differ from HEAD: the included repo artifacts,
 * the config, and artifact files deleted since HEAD (a deletion can turn a link into a warning).
 */
async function dirtyFiles(snapshot: Snapshot, set: ArtifactSet, included: Artifact[]): Promise<string[]> {
  if (snapshot.kind === 'commit') return [];
  const dir = set.config.dir;
  const cfgFile = `${dir}/${CONFIG_FILE}`;
  const repoFiles = included.filter((a) => a.origin === 'repo');
  if (!snapshot.commit) {
    const cfg = await snapshot.blobOf(cfgFile);
    return [...repoFiles.map((a) => a.file), ...(cfg ? [cfgFile] : [])].sort(cmp);
  }
  // records of other sources (decision-record folders) are compared under their own folder
  const dirs = [dir, ...set.config.sources.filter((src) => repoFiles.some((a) => a.file.startsWith(src.dir + '/'))).map((src) => src.dir)];
  const headBlobs = new Map<string, string>();
  const now = new Set<string>();
  for (const d of dirs) {
    for (const [f, b] of await headBlobsUnder(snapshot, d)) headBlobs.set(f, b);
    for (const e of await snapshot.listUnder(d)) now.add(e.path);
  }
  const out = new Set<string>();
  for (const a of repoFiles) if (headBlobs.get(a.file) !== a.blob) out.add(a.file);
  if (headBlobs.get(cfgFile) !== (await snapshot.blobOf(cfgFile))) out.add(cfgFile);
  for (const f of headBlobs.keys()) if (f.endsWith('.md') && !now.has(f)) out.add(f);
  return [...out].sort(cmp);
}

/**
 * The source commit of every federated record a bundle includes: the commit the lock pins,
 * in full, so the bundle names exactly what it read (and is made again from the same commit).
 */
function federatedSources(set: ArtifactSet, included: Artifact[]): BundleHeader['sources'] {
  const out: NonNullable<BundleHeader['sources']> = {};
  for (const a of included) {
    if (a.origin !== 'federated') continue;
    const name = federatedFile(a.file)?.name;
    const pin = set.sources?.pinned.find((p) => p.name === name);
    if (!pin) continue;
    (out[pin.name] ??= { git: pin.git, ref: pin.ref, commit: pin.commit, records: [] }).records.push(a.id);
  }
  for (const v of Object.values(out)) v.records.sort(cmp);
  return Object.keys(out).length ? out : undefined;
}

const HEAD_LISTING_VERSION = 2;
const headBlobMemo = new WeakMap<Snapshot, Map<string, Promise<Map<string, string>>>>();

/** path → blob at HEAD under the artifact directory, asked once per snapshot (see openSet). */
function headBlobsUnder(snapshot: Snapshot, dir: string): Promise<Map<string, string>> {
  let m = headBlobMemo.get(snapshot);
  if (!m) headBlobMemo.set(snapshot, (m = new Map()));
  let p = m.get(dir);
  if (!p) {
    p = listHeadBlobs(snapshot, dir);
    p.catch(() => undefined); // awaited by dirtyFiles; a failed load must not leave it unhandled
    m.set(dir, p);
  }
  return p;
}

/**
 * One listing limited to the directory, remembered per commit in
 * the head-listing memo (a commit's tree never changes): a warm bundle on
 * an unchanged HEAD then spawns no process for its dirty check.
 */
async function listHeadBlobs(snapshot: Snapshot, dir: string): Promise<Map<string, string>> {
  const listings = memo<[string, string][]>(snapshot.backend === 'git' ? snapshot.root : undefined, 'head-listing');
  const key = `${HEAD_LISTING_VERSION}\0${snapshot.commit}\0${dir}`;
  const cached = listings.get(key);
  if (Array.isArray(cached)) return new Map(cached as [string, string][]);
  // HEAD is already resolved: the git backend needs no rev-parse for it
  const head = snapshot.backend === 'git' ? new CommitSnapshot(snapshot.root, snapshot.commit!) : await openSnapshot({ cwd: snapshot.root, kind: 'commit', rev: snapshot.commit, backend: snapshot.backend });
  try {
    const m = new Map((await head.listUnder(dir)).map((e) => [e.path, e.blob!] as const));
    if (m.size <= 100_000) listings.set(key, [...m]);
    return m;
  } finally {
    head.close();
  }
}

/** "sha256:<hex>" over the content only, so the digest names what the model reads. */
function digestOf(b: Omit<Bundle, 'header' | 'totals'> & { root: string }): string {
  const canonical = JSON.stringify({
    root: b.root,
    entries: b.entries.map((e) => ({ id: e.id, type: e.type, blob: e.blob, depth: e.depth, tokens: e.tokens, why: e.why, stale: e.stale ?? null, text: contextSection(e) })),
    adjustments: b.adjustments,
    warnings: b.warnings,
    paths: b.paths,
    anchors: b.anchors,
  });
  return `sha256:${sha256(canonical)}`;
}

async function openSet(o: AssembleOptions): Promise<{ set: ArtifactSet; close: () => void }> {
  if (o.set) return { set: o.set, close: () => undefined };
  if (!o.cwd && !o.snapshot) throw new CtxError('USAGE', 'assembleBundle needs a loaded set, a snapshot or a cwd');
  if (o.at && o.staged) throw new CtxError('USAGE', '--at and --staged cannot be combined');
  phase('snapshot');
  const snapshot = o.snapshot ? await o.snapshot : await openSnapshot({ cwd: o.cwd!, kind: o.at ? 'commit' : o.staged ? 'index' : 'worktree', rev: o.at });
  try {
    phase('config');
    const config = await loadConfig(snapshot);
    // the dirty check needs HEAD's blobs: git lists them while the artifacts load
    if (snapshot.kind !== 'commit' && snapshot.commit) void headBlobsUnder(snapshot, config.dir);
    const set = await loadArtifactSet(snapshot, config, { global: o.global });
    return { set, close: () => snapshot.close() };
  } catch (e) {
    snapshot.close();
    throw e;
  }
}

/**
 * Assemble the context bundle of an artifact: follow links and requires from it, order,
 * count tokens, fit the budget, and stamp the result with the commit and a content digest.
 * Returns data; render it with `renderBundle`. Throws UNKNOWN_ID (with suggestions) for an
 * unknown id and BUDGET when even identity + root at meta depth exceed the budget.
 */
export async function assembleBundle(o: AssembleOptions): Promise<Bundle> {
  const { set, close } = await openSet(o);
  try {
    return await assembleFromSet(set, o);
  } finally {
    close();
  }
}

async function assembleFromSet(set: ArtifactSet, o: AssembleOptions): Promise<Bundle> {
  const cfg = set.config;
  const root = requireArtifact(set, o.id);
  const options: BundleOptions = {
    depth: o.depth ?? cfg.assemble.depth ?? 'full',
    budget: o.budget ?? cfg.assemble.budget ?? null,
    encoding: o.encoding ?? cfg.assemble.encoding ?? 'o200k_base',
    maxDepth: o.maxDepth ?? cfg.assemble.max_depth ?? null,
    global: o.global ?? cfg.global,
    ...(o.related ? { related: o.related } : {}),
  };
  if (!['meta', 'summary', 'full'].includes(options.depth)) throw new CtxError('USAGE', `depth must be meta, summary or full (got ${options.depth})`);
  if (options.budget !== null && (!Number.isInteger(options.budget) || options.budget < 0)) throw new CtxError('USAGE', `budget must be a non-negative integer (got ${options.budget})`);
  checkEncoding(options.encoding);

  const rank = kindRank(cfg.order);
  const { reached, warnings } = traverse(set, root, {
    maxDepth: options.maxDepth ?? undefined,
    order: cfg.order,
    inactive: (t) => cfg.types[t]?.inactive ?? [],
  });
  const relatedWhy = new Map<string, string>();
  if (o.related && o.related > 0) {
    const { relatedForPaths } = await import('../retrieve/related.js');
    const seen = new Set(reached.map((r) => r.artifact.id));
    for (const x of await relatedForPaths(set, root, o.related, seen)) {
      reached.push({ artifact: set.byId.get(x.id)!, role: 'related', distance: null, chain: [root.id, x.id], via: ['retrieved'] });
      relatedWhy.set(x.id, x.why);
    }
  }
  const stale = o.staleness ? await o.staleness(reached.map((r) => r.artifact), set) : new Map<string, StaleMark>();

  // the depths whose cost we need: only the requested one without a budget, else all below it too
  const wanted = DEPTHS_DOWN.filter((d) => DEPTH_LEVEL[d] <= DEPTH_LEVEL[options.depth] && (options.budget !== null || d === options.depth));
  const why = (r: Reached) => (r.role === 'related' ? `related, not linked: ${relatedWhy.get(r.artifact.id)}` : r.role === 'identity' && r.distance === null ? 'identity (always included)' : r.role === 'root' ? `${r.artifact.id} (requested)` : formatChain(r.chain, r.via, r.elided));
  const sectionAt = (r: Reached, d: Depth): SectionInput => {
    const a = r.artifact;
    return { id: a.id, type: a.type, title: a.title, status: a.status, summary: a.summary, why: why(r), depth: d, file: a.file, meta: metaOf(a), body: stripTitleHeading(bodyAt(a, d), a.title), stale: stale.get(a.id), successor: successorOf(set, a.id) };
  };
  const texts: string[] = [];
  for (const r of reached) for (const d of wanted) texts.push(contextSection(sectionAt(r, d)));

  let counter = o.tokenCounter ?? tiktokenCounter(options.encoding);
  if (!o.tokenCounter && o.tokenCache !== false) {
    counter = cachedCounter(counter, o.tokenCache ? tokenCountFile(o.tokenCache) : tokenCounts(set.snapshot.root, options.encoding));
  }
  phase('analyses');
  mark('traversed, sections rendered');
  const counts = await counter.count(texts);
  mark('tokens counted');
  const tokens = new Map<string, Partial<Record<Depth, number>>>();
  reached.forEach((r, i) => {
    const t: Partial<Record<Depth, number>> = {};
    wanted.forEach((d, j) => (t[d] = counts[i * wanted.length + j]!));
    tokens.set(r.artifact.id, t);
  });

  const items: BudgetItem[] = reached.map((r) => ({
    id: r.artifact.id,
    type: r.artifact.type,
    role: r.role,
    direct: r.distance === 1,
    distance: r.distance,
    why: why(r),
    kindRank: rank(r.artifact.type),
    requestedDepth: options.depth,
    tokens: tokens.get(r.artifact.id)!,
  }));
  const fitted = options.budget !== null ? fitBudget(items, options.budget) : undefined;

  const entries: BundleEntry[] = [];
  for (const r of reached) {
    const d = fitted ? fitted.depth.get(r.artifact.id) : options.depth;
    if (d === undefined) continue;
    const a = r.artifact;
    const s = sectionAt(r, d);
    const e: BundleEntry = {
      id: a.id,
      type: a.type,
      title: a.title,
      ...(a.status !== undefined ? { status: a.status } : {}),
      scope: a.scope,
      ...(a.domain !== undefined ? { domain: a.domain } : {}),
      ...(a.summary !== undefined ? { summary: a.summary } : {}),
      file: a.file,
      blob: a.blob,
      origin: a.origin,
      role: r.role,
      distance: r.distance,
      direct: r.distance === 1,
      chain: r.chain,
      via: r.via,
      ...(r.elided ? { elided: r.elided } : {}),
      why: s.why,
      requestedDepth: options.depth,
      depth: d,
      tokens: tokens.get(a.id)![d]!,
      meta: s.meta,
      body: s.body,
      paths: a.paths,
      anchors: a.anchors,
    };
    if (s.stale) e.stale = s.stale;
    if (s.successor) e.successor = s.successor;
    entries.push(e);
  }

  const uniq = (xs: string[]) => [...new Set(xs)].sort(cmp);
  const paths = uniq(entries.flatMap((e) => e.paths));
  const anchors = uniq(entries.flatMap((e) => e.anchors));
  const adjustments = fitted?.adjustments ?? [];
  const included = entries.map((e) => set.byId.get(e.id)!);
  const dirty = await dirtyFiles(set.snapshot, set, included);
  mark('dirty files');
  const global: Record<string, string> = {};
  for (const a of included) if (a.origin === 'global') global[a.file] = a.blob;
  const sources = federatedSources(set, included);

  const digest = digestOf({ root: root.id, entries, adjustments, warnings, paths, anchors });
  return {
    header: {
      schemaVersion: BUNDLE_SCHEMA_VERSION,
      tool: { name: 'git-ctx', version: VERSION },
      root: root.id,
      commit: set.snapshot.commit ?? null,
      dirty: dirty.length > 0 || (set.snapshot.kind !== 'commit' && !set.snapshot.commit),
      dirtyFiles: dirty,
      options,
      global,
      ...(sources ? { sources } : {}),
      digest,
    },
    entries,
    adjustments,
    warnings,
    paths,
    anchors,
    totals: {
      entries: entries.length,
      tokens: entries.reduce((s, e) => s + e.tokens, 0),
      budget: options.budget,
      lowered: adjustments.filter((a) => a.action === 'lowered').length,
      dropped: adjustments.filter((a) => a.action === 'dropped').length,
    },
  };
}

export { manifestOf, parseManifests, readManifests, recordBundle, listManifests, compareWithManifest, NOTES_REF, type BundleManifest, type ReplayResult } from './record.js';

export interface ReplayOptions {
  /** directory inside the repository */
  cwd: string;
  /** the commit whose recorded bundles to rebuild */
  rev: string;
  /** only manifests whose digest starts with this ("sha256:" optional) */
  digest?: string;
  /** only manifests for this root id */
  id?: string;
  tokenCounter?: TokenCounter;
  tokenCache?: string | false;
  /** the same staleness hook the bundle was built with: marks are part of the digest */
  staleness?: AssembleOptions['staleness'];
}

/**
 * Rebuild every bundle recorded on a commit (optionally filtered by digest or root id) from
 * that commit's objects and the recorded options, and compare digests. Throws USAGE when
 * nothing matching was recorded there.
 */
export async function replayBundles(o: ReplayOptions): Promise<ReplayResult[]> {
  const snapshot = await openSnapshot({ cwd: o.cwd, kind: 'commit', rev: o.rev });
  try {
    const commit = snapshot.commit!;
    const want = o.digest?.startsWith('sha256:') ? o.digest : o.digest ? `sha256:${o.digest}` : undefined;
    const manifests = (await readManifests(snapshot.root, commit)).filter((m) => (!want || m.digest.startsWith(want)) && (!o.id || m.root === o.id));
    if (!manifests.length) {
      throw new CtxError('USAGE', `no recorded bundle${o.id ? ` for ${o.id}` : ''}${want ? ` with digest ${want}` : ''} on ${o.rev} (${commit.slice(0, 12)})`, {
        hint: 'record one with: git ctx context <id> --at <rev> --record (notes live in refs/notes/ctx; fetch them with git fetch origin refs/notes/ctx:refs/notes/ctx)',
      });
    }
    const config = await loadConfig(snapshot);
    const results: ReplayResult[] = [];
    const sets = new Map<boolean, ArtifactSet>();
    for (const m of manifests) {
      let set = sets.get(m.options.global);
      if (!set) sets.set(m.options.global, (set = await loadArtifactSet(snapshot, config, { global: m.options.global })));
      const bundle = await assembleFromSet(set, {
        staleness: o.staleness,
        id: m.root,
        depth: m.options.depth,
        budget: m.options.budget ?? undefined,
        encoding: m.options.encoding,
        maxDepth: m.options.maxDepth ?? undefined,
        global: m.options.global,
        tokenCounter: o.tokenCounter,
        tokenCache: o.tokenCache,
      });
      results.push(compareWithManifest(m, bundle));
    }
    return results;
  } finally {
    snapshot.close();
  }
}

/**
 * Check a freshly built bundle against what was recorded for its commit with the same root
 * and options. `undefined` when nothing comparable was recorded.
 */
export async function verifyBundle(b: Bundle, root: string): Promise<ReplayResult | undefined> {
  if (!b.header.commit) return undefined;
  const o = b.header.options;
  const m = (await readManifests(root, b.header.commit)).filter(
    (x) => x.root === b.header.root && x.options.depth === o.depth && x.options.budget === o.budget && x.options.encoding === o.encoding && x.options.maxDepth === o.maxDepth && x.options.global === o.global,
  );
  if (!m.length) return undefined;
  // prefer the manifest that matches; otherwise explain against the latest one
  const hit = m.find((x) => x.digest === b.header.digest);
  return compareWithManifest(hit ?? m[m.length - 1]!, b);
}
