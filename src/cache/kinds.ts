// @spec SPEC-CACHE-001

/**
 * Every cache of git-ctx, registered once: its name, its file under `<git-dir>/ctx/cache/`
 * (`*` stands for a variant: an encoding, a rule id, a shard, an embedder), the version an
 * entry must carry to be read, what its key is made of, and its codec. No module outside
 * src/cache names a cache file: domain code asks for a kind by name (memo.ts), and
 * `git ctx cache status`, pruning and cleaning list files by these entries.
 *
 * Codecs:
 * - `json`: one value under one key, in the JSON envelope `{kind, version, key, value}` (memo.ts)
 * - `container`: binary sections behind one header carrying kind, version and key (container.ts)
 * - `journal`: lines appended to a header line naming kind, version and key (the code index)
 * - `store`: a JSON file with its own shape, versioned inside (code-index entries, stale results, impact edges, token counts)
 * - `git-index`: a file git itself writes (a private copy of the index for `git status`)
 */
export type CacheCodec = 'json' | 'container' | 'journal' | 'store' | 'git-index';

export interface CacheKind {
  readonly name: string;
  /** the group `cache status` sums it under */
  readonly area: string;
  /** path under the cache folder; `*` is the variant */
  readonly file: string;
  readonly version: number;
  readonly codec: CacheCodec;
  /** what an entry is keyed by: the state of the repository it answers for */
  readonly key: string;
  /** json: how many keys one file keeps, most recent first (default 1: a new key replaces the old) */
  readonly keep?: number;
  /** outside the cache folder, under `<git-dir>/ctx/<home>/` (agent-session memories, pruned by age) */
  readonly home?: string;
  /** files an earlier version kept the same data in, removed when the kind is written */
  readonly formerly?: readonly string[];
}

