import type { Config } from '../config.js';
import { declarationLanguage, declarationsOf } from './declarations.js';
import type { Snapshot, SnapshotEntry } from '../snapshot/types.js';
import { globSetMatcher } from '../util/glob.js';
import { gitBlobHash } from '../util/hash.js';
import { mark, now } from '../util/timing.js';
import { reportProgress } from '../util/progress.js';
import { CodeCache, type CacheValue } from './code-cache.js';
import { differing, keepClasses, keptClasses, listingDelta, type KeptCarrier } from './kept-classes.js';
import { extractFile, innermostSymbol, isBinary, MAX_FILE_BYTES, skipped, tooLarge } from './extract.js';

export { innermostSymbol };
import { gitGrepFiles, tagEre } from './grep.js';
import { languageOf } from './languages.js';
import { prefilterRegex, tagRegex } from './tags.js';
import { PartialIndexError, type CodeIndexStats } from './index-types.js';
import type { Annotation, CodeLanguage, CodeSymbol, FileRecord, IndexedFile, IndexProblem } from './types.js';

export interface CodeIndexOptions {
  /**
   * Where the extraction cache lives: a file path, `false` for no cache, or undefined
   * for the repository's `code-index` cache.
   */
  cache?: string | false;
  /** the extraction cache of another index of the same repository, already read (one read per run) */
  sharedWith?: CodeIndex;
  /**
   * A partial index (the pre-commit hook's, DEC-033): instead of listing the snapshot,
   * classify only these of its entries, the caller vouching that every other file of the
   * snapshot is tag-free (classified clean under the same tags, bounds and selection).
   * Annotations and problems are then those of the whole snapshot; a file's record is
   * looked up in the snapshot when asked for; the whole file list is not known, and asking
   * for it (`files`, `file()` of an unknown path) throws PartialIndexError.
   */
  known?: SnapshotEntry[];
}

export { PartialIndexError, type CodeIndexStats } from './index-types.js';

const READ_CHUNK = 256;
/** Up to this many files of unknown content are read directly; more are pre-filtered by git grep. */
const DIRECT_READ_LIMIT = 256;

/**
 * Annotations and symbols of a snapshot's source files. Only files that mention a tag are
 * parsed; other files' symbols are extracted on demand (an anchor names them) and cached
 * by blob like the rest.
 */
export class CodeIndex {
  private readonly fileList: IndexedFile[] = [];
  /** every annotation, by file then line */
  readonly annotations: Annotation[] = [];
  /** files that could not be indexed (syntax errors are data, not failures) */
  readonly problems: IndexProblem[] = [];
  readonly stats: CodeIndexStats = { files: 0, candidates: 0, read: 0, extracted: 0, kept: 0, ms: 0 };

  /** every considered file, sorted by path (a partial index throws: it never listed them) */
  get files(): IndexedFile[] {
    if (this.partial) throw new PartialIndexError('the whole file list');
    this.materialize();
    return this.fileList;
  }

  /** tag-free files with their listed blob become objects only when asked for: not 100,000 of them per run (DEC-070) */
  private unlisted: { entries: SnapshotEntry[]; select: (p: string) => boolean } | undefined;
  private materialize(): void {
    const u = this.unlisted;
    if (!u) return;
    this.unlisted = undefined;
    this.fileList.length = 0;
    for (const e of u.entries) {
      if (e.mode === '120000' || e.mode === '160000' || this.unsettled.has(e.path)) continue;
      let f = this.byPath.get(e.path);
      if (!f) {
        const language = languageOf(e.path);
        if (!language || !u.select(e.path)) continue;
        f = { path: e.path, language, candidate: false };
        if (e.blob) f.blob = e.blob;
        this.byPath.set(e.path, f);
      }
      this.fileList.push(f);
    }
  }

  private readonly byPath = new Map<string, IndexedFile>();
  /** files that could not be read or parsed (no record, never cached), by path: their blob */
  private readonly unsettled = new Map<string, string | undefined>();
  private partial = false;
  /** the cache is the repository's own (not one a caller named, nor none) */
  private ownCache = false;
  /** files classified as carrying something (a record, not clean) */
  private readonly kept: IndexedFile[] = [];
  private selectFn: ((p: string) => boolean) | undefined;
  private readonly records = new Map<string, FileRecord>();
  private readonly byId = new Map<string, Annotation[]>();
  private readonly byFile = new Map<string, Annotation[]>();
  private readonly tagRe: RegExp;
  /** does the content mention a tag at all (latin1 text: cheap, and enough for ASCII tags) */
  private readonly prefilter: RegExp;
  /** per-file bound (config `limits.max_file_bytes`) */
  private readonly maxFileBytes: number;

