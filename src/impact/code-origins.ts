// @spec SPEC-IMPACT-001

import { createHash } from 'node:crypto';
import type { Config } from '../config.js';
import { memo } from '../cache/memo.js';
import { CODE_CACHE_VERSION } from '../code/code-cache.js';
import { classificationSettings } from '../code/extract.js';
import type { Snapshot } from '../snapshot/types.js';
import { VERSION } from '../version.js';
import type { CodeOrigin } from './edges.js';

/** Bump when what the memo holds changes. */
const ORIGINS_VERSION = 1;

const digests = new WeakMap<Snapshot, Promise<string>>();

/**
 * A digest of every (path, mode, blob) of a snapshot (blob ids hashed from the work tree
 * where the index's stat data does not vouch for them): what impact's caches derived from
 * the code are keyed by. Computed once per snapshot.
 */
export function listingDigest(snapshot: Snapshot): Promise<string> {
  let d = digests.get(snapshot);
  if (!d) {
    d = (async () => {
      const hash = createHash('sha1');
      for (const e of await snapshot.list()) hash.update(`${e.path}\0${e.mode}\0${e.blob ?? (await snapshot.blobOf(e.path)) ?? '-'}\n`);
      return hash.digest('hex');
    })();
    digests.set(snapshot, d);
  }
  return d;
}

/**
 * The memo's key: the snapshot's listing and everything a file's classification by the code
 * index depends on besides its content (the settings the pre-commit hook's carriers memo
 * names, DEC-033), the code cache's version and the package's.
 */
async function originsKey(snapshot: Snapshot, config: Config): Promise<string> {
  return createHash('sha1')
    .update(`git-ctx/impact-code-origins ${ORIGINS_VERSION} ${VERSION} ${CODE_CACHE_VERSION}\n${classificationSettings(config)}\n${await listingDigest(snapshot)}`)
    .digest('hex');
}

/**
 * The code origins of edges (files with annotations, with the hash of their content) that
 * the code index gave for this very listing and configuration, without their edges (DEC-036):
 * a warm impact whose stored edges match them needs no code index. undefined on a miss.
 */
export async function readCodeOrigins(snapshot: Snapshot, config: Config): Promise<CodeOrigin[] | undefined> {
  const origins = memo<unknown>(snapshot.root, 'impact-code-origins');
  if (!origins.on) return undefined;
  const v = origins.get(await originsKey(snapshot, config));
  if (!Array.isArray(v) || !v.every((x) => Array.isArray(x) && typeof x[0] === 'string' && typeof x[1] === 'string')) return undefined;
  return (v as [string, string][]).map(([f, hash]) => ({ file: f, hash }));
}

/** Remember the code origins the code index gave for this listing and configuration. */
export async function writeCodeOrigins(snapshot: Snapshot, config: Config, origins: CodeOrigin[]): Promise<void> {
  const m = memo<[string, string][]>(snapshot.root, 'impact-code-origins');
  if (m.on) m.set(await originsKey(snapshot, config), origins.map((o) => [o.file, o.hash]));
}
