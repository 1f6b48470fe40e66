// @spec SPEC-CACHE-001

import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { BlobIdSet } from '../cache/blob-set.js';
import { decodeContainer, encodeContainer } from '../cache/container.js';
import { readCacheBytes, writeCacheFile } from '../cache/file.js';
import { cacheKind } from '../cache/kinds.js';
import { kindFile } from '../cache/memo.js';
import type { FileRecord } from './types.js';

/**
 * Bump when extraction changes what it produces (new fields, different fingerprints):
 * an old cache is then ignored and rebuilt, never half-trusted.
 */
export const CODE_CACHE_VERSION = cacheKind('code-index').version;

/** A cached blob: 0 = the pre-filter found no tag (never parsed); otherwise its record. */
export type CacheValue = 0 | FileRecord;

interface CacheFile {
  tool: 'git-ctx/code-index';
  version: number;
  /** the tag set the pre-filter used; other tags = other results */
  tags: string;
  entries: Record<string, CacheValue>;
}

export { resolveGitDir } from '../git/git-dir.js';

/** The journal is folded into the base files once it grows past this. */
const JOURNAL_LIMIT = 1 << 20;

/** The code index's files, or the anchor symbols' (the same shape, files of their own). */
type Family = 'code-index' | 'staleness-symbols';

const validValue = (v: unknown): v is CacheValue => v === 0 || (!!v && typeof v === 'object' && Array.isArray((v as FileRecord).annotations));

/**
 * The blob-keyed extraction cache (`code-index` kind, or `staleness-symbols` for the anchor
 * symbols); beside it the `-clean` kind, the ids of blobs known to carry no tag (20 raw
 * bytes each, in one container section keyed by the tag set), so that a
 * warm run can classify every file of a 100k-file tree without asking `git grep`; and
 * the `-log` kind, a journal of what later runs added. A commit adds a handful of blobs:
 * appending them costs far less than rewriting the whole cache, which a pre-commit hook
 * would otherwise pay on every commit. The journal is folded into the base files when it
 * passes 1 MB. A torn or foreign journal line is skipped; everything is keyed by content,
 * so nothing read here can be wrong, only missing.
 */
export class CodeCache {
  private entries = new Map<string, CacheValue>();
  private used = new Set<string>();
  /** entries and clean blobs added by this run, not yet on disk */
  private fresh = new Map<string, CacheValue>();
  private freshClean = new Set<string>();
  /** the base file's tag-free blobs, read on first use */
  private clean: BlobIdSet | undefined;
  /** tag-free blobs from the journal and this run (few: what commits since the last fold added) */
  private extraClean = new Set<string>();
  private extraCleanUsed = new Set<string>();
  private journalBytes = 0;
  /** the journal on disk starts with this cache's header, so appending to it is right */
  private journalOk = false;
  /** the base file read cleanly (else the next save rewrites it) */
  private baseOk = false;

  private constructor(
    readonly file: string | undefined,
    private readonly tags: string,
    private readonly family: Family,
  ) {}

  /** Open (and read) the cache; a missing, corrupt or old-version file gives an empty cache. */
  static async open(file: string | undefined, tags: string[], family: Family = 'code-index'): Promise<CodeCache> {
    const key = tags.join(',');
    const cache = new CodeCache(file, key, family);
    if (!file) return cache;
    try {
      const data = JSON.parse(readCacheBytes(file)?.toString('utf8') ?? '') as Partial<CacheFile>;
      if (data.tool === 'git-ctx/code-index' && data.version === CODE_CACHE_VERSION && data.tags === key && data.entries && typeof data.entries === 'object') {
        for (const [k, v] of Object.entries(data.entries)) if (validValue(v)) cache.entries.set(k, v);
        cache.baseOk = true;
      }
    } catch {
      /* absent or unreadable: rebuilt silently */
    }
    cache.readJournal();
    return cache;
  }

  /** The cache of a repository (none outside one, or with caches off); the anchor symbols keep their own. */
  static async forRepo(root: string, tags: string[], family: Family = 'code-index'): Promise<CodeCache> {
    return CodeCache.open(kindFile(root, family), tags, family);
  }

  /** The file of the `-clean` or `-log` kind beside the base file (its name from the registry). */
  private sibling(part: 'clean' | 'log'): string | undefined {
    return this.file ? path.join(path.dirname(this.file), cacheKind(`${this.family}-${part}`).file) : undefined;
  }

  private journalHeader(): string {
    return JSON.stringify({ tool: 'git-ctx/code-index-log', version: CODE_CACHE_VERSION, tags: this.tags });
  }

  private readJournal(): void {
    const file = this.sibling('log');
    if (!file) return;
    const bytes = readCacheBytes(file);
    if (!bytes) return;
    const text = bytes.toString('utf8');
    this.journalBytes = Buffer.byteLength(text);
    const lines = text.split('\n');
    if (lines[0] !== this.journalHeader()) return; // foreign journal: replaced at the next save
    this.journalOk = true;
    for (let i = 1; i < lines.length; i++) {
      if (!lines[i]) continue;
      let rec: unknown;
      try {
        rec = JSON.parse(lines[i]!);
      } catch {
        continue; // a torn last line from an interrupted append
      }
      if (!Array.isArray(rec)) continue;
      if (rec[0] === 'c' && typeof rec[1] === 'string' && /^[0-9a-f]{40}$/.test(rec[1])) this.extraClean.add(rec[1]);
      else if (rec[0] === 'e' && typeof rec[1] === 'string' && validValue(rec[2])) this.entries.set(rec[1], rec[2]);
    }
  }

