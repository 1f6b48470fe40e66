// @spec SPEC-ARTIFACTS-001

import { readdir, readFile, lstat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Snapshot, SnapshotEntry } from '../snapshot/types.js';
import { gitBlobHash, sha256 } from '../util/hash.js';
import { memo } from '../cache/memo.js';
import { mark, phase } from '../util/timing.js';
import { checkArtifactDir } from './dir-check.js';
import { PARSE_CACHE_VERSION, ParseCache } from './cache/parse-cache.js';
import { isAdrFile, isRecordWithoutExtension } from './sources/files.js';
import { titleNumberProblems } from './sources/title-number.js';
import { dropFolderPages, dropLinksToPages } from './sources/folder-pages.js';
import { disambiguateNumbers, finishSources, keyLinesAdded, mentionPatterns, needsListing, resolveSetMentions } from './sources/finish.js';
import { attachSidecarStamps, readSidecarStamps, stampsPath } from './sources/stamps.js';
import { attachSidecarProvenance, readSidecarProvenance } from './sources/provenance.js';
import { globIndexFor, type PathLookup } from '../util/glob.js';
import type { Artifact, LoadProblem } from './types.js';
import { applyZeroConfig } from './sources/zero-config.js';
import { listPinnedSource, pinSources, pinToken, readPinnedFiles, resolveOutsideLinks, shareScope, type PinnedSource, type SourcesState } from './sources/federated.js';
import type { FetchAuth } from '../git/source-store.js';

export interface ArtifactSet {
  /** every artifact that loaded, sorted by id (then file) */
  artifacts: Artifact[];
  /** first artifact for each id (duplicates are reported as problems) */
  byId: Map<string, Artifact>;
  /** files that did not load, and per-file problems */
  problems: LoadProblem[];
  config: Config;
  snapshot: Snapshot;
  /** ids declared more than once → files */
  duplicates: Map<string, string[]>;
  /** content hashes of global artifacts (outside the commit), by file */
  globalHashes: Record<string, string>;
  /**
   * The finished set's key (setKeyOf) when it has one: two sets of one key have the same
   * artifacts in the same order with the same fields, mentions of code and sidecar stamps
   * apart. Caches derived from the records' content key on it (DEC-037).
   */
  key?: string;
  /** the git sources read (each at its pinned commit), and those fetched while loading (DEC-061) */
  sources?: SourcesState;
}

export interface LoadOptions {
  /** include the user's global artifacts (default: config.global) */
  global?: boolean;
  /** override the global store location (tests); default: $GIT_CTX_GLOBAL_DIR or the user's config dir */
  globalDir?: string;
  /** credentials for fetching a git source not yet in this clone (the Action's token) */
  auth?: FetchAuth;
}

/** The user's global artifact store: $GIT_CTX_GLOBAL_DIR, else $XDG_CONFIG_HOME/git-ctx/global, else ~/.config/git-ctx/global. */
export function globalStoreDir(): string {
  if (process.env.GIT_CTX_GLOBAL_DIR) return path.resolve(process.env.GIT_CTX_GLOBAL_DIR);
  const base = process.env.XDG_CONFIG_HOME || (process.platform === 'win32' ? process.env.APPDATA || os.homedir() : path.join(os.homedir(), '.config'));
  return path.join(base, 'git-ctx', 'global');
}

async function walkGlobal(dir: string): Promise<string[]> {
  const out: string[] = [];
  async function rec(d: string): Promise<void> {
    let entries;
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await rec(p);
      else if (e.isFile() && e.name.endsWith('.md')) out.push(p);
    }
  }
  await rec(dir);
  return out.sort();
}

/** A markdown file that is not a README, a baseline list, or a `_`-prefixed partial. */
function isArtifactFile(p: string): boolean {
  if (!p.endsWith('.md')) return false;
  // the base name compared in place (no string per listed file: a folder lists thousands)
  const at = p.lastIndexOf('/') + 1;
  if (p.charCodeAt(at) === 0x5f /* _ */) return false;
  const len = p.length - at;
  return !(len === 9 && p.startsWith('README.md', at)) && !(len === 11 && p.startsWith('baseline.md', at));
}

/**
 * Start what loading the artifact set needs before it is asked for: git lists the artifact
 * directory while this process parses the artifact cache. Purely an optimisation; the
 * default directory is assumed (a config naming another one just lists that one later).
 */
