import { fingerprintAnchor, findSymbol, parseAnchor, type AnchorFingerprint, type AnchorSpec, type ContentHasher } from '../code/anchors.js';
import { CodeCache } from '../code/code-cache.js';
import { declarationLanguage, declarationsOf } from '../code/declarations.js';
import type { CodeIndex } from '../code/code-index.js';
import { extractFile, MAX_FILE_BYTES } from '../code/extract.js';
import { languageOf } from '../code/languages.js';
import { tagRegex } from '../code/tags.js';
import type { CodeSymbol, FileRecord } from '../code/types.js';
import { compilePaths } from '../util/path-set.js';
import type { Artifact } from '../artifacts/types.js';
import type { Config } from '../config.js';
import type { Snapshot } from '../snapshot/types.js';

/**
 * Where an artifact's anchor comes from. `mentioned`: code named in a record's text (a
 * record read in place), weaker than the others, and judged only once the record is stamped.
 */
export type AnchorOrigin = 'anchors' | 'paths' | 'annotation' | 'mentioned';

/** One anchor of an artifact, keyed as it is written in `stamp.fingerprints`. */
export interface ArtifactAnchor {
  /** `src/a.ts#Class.method`, `src/a.ts`, `src/billing/**`, `POST /api/x` */
  key: string;
  spec: AnchorSpec;
  origins: AnchorOrigin[];
  /** for annotations: where the tag is written (file:line) */
  annotatedAt?: { file: string; line: number }[];
}

/**
 * The anchors of an artifact: its frontmatter `anchors:`, its `paths:` globs, and every code
 * annotation naming its id (a symbol-level annotation anchors `file#symbol`, a file-level
 * one the file). Keys are deduplicated; the first origin wins the order, all are kept.
 * With `mentions`, the code a record read in place names in its text (`mentions`) and, once
 * stamped, every key of its stamp (a mention `stamp --fix` followed to where the code moved:
 * the record's text is never rewritten) are anchors too, of origin `mentioned`.
 */
export function anchorsOf(artifact: Artifact, index: CodeIndex, opts: { mentions?: boolean } = {}): ArtifactAnchor[] {
  const out = new Map<string, ArtifactAnchor>();
  const add = (key: string, origin: AnchorOrigin, at?: { file: string; line: number }) => {
    const k = key.trim();
    if (!k) return;
    let a = out.get(k);
    if (!a) {
      a = { key: k, spec: parseAnchor(k), origins: [] };
      out.set(k, a);
    }
    if (!a.origins.includes(origin)) a.origins.push(origin);
    if (at) (a.annotatedAt ??= []).push(at);
  };
  for (const x of artifact.anchors) add(x, 'anchors');
  // `!` entries are exclusions of the paths set, never anchors of their own: the globs and
  // directories of `paths:` leave out what they exclude
  const pathSet = compilePaths(artifact.paths);
  for (const p of pathSet.includes) {
    add(p, 'paths');
    const a = out.get(p.trim());
    if (a && pathSet.excludes.length && (a.spec.kind === 'glob' || a.spec.kind === 'file')) a.spec = { ...a.spec, exclude: pathSet.excludes };
  }
  for (const ann of index.annotationsOf(artifact.id)) add(ann.symbol ? `${ann.file}#${ann.symbol}` : ann.file, 'annotation', { file: ann.file, line: ann.line });
  if (opts.mentions && artifact.format === 'adr') {
    for (const m of artifact.mentions ?? []) add(m.target, 'mentioned');
    for (const k of Object.keys(artifact.stamp?.fingerprints ?? {})) if (!out.has(k.trim())) add(k, 'mentioned');
  }
  return [...out.values()];
}

/** Fingerprint every anchor in the snapshot the index was built from. */
export async function fingerprintAnchors(anchors: ArtifactAnchor[], snapshot: Snapshot, index: CodeIndex): Promise<Map<string, AnchorFingerprint>> {
  const res = new Map<string, AnchorFingerprint>();
  for (const a of anchors) res.set(a.key, await fingerprintAnchor(a.spec, snapshot, index));
  return res;
}

/**
 * Symbols of files in a snapshot that has no CodeIndex of its own (a stamp or base commit).
 * A thin adapter over src/code's extractor and its blob-keyed cache: building a whole index
 * of an old commit to read a handful of files would cost seconds; this reads only those,
 * and the fingerprints are the same function's output, so they compare with the index's.
 */
export class SymbolReader {
  private memo = new Map<string, Promise<FileRecord | null | undefined>>();
  private readonly tagRe: RegExp;
  private constructor(private readonly cache: CodeCache, config: Config) {
    this.tagRe = tagRegex(config.tags);
  }

