// @spec SPEC-CACHE-001

import { readCacheBytes, writeCacheFile } from '../cache/file.js';
import { cacheKind } from '../cache/kinds.js';
import { kindFile } from '../cache/memo.js';
import { sha256 } from '../util/hash.js';
import { VERSION } from '../version.js';
import type { ArtifactJudgement } from './types.js';

/** Bumped whenever what a judgement depends on, or its shape, changes. */
const FORMAT = cacheKind('stale-results').version;

/**
 * A judgement as cached: everything but the lifecycle, which depends on other artifacts
 * (who supersedes whom) and is recomputed on every run. `renameLimit` says that the history
 * walk that produced it hit git's rename limit, so a cache hit can still warn.
 */
export interface CachedJudgement {
  judgement: Omit<ArtifactJudgement, 'lifecycle'>;
  renameLimit?: { needed?: number };
}

interface Entry extends CachedJudgement {
  key: string;
  /** the part of the key known before any fingerprint (HEAD, artifact file): see likelyHit */
  pre: string;
}

interface CacheFile {
  format: number;
  tool: string;
  entries: Record<string, Entry>;
}

/**
 * Judgements of earlier runs in the `stale-results` cache, one entry per
 * artifact id, reused when the key still matches. The key (built by the judge) holds HEAD,
 * the artifact file's path and blob, and the current fingerprint of every anchor, so a warm
 * run at the same HEAD skips the history walk; anything else changing makes it miss.
 * One entry per id keeps the file bounded by the number of artifacts.
 */
export class ResultCache {
  private dirty = false;
  private constructor(
    private readonly file: string | undefined,
    private readonly data: CacheFile,
  ) {}

  /** Open the cache of a repository (`enabled: false` or no git dir: a cache that never hits). */
  static async open(root: string, enabled: boolean): Promise<ResultCache> {
    const file = enabled ? kindFile(root, 'stale-results') : undefined;
    const empty: CacheFile = { format: FORMAT, tool: VERSION, entries: {} };
    if (!file) return new ResultCache(undefined, empty);
    try {
      const parsed = JSON.parse(readCacheBytes(file)?.toString('utf8') ?? '') as Partial<CacheFile>;
      // another tool version may judge differently: start over rather than trust it
      if (parsed.format === FORMAT && parsed.tool === VERSION && parsed.entries && typeof parsed.entries === 'object') return new ResultCache(file, parsed as CacheFile);
    } catch {
      /* absent or unreadable: a derived file, rebuilt below */
    }
    return new ResultCache(file, empty);
  }

  get(id: string, key: string): CachedJudgement | undefined {
    const e = this.data.entries[id];
    return e && e.key === key ? e : undefined;
  }

  /**
   * The entry was made at the same HEAD for the same artifact file, so it will hit unless
   * anchored code changed. Lets the judge decide, before fingerprinting anything, whether
   * to start resolving stamp commits early.
   */
  likelyHit(id: string, pre: string): boolean {
    return this.data.entries[id]?.pre === pre;
  }

  set(id: string, key: string, pre: string, value: CachedJudgement): void {
    if (!this.file) return;
    this.data.entries[id] = { key, pre, ...value };
    this.dirty = true;
  }

  /** Write the file when something changed: temp file + rename, so readers never see half. */
  async save(): Promise<void> {
    if (!this.file || !this.dirty) return;
    // a read-only git dir only costs speed
    if (writeCacheFile(this.file, JSON.stringify(this.data))) this.dirty = false;
  }
}

/** The cache key of one judgement: a hash of everything it was computed from. */
export function judgementKey(parts: unknown[]): string {
  return sha256(JSON.stringify([FORMAT, ...parts]));
}