export function warmUp(snapshot: Snapshot, dir = '.contextia'): void {
  // the real calls report errors; a clean folder needs only its status, not its listing
  (snapshot.tree ? snapshot.tree.cleanListing(dir) : snapshot.listUnder(dir)).catch(() => undefined);
  ParseCache.preload(snapshot.root);
}

/** One folder of records to read: `.contextia/` (always) and every configured source. */
interface SourceSpec {
  dir: string;
  format: 'contextia' | 'adr';
  prefix: string;
  type: string;
  /** a git source: its folder (`dir`) is `~name@commit12/…`, read from the pinned commit */
  pin?: PinnedSource;
}

function sourcesOf(config: Config, pins: PinnedSource[]): SourceSpec[] {
  const out: SourceSpec[] = [{ dir: config.dir, format: 'contextia', prefix: '', type: '' }];
  for (const s of config.sources) if (!out.some((o) => o.dir === s.dir && o.format === s.format)) out.push(s);
  for (const p of pins) out.push({ dir: p.folder, format: p.format, prefix: p.prefix, type: p.type, pin: p });
  return out;
}

const byIdThenFile = (a: Artifact, b: Artifact): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.file < b.file ? -1 : 1);

/** Bump when what the finished set holds, or how it is computed from its key, changes. */
const SET_VERSION = 1;

/** The config as key material: plain data from YAML, numbers JSON cannot carry (.inf, .nan) spelled out rather than as null. */
function configText(config: Config): string {
  return JSON.stringify(config, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? { '\0number': String(v) } : v));
}

/**
 * The key of a finished artifact set: everything the set before mentions and sidecar stamps
 * is computed from. The parsers' output version, the config (types, status vocabularies,
 * sources), and per source folder its settings and every listed entry's path, mode and blob
 * id (blob ids from the git index, or hashed from the work tree), or for a folder that lists
 * nothing the problems checkArtifactDir found for it (DEC-037).
 */
function setKeyOf(config: Config, sources: SourceSpec[], listed: SnapshotEntry[][], blobOf: (e: SnapshotEntry) => string | undefined, emptyVerdicts: Map<number, string>): string {
  const parts: string[] = [`git-ctx/artifact-set ${SET_VERSION} ${PARSE_CACHE_VERSION}`, configText(config)];
  sources.forEach((s, i) => {
    parts.push(`#${s.dir}\0${s.format}\0${s.prefix}\0${s.type}`);
    // an empty folder: its problems as judged on disk (a listed path never starts with "!")
    const verdict = emptyVerdicts.get(i);
    if (verdict !== undefined) parts.push(`!empty\0${verdict}`);
    for (const e of listed[i]!) parts.push(`${e.path}\0${e.mode}\0${blobOf(e) ?? ''}`);
  });
  return sha256(parts.join('\n'));
}

/**
 * What a finished set's key is remembered by when every folder's listing is the git index's
 * own (WorktreeTree.cleanListing, src/tree): the same versions and config as setKeyOf, and per folder its
 * settings and token (the index file, its stamp, the folder: which fixes the listing, every
 * blob id from the index), or for a folder that lists nothing what the disk says of it.
 */
function tokenKeyOf(config: Config, sources: SourceSpec[], tokens: string[], verdicts: Map<number, string>): string {
  const parts: string[] = [`git-ctx/artifact-set-tokens ${SET_VERSION} ${PARSE_CACHE_VERSION}`, configText(config)];
  sources.forEach((s, i) => {
    parts.push(`#${s.dir}\0${s.format}\0${s.prefix}\0${s.type}\0${tokens[i]}`);
    const verdict = verdicts.get(i);
    if (verdict !== undefined) parts.push(`!empty\0${verdict}`);
  });
  return parts.join('\n');
}

