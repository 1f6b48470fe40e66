// @spec SPEC-ACTION-001

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { loadArtifactSet } from '../artifacts/load.js';
import { loadConfig } from '../config.js';
import { CtxError } from '../errors.js';
import { ctxDir } from '../git/git-dir.js';
import { buildMapData } from '../map/data.js';
import { renderMapHtml } from '../map/render.js';
import { openSnapshot } from '../snapshot/open.js';
import { writeFileAtomic } from '../util/atomic.js';

/** The file name of the map; also the artifact's name, as it is uploaded unzipped. */
export const MAP_FILE_NAME = 'decision-map.html';

/** Uploads one file as a workflow artifact; the default speaks to the Actions results service. */
export type ArtifactUploader = (file: string) => Promise<{ id: number; size?: number }>;

export interface ActionMap {
  /** absolute path of the written page */
  path: string;
  records: number;
  edges: number;
  warnings: string[];
}

/**
 * Write the decision map of one commit (read through git objects, like the rest of the
 * Action) to `<git-dir>/ctx/action/decision-map.html`.
 */
export async function writeActionMap(opts: { root: string; rev: string; title?: string }): Promise<ActionMap> {
  const snapshot = await openSnapshot({ cwd: opts.root, kind: 'commit', rev: opts.rev, backend: 'git' });
  try {
    const config = await loadConfig(snapshot);
    const set = await loadArtifactSet(snapshot, config, { global: false });
    const data = await buildMapData({ snapshot, config, set, title: opts.title });
    const file = ctxDir(snapshot.root, 'action', MAP_FILE_NAME);
    if (!file) throw new CtxError('NOT_A_REPO', `no git directory in ${opts.root} to write the decision map into`);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFileAtomic(file, renderMapHtml(data));
    return { path: file, records: data.nodes.length, edges: data.edges.length, warnings: data.warnings };
  } finally {
    snapshot.close();
  }
}

/**
 * The production uploader: @actions/artifact (the results service's CreateArtifact, block
 * uploads to the signed blob URL, FinalizeArtifact), the page uploaded as it is, not zipped,
 * so that it opens from the run's page without unpacking.
 */
export const uploadWithActionsArtifact: ArtifactUploader = async (file) => {
  const { DefaultArtifactClient } = await import('@actions/artifact');
  const r = await new DefaultArtifactClient().uploadArtifact(path.basename(file), [file], path.dirname(file), { skipArchive: true });
  if (r.id === undefined) throw new Error('the artifact service returned no artifact id');
  return { id: r.id, size: r.size };
};

/** The link the job summary gives: the artifact's page of the run. */
export function artifactUrl(runUrl: string, id: number): string {
  return `${runUrl}/artifacts/${id}`;
}

const escapeMd = (s: string) => s.replace(/[\\[\]()*_`<>]/g, (c) => `\\${c}`);

/** The job summary's paragraph about the map: a link when it was uploaded, else where it is and why not. */
export function mapSummary(m: ActionMap, upload: { id?: number; url?: string; error?: string }): string {
  const what = `${m.records} ${m.records === 1 ? 'record' : 'records'}, ${m.edges} ${m.edges === 1 ? 'edge' : 'edges'}`;
  if (upload.id !== undefined && !upload.url) return `\n### Decision map\n\n${MAP_FILE_NAME} (${what}) is attached to this run as artifact ${upload.id}.\n`;
  if (upload.url) return `\n### Decision map\n\n[${MAP_FILE_NAME}](${upload.url}) (${what}): one self-contained page, no network; open it in a browser.\n`;
  return `\n### Decision map\n\nWritten to \`${m.path}\` (${what}) but not uploaded: ${escapeMd(upload.error ?? 'unknown error')}. Add an \`actions/upload-artifact\` step with \`path: \${{ steps.<id>.outputs.map-path }}\`.\n`;
}