  private constructor(
    readonly snapshot: Snapshot,
    readonly config: Config,
    private readonly cache: CodeCache,
  ) {
    this.tagRe = tagRegex(config.tags);
    this.prefilter = prefilterRegex(config.tags);
    this.maxFileBytes = config.limits?.max_file_bytes ?? MAX_FILE_BYTES;
  }

  /** Build the index for a snapshot; reads the cache, extracts what changed, saves the cache. */
  static async build(snapshot: Snapshot, config: Config, opts: CodeIndexOptions = {}): Promise<CodeIndex> {
    const t0 = now();
    const shared = opts.sharedWith && opts.sharedWith.config.tags.join(',') === config.tags.join(',') ? opts.sharedWith.cache : undefined;
    const cache = shared ?? (opts.cache === false ? await CodeCache.open(undefined, config.tags) : opts.cache ? await CodeCache.open(opts.cache, config.tags) : await CodeCache.forRepo(snapshot.root, config.tags));
    mark('code index: cache read');
    const index = new CodeIndex(snapshot, config, cache);
    index.partial = opts.known !== undefined;
    index.ownCache = shared ? opts.sharedWith!.ownCache : opts.cache === undefined;
    await index.load(opts.known);
    mark('code index: built');
    await cache.save();
    index.stats.ms = now() - t0;
    return index;
  }

  private selector(): (p: string) => boolean {
    return codeSelector(this.config);
  }

