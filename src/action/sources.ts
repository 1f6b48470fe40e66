// @spec SPEC-FEDERATION-001

import { loadConfig } from '../config.js';
import { fetchSources } from '../artifacts/sources/pins.js';
import type { FetchAuth } from '../git/source-store.js';
import { openSnapshot } from '../snapshot/open.js';

/** The Authorization header git sends to an HTTPS upstream for a GitHub token. */
export function tokenAuth(token: string): FetchAuth {
  return { header: `basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}` };
}

/**
 * Fetch the git sources the lock pins at each commit (the pull request's base and head), with
 * the Action's token, before the analysis reads them: a pin that cannot be fetched fails the
 * job with the error naming the source, rather than an analysis without those records.
 * Returns one line per source fetched.
 */
export async function fetchPinnedSources(root: string, revs: string[], auth: FetchAuth): Promise<string[]> {
  const lines: string[] = [];
  for (const rev of [...new Set(revs.filter(Boolean))]) {
    const snapshot = await openSnapshot({ cwd: root, kind: 'commit', rev });
    try {
      const config = await loadConfig(snapshot);
      if (!config.gitSources.length) continue;
      for (const s of await fetchSources(snapshot, config, { auth })) lines.push(`git-ctx: git source ${s.name} at ${s.commit.slice(0, 12)} (${rev.slice(0, 12)}): ${s.fetched ? 'fetched' : 'already here'}`);
    } finally {
      snapshot.close();
    }
  }
  return lines;
}
