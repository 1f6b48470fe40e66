// @spec SPEC-ACTION-001

import { classifyGovernable, type UngovernableFile } from '../code/ungovernable.js';
import type { Config } from '../config.js';
import type { ChangedFile } from '../git/diff.js';
import type { Snapshot } from '../snapshot/types.js';

export type { UngovernableFile };

/**
 * A pull request's changed files split before anything is scored: those records may govern,
 * and those no record can (lockfiles, generated, vendored, binaries, snapshots, configured
 * globs), which the report only counts. Attributes and heads are read at the PR head; a
 * deleted file's head at the merge base, where it still was.
 */
export async function splitChangedFiles(
  files: ChangedFile[],
  at: { headSnap: Snapshot; baseSnap: Snapshot; headConfig: Config },
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
    },
  );
  for (const p of split.problems) limitations.push(`${p.file}:${p.line}: ${p.message}.`);
  const out = new Set(split.ungovernable.map((u) => u.path));
  return { files: files.filter((f) => !out.has(f.path)), ungovernable: split.ungovernable };
}