const kinds = [
  { name: 'artifacts', area: 'artifacts', file: 'artifacts.bin', version: 67, codec: 'container', key: "parsed artifacts by blob id; the finished set by the records' listing, blob ids and config", formerly: ['artifacts.json'] },
  { name: 'artifacts-tokens', area: 'artifacts', file: 'artifacts.tokens', version: 1, codec: 'json', keep: 4, key: "the finished set's key by the records folders' index tokens" },
  { name: 'code-index', area: 'code-index', file: 'code-index.json', version: 9, codec: 'store', key: 'annotations and symbols per source blob and tag set' },
  { name: 'code-index-clean', area: 'code-index', file: 'code-index.clean', version: 9, codec: 'container', key: 'blobs mentioning no tag, by tag set' },
  { name: 'code-index-log', area: 'code-index', file: 'code-index.log', version: 9, codec: 'journal', key: "entries added since the last fold, by tag set" },
  { name: 'code-index-kept', area: 'code-index', file: 'code-index.kept.json', version: 1, codec: 'json', key: "which files of the git index's listing carry a record (the rest are tag-free), by the index's stamp, the code index's version and the config's tags, selection and size bound" },
  { name: 'code-index-carriers', area: 'code-index', file: 'code-index.carriers.json', version: 1, codec: 'json', key: 'the files carrying tags at HEAD (pre-commit hook), by commit and config' },
  { name: 'code-graph-files', area: 'code-graph', file: 'code-graph-files.json', version: 1, codec: 'store', key: 'code graph facts per file, by blob id' },
  { name: 'code-graph-index', area: 'code-graph', file: 'code-graph-index.json', version: 2, codec: 'json', key: "the linked code graph's shard list, by every code file's blob id and the environment" },
  { name: 'code-graph-shard', area: 'code-graph', file: 'code-graph-index-*.json', version: 1, codec: 'json', key: 'one shard of the linked code graph, by its generation' },
  { name: 'code-graph-memo', area: 'code-graph', file: 'code-graph-memo.json', version: 2, codec: 'json', key: "the code graph's key, by the tree's identity" },
  { name: 'code-graph-asked', area: 'code-graph', file: 'code-graph-asked.json', version: 1, codec: 'json', key: "a question answered from the files that mattered to one file (DEC-089), by the tree's code paths and configs: the next one builds the whole graph" },
  { name: 'code-graph-blobs', area: 'code-graph', file: 'code-graph-blobs.json', version: 1, codec: 'json', key: "the code graph's inputs (blob ids, environment), by its key" },
  { name: 'stale-results', area: 'staleness', file: 'stale-results.json', version: 4, codec: 'store', key: 'staleness judgements per record, by HEAD, record blob and anchor fingerprints' },
  { name: 'staleness-symbols', area: 'staleness', file: 'staleness-symbols.json', version: 8, codec: 'store', key: 'anchor symbols per source blob and tag set' },
  { name: 'staleness-symbols-clean', area: 'staleness', file: 'staleness-symbols.clean', version: 8, codec: 'container', key: 'blobs mentioning no tag, by tag set' },
  { name: 'staleness-symbols-log', area: 'staleness', file: 'staleness-symbols.log', version: 8, codec: 'journal', key: 'entries added since the last fold, by tag set' },
  { name: 'retrieve-keywords', area: 'retrieval', file: 'retrieve-keywords-*.bin', version: 15, codec: 'container', key: "keyword index of the records, by the set's key: the latest and the previous set asked (a pull request's base and head)", formerly: ['retrieve-keywords.bin', 'retrieve-keywords.json'] },
  { name: 'retrieve-passages', area: 'retrieval', file: 'retrieve-passages.json', version: 7, codec: 'json', key: "each record's passages (head, paragraphs) as terms, for short questions, by the set's key" },
  { name: 'code-words', area: 'retrieval', file: 'code-words.json', version: 13, codec: 'json', keep: 2, key: "how many code files use each word (place queries), by the state of the git index (not the files in focus) or the commit" },
  { name: 'tree-tags', area: 'retrieval', file: 'tree-tags.json', version: 1, codec: 'json', keep: 2, key: "whether any code file carries an annotation tag (a place's code-graph walk, DEC-121), by the state of the git index (not the files in focus) or the commit, and the tags; once one did, by the tags alone" },
  { name: 'place-background', area: 'retrieval', file: 'place-background.json', version: 13, codec: 'json', keep: 2, key: "each record's mean keyword standing beside a sample of the code files (place queries), by the git index's stamp or the commit, and the records" },
  { name: 'vectors', area: 'vectors', file: 'vectors/*.bin', version: 1, codec: 'container', key: "record vectors per embedder, by content hash; a set's plan by the set's key" },
  { name: 'tokens', area: 'tokens', file: 'tokens-*.json', version: 1, codec: 'store', key: 'token counts per encoding, by text hash' },
  { name: 'config', area: 'config', file: 'config.json', version: 1, codec: 'json', key: 'parsed config, by content hash' },
  { name: 'zero-config', area: 'config', file: 'zero-config.json', version: 7, codec: 'json', keep: 2, key: "the records folders detected without a config file, by the git index's stamp (and pointer files) or the commit" },
  { name: 'head-listing', area: 'listing', file: 'head-listing.json', version: 1, codec: 'json', key: "HEAD's artifact listing, by commit" },
  { name: 'place-listing', area: 'place', file: 'place-listing.txt', version: 1, codec: 'container', key: 'the git index listing, by index stamp' },
  { name: 'place-answer', area: 'place', file: 'place-answer-*.json', version: 5, codec: 'json', key: "one place question's answer (trace, for, the agent-read hook) or one search's, by the code that answered, the question, HEAD, the git index's stamp and the environment; holding the stat of every file and folder it read" },
  { name: 'search-set', area: 'retrieval', file: 'search-set.json', version: 1, codec: 'json', key: "what a search reads of the artifact set (the config, the set's key naming its keyword index and vectors, each record's search fields), by the code, HEAD, the git index's stamp and the environment; holding the stat of every file and folder loading the set read" },
  { name: 'place-mentions', area: 'place', file: 'place-mentions.json', version: 1, codec: 'json', key: 'which mentioned paths exist, by index stamp and work tree' },
  { name: 'worktree-index-key', area: 'worktree', file: 'worktree-index-*.json', version: 1, codec: 'json', key: "what the private index copy was made for: the real index's stamp, git's configuration" },
  { name: 'worktree-index', area: 'worktree', file: 'worktree-index-*', version: 1, codec: 'git-index', key: 'a private copy of the git index for git status (its stat data, untracked cache), per work tree' },
  { name: 'check-rule', area: 'check', file: 'check-rule-*.json', version: 1, codec: 'json', key: "findings of a check rule that depends only on the records, by the records' blob ids" },
  { name: 'confirm-facts', area: 'confirm', file: 'confirm-facts-*.json', version: 4, codec: 'store', key: "what confirmations read from a file's syntax tree, and its regular expressions' answers, by blob id (and patterns); one file per two-digit shard of blob ids", formerly: ['confirm-facts.json'] },
  { name: 'impact-edges', area: 'impact', file: 'impact-edges.json', version: 1, codec: 'store', key: 'impact edges per origin (record and annotated code files), by blob' },
  { name: 'impact-graph', area: 'impact', file: 'impact-graph.json', version: 1, codec: 'json', key: 'the code graph importers and callers projection, by the graph key' },
  { name: 'impact-code-origins', area: 'impact', file: 'impact-code-origins.json', version: 1, codec: 'json', key: 'the code origins memo, by the code index' },
  { name: 'record-staged', area: 'evidence', file: 'record-staged.json', version: 1, codec: 'json', key: 'paths staged against HEAD (the episode dirty flag), by commit and index checksum' },
  { name: 'moved-paths', area: 'check', file: 'moved-paths.json', version: 1, codec: 'json', keep: 2, key: 'where paths records name but HEAD lacks were renamed to (broken-link and mention-moved in one walk), by HEAD and the paths each rule asks about' },
  { name: 'hook-mentions', area: 'hook', file: 'hook-mentions.json', version: 1, codec: 'json', key: "the records' mentioned paths that exist at HEAD, by commit (pre-commit hook)" },
  { name: 'agent-session', area: 'sessions', file: '*.json', home: 'agent-sessions', version: 1, codec: 'store', key: 'what the agent-read hook already showed a session, by session id' },
] as const satisfies readonly CacheKind[];