  static async open(root: string, config: Config, useCache = true): Promise<SymbolReader> {
    // its own files: sharing the code index's would let this cache's save() overwrite what the
    // CodeIndex saved earlier in the same run (each holds the file as it was when opened)
    // found from the filesystem: a git process here would cost more than the lookup saves
    const cache = useCache ? await CodeCache.forRepo(root, config.tags, 'staleness-symbols') : await CodeCache.open(undefined, config.tags);
    return new SymbolReader(cache, config);
  }

  /** Symbols of `path` in `snapshot`; undefined when the file is absent there or not TS/JS. */
  async symbolsOf(snapshot: Snapshot, path: string): Promise<CodeSymbol[] | undefined> {
    const rec = await this.recordOf(snapshot, path);
    return rec === undefined ? undefined : rec === null ? [] : rec.symbols;
  }

  /** The content hasher of set anchors (globs, directories) in `snapshot`: see indexContentHasher. */
  contentHasher(snapshot: Snapshot): ContentHasher {
    return async (path, blob) => {
      const rec = languageOf(path) === 'ts' ? await this.recordOf(snapshot, path) : undefined;
      return rec?.fingerprint ? `n${rec.fingerprint}` : blob;
    };
  }

  /** undefined: absent or not TS/JS; null: present but not readable as text */
  private recordOf(snapshot: Snapshot, path: string): Promise<FileRecord | null | undefined> {
    const key = `${snapshot.kind}:${snapshot.commit ?? ''}:${path}`;
    let p = this.memo.get(key);
    if (!p) {
      p = this.load(snapshot, path);
      this.memo.set(key, p);
    }
    return p;
  }

  private async load(snapshot: Snapshot, path: string): Promise<FileRecord | null | undefined> {
    const language = languageOf(path);
    // TS/JS parsed by the compiler; Python, Go, Java and Ruby through the code graph's parser
    if (!language || (language !== 'ts' && !declarationLanguage(path))) return undefined;
    const blob = await snapshot.blobOf(path);
    if (!blob) return undefined;
    const key = `${blob}:${language}`;
    const hit = this.cache.get(key);
    if (hit !== undefined && hit !== 0) return hit;
    const buf = await snapshot.read(path);
    if (!buf || buf.length > MAX_FILE_BYTES || buf.subarray(0, 8000).includes(0)) return null;
    const text = buf.toString('utf8');
    const rec = await extractFile(path, text, language, this.tagRe);
    if (language !== 'ts') {
      rec.symbols = (await declarationsOf(path, text)) ?? [];
      rec.declared = true;
    }
    this.cache.set(key, rec);
    return rec;
  }

  /** Fingerprint of a symbol anchor in another snapshot (same algorithm as the index). */
  async fingerprintSymbol(snapshot: Snapshot, path: string, symbol: string): Promise<string | undefined> {
    const syms = await this.symbolsOf(snapshot, path);
    return syms ? findSymbol(syms, symbol)?.fingerprint : undefined;
  }

  /** Persist what was extracted. */
  save(): Promise<void> {
    return this.cache.save();
  }
}

/**
 * Fingerprint an anchor in a snapshot without a CodeIndex (a base commit). Files, lines
 * and globs need only the snapshot; symbols go through the SymbolReader; endpoints are
 * judged through the symbol that registers them now (`via`).
 */
export async function fingerprintAt(spec: AnchorSpec, snapshot: Snapshot, reader: SymbolReader, index: CodeIndex): Promise<string | undefined> {
  if (spec.kind === 'symbol') return reader.fingerprintSymbol(snapshot, spec.path, spec.symbol);
  if (spec.kind === 'endpoint') return undefined;
  // file, lines and glob fingerprints read only the snapshot (and the index's config)
  const fp = await fingerprintAnchor(spec, snapshot, index, reader.contentHasher(snapshot));
  return fp.status === 'ok' ? fp.fingerprint : undefined;
}

/** The repository path an anchor is about (a glob's pattern for globs). */
export function anchorPath(spec: AnchorSpec): string | undefined {
  switch (spec.kind) {
    case 'symbol':
    case 'file':
    case 'lines':
      return spec.path;
    case 'glob':
      return undefined;
    case 'endpoint':
      return undefined;
  }
}

/** The same anchor at another path (`a.ts#f` → `b.ts#f`). */
export function withPath(spec: AnchorSpec, path: string): string {
  switch (spec.kind) {
    case 'symbol':
      return `${path}#${spec.symbol}`;
    case 'lines':
      return `${path}:${spec.start}${spec.end !== spec.start ? `-${spec.end}` : ''}`;
    default:
      return path;
  }
}
