import { loadArtifactSet, type ArtifactSet } from '../../src/artifacts/load.js';
import { loadConfig } from '../../src/config.js';
import { openSnapshot } from '../../src/snapshot/index.js';

/** The artifact set of a repository's working tree, as the CLI loads it (config included), its snapshot closed. */
export async function loadSet(dir: string): Promise<ArtifactSet> {
  const snapshot = await openSnapshot({ cwd: dir });
  try {
    return await loadArtifactSet(snapshot, await loadConfig(snapshot));
  } finally {
    snapshot.close();
  }
}
