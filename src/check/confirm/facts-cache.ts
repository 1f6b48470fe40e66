// @spec SPEC-CONFIRM-001

import { cacheKind } from '../../cache/kinds.js';
import { cacheStore, storeAt, type CacheStore } from '../../cache/memo.js';
import type { RegexAnswer } from './regex.js';
import type { StructureFacts } from './structure.js';

/** Bump (in src/cache/kinds.ts) when extraction changes what it produces: an old cache is then ignored. */
const VERSION = cacheKind('confirm-facts').version;
const TOOL = 'git-ctx/confirm-facts';
/** Past this many entries, those this run did not use are dropped at the next save. */
const MAX_ENTRIES = 200_000;

interface FactsFile {
  tool?: string;
  version?: number;
  entries?: Record<string, StructureFacts>;
  answers?: Record<string, RegexAnswer>;
}

/**
 * What confirmations read from files' syntax trees, by `<blob>:<language>`, at
 * `<git-dir>/ctx/cache/confirm-facts.json` (cache kind `confirm-facts`). Keyed by content,
 * so an entry is never wrong, only missing; a missing or foreign file is an empty cache.
 */
export class FactsCache {
  private readonly entries = new Map<string, StructureFacts>();
  /** answers of regular expressions, by `<blob>:<digest of the patterns>` */
  private readonly answers = new Map<string, RegexAnswer>();
  private readonly used = new Set<string>();
  private dirty = false;

  private constructor(private readonly store: CacheStore<FactsFile>) {}

  static open(root: string, file?: string | false): FactsCache {
    const store = file === false ? storeAt<FactsFile>(undefined) : file ? storeAt<FactsFile>(file) : cacheStore<FactsFile>(root, 'confirm-facts');
    const cache = new FactsCache(store);
    const data = store.read();
    if (data?.tool === TOOL && data.version === VERSION && data.entries && typeof data.entries === 'object') {
      for (const [k, v] of Object.entries(data.entries)) if (v && Array.isArray(v.calls) && Array.isArray(v.imports) && Array.isArray(v.exportDefault)) cache.entries.set(k, v);
      for (const [k, v] of Object.entries(data.answers ?? {})) if (v && Array.isArray(v.forbid) && Array.isArray(v.require)) cache.answers.set(k, v);
    }
    return cache;
  }

  get(key: string): StructureFacts | undefined {
    const v = this.entries.get(key);
    if (v) this.used.add(key);
    return v;
  }

  set(key: string, facts: StructureFacts): void {
    this.entries.set(key, facts);
    this.used.add(key);
    this.dirty = true;
  }

  /** A file's answer under a set of patterns (the key names both), remembered as facts are. */
  answer(key: string): RegexAnswer | undefined {
    const v = this.answers.get(key);
    if (v) this.used.add(key);
    return v;
  }

  setAnswer(key: string, a: RegexAnswer): void {
    this.answers.set(key, a);
    this.used.add(key);
    this.dirty = true;
  }

  save(): void {
    if (!this.dirty || !this.store.on) return;
    let keys = [...this.entries.keys()];
    if (keys.length > MAX_ENTRIES) keys = keys.filter((k) => this.used.has(k));
    const entries: Record<string, StructureFacts> = {};
    for (const k of keys) entries[k] = this.entries.get(k)!;
    let akeys = [...this.answers.keys()];
    if (akeys.length > MAX_ENTRIES) akeys = akeys.filter((k) => this.used.has(k));
    const answers: Record<string, RegexAnswer> = {};
    for (const k of akeys) answers[k] = this.answers.get(k)!;
    this.store.write({ tool: TOOL, version: VERSION, entries, answers });
    this.dirty = false;
  }
}