export type CacheKindName = (typeof kinds)[number]['name'];

/** The registry, in the order files are matched (a specific pattern before a wider one of the same folder). */
export const CACHE_KINDS: readonly CacheKind[] = kinds;

const byName = new Map<string, CacheKind>(kinds.map((k) => [k.name, k]));

/** The registered kind of this name (a name not registered is a programming error). */
export function cacheKind(name: CacheKindName): CacheKind {
  return byName.get(name)!;
}

/** What each area of `cache status` holds. */
export const CACHE_AREAS: Record<string, string> = {
  artifacts: "parsed artifacts by blob id, the finished set by the records' listing and config, and that key by the folders' index tokens",
  'code-index': "annotations and symbols per source blob, the tag-free blob set, its journal, the files carrying tags at HEAD (pre-commit hook) and in the git index's listing (by its stamp)",
  'code-graph': 'code graph facts and shards, by blob id',
  staleness: 'staleness judgements and anchor symbols',
  retrieval: "keyword index of the records, the code words, and what a search reads of the set (its search fields), kept by the tree's state",
  vectors: 'record vectors per embedder',
  tokens: 'token counts per text hash',
  config: 'parsed config, by content hash; without a config file, the records folders detected, by tree',
  listing: "HEAD's artifact listing, by commit",
  place: 'the git index listing and mention answers, and which folders are too large for the stat listing, by index stamp; kept answers of place questions (trace, for, the agent-read hook)',
  worktree: 'a private copy of the git index for git status (its stat data, untracked cache)',
  check: "findings of check rules that depend only on the records, by the records' blob ids",
  confirm: "what confirmations read from files' syntax trees and their regular expressions' answers, by blob id, in 256 shards",
  impact: 'impact edges per origin (record and annotated code files, by blob), the code graph importers and callers projection, and the code origins memo',
  evidence: 'paths staged against HEAD (the episode dirty flag), by commit and index checksum',
  hook: "the records' mentioned paths that exist at HEAD, by commit (pre-commit hook)",
  sessions: 'agent-session memories (what the read hook already showed)',
};

const patterns = new Map<CacheKind, RegExp>();
/** Does a file name under the kind's folder (relative, with `/`) belong to the kind? */
export function kindMatches(kind: CacheKind, name: string): boolean {
  let re = patterns.get(kind);
  if (!re) {
    const src = kind.file.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+');
    patterns.set(kind, (re = new RegExp(`^${src}$`)));
  }
  return re.test(name);
}

/** The registered kind a file under the cache folder belongs to, or undefined (a leftover of another version). */
export function kindOfFile(name: string): CacheKind | undefined {
  return CACHE_KINDS.find((k) => !k.home && kindMatches(k, name));
}