  /** Is this blob known to mention no tag (of this cache's tag set)? */
  isClean(blob: string): boolean {
    if (blob.length !== 40) return false; // SHA-256 repositories: not remembered
    this.clean ??= this.readClean();
    if (this.clean.has(blob)) return true;
    if (!this.extraClean.has(blob)) return false;
    this.extraCleanUsed.add(blob);
    return true;
  }

  /** Remember that a blob mentions no tag. */
  addClean(blob: string): void {
    if (blob.length !== 40 || !/^[0-9a-f]{40}$/.test(blob)) return;
    if (this.isClean(blob)) return;
    this.extraClean.add(blob);
    this.extraCleanUsed.add(blob);
    this.freshClean.add(blob);
  }

  private readClean(): BlobIdSet {
    const file = this.sibling('clean');
    const empty = new BlobIdSet(Buffer.alloc(0), 0);
    if (!file) return empty;
    const buf = readCacheBytes(file);
    const c = buf && decodeContainer(buf, cacheKind(`${this.family}-clean`));
    const ids = c?.sections[0];
    if (!c || c.head.key !== this.tags || !ids || ids.length % 20 !== 0) return empty;
    return new BlobIdSet(ids, 0);
  }

  /** blob ids with some entry (of any language): most files of a tree have none, and skip building a key */
  private blobsWithEntries: Set<string> | undefined;
  /** Could this blob have an entry? False is certain; true means look it up with get(). */
  mayHave(blob: string): boolean {
    if (!this.blobsWithEntries) {
      this.blobsWithEntries = new Set();
      for (const k of this.entries.keys()) this.blobsWithEntries.add(k.slice(0, k.indexOf(':')));
    }
    return this.blobsWithEntries.has(blob);
  }

  get(key: string): CacheValue | undefined {
    const v = this.entries.get(key);
    if (v !== undefined) this.used.add(key);
    return v;
  }

  set(key: string, value: CacheValue): void {
    this.entries.set(key, value);
    this.blobsWithEntries?.add(key.slice(0, key.indexOf(':')));
    this.used.add(key);
    this.fresh.set(key, value);
  }

  /**
   * Persist what this run added: appended to the journal, or, once the journal is large,
   * folded into rewritten base files (entries used by this run kept, plus older ones up to a
   * bound for other branches and snapshots, so that nothing grows forever). Base files are
   * written to a temporary file and renamed: a concurrent reader sees old or new, never half.
   */
  async save(): Promise<void> {
    if (!this.file || (!this.fresh.size && !this.freshClean.size)) return;
    const lines: string[] = [];
    for (const [k, v] of this.fresh) lines.push(JSON.stringify(['e', k, v]));
    for (const b of this.freshClean) lines.push(JSON.stringify(['c', b]));
    const text = lines.join('\n') + '\n';
    try {
      if (this.baseOk && this.journalOk && this.journalBytes + text.length <= JOURNAL_LIMIT) {
        appendFileSync(this.sibling('log')!, text);
        this.journalBytes += text.length;
      } else this.fold();
      this.fresh.clear();
      this.freshClean.clear();
    } catch {
      // a read-only .git (CI caches, mounted repos) must not fail the analysis
    }
  }

  /** Rewrite the base files from memory and drop the journal. */
  private fold(): void {
    const file = this.file!;
    const limit = Math.max(20_000, this.used.size * 2);
    const out: Record<string, CacheValue> = {};
    let n = 0;
    for (const k of this.used) {
      const v = this.entries.get(k);
      if (v !== undefined) {
        out[k] = v;
        n++;
      }
    }
    for (const [k, v] of this.entries) {
      if (n >= limit) break;
      if (!(k in out)) {
        out[k] = v;
        n++;
      }
    }
    const data: CacheFile = { tool: 'git-ctx/code-index', version: CODE_CACHE_VERSION, tags: this.tags, entries: out };
    if (!writeCacheFile(file, JSON.stringify(data))) return;
    this.clean ??= this.readClean();
    const clean = this.clean;
    let used = this.extraCleanUsed.size;
    for (let i = 0; i < clean.count; i++) used += clean.used[i]!;
    const cleanLimit = Math.max(250_000, used * 2);
    // used first (this run's tree), then the rest up to the bound; the journal's ids are new
    const parts: Buffer[] = [];
    const add = (b: Buffer) => {
      if (parts.length < cleanLimit) parts.push(b);
    };
    for (const b of this.extraCleanUsed) add(Buffer.from(b, 'hex'));
    for (let i = 0; i < clean.count; i++) if (clean.used[i]) add(clean.record(i));
    for (const b of this.extraClean) if (!this.extraCleanUsed.has(b)) add(Buffer.from(b, 'hex'));
    for (let i = 0; i < clean.count; i++) if (!clean.used[i]) add(clean.record(i));
    const body = Buffer.concat(parts);
    writeCacheFile(this.sibling('clean'), encodeContainer(cacheKind(`${this.family}-clean`), this.tags, [body], undefined, body.length / 20));
    // the base now holds everything: start an empty journal (header only)
    const header = this.journalHeader() + '\n';
    this.journalOk = writeCacheFile(this.sibling('log'), header);
    this.journalBytes = header.length;
    this.baseOk = true;
  }
}