  private async load(known?: SnapshotEntry[]): Promise<void> {
    const select = (this.selectFn ??= this.selector());
    const all = known ?? (await this.snapshot.list());
    // a listing made from one state of the git index, with the repository's own cache: the
    // classification of the index's entries may be kept by its stamp (DEC-070)
    const delta = !known && this.ownCache && this.cache.file ? listingDelta(this.snapshot) : undefined;
    const kept = delta !== undefined && this.fromKept(keptClasses(this.snapshot.root, delta, this.config));
    // the listed files and their languages side by side, and the unknown ones as positions in
    // them: no object per file for 100,000 files that live through the git grep below (every
    // object that survives a young-generation collection makes V8 grow it, DEC-062)
    const listed: SnapshotEntry[] = [];
    const languages: CodeLanguage[] = [];
    // with a kept classification only the paths where the working tree differs from the index
    for (const entry of kept ? differing(all, delta!.differ) : all) {
      if (entry.mode === '120000' || entry.mode === '160000') continue;
      const language = languageOf(entry.path);
      if (!language || !select(entry.path)) continue;
      listed.push(entry);
      languages.push(language);
    }
    this.stats.files = listed.length;
    mark(`code index: ${listed.length} files listed${kept ? ` beside ${this.kept.length} kept carriers` : ''}`);

    // Classify from the cache first: a blob with a record, or one known to carry no tag,
    // needs neither git nor a read. What is left (new content) is read directly when it is
    // a handful of files, as after an edit or in a pre-commit hook; otherwise `git grep`
    // pre-filters it (first run, branch switch), as git matches in C on all cores.
    const pending: { entry: SnapshotEntry; language: CodeLanguage; blob?: string }[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < listed.length; i++) {
      const entry = listed[i]!;
      const language = languages[i]!;
      const blob = entry.blob;
      const hit = blob && this.cache.mayHave(blob) ? this.cache.get(`${blob}:${language}`) : undefined;
      // a tag-free file with its listed blob becomes an object only when asked for (materialize)
      if (hit !== undefined) {
        if (hit !== 0 || this.partial) this.accept(entry.path, blob, language, hit);
      } else if (blob && this.cache.isClean(blob)) {
        if (this.partial) this.accept(entry.path, blob, language, 0);
      } else unknown.push(i);
    }
    const grepped = unknown.length > DIRECT_READ_LIMIT ? await gitGrepFiles(this.snapshot, tagEre(this.config.tags)) : undefined;
    if (grepped) mark(`code index: ${unknown.length} new files pre-filtered by git grep`);
    for (const i of unknown) {
      const entry = listed[i]!;
      const language = languages[i]!;
      const p = entry.path;
      const blob = entry.blob;
      if (grepped && !grepped.has(p)) {
        if (blob) this.cache.addClean(blob);
        if (!blob || this.partial) this.accept(p, blob, language, 0);
        continue;
      }
      pending.push({ entry, language, blob });
    }
    this.stats.read = pending.length;
    // a partial index's few reads: one listing limited to them, not the top-level folders
    if (known && pending.length) (this.snapshot as { prefetch?: (paths: string[]) => void }).prefetch?.(pending.map((e) => e.entry.path));
    // read and classify every miss first, then parse the ones that carry a tag
    const toParse: { key: string; path: string; blob: string; language: CodeLanguage; text: string }[] = [];
    for (let i = 0; i < pending.length; i += READ_CHUNK) {
      reportProgress('reading source files', i, pending.length);
      const chunk = pending.slice(i, i + READ_CHUNK);
      const bufs = await this.snapshot.readMany(chunk.map((e) => e.entry.path));
      for (const [j, e] of chunk.entries()) {
        const buf = bufs[j];
        const p = e.entry.path;
        if (!buf) {
          this.problems.push({ file: p, kind: 'unreadable', message: 'could not be read' });
          this.unsettled.set(p, e.blob);
          continue;
        }
        const blob = e.blob ?? gitBlobHash(buf);
        const key = `${blob}:${e.language}`;
        // work-tree files without a hint have no blob id until hashed: look again now
        const hit = e.blob ? undefined : this.cache.get(key);
        if (hit !== undefined) {
          this.accept(p, blob, e.language, hit);
          continue;
        }
        let value: CacheValue;
        if (buf.length > this.maxFileBytes) {
          // not remembered: the bound is configurable, and raising it must scan the file
          this.oversize.set(p, buf.length);
          this.accept(p, blob, e.language, tooLarge(buf.length, this.maxFileBytes));
          continue;
        } else if (isBinary(buf)) value = skipped('binary', 'binary content (NUL bytes); not scanned');
        else if (!this.prefilter.test(buf.toString('latin1'))) {
          this.cache.addClean(blob);
          if (!e.blob || this.partial) this.accept(p, blob, e.language, 0);
          continue;
        } else {
          toParse.push({ key, path: p, blob, language: e.language, text: buf.toString('utf8') });
          continue;
        }
        this.cache.set(key, value);
        this.accept(p, blob, e.language, value);
      }
    }
    reportProgress('reading source files', pending.length, pending.length);
    mark(`code index: ${pending.length} files read`);
    for (const [n, t] of toParse.entries()) {
      if (n % 20 === 0) reportProgress('parsing annotated files', n, toParse.length);
      let r: FileRecord;
      try {
        r = await extractFile(t.path, t.text, t.language, this.tagRe);
      } catch (e) {
        this.problems.push({ file: t.path, kind: 'unreadable', message: `could not be parsed: ${e instanceof Error ? e.message : String(e)}` });
        this.unsettled.set(t.path, t.blob);
        continue;
      }
      this.stats.extracted++;
      r.tagged = true;
      this.cache.set(t.key, r);
      this.accept(t.path, t.blob, t.language, r);
    }
    reportProgress('parsing annotated files', toParse.length, toParse.length);
    if (toParse.length) mark(`code index: ${toParse.length} files parsed`);
    if (!this.partial) this.unlisted = { entries: all, select };
    // how many files were considered is known once they are listed
    if (kept) Object.defineProperty(this.stats, 'files', { enumerable: true, get: () => (this.materialize(), this.fileList.length) });
    else if (delta) this.keep(delta);
    this.fileList.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    this.annotations.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
    this.problems.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  }

  /** Accept the kept carriers but where the tree differs; false (none accepted): none kept, or a record left the cache. */
  private fromKept(kept: { carriers: KeptCarrier[] } | undefined): boolean {
    if (!kept) return false;
    const differ = listingDelta(this.snapshot)!.differ;
    const values: CacheValue[] = [];
    for (const [p, blob, language, size] of kept.carriers) {
      if (differ.has(p)) continue;
      const v = size !== undefined ? tooLarge(size, this.maxFileBytes) : this.cache.get(`${blob}:${language}`);
      if (v === undefined) return false;
      values.push(v);
    }
    let i = 0;
    for (const [p, blob, language, size] of kept.carriers) {
      if (differ.has(p)) continue;
      if (size !== undefined) this.oversize.set(p, size);
      this.accept(p, blob, language, values[i++]!);
    }
    this.stats.kept = values.length;
    mark(`code index: ${values.length} carriers kept by the index's stamp`);
    return true;
  }

