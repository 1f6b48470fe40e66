import { globIndexFor, globSetMatcher } from '../util/glob.js';
import { entryCovers } from '../util/path-set.js';
import { languageOf } from './languages.js';
import type { Snapshot } from '../snapshot/types.js';
import { sha256 } from '../util/hash.js';
import { normalizeRepoPath } from '../util/paths.js';
import type { CodeIndex } from './code-index.js';
import { gitGrepFiles } from './grep.js';
import type { CodeSymbol, RouteRegistration } from './types.js';

/** A frontmatter `anchors:` entry, parsed. */
export type AnchorSpec =
  | { kind: 'symbol'; raw: string; path: string; symbol: string }
  | { kind: 'lines'; raw: string; path: string; start: number; end: number }
  | { kind: 'file'; raw: string; path: string; exclude?: readonly string[] }
  | { kind: 'glob'; raw: string; pattern: string; exclude?: readonly string[] }
  | { kind: 'endpoint'; raw: string; method: string; path: string };

const ENDPOINT_RE = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|ALL)\s+(\/\S*)$/i;

/** True when a path pattern uses glob syntax. */
export function isGlob(p: string): boolean {
  return /[*?[\]{}]/.test(p) || p.startsWith('!');
}

/** Parse an anchor string: `path#Symbol.path`, `path:10-40`, a glob, `POST /api/v1/orders`, or a path. */
export function parseAnchor(raw: string): AnchorSpec {
  const s = raw.trim();
  const ep = ENDPOINT_RE.exec(s);
  if (ep) return { kind: 'endpoint', raw, method: ep[1]!.toUpperCase(), path: ep[2]! };
  const hash = s.indexOf('#');
  if (hash > 0) return { kind: 'symbol', raw, path: normalizeRepoPath(s.slice(0, hash)), symbol: s.slice(hash + 1) };
  const lines = /^(.*):(\d+)(?:-(\d+))?$/.exec(s);
  if (lines && !isGlob(lines[1]!)) {
    const start = Number(lines[2]);
    return { kind: 'lines', raw, path: normalizeRepoPath(lines[1]!), start, end: lines[3] ? Number(lines[3]) : start };
  }
  if (isGlob(s)) return { kind: 'glob', raw, pattern: normalizeRepoPath(s) };
  return { kind: 'file', raw, path: normalizeRepoPath(s) };
}

/** Where an anchor points now. */
export interface AnchorLocation {
  path: string;
  symbol?: string;
  line?: number;
  endLine?: number;
}

/** Result of fingerprinting an anchor against a snapshot. */
export interface AnchorFingerprint {
  /**
   * ok: found and fingerprinted; missing: the file, symbol or lines are gone (look for a
   * move with findMovedSymbol); unresolved: an endpoint whose registering code was not found
   */
  status: 'ok' | 'missing' | 'unresolved';
  fingerprint?: string;
  location?: AnchorLocation;
  /** every file the anchor covers (a glob's matches, a directory's files) */
  paths?: string[];
  kind: AnchorSpec['kind'];
  /** globs and directories: each covered file's content hash (normalized text where the language allows) */
  contents?: Record<string, string>;
  /** globs and directories: the fingerprint as versions before `set1:` computed it (sorted path + blob list, nothing left out) */
  legacy?: string;
}

/** Find a symbol by its qualified name; `default` also finds a named default export. */
export function findSymbol(symbols: CodeSymbol[], name: string): CodeSymbol | undefined {
  return symbols.find((s) => s.name === name) ?? (name === 'default' ? symbols.find((s) => s.isDefault && !s.parent) : undefined);
}

/** Collapse route parameters (`:id`, `{id}`, `[id]`, `<id>`) so styles compare equal. */
function normRoute(p: string): string {
  return ('/' + p.replace(/^\/+|\/+$/g, ''))
    .split('/')
    .map((seg) => (/^(:\w+\??|\{[^}]*\}|\[[^\]]*\]|<[^>]*>)$/.test(seg) ? ':' : seg))
    .join('/');
}

/** A route registration and the file it is in. */
export interface RouteMatch extends RouteRegistration {
  file: string;
  /** exact: the full path is registered; suffix: a router mounted under a prefix registers its tail */
  match: 'exact' | 'suffix';
}

/**
 * Find the code that registers an HTTP endpoint. Files are pre-filtered by a static tail
 * segment of the path (a plain byte search), and only those are parsed.
 */
