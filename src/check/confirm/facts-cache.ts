// @spec SPEC-CONFIRM-001

import { rmSync } from 'node:fs';
import { cacheKind } from '../../cache/kinds.js';
import { cacheStore, formerFiles, kindFile, storeAt, type CacheStore } from '../../cache/memo.js';
import type { RegexAnswer } from './regex.js';
import type { StructureFacts } from './structure.js';

/** Bump (in src/cache/kinds.ts) when extraction changes what it produces: an old cache is then ignored. */
const VERSION = cacheKind('confirm-facts').version;
const TOOL = 'git-ctx/confirm-facts';
/** Past this many entries in one shard, those this run did not use are dropped at the next save. */
const MAX_SHARD_ENTRIES = 4_000;

interface FactsFile {
  tool?: string;
  version?: number;
  entries?: Record<string, StructureFacts>;
  answers?: Record<string, RegexAnswer>;
}

/**
 * The entries of one shard as parsed (looked up in place: a warm check over 100,000 files
 * reads every shard, and copying each entry into a map cost more than the parse), and
 * whether this run changed them.
 */
interface Shard {
  store: CacheStore<FactsFile>;
  entries: Record<string, StructureFacts>;
  /** answers of regular expressions, by `<blob>:re:<digest of the patterns>` */
  answers: Record<string, RegexAnswer>;
  used: Set<string>;
  dirty: boolean;
}

const isFacts = (v: StructureFacts | undefined): v is StructureFacts => !!v && Array.isArray(v.calls) && Array.isArray(v.imports) && Array.isArray(v.exportDefault);
const isAnswer = (v: RegexAnswer | undefined): v is RegexAnswer => !!v && Array.isArray(v.forbid) && Array.isArray(v.require);
const record = <V>(v: unknown): Record<string, V> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, V>) : {});
const HEX = /^[0-9a-f]$/;

/**
 * The shard a key belongs to: the first two hex digits of the blob id it starts with (256
 * shards). The pre-commit hook asks about the few blobs a commit stages and reads only their
 * shards (and writes back only those), where one file of every blob's facts cost it a parse
 * and a rewrite of megabytes on a 100,000-file repository (DEC-063).
 */
const shardOf = (key: string): string => (HEX.test(key.charAt(0)) && HEX.test(key.charAt(1)) ? key.slice(0, 2) : 'xx');

/**
 * What confirmations read from files' syntax trees, by `<blob>:<language>`, and the answers
 * of their regular expressions, by `<blob>:re:<patterns>`, in the `confirm-facts` cache
 * (one file per shard of blob ids, read when first asked). Keyed by content, so an entry is
 * never wrong, only missing; a missing or foreign shard is empty.
 */
export class FactsCache {
  private readonly shards = new Map<string, Shard>();

  /** @param storeFor the store of a shard (undefined: nothing read or written) */
  private constructor(
    private readonly storeFor: (shard: string) => CacheStore<FactsFile>,
    private readonly onSave: () => void = () => undefined,
  ) {}

  /** The repository's cache; `file`: one file holding every shard (tests); false: none. */
  static open(root: string, file?: string | false): FactsCache {
    if (file === false) return new FactsCache(() => storeAt<FactsFile>(undefined));
    if (file) {
      const one = storeAt<FactsFile>(file);
      return new FactsCache(() => one, undefined).single();
    }
    // the unsharded file of version 2 is removed when a shard is first written
    const former = kindFile(root, 'confirm-facts', '00');
    let cleaned = false;
    return new FactsCache(
      (s) => cacheStore<FactsFile>(root, 'confirm-facts', s),
      () => {
        if (cleaned || !former) return;
        cleaned = true;
        for (const f of formerFiles('confirm-facts', former)) rmSync(f, { force: true });
      },
    );
  }

  /** every key in one shard (an explicit file) */
  private singleShard = false;
  private single(): this {
    this.singleShard = true;
    return this;
  }

  private shard(key: string): Shard {
    const name = this.singleShard ? '' : shardOf(key);
    let s = this.shards.get(name);
    if (s) return s;
    const store = this.storeFor(name);
    const data = store.on ? store.read() : undefined;
    const ours = data?.tool === TOOL && data.version === VERSION;
    // a shard of another version or tool is empty; an entry of the wrong shape is missing (checked when asked)
    s = { store, entries: ours ? record(data.entries) : {}, answers: ours ? record(data.answers) : {}, used: new Set(), dirty: false };
    this.shards.set(name, s);
    return s;
  }

  get(key: string): StructureFacts | undefined {
    const s = this.shard(key);
    const v = Object.hasOwn(s.entries, key) ? s.entries[key] : undefined;
    if (!isFacts(v)) return undefined;
    s.used.add(key);
    return v;
  }

  set(key: string, facts: StructureFacts): void {
    const s = this.shard(key);
    s.entries[key] = facts;
    s.used.add(key);
    s.dirty = true;
  }

  /** A file's answer under a set of patterns (the key names both), remembered as facts are. */
  answer(key: string): RegexAnswer | undefined {
    const s = this.shard(key);
    const v = Object.hasOwn(s.answers, key) ? s.answers[key] : undefined;
    if (!isAnswer(v)) return undefined;
    s.used.add(key);
    return v;
  }

  setAnswer(key: string, a: RegexAnswer): void {
    const s = this.shard(key);
    s.answers[key] = a;
    s.used.add(key);
    s.dirty = true;
  }

  /** Write back the shards this run changed (only those). */
  save(): void {
    const limit = this.singleShard ? MAX_SHARD_ENTRIES * 256 : MAX_SHARD_ENTRIES;
    for (const s of this.shards.values()) {
      if (!s.dirty || !s.store.on) continue;
      const keep = <V>(m: Record<string, V>, valid: (v: V | undefined) => boolean): Record<string, V> => {
        const keys = Object.keys(m);
        if (keys.length <= limit && keys.every((k) => valid(m[k]))) return m;
        const out: Record<string, V> = {};
        for (const k of keys) if (valid(m[k]) && (keys.length <= limit || s.used.has(k))) out[k] = m[k]!;
        return out;
      };
      s.store.write({ tool: TOOL, version: VERSION, entries: keep(s.entries, isFacts), answers: keep(s.answers, isAnswer) });
      s.dirty = false;
      this.onSave();
    }
  }
}