  /** Keep the classification of the index's entries (those not differing), unless a file of them is unsettled. */
  private keep(delta: { stamp: string; differ: ReadonlySet<string> }): void {
    for (const p of this.unsettled.keys()) if (!delta.differ.has(p)) return;
    const carriers: KeptCarrier[] = [];
    for (const f of this.kept) {
      if (delta.differ.has(f.path) || !f.blob) continue;
      const size = this.oversize.get(f.path);
      if (f.language) carriers.push(size === undefined ? [f.path, f.blob, f.language] : [f.path, f.blob, f.language, size]);
    }
    keepClasses(this.snapshot.root, delta, this.config, { carriers });
  }

  /** sizes of the files accepted as over the size bound (their record is not cached by blob) */
  private readonly oversize = new Map<string, number>();

  private accept(path: string, blob: string | undefined, language: CodeLanguage, value: CacheValue): void {
    const candidate = value !== 0 && (value.annotations.length > 0 || value.problem !== undefined);
    // a record extracted on demand (an anchor named a file without tags) is not a candidate
    const f: IndexedFile = { path, language, candidate: value !== 0 && (value.tagged === true || value.problem !== undefined) };
    if (blob) f.blob = blob;
    this.fileList.push(f);
    this.byPath.set(path, f);
    if (value === 0) return;
    this.kept.push(f);
    if (candidate) this.stats.candidates++;
    this.records.set(path, value);
    if (value.problem) this.problems.push({ file: path, ...value.problem });
    for (const a of value.annotations) this.addAnnotation({ file: path, ...a });
  }

  private addAnnotation(a: Annotation): void {
    this.annotations.push(a);
    const list = this.byFile.get(a.file);
    if (list) list.push(a);
    else this.byFile.set(a.file, [a]);
    for (const id of a.ids) {
      const l = this.byId.get(id);
      if (l) l.push(a);
      else this.byId.set(id, [a]);
    }
  }

  /** The indexed file at a path (undefined when absent, excluded, or of no known language). */
  file(path: string): IndexedFile | undefined {
    if (!this.byPath.has(path)) this.materialize();
    const f = this.byPath.get(path);
    if (!f && this.partial) throw new PartialIndexError(`whether ${path} is indexed`);
    return f;
  }

  /**
   * The indexed file at a path. A partial index looks a file it was not given up in the
   * snapshot: such a file is tag-free (the caller vouched for it), so it is what a whole
   * index holds for it, a file without a record.
   */
  private async lookup(path: string): Promise<IndexedFile | undefined> {
    if (!this.byPath.has(path)) this.materialize();
    const have = this.byPath.get(path);
    if (have || !this.partial || this.unsettled.has(path)) return have;
    const language = languageOf(path);
    if (!language || !(this.selectFn ??= this.selector())(path)) return undefined;
    // nothing for a path absent from the snapshot, and for a symbolic link (never indexed)
    if (!(await this.snapshot.read(path))) return undefined;
    const f: IndexedFile = { path, language, candidate: false };
    const blob = await this.snapshot.blobOf(path);
    if (blob) f.blob = blob;
    this.byPath.set(path, f);
    return f;
  }

  /**
   * The files this index classified as carrying annotations, symbols or a problem (every
   * file not listed here was tag-free), with their blob ids: what a later partial index of
   * a snapshot with the same content there is given as `known`. Undefined when a blob id
   * is unknown (a work-tree file not hashed).
   */
  carriers(): { path: string; blob: string }[] | undefined {
    const out: { path: string; blob: string }[] = [];
    for (const f of this.kept) {
      if (!f.blob) return undefined;
      out.push({ path: f.path, blob: f.blob });
    }
    for (const [path, blob] of this.unsettled) {
      if (!blob) return undefined;
      out.push({ path, blob });
    }
    return out;
  }

  /** Annotations written in a file, by line. */
  annotationsIn(path: string): Annotation[] {
    return this.byFile.get(path) ?? [];
  }

  /** Annotations naming an id, anywhere. */
  annotationsOf(id: string): Annotation[] {
    return this.byId.get(id) ?? [];
  }

  /** Every id some annotation names. */
  annotatedIds(): string[] {
    return [...this.byId.keys()].sort();
  }

