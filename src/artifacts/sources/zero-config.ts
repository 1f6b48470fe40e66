// @spec SPEC-SOURCES-001

import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config, ZeroConfig } from '../../config.js';
import { memo } from '../../cache/memo.js';
import { indexStamp, trackedListing } from '../../tree/index.js';
import type { Snapshot } from '../../snapshot/types.js';
import { sha1 } from '../../util/hash.js';
import { mark } from '../../util/timing.js';
import { detectRecordFolders, POINTER_FILES, topLevelRecords } from './detect.js';
import { readPointedFolders } from './pointers.js';

/** Bump when what detection answers for a tree changes: an older answer is then a miss. */
const VERSION = 'zero-config-v5';

/** What `git ctx init` would write as `sources:`, with where each folder was found. */
type Found = ZeroConfig['sources'];

/**
 * A repository without `.contextia/config.yaml` is read as `git ctx init` would configure
 * it: the records folders its tools point at (`.adr-dir`, `.log4brains.yml`) first, then the
 * folders named like decision records. A fresh clone with `docs/adr` then answers from its
 * records instead of "nothing found", before anyone has adopted the tool.
 *
 * Only for a config that came from the defaults (`config.noFile`); sets `config.sources` and
 * `config.zeroConfig` (the fact the front ends report), once per config object. The answer is
 * remembered in the `zero-config` cache by the tree it was found in (the git index's stamp,
 * or the commit), so a warm run lists no folder.
 */
export async function applyZeroConfig(snapshot: Snapshot, config: Config): Promise<void> {
  if (!config.noFile || config.zeroConfig) return;
  const { found, top } = await detectOnce(snapshot);
  config.sources = found.map(({ dir, format, prefix, type }) => ({ dir, format, prefix, type }));
  const froms = [...new Set(found.map((s) => s.from))];
  config.zeroConfig = { sources: found, from: froms.join(' and '), ...(top.length ? { unreadTop: top } : {}) };
}

/** What detection answers for a tree: the folders, and the ADR-named files at its top that none reads. */
interface Detected {
  found: Found;
  top: string[];
}

async function detectOnce(snapshot: Snapshot): Promise<Detected> {
  const { key, paths } = await treeOf(snapshot);
  const cache = memo<Detected>(snapshot.root, 'zero-config');
  if (key) {
    const hit = cache.get(key);
    if (hit && Array.isArray(hit.found) && Array.isArray(hit.top)) {
      mark('zero config: records folders remembered');
      return hit;
    }
  }
  const pointed = await readPointedFolders((f) => snapshot.read(f));
  const files = await paths();
  const found: Found = detectRecordFolders(files, pointed).map((s) => ({ dir: s.dir, format: s.format, prefix: s.prefix, type: s.type, records: s.records, from: s.from ?? (s.byFileNames ? 'file names' : 'folder name'), ...(s.missing ? { missing: true } : {}) }));
  const detected = { found, top: found.length ? [] : topLevelRecords(files) };
  if (key) cache.set(key, detected);
  mark(`zero config: ${found.length} records folders detected`);
  return detected;
}

/**
 * The tree's identity and its paths. A commit is its own identity; the index and the work
 * tree are read through the git index's listing (tracked files: a fresh clone's records are
 * all tracked), named by the index's stamp, plus the pointer files as they are on disk for
 * the work tree (an edited `.adr-dir` changes the answer without `git add`).
 */
async function treeOf(snapshot: Snapshot): Promise<{ key: string | undefined; paths: () => Promise<string[]> }> {
  const all = async () => (snapshot.listPaths ? await snapshot.listPaths() : (await snapshot.list()).map((e) => e.path));
  if (snapshot.kind === 'commit') return { key: snapshot.commit ? sha1(`${VERSION}\ncommit ${snapshot.commit}`) : undefined, paths: all };
  const stamp = snapshot.backend === 'git' ? indexStamp(snapshot.root) : undefined;
  if (!stamp) return { key: undefined, paths: all };
  let pointers = '';
  if (snapshot.kind === 'worktree') {
    for (const f of POINTER_FILES) {
      if (!existsSync(path.join(snapshot.root, f))) continue;
      const b = await snapshot.read(f).catch(() => undefined);
      pointers += `\n${f}=${b ? sha1(b) : '-'}`;
    }
  }
  return { key: sha1(`${VERSION}\n${snapshot.kind} ${stamp}${pointers}`), paths: async () => (await trackedListing(snapshot.root)).paths() };
}
