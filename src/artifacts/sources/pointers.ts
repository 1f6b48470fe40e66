// @spec SPEC-SOURCES-001

import { loadJsYamlSync } from '../../util/js-yaml.js';
import { POINTER_FILES, pointedRecordFolders, type PointedFolder } from './detect.js';

/** log4brains' YAML, read with the core schema (no custom tags, nothing executed). */
function parsePointerYaml(text: string): unknown {
  const y = loadJsYamlSync();
  return y.load(text, { schema: y.CORE_SCHEMA });
}

/**
 * The records folders named by `.adr-dir` and `.log4brains.yml` at the repository top level,
 * read through `read` (a snapshot's, or the file system's for init).
 */
export async function readPointedFolders(read: (file: string) => Promise<Buffer | undefined>): Promise<PointedFolder[]> {
  const texts = new Map<string, string>();
  for (const f of POINTER_FILES) {
    const b = await read(f).catch(() => undefined);
    if (b && b.length <= 64 * 1024) texts.set(f, b.toString('utf8'));
  }
  if (!texts.size) return [];
  return pointedRecordFolders((f) => texts.get(f), parsePointerYaml);
}