  /**
   * The full record of a file (symbols included), extracting it now when the pre-filter
   * had skipped it. Undefined for files the index does not hold or could not read.
   */
  async recordOf(path: string): Promise<FileRecord | undefined> {
    const have = this.records.get(path);
    if (have) return have;
    const f = await this.lookup(path);
    if (!f?.language) return undefined;
    if (f.blob) {
      const hit = this.cache.get(`${f.blob}:${f.language}`);
      if (hit) {
        this.records.set(path, hit);
        return hit;
      }
    }
    const buf = await this.snapshot.read(path);
    if (!buf) return undefined;
    let rec: FileRecord;
    if (buf.length > this.maxFileBytes) {
      rec = tooLarge(buf.length, this.maxFileBytes);
      this.records.set(path, rec);
      return rec;
    } else if (isBinary(buf)) rec = skipped('binary', 'binary content (NUL bytes); not scanned');
    else {
      const text = buf.toString('utf8');
      rec = await extractFile(path, text, f.language, this.tagRe);
      if (this.prefilter.test(buf.toString('latin1'))) rec.tagged = true;
    }
    this.records.set(path, rec);
    f.blob ??= (await this.snapshot.blobOf(path)) ?? gitBlobHash(buf);
    this.cache.set(`${f.blob}:${f.language}`, rec);
    return rec;
  }

  /** Why a file's content was not parsed (over the size bound, unparsable), or undefined when it was. */
  async skippedReason(path: string): Promise<string | undefined> {
    const p = (await this.recordOf(path))?.problem;
    return p && p.kind !== 'binary' ? p.message : undefined;
  }

  /**
   * Declarations of a file: TS/JS from its parse; Python, Go, Java and Ruby from the code
   * graph's parser, read the first time they are asked for (classifying a file reads only its
   * comments) and kept with the file's record by blob. Empty for other languages.
   */
  async symbolsOf(path: string): Promise<CodeSymbol[]> {
    const rec = await this.recordOf(path);
    if (!rec) return [];
    if (rec.declared || rec.problem || rec.symbols.length || !declarationLanguage(path)) return rec.symbols;
    const buf = await this.snapshot.read(path);
    if (!buf) return rec.symbols;
    rec.symbols = (await declarationsOf(path, buf.toString('utf8'))) ?? [];
    rec.declared = true;
    const f = await this.lookup(path);
    if (f?.blob && f.language) this.cache.set(`${f.blob}:${f.language}`, rec);
    return rec.symbols;
  }

  /** The innermost declaration containing a line (annotated or not). */
  async symbolAt(path: string, line: number): Promise<CodeSymbol | undefined> {
    return innermostSymbol(await this.symbolsOf(path), line);
  }

  /**
   * The innermost annotated symbol whose lines overlap [startLine, endLine]: what a PR
   * bot needs to map a changed hunk to the artifacts that govern it.
   */
  annotatedSymbolsIn(path: string, startLine: number, endLine = startLine): Annotation[] {
    const hits = this.annotationsIn(path).filter((a) => a.symbol !== undefined && a.startLine <= endLine && a.endLine >= startLine);
    if (!hits.length) return [];
    // innermost: the smallest span wins; every annotation on that symbol is returned
    const span = (a: Annotation) => a.endLine - a.startLine;
    const min = Math.min(...hits.map(span));
    const symbols = new Set(hits.filter((a) => span(a) === min).map((a) => a.symbol));
    return hits.filter((a) => symbols.has(a.symbol));
  }

  /**
   * Every file's symbols, for moved-symbol search. Extracts the files not parsed yet (cached
   * by blob afterwards, so this is paid once per content). Restricted to `paths` when given.
   */
  async allSymbols(paths?: string[]): Promise<{ path: string; symbol: CodeSymbol }[]> {
    const out: { path: string; symbol: CodeSymbol }[] = [];
    const targets = paths ? (await Promise.all(paths.map((p) => this.lookup(p)))).filter((f): f is IndexedFile => !!f) : this.files;
    for (const f of targets) {
      if (f.language !== 'ts') continue;
      for (const s of await this.symbolsOf(f.path)) out.push({ path: f.path, symbol: s });
    }
    return out;
  }

  /** Persist what on-demand extraction added to the cache. Safe to call repeatedly. */
  flush(): Promise<void> {
    return this.cache.save();
  }
}

/** Build (or load from cache) the code index of a snapshot. */
/** The files the code index reads for tags, by path (a language of its own aside): the config's anchors selection, never the records folder. */
export function codeSelector(config: Pick<Config, 'anchors' | 'dir'>): (p: string) => boolean {
  const { include, exclude } = config.anchors;
  const inc = include.length ? globSetMatcher(include) : undefined;
  // artifacts talk about tags all the time; they are not code
  const exc = globSetMatcher([...exclude, `${config.dir}/**`]);
  return (p) => (!inc || inc(p)) && !exc(p);
}

export function buildCodeIndex(snapshot: Snapshot, config: Config, opts?: CodeIndexOptions): Promise<CodeIndex> {
  return CodeIndex.build(snapshot, config, opts);
}
