// @spec SPEC-STORE-001

import path from 'node:path';
import { startEpisode, type EpisodeRecorder } from '../store/record.js';
import { loadConfig, type Config } from '../config.js';
import { CtxError } from '../errors.js';
import { openSnapshot } from '../snapshot/open.js';
import type { Store } from '../store/store.js';
import { mark, phase } from '../util/timing.js';
import { io, type RepoContext, type RepoOptions } from './shared.js';

/** An episode recorder for a CLI retrieval command (a journal append; never fails the command). */
export function recordCli(repo: Pick<RepoContext, 'snapshot' | 'config'>, command: string): EpisodeRecorder {
  return startEpisode(repo.snapshot.root, { caller: { kind: 'cli', command }, commit: repo.snapshot.commit, reads: repo.snapshot.kind, env: io().env, record: repo.config.record, dirtyWaitMs: 100 });
}

/**
 * Open the evidence store for a store command (ingesting the journal); warnings go to stderr.
 * The caller closes it. Only the configuration is read (retention), never the records; the
 * SQLite driver loads while git finds the repository.
 */
export async function openCliStore(o: RepoOptions): Promise<{ store: Store; root: string; cwd: string; config: Config }> {
  const cwd = o.root ? path.resolve(io().cwd, o.root) : io().cwd;
  if (o.at && o.staged) throw new CtxError('USAGE', '--at and --staged cannot be combined');
  phase('snapshot');
  const opening = openSnapshot({ cwd, kind: o.at ? 'commit' : o.staged ? 'index' : 'worktree', rev: o.at });
  const [{ openStore }, { loadDriver }] = await Promise.all([import('../store/store.js'), import('../store/driver.js')]);
  try {
    // required now, beside the git processes; a module that cannot load is reported by openStore below
    loadDriver(io().env);
    mark('sqlite driver loaded');
  } catch {
    /* reported by openStore */
  }
  const snapshot = await opening;
  let config: Config;
  try {
    phase('config');
    config = await loadConfig(snapshot);
  } finally {
    snapshot.close();
  }
  const root = snapshot.root;
  phase('analyses');
  const store = openStore(root, { retention: config.evidence, env: io().env });
  mark('evidence store opened, journal ingested');
  for (const w of store.warnings) io().err(`git-ctx: warning: ${w}\n`);
  return { store, root, cwd, config };
}
