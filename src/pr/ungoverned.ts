// @spec SPEC-ACTION-001

import { classifyGovernable, type UngovernableFile } from '../code/ungovernable.js';
import type { Config } from '../config.js';
import type { ChangedFile } from '../git/diff.js';
import type { Snapshot } from '../snapshot/types.js';
import type { ArtifactSet } from '../artifacts/load.js';
import { picomatch } from '../util/picomatch.js';

export type { UngovernableFile };

/**
 * A pull request's changed files split before anything is scored: those records may govern,
 * and those no record can (lockfiles, generated, vendored, binaries, snapshots, CI
 * configuration no record names, configured globs), which the report only counts. Attributes and heads are read at the PR head; a
 * deleted file's head at the merge base, where it still was.
 */
export async function splitChangedFiles(
  files: ChangedFile[],
  at: { headSnap: Snapshot; baseSnap: Snapshot; headConfig: Config; headSet?: ArtifactSet },
  limitations: string[],
): Promise<{ files: ChangedFile[]; ungovernable: UngovernableFile[] }> {
  const deleted = new Set(files.filter((f) => f.status === 'deleted').map((f) => f.path));
  // the records themselves are never ruled out: an edited record is reported as edited, whatever a glob says
  const recordDirs = [at.headConfig.dir, ...at.headConfig.sources.map((x) => x.dir), ...(at.headConfig.zeroConfig?.sources.map((x) => x.dir) ?? [])].map((d) => d.replace(/\/+$/, '') + '/');
  const isRecordPath = (p: string) => recordDirs.some((d) => p.startsWith(d));
  const split = await classifyGovernable(
    files.map((f) => f.path).filter((p) => !isRecordPath(p)),
    {
      read: (p) => (deleted.has(p) ? at.baseSnap.read(p) : at.headSnap.read(p)),
      config: at.headConfig,
      binary: new Set(files.filter((f) => f.binary).map((f) => f.path)),
      declared: at.headSet ? namedByRecords(at.headSet) : undefined,
    },
  );
  for (const p of split.problems) limitations.push(`${p.file}:${p.line}: ${p.message}.`);
  const out = new Set(split.ungovernable.map((u) => u.path));
  return { files: files.filter((f) => !out.has(f.path)), ungovernable: split.ungovernable };
}

/** Whether a record names a path: a `paths:` glob, an anchor's file or glob, or a mention. */
function namedByRecords(set: ArtifactSet): (path: string) => boolean {
  let matchers: ((p: string) => boolean)[] | undefined;
  return (p) => {
    if (!matchers) {
      const globs = new Set<string>();
      for (const a of set.artifacts) {
        if (a.origin !== 'repo') continue;
        for (const g of a.paths) globs.add(g);
        for (const x of a.anchors) globs.add(x.split('#')[0]!);
        for (const m of a.mentions ?? []) globs.add(m.target.split('#')[0]!);
      }
      matchers = [...globs].filter(Boolean).map((g) => {
        const glob = g.replace(/^\.\//, '').replace(/\/$/, '/**');
        const m = picomatch(glob, { dot: true });
        // a plain folder names everything below it
        return (x: string) => m(x) || x.startsWith(glob + '/');
      });
    }
    return matchers.some((m) => m(p));
  };
}
