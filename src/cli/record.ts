// @spec SPEC-STORE-001

import { startEpisode, type EpisodeRecorder } from '../store/record.js';
import type { Config } from '../config.js';
import type { Store } from '../store/store.js';
import { io, openRepo, type RepoContext, type RepoOptions } from './shared.js';

/** An episode recorder for a CLI retrieval command (a journal append; never fails the command). */
export function recordCli(repo: Pick<RepoContext, 'snapshot' | 'config'>, command: string): EpisodeRecorder {
  return startEpisode(repo.snapshot.root, { caller: { kind: 'cli', command }, commit: repo.snapshot.commit, env: io().env, record: repo.config.record, dirtyWaitMs: 100 });
}

/** Open the evidence store for a store command (ingesting the journal); warnings go to stderr. The caller closes it. */
export async function openCliStore(o: RepoOptions): Promise<{ store: Store; root: string; cwd: string; config: Config }> {
  const { snapshot, config, cwd } = await openRepo(o);
  const root = snapshot.root;
  snapshot.close();
  const { openStore } = await import('../store/store.js');
  const store = openStore(root, { retention: config.evidence, env: io().env });
  for (const w of store.warnings) io().err(`git-ctx: warning: ${w}\n`);
  return { store, root, cwd, config };
}