export async function findEndpoint(index: CodeIndex, method: string, path: string): Promise<RouteMatch[]> {
  const want = normRoute(path);
  const segments = want.split('/').filter((s) => s && s !== ':');
  const needle = segments[segments.length - 1];
  const tsFiles = index.files.filter((f) => f.language === 'ts');
  const grepped = needle ? await gitGrepFiles(index.snapshot, needle, { fixed: true }) : undefined;
  const candidates: string[] = grepped ? tsFiles.filter((f) => grepped.has(f.path)).map((f) => f.path) : [];
  for (let i = 0; !grepped && i < tsFiles.length; i += 256) {
    const chunk = tsFiles.slice(i, i + 256);
    const bufs = await index.snapshot.readMany(chunk.map((f) => f.path));
    for (const [j, f] of chunk.entries()) {
      const b = bufs[j];
      if (b && (needle ? b.includes(needle) : b.includes("'/'") || b.includes('"/"'))) candidates.push(f.path);
    }
  }
  const out: RouteMatch[] = [];
  for (const file of candidates) {
    for (const r of (await index.recordOf(file))?.routes ?? []) {
      if (r.method !== method && r.method !== 'ALL') continue;
      const got = normRoute(r.path);
      if (got === want) out.push({ ...r, file, match: 'exact' });
      else if (got !== '/' && want.endsWith(got) && want[want.length - got.length] === '/') out.push({ ...r, file, match: 'suffix' });
    }
  }
  // exact registrations first, then the longest mounted tail
  return out.sort((a, b) => (a.match === b.match ? b.path.length - a.path.length || (a.file < b.file ? -1 : 1) : a.match === 'exact' ? -1 : 1));
}

/** Hash of a sorted (path, blob) list: the fingerprint of globs and directories before `set1:`. */
async function hashPathList(snapshot: Snapshot, paths: string[]): Promise<string> {
  const sorted = [...paths].sort();
  const lines: string[] = [];
  for (const p of sorted) lines.push(`${p}\0${(await snapshot.blobOf(p)) ?? ''}`);
  return sha256(lines.join('\n'));
}

/** The prefix of set fingerprints (globs, directories): `set1:<content>:<layout>`. */
export const SET_FINGERPRINT_PREFIX = 'set1:';

/** The content half and the layout half of a `set1:` fingerprint (undefined for another format). */
export function splitSetFingerprint(fp: string): { content: string; layout: string } | undefined {
  if (!fp.startsWith(SET_FINGERPRINT_PREFIX)) return undefined;
  const [content, layout] = fp.slice(SET_FINGERPRINT_PREFIX.length).split(':');
  return content && layout ? { content, layout } : undefined;
}

/**
 * How one file's content is hashed for a set anchor: the normalized text (comments and
 * formatting left out, the same tokens symbol fingerprints hash) where the tool can
 * normalize the language, else the blob id.
 */
export type ContentHasher = (path: string, blob: string) => Promise<string>;

/** The content hasher of the snapshot a CodeIndex was built from. */
export function indexContentHasher(index: CodeIndex): ContentHasher {
  return async (path, blob) => {
    if (languageOf(path) !== 'ts') return blob;
    const fp = (await index.recordOf(path))?.fingerprint;
    return fp ? `n${fp}` : blob;
  };
}

/**
 * The files of a set anchor that count: the `!` exclusions of the artifact's paths are
 * left out, and so are files matching the configured ignore list (test files by default),
 * unless every file matched is such a file (then the anchor is about them).
 */
function countedFiles(all: string[], exclude: readonly string[] | undefined, ignore: readonly string[]): string[] {
  const kept = exclude?.length ? all.filter((f) => !exclude.some((x) => entryCovers(x, f))) : all;
  if (!ignore.length) return kept;
  const isIgnored = globSetMatcher([...ignore]);
  const rest = kept.filter((f) => !isIgnored(f));
  return rest.length ? rest : kept;
}

/**
 * Fingerprint of a set of files: `set1:` + a hash of the sorted content hashes (what
 * the files say, wherever they are) + `:` + a hash of the sorted (path, content) pairs.
 * Equal content halves with different layouts mean files moved, nothing changed.
 */
export async function fingerprintFileSet(snapshot: Snapshot, paths: string[], hash: ContentHasher): Promise<{ fingerprint: string; contents: Record<string, string> }> {
  const sorted = [...paths].sort();
  const contents: Record<string, string> = {};
  for (const p of sorted) contents[p] = await hash(p, (await snapshot.blobOf(p)) ?? '');
  const content = sha256(Object.values(contents).sort().join('\n')).slice(0, 32);
  const layout = sha256(sorted.map((p) => `${p}\0${contents[p]}`).join('\n')).slice(0, 32);
  return { fingerprint: `${SET_FINGERPRINT_PREFIX}${content}:${layout}`, contents };
}

async function setFingerprint(kind: 'file' | 'glob', location: string, all: string[], exclude: readonly string[] | undefined, snapshot: Snapshot, index: CodeIndex, hash?: ContentHasher): Promise<AnchorFingerprint> {
  const paths = countedFiles(all, exclude, index.config.staleness.glob_ignore ?? []);
  if (!paths.length) return { status: 'missing', kind };
  const { fingerprint, contents } = await fingerprintFileSet(snapshot, paths, hash ?? indexContentHasher(index));
  return { status: 'ok', kind, fingerprint, location: { path: location }, paths, contents, legacy: await hashPathList(snapshot, all) };
}

