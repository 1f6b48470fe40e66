import { cacheFile } from '../git/git-dir.js';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FileRecord } from './types.js';

/**
 * Bump when extraction changes what it produces (new fields, different fingerprints):
 * an old cache is then ignored and rebuilt, never half-trusted.
 */
export const CODE_CACHE_VERSION = 5;

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

const CLEAN_MAGIC = 'git-ctx/clean-blobs/1\n';

/**
 * The blob-keyed extraction cache at `<git-dir>/ctx/cache/code-index.json`, and beside it
 * (`code-index.clean`) the ids of blobs known to carry no tag: 20 raw bytes each, so that a
 * warm run can classify every file of a 100k-file tree without asking `git grep`.
 */
export class CodeCache {
  private entries = new Map<string, CacheValue>();
  private used = new Set<string>();
  private dirty = false;
  private clean: Set<string> | undefined;
  private cleanUsed = new Set<string>();
  private cleanDirty = false;

  private constructor(
    readonly file: string | undefined,
    private readonly tags: string,
  ) {}

  /** Open (and read) the cache; a missing, corrupt or old-version file gives an empty cache. */
  static async open(file: string | undefined, tags: string[]): Promise<CodeCache> {
    const key = tags.join(',');
    const cache = new CodeCache(file, key);
    if (!file) return cache;
    try {
      const data = JSON.parse(await readFile(file, 'utf8')) as Partial<CacheFile>;
      if (data.tool === 'git-ctx/code-index' && data.version === CODE_CACHE_VERSION && data.tags === key && data.entries && typeof data.entries === 'object') {
        for (const [k, v] of Object.entries(data.entries)) {
          if (v === 0 || (v && typeof v === 'object' && Array.isArray(v.annotations))) cache.entries.set(k, v);
        }
      }
    } catch {
      /* absent or unreadable: rebuilt silently */
    }
    return cache;
  }

  /** Cache for a repository root: `<git-dir>/ctx/cache/code-index.json`, or none when there is no git dir. */
  static async forRepo(root: string, tags: string[]): Promise<CodeCache> {
    return CodeCache.open(cacheFile(root, 'code-index.json'), tags);
  }

  /** Is this blob known to mention no tag (of this cache's tag set)? */
  isClean(blob: string): boolean {
    if (blob.length !== 40) return false; // SHA-256 repositories: not remembered
    this.clean ??= this.readClean();
    if (!this.clean.has(blob)) return false;
    this.cleanUsed.add(blob);
    return true;
  }

  /** Remember that a blob mentions no tag. */
  addClean(blob: string): void {
    if (blob.length !== 40 || !/^[0-9a-f]{40}$/.test(blob)) return;
    this.clean ??= this.readClean();
    this.cleanUsed.add(blob);
    if (this.clean.has(blob)) return;
    this.clean.add(blob);
    this.cleanDirty = true;
  }

  private cleanFile(): string | undefined {
    return this.file ? this.file.replace(/\.json$/, '') + '.clean' : undefined;
  }

  private cleanHeader(): Buffer {
    return Buffer.from(`${CLEAN_MAGIC}${CODE_CACHE_VERSION} ${this.tags}\n`);
  }

  private readClean(): Set<string> {
    const out = new Set<string>();
    const file = this.cleanFile();
    if (!file) return out;
    try {
      const buf = readFileSync(file);
      const head = this.cleanHeader();
      if (buf.length < head.length || !buf.subarray(0, head.length).equals(head) || (buf.length - head.length) % 20 !== 0) return out;
      const hex = buf.toString('hex', head.length);
      for (let i = 0; i < hex.length; i += 40) out.add(hex.slice(i, i + 40));
    } catch {
      /* absent or unreadable: empty */
    }
    return out;
  }

  get(key: string): CacheValue | undefined {
    const v = this.entries.get(key);
    if (v !== undefined) this.used.add(key);
    return v;
  }

  set(key: string, value: CacheValue): void {
    this.entries.set(key, value);
    this.used.add(key);
    this.dirty = true;
  }

  /**
   * Write the cache when something changed. Entries used by this run are kept, plus older
   * ones up to a bound (other branches, other snapshots) so the file cannot grow forever.
   * Written to a temporary file and renamed: a concurrent reader sees old or new, never half.
   */
  async save(): Promise<void> {
    await this.saveClean();
    if (!this.file || !this.dirty) return;
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
    try {
      await mkdir(path.dirname(this.file), { recursive: true });
      const tmp = `${this.file}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(data));
      await rename(tmp, this.file);
      this.dirty = false;
    } catch {
      // a read-only .git (CI caches, mounted repos) must not fail the analysis
    }
  }

  /** Blobs of this run first, then older ones up to a bound (other branches and snapshots). */
  private async saveClean(): Promise<void> {
    const file = this.cleanFile();
    if (!file || !this.clean || !this.cleanDirty) return;
    const limit = Math.max(250_000, this.cleanUsed.size * 2);
    const keep: string[] = [...this.cleanUsed];
    for (const b of this.clean) {
      if (keep.length >= limit) break;
      if (!this.cleanUsed.has(b)) keep.push(b);
    }
    const body = Buffer.alloc(keep.length * 20);
    keep.forEach((b, i) => body.write(b, i * 20, 20, 'hex'));
    try {
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, Buffer.concat([this.cleanHeader(), body]));
      await rename(tmp, file);
      this.cleanDirty = false;
    } catch {
      // read-only .git: classified again next time
    }
  }
}