/** Load and parse every artifact in the snapshot (plus global ones when opted in). */
export async function loadArtifactSet(snapshot: Snapshot, config: Config, opts: LoadOptions = {}): Promise<ArtifactSet> {
  const problems: LoadProblem[] = [];
  const artifacts: Artifact[] = [];
  const globalHashes: Record<string, string> = {};
  // no config file: read the folders `git ctx init` would configure (and say so through config.zeroConfig)
  await applyZeroConfig(snapshot, config);
  const pins = await pinSources(snapshot, config, problems);
  const fetched: string[] = [];
  const sources = sourcesOf(config, pins);
  phase('listing');
  // mentions are checked against the whole listing: git lists it while the sources load
  // (a place snapshot answers mentions from a memo instead: see pathLookup below)
  const lookup = (snapshot as { pathLookup?: (patterns: string[]) => Promise<PathLookup> }).pathLookup?.bind(snapshot);
  const listing = lookup ? undefined : globIndexFor(snapshot);
  listing?.catch(() => undefined); // awaited below when needed; never left unhandled
  // records read in place keep their stamps in a sidecar (never in their own file)
  const sidecar = sources.some((s) => s.format === 'adr') ? readSidecarStamps(snapshot, config.dir) : undefined;
  sidecar?.catch(() => undefined); // awaited below; never left unhandled
  const provenance = sidecar ? readSidecarProvenance(snapshot, config.dir) : undefined;
  provenance?.catch(() => undefined);
  const global = opts.global ?? config.global;
  // each folder whose listing is the git index's own names it by a token: the finished set's
  // key is remembered by the tokens, so a warm run over unchanged folders of thousands of
  // records neither lists nor keys them (DEC-045)
  const tree = global ? undefined : snapshot.tree;
  // a pinned folder is always clean: the commit fixes its listing
  const clean = tree ? await Promise.all(sources.map((s) => (s.pin ? { token: pinToken(s.pin), empty: false, current: () => true } : tree.cleanListing(s.dir)))) : undefined;
  const tokensMemo = memo<string>(snapshot.root, 'artifacts-tokens');
  let tokenKey: string | undefined;
  let known: string | undefined;
  if (clean && tokensMemo.on && clean.every((c) => c !== undefined)) {
    const verdicts = new Map<number, string>();
    for (const [i, s] of sources.entries()) if (clean[i]!.empty) verdicts.set(i, JSON.stringify(await checkArtifactDir(snapshot, s.dir)));
    tokenKey = tokenKeyOf(config, sources, clean.map((c) => c!.token), verdicts);
    const k = tokensMemo.get(tokenKey);
    known = typeof k === 'string' && /^[0-9a-f]{64}$/.test(k) ? k : undefined;
    mark('records folders clean');
  }
  let cache: ParseCache | undefined;
  let setKey: string | undefined;
  if (known) {
    phase('parse');
    cache = await ParseCache.open(snapshot.root);
    mark('parse cache read');
    const finished = cache.finishedSet(known);
    if (finished) {
      problems.push(...finished.problems);
      artifacts.push(...finished.artifacts);
      setKey = known;
      mark('finished set read (by the clean listing)');
    } else known = undefined;
  }
  if (!known) {
    const listed = await Promise.all(sources.map((s) => (s.pin ? listPinnedSource(s.pin, fetched, opts.auth) : snapshot.listUnder(s.dir))));
    mark('records folders listed');
    // an empty source folder may be a link, a file or missing: say which instead of reading nothing
    // (what the disk says of each empty folder is part of the finished set's key)
    const emptyVerdicts = new Map<number, string>();
    for (const [i, s] of sources.entries()) {
      if (listed[i]!.length) continue;
      const found: LoadProblem[] = s.pin
        ? [{ file: `${config.dir}/config.yaml`, rule: 'source-empty', message: `git source ${s.pin.name} has no files under ${s.pin.dir || 'its top level'} at ${s.pin.commit.slice(0, 12)}` }]
        : await checkArtifactDir(snapshot, s.dir);
      problems.push(...found);
      emptyVerdicts.set(i, JSON.stringify(found));
    }
    // a file under two sources (a records folder inside another) is read by the innermost only
    const taken = new Set<string>();
    const regular: { e: SnapshotEntry; src: SourceSpec; key?: string }[] = [];
    const order = sources.map((_, i) => i).sort((a, b) => sources[b]!.dir.length - sources[a]!.dir.length || a - b);
    // one folder lists each path once: only several can overlap
    const overlap = sources.length > 1;
    order.forEach((i) => {
      const src = sources[i]!;
      for (const e of listed[i]!) {
        if (overlap && taken.has(e.path)) continue;
        // symlinks are reported whatever their name (a linked directory is one entry); never followed
        if (e.mode === '120000') {
          if (overlap) taken.add(e.path);
          problems.push({ file: e.path, rule: 'symlink-skipped', message: `symbolic link under ${src.dir}/ is never followed; commit the file itself` });
          continue;
        }
        if (src.format === 'contextia' ? !isArtifactFile(e.path) : !isAdrFile(e.path)) {
          if (src.format === 'adr' && path.posix.dirname(e.path) === src.dir && isRecordWithoutExtension(e.path)) problems.push({ file: e.path, rule: 'record-extension-missing', message: `named as a record but with no extension, so it is not read: rename it ${path.posix.basename(e.path)}.md` });
          continue;
        }
        if (overlap) taken.add(e.path);
        regular.push({ e, src });
      }
    });
    // an adr record's parse depends on its source's settings and its path (ids, relative links);
    // a frontmatter record's on its path (the title of one without any: parse.ts titleOfFile)
    const keyOf = (blob: string, r: { e: SnapshotEntry; src: SourceSpec }): string => (r.src.format === 'contextia' ? `${blob}:${r.e.path}` : `${blob}:adr:${r.src.prefix}:${r.src.type}:${r.e.path}`);
    mark('artifact files listed');
    phase('parse');
    cache ??= await ParseCache.open(snapshot.root);
    mark('parse cache read');
    // a file edited in the work tree has no blob id from the index: read and hash it (such files are few)
    const unhashed = regular.filter((r) => !r.e.blob);
    const read = new Map<SnapshotEntry, { buf: Buffer; blob: string }>();
    if (unhashed.length) {
      const bufs = await snapshot.readMany(unhashed.map((r) => r.e.path));
      unhashed.forEach((r, i) => {
        const buf = bufs[i];
        if (buf) read.set(r.e, { buf, blob: gitBlobHash(buf) });
      });
    }
    const blobOf = (e: SnapshotEntry): string | undefined => e.blob ?? read.get(e)?.blob;
    // the finished set is kept for the records as listed (see setKeyOf), an empty folder with
    // what the disk says of it (nothing, or a link: checkArtifactDir); global records and an
    // unreadable record (what it is depends on more than the listing) are never kept
    setKey = global || regular.some((r) => !blobOf(r.e)) ? undefined : setKeyOf(config, sources, listed, blobOf, emptyVerdicts);
    mark('set key');
    // the tokens name this key from now on, if the index is still the one they name
    if (setKey && tokenKey && clean!.every((c) => c!.current()) && tokensMemo.get(tokenKey) !== setKey) tokensMemo.set(tokenKey, setKey);
    const finished = setKey ? cache.finishedSet(setKey) : undefined;
    if (finished) {
      // the listing's problems (symbolic links) are part of the stored ones
      problems.length = 0;
      problems.push(...finished.problems);
      artifacts.push(...finished.artifacts);
      mark('finished set read');
    } else {
      const keys = new Map<Artifact, string>();
      const take = (key: string, hit: { artifact?: Artifact; problems: LoadProblem[] } | undefined): boolean => {
        if (!hit) return false;
        problems.push(...hit.problems);
        if (hit.artifact) {
          artifacts.push(hit.artifact);
          keys.set(hit.artifact, key);
        }
        return true;
      };
      const toParse: { path: string; buf: Buffer; key: string; blob: string; src: SourceSpec; origin: Artifact['origin'] }[] = [];
      const misses: typeof regular = [];
      for (const r of regular) {
        const blob = blobOf(r.e);
        if (!take(blob ? keyOf(blob, r) : '', blob ? cache.get(keyOf(blob, r), r.e.path, r.src.pin ? 'federated' : 'repo') : undefined)) misses.push(r);
      }
      // the files not yet read (with a blob id from the index, not in the cache)
      const unread = misses.filter((r) => !read.has(r.e));
      const pinnedBufs = pins.length ? await readPinnedFiles(pins, unread.filter((r) => r.src.pin).map((r) => r.e)) : [];
      const localBufs = await snapshot.readMany(unread.filter((r) => !r.src.pin).map((r) => r.e.path));
      const bufs = unread.map((r) => (r.src.pin ? pinnedBufs.shift() : localBufs.shift()));
      let next = 0;
      for (const r of misses) {
        const buf = read.get(r.e)?.buf ?? bufs[next++];
        if (!buf) continue;
        // the blob id is known (from the index or hashed above): the parsers need not hash again
        const blob = blobOf(r.e) ?? gitBlobHash(buf);
        toParse.push({ path: r.e.path, buf, key: keyOf(blob, r), blob, src: r.src, origin: r.src.pin ? 'federated' : 'repo' });
      }
      // the parsers (and js-yaml) load only when something is not in the cache
      const parseArtifact = toParse.length || global ? (await import('./parse.js')).parseArtifact : undefined;
      const parseAdr = toParse.some((t) => t.src.format === 'adr') ? (await import('./sources/adr.js')).parseAdr : undefined;
      mark('artifact parser loaded');
      for (const t of toParse) {
        const r = t.src.format === 'adr' ? parseAdr!(t.path, t.buf, t.src, t.origin, t.blob) : parseArtifact!(t.path, t.buf, t.origin, t.blob);
        problems.push(...r.problems);
        if (r.artifact) {
          artifacts.push(r.artifact);
          keys.set(r.artifact, t.key);
        }
        cache.set(t.key, r.artifact, r.problems);
      }
      mark('artifacts parsed');
      if (global) {
        const gdir = opts.globalDir ?? globalStoreDir();
        for (const abs of await walkGlobal(gdir)) {
          const st = await lstat(abs).catch(() => undefined);
          if (!st || st.isSymbolicLink()) continue;
          const rel = `~global/${path.relative(gdir, abs).split(path.sep).join('/')}`;
          const r = parseArtifact!(rel, await readFile(abs), 'global');
          problems.push(...r.problems);
          if (r.artifact) {
            if (r.artifact.scope !== 'global') r.artifact.scope = 'global';
            artifacts.push(r.artifact);
            globalHashes[rel] = r.artifact.blob;
          }
        }
      }
      for (const a of artifacts) if (a.origin === 'federated') shareScope(a);
      let pages: Set<string> | undefined;
      if (config.sources.length || pins.length) {
        pages = dropFolderPages(artifacts);
        disambiguateNumbers(artifacts, problems);
        problems.push(...titleNumberProblems(artifacts));
      }
      finishSources(artifacts, config, problems, undefined);
      if (pages) dropLinksToPages(artifacts, pages);
      // links of pinned records that leave their folder: to a document of the upstream, or broken (DEC-066)
      if (pins.length) problems.push(...(await resolveOutsideLinks(pins, artifacts, config.dir)));
      artifacts.sort(byIdThenFile);
      if (setKey) cache.setFinished(setKey, artifacts.map((a) => ({ artifact: a, key: keys.get(a)!, keyLines: keyLinesAdded(a) })), [...problems]);
      await cache.save();
      mark('artifacts loaded');
    }
  }

  // mentions of code and sidecar stamps depend on more than the records: never part of the finished set
  const mentionIndex = !needsListing(artifacts) ? undefined : lookup ? await lookup(mentionPatterns(artifacts)) : await listing;
  if (mentionIndex) {
    mark('listing for mentions ready');
    resolveSetMentions(artifacts, mentionIndex);
  }
  if (sidecar) {
    const { stamps, problems: bad } = await sidecar;
    problems.push(...bad, ...attachSidecarStamps(artifacts, stamps, stampsPath(config.dir)));
    const prov = await provenance!;
    problems.push(...prov.problems);
    attachSidecarProvenance(artifacts, prov.entries);
  }
  mark('sources finished');

  const byId = new Map<string, Artifact>();
  const duplicates = new Map<string, string[]>();
  // an index loop: for-of allocates a result object per step in the interpreter (5,000 records)
  for (let i = 0; i < artifacts.length; i++) {
    const a = artifacts[i]!;
    const prev = byId.get(a.id);
    if (prev) {
      // the nearer record wins, silently by design: the repository's own over a pinned
      // source's, and either over the user's global store (DEC-061)
      if (prev.origin !== a.origin) {
        if (NEARNESS[a.origin] < NEARNESS[prev.origin]) byId.set(a.id, a);
        continue;
      }
      const files = duplicates.get(a.id) ?? [prev.file];
      files.push(a.file);
      duplicates.set(a.id, files);
      continue;
    }
    byId.set(a.id, a);
  }
  problems.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : (a.line ?? 0) - (b.line ?? 0)));
  return { artifacts, byId, problems, config, snapshot, duplicates, globalHashes, ...(setKey ? { key: setKey } : {}), ...(pins.length ? { sources: { pinned: pins, fetched } } : {}) };
}

/** Which of two records of one id a set answers with: the lower wins. */
const NEARNESS: Record<Artifact['origin'], number> = { repo: 0, federated: 1, global: 2 };