/** Files of a snapshot matching a glob (or below a directory). */
export async function matchGlob(snapshot: Snapshot, pattern: string): Promise<string[]> {
  return (await globIndexFor(snapshot)).match(pattern);
}

/**
 * Fingerprint an anchor as it is in a snapshot. Symbols hash their normalized text
 * (formatting and comments do not count), files their blob id, globs and directories a
 * `set1:` fingerprint of their files' normalized content and layout (see fingerprintFileSet;
 * `hash` hashes one file's content, by default through `index`, which must then be of
 * `snapshot`), line ranges their whitespace-folded lines,
 * endpoints the code registering them. The staleness engine compares these with the
 * fingerprints recorded in an artifact's stamp.
 */
export async function fingerprintAnchor(anchor: string | AnchorSpec, snapshot: Snapshot, index: CodeIndex, hash?: ContentHasher): Promise<AnchorFingerprint> {
  const spec = typeof anchor === 'string' ? parseAnchor(anchor) : anchor;
  switch (spec.kind) {
    case 'symbol': {
      if (!(await snapshot.blobOf(spec.path))) return { status: 'missing', kind: spec.kind };
      const sym = findSymbol(await index.symbolsOf(spec.path), spec.symbol);
      if (!sym) return { status: 'missing', kind: spec.kind };
      return {
        status: 'ok',
        kind: spec.kind,
        fingerprint: sym.fingerprint,
        location: { path: spec.path, symbol: sym.name, line: sym.line, endLine: sym.endLine },
        paths: [spec.path],
      };
    }
    case 'lines': {
      const buf = await snapshot.read(spec.path);
      if (!buf) return { status: 'missing', kind: spec.kind };
      const lines = buf.toString('utf8').split(/\r?\n/);
      if (spec.start < 1 || spec.end < spec.start || spec.start > lines.length) return { status: 'missing', kind: spec.kind };
      const slice = lines.slice(spec.start - 1, spec.end).join('\n').replace(/\s+/g, ' ').trim();
      return {
        status: 'ok',
        kind: spec.kind,
        fingerprint: sha256(slice),
        location: { path: spec.path, line: spec.start, endLine: Math.min(spec.end, lines.length) },
        paths: [spec.path],
      };
    }
    case 'file': {
      const blob = await snapshot.blobOf(spec.path);
      if (blob) return { status: 'ok', kind: spec.kind, fingerprint: blob, location: { path: spec.path }, paths: [spec.path] };
      // a directory anchors everything below it
      const under = (await snapshot.listUnder(spec.path)).map((e) => e.path);
      if (!under.length) return { status: 'missing', kind: spec.kind };
      return setFingerprint('file', spec.path, under, spec.exclude, snapshot, index, hash);
    }
    case 'glob':
      return setFingerprint('glob', spec.pattern, await matchGlob(snapshot, spec.pattern), spec.exclude, snapshot, index, hash);
    case 'endpoint': {
      const [best] = await findEndpoint(index, spec.method, spec.path);
      if (!best) return { status: 'unresolved', kind: spec.kind };
      return {
        status: 'ok',
        kind: spec.kind,
        fingerprint: best.fingerprint,
        location: { path: best.file, symbol: best.symbol, line: best.line },
        paths: [best.file],
      };
    }
  }
}

/** A symbol somewhere in the snapshot with a given fingerprint. */
export interface MovedSymbol {
  path: string;
  symbol: CodeSymbol;
}

/**
 * Where a symbol with this fingerprint lives now: same text at another name, in another
 * file, or both. Files already parsed are searched first; when nothing matches there and
 * `deep` is on (the default), every TS/JS file is extracted (once per blob, cached).
 * Several matches can come back (identical small functions); nearest-named first.
 */
export async function findMovedSymbol(
  fingerprint: string,
  index: CodeIndex,
  opts: { deep?: boolean; hint?: { path?: string; symbol?: string } } = {},
): Promise<MovedSymbol[]> {
  const scan = async (paths?: string[]) => (await index.allSymbols(paths)).filter((x) => x.symbol.fingerprint === fingerprint);
  let found = await scan(index.files.filter((f) => f.candidate).map((f) => f.path));
  if (!found.length && opts.deep !== false) found = await scan();
  const hint = opts.hint;
  const score = (m: MovedSymbol) => (hint?.symbol && m.symbol.name === hint.symbol ? 0 : 2) + (hint?.path && m.path === hint.path ? 0 : 1);
  return found.sort((a, b) => score(a) - score(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.symbol.line - b.symbol.line));
}
